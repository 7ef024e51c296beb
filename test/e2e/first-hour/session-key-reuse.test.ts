// `gw token` (and `gw run`, which takes the same credential) reuse one session key
// until it nears expiry instead of minting an hour-long key every time (issue 30,
// deliverable 5). Session keys are hidden from `gw keys list` and shown with
// --sessions, with their expiry. A real `gw serve` and the real CLI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateStore } from '../../../src/state/state-store.js';
import { GatewayJar } from '../helpers.js';
import { runGw, type GatewayProcess } from '../../support/gateway-process.js';

const jar = new GatewayJar();
let gateway: GatewayProcess;
beforeAll(async () => { gateway = await jar.start(); }, 60_000);
afterAll(async () => { await jar.stopAll(); });

async function token(): Promise<string> {
  const result = await runGw(['token'], { env: { GW_HOME: gateway.home, GW_URL: gateway.url } });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.trim();
}

async function sessionRows(flags: string[]): Promise<Array<{ id: string; name: string | null; expires_at: string | null }>> {
  const listed = await runGw(['keys', 'list', '--json', ...flags], { home: gateway.home });
  expect(listed.code, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout) as Array<{ id: string; name: string | null; expires_at: string | null }>).filter((row) => row.name === 'gw token');
}

describe('session keys', () => {
  it('gw token hands out the same key until it nears expiry, and the gateway accepts it', async () => {
    const first = await token();
    expect(first).toMatch(/^sk-gw-/);
    expect(await token()).toBe(first);
    expect(await token()).toBe(first);
    const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${first}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(answer.status).toBe(200);
    expect(await sessionRows(['--sessions'])).toHaveLength(1);
  }, 60_000);

  it('are hidden from gw keys list, shown with --sessions and their expiry', async () => {
    expect(await sessionRows([])).toEqual([]);
    const table = await runGw(['keys', 'list'], { home: gateway.home });
    expect(table.stdout).not.toContain('gw token');
    expect(table.stderr).toContain('gw keys list --sessions');
    const sessions = await sessionRows(['--sessions']);
    expect(sessions).toHaveLength(1);
    const left = Date.parse(sessions[0]!.expires_at!) - Date.now();
    expect(left).toBeGreaterThan(50 * 60_000);
    expect(left).toBeLessThanOrEqual(60 * 60_000);
    const shown = await runGw(['keys', 'list', '--sessions'], { home: gateway.home });
    expect(shown.stdout).toMatch(/gw token \(session\)/);
  }, 60_000);

  it('a key near its expiry is replaced by a fresh one', async () => {
    const before = await token();
    const store = await openStateStore(gateway.home);
    await store.update((draft) => {
      const record = draft.keys.find((key) => key.name === 'gw token' && key.revoked_at === null);
      record!.expires_at = new Date(Date.now() + 2 * 60_000).toISOString();
    });
    await store.close();
    const after = await token();
    expect(after).not.toBe(before);
    expect(await token()).toBe(after);
  }, 60_000);
});
