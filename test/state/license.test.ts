import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLicense } from '../../src/state/license.js';

const NOW = new Date('2026-11-21T12:00:00Z');

async function homeWith(text: string | null): Promise<string> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'gw-license-'));
  if (text !== null) await writeFile(path.join(home, 'license.json'), text);
  return home;
}

describe('readLicense', () => {
  it('reads none, valid, expired and invalid', async () => {
    expect(readLicense(await homeWith(null), NOW)).toEqual({ state: 'none' });
    expect(readLicense(await homeWith('{"licensee":"Acme","expires_at":"2027-01-01T00:00:00Z"}'), NOW)).toEqual({ state: 'valid', licensee: 'Acme', expires_at: '2027-01-01T00:00:00Z' });
    expect(readLicense(await homeWith('{"licensee":"Acme","expires_at":"2026-01-01T00:00:00Z"}'), NOW)).toMatchObject({ state: 'expired' });
    expect(readLicense(await homeWith('{bad'), NOW)).toMatchObject({ state: 'invalid', reason: expect.stringContaining('not valid JSON') });
    expect(readLicense(await homeWith('{"licensee":"Acme"}'), NOW)).toMatchObject({ state: 'invalid' });
  });
});
