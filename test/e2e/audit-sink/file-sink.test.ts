// The live audit sink to a file (issue 27, deliverable 6): a real `gw serve` appends its trail
// as OCSF event lines to a file; killed with SIGKILL under load and started again, it carries on
// after the last event the file holds, so the file is every record exactly once, in order, and
// verifies offline with `gw audit verify --ocsf` and the instance's public key alone.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GatewayJar, waitUntil } from '../helpers.js';
import { makeHome } from '../../support/gateway-process.js';
import { calls, configureHome, load, sinkHealth, trailLines, verifyOcsf } from './sink-test-kit.js';

const jar = new GatewayJar();
afterAll(async () => { await jar.stopAll(); });

/** The file's whole lines (a line torn by the kill, after the last newline, is left out: the sink cuts it). */
async function fileLines(file: string): Promise<string[]> {
  const lines = (await readFile(file, 'utf8').catch(() => '')).split('\n');
  lines.pop();
  return lines;
}

describe('audit sink to a file', () => {
  it('appends every record once, in order, across a SIGKILL, and the file verifies offline', { timeout: 240_000 }, async () => {
    const file = path.join(await makeHome('gw-siem-'), 'gw-events.jsonl');
    const home = await configureHome([['audit_sink', file]]);
    const first = await jar.start({ home, timeoutMs: 60_000 });
    const key = first.bootstrapKey!;
    await calls(first, key, 50);
    await waitUntil(async () => (await sinkHealth(first)).backlog_events === 0, { timeoutMs: 60_000, intervalMs: 250, what: 'the file sink to catch up' });
    const beforeLoad = (await fileLines(file)).length;
    let stopLoad = false;
    const traffic = load(first, key, 8, () => stopLoad);
    // Killed while the sink is appending under load.
    await waitUntil(async () => (await fileLines(file)).length > beforeLoad + 50, { timeoutMs: 60_000, intervalMs: 100, what: 'the sink to append under load' });
    expect(await first.stop('SIGKILL')).toBe('SIGKILL');
    stopLoad = true;
    await traffic;
    const atKill = await fileLines(file);
    expect(atKill.length).toBeGreaterThan(50);

    const second = await jar.start({ home, timeoutMs: 60_000 });
    await calls(second, key, 30);
    await waitUntil(async () => {
      const health = await sinkHealth(second);
      return health.state === 'ok' && health.backlog_events === 0;
    }, { timeoutMs: 60_000, intervalMs: 250, what: 'the file sink to catch up after the restart' });
    expect(await second.stop()).toBe(0);

    const trail = await trailLines(home);
    const lines = await fileLines(file);
    expect(lines.map((line) => (JSON.parse(line) as { raw_data: string }).raw_data)).toEqual(trail);
    expect(lines.slice(0, atKill.length)).toEqual(atKill);
    const verified = await verifyOcsf(file, home);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain(`OCSF export intact: ${trail.length} events`);
    expect(await readFile(path.join(home, 'audit-sink-cursor.json'), 'utf8')).toContain(`"target":"${file}"`);
  });
});
