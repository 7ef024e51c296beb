// The audit trail as the real server writes it: kill -9 under load and a restart
// leave a chain that verifies and keeps counting; and `gw audit verify` catches
// each kind of tampering on a trail the server produced, naming the line and seq.
import { appendFile, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Pool } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../support/gateway-process.js';
import { CHAT_BODY, GatewayJar, auditFile, copyHome, passedTheDoor, readAudit, sleep } from './helpers.js';

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });
// Also after a failed beforeAll, which skips the afterEach hooks.
afterAll(async () => { await jar.stopAll(); });

const UNKNOWN_KEY = 'sk-gw-000000000000000000000000000000000000000000000000000';

/** Clients hammering the gateway until stopped: accepted (the real key), refused (a bad key, no key). Returns status counts. */
function startLoad(gateway: GatewayProcess, clients: number) {
  const pool = new Pool(gateway.url, { connections: clients, pipelining: 1 });
  const counts = { accepted: 0, refused: 0, other: 0, error: 0 };
  let running = true;
  const variants: Array<Record<string, string>> = [
    { 'x-gw-vk': gateway.bootstrapKey! },
    { authorization: `Bearer ${gateway.bootstrapKey}` },
    { 'x-api-key': UNKNOWN_KEY },
    {},
  ];
  const worker = async (index: number) => {
    for (let round = index; running; round += 1) {
      const headers = { 'content-type': 'application/json', ...variants[round % variants.length] };
      try {
        const response = await pool.request({ method: 'POST', path: '/v1/chat/completions', headers, body: CHAT_BODY });
        await response.body.dump();
        if (passedTheDoor(response.statusCode)) counts.accepted += 1;
        else if (response.statusCode === 401) counts.refused += 1;
        else counts.other += 1;
      } catch {
        counts.error += 1;
        if (running) await sleep(5);
      }
    }
  };
  const workers = Array.from({ length: clients }, (_, index) => worker(index));
  return {
    counts,
    async stop() {
      running = false;
      await Promise.all(workers);
      await pool.destroy();
    },
  };
}

function expectContiguousChain(records: Array<{ seq: number }>): void {
  expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
}

describe('kill -9 under load, then restart', () => {
  it('the chain verifies and continues; a torn tail is recorded as audit.recovered', async () => {
    const gateway = await jar.start();
    const load = startLoad(gateway, 6);
    await sleep(1_000);
    expect(await gateway.stop('SIGKILL')).toBe('SIGKILL');
    await load.stop();
    expect(load.counts.accepted).toBeGreaterThan(10);
    expect(load.counts.refused).toBeGreaterThan(10);
    expect(load.counts.other).toBe(0);

    const raw = await readFile(auditFile(gateway.home), 'utf8');
    const torn = raw.length > 0 && !raw.endsWith('\n');
    const beforeRestart = await readAudit(gateway.home);
    const lastSeq = beforeRestart.at(-1)!.seq;
    expect(beforeRestart.filter((record) => record.kind === 'request').length).toBeGreaterThan(5);
    expect(beforeRestart.some((record) => record.kind === 'gateway.stop')).toBe(false);

    const restarted = await jar.start({ home: gateway.home });
    expect(restarted.bootstrapKey).toBeNull();
    const accepted = await fetch(`${restarted.url}/v1/chat/completions`, {
      method: 'POST', headers: { 'x-gw-vk': gateway.bootstrapKey!, 'content-type': 'application/json' }, body: CHAT_BODY,
    });
    expect(passedTheDoor(accepted.status)).toBe(true);
    expect(await restarted.stop()).toBe(0);

    const records = await readAudit(gateway.home);
    expectContiguousChain(records);
    const after = records.slice(beforeRestart.length);
    expect(after[0]!.seq).toBe(lastSeq + 1);
    expect(after.map((record) => record.kind)).toContain('gateway.start');
    expect(after.at(-1)!.kind).toBe('gateway.stop');
    expect(after.some((record) => record.kind === 'audit.recovered')).toBe(torn);

    const verify = await runGw(['audit', 'verify'], { home: gateway.home });
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toContain(`${records.length} records`);
  }, 30_000);

  it('a record torn by the crash is quarantined and sealed with audit.recovered', async () => {
    const gateway = await jar.start();
    for (let index = 0; index < 3; index += 1) {
      await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST', headers: { 'x-gw-vk': gateway.bootstrapKey!, 'content-type': 'application/json' }, body: CHAT_BODY,
      });
    }
    await sleep(100);
    expect(await gateway.stop('SIGKILL')).toBe('SIGKILL');
    const beforeRestart = await readAudit(gateway.home);
    // What a write cut short by the crash leaves: the first half of a next record, no newline.
    const lastLine = JSON.stringify({ ...beforeRestart.at(-1), seq: beforeRestart.at(-1)!.seq + 1 });
    const tornBytes = lastLine.slice(0, Math.floor(lastLine.length / 2));
    await appendFile(auditFile(gateway.home), tornBytes);

    const restarted = await jar.start({ home: gateway.home });
    expect(await restarted.stop()).toBe(0);

    const records = await readAudit(gateway.home);
    expectContiguousChain(records);
    const recovered = records[beforeRestart.length]!;
    expect(recovered).toMatchObject({ kind: 'audit.recovered', seq: beforeRestart.length + 1 });
    expect(recovered.data).toMatchObject({ dropped_bytes: Buffer.byteLength(tornBytes), last_good_seq: beforeRestart.length, reason: 'torn_tail' });
    const quarantine = path.join(gateway.home, 'audit', 'quarantine');
    const [file] = await readdir(quarantine);
    expect(await readFile(path.join(quarantine, file!), 'utf8')).toBe(tornBytes);
    expect((await runGw(['audit', 'verify'], { home: gateway.home })).code).toBe(0);
  }, 30_000);
});

describe('gw audit verify on a trail written by the server', () => {
  let pristine: string;
  let lines: string[];

  beforeAll(async () => {
    const gateway = await jar.start();
    const send = (headers: Record<string, string>) => fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: CHAT_BODY,
    });
    for (let index = 0; index < 6; index += 1) expect(passedTheDoor((await send({ 'x-gw-vk': gateway.bootstrapKey! })).status)).toBe(true);
    for (let index = 0; index < 3; index += 1) expect((await send({})).status).toBe(401);
    expect(await gateway.stop()).toBe(0);
    pristine = gateway.home;
    lines = (await readFile(auditFile(pristine), 'utf8')).split('\n').slice(0, -1);
    // gateway.start, 6 requests, auth.refused (+ its burst summary at stop), gateway.stop
    expect(lines.length).toBeGreaterThanOrEqual(9);
  }, 30_000);

  /** A copy of the trail with its lines replaced; verify it in text and JSON. */
  async function verifyTampered(tamper: (lines: string[]) => string[]) {
    const home = await makeHome('gw-tamper-');
    await copyHome(pristine, home);
    await writeFile(auditFile(home), tamper([...lines]).map((line) => `${line}\n`).join(''));
    const text = await runGw(['audit', 'verify'], { home });
    const json = await runGw(['audit', 'verify', '--json'], { home });
    return { text, json, report: JSON.parse(json.stdout) as { ok: boolean; records: number; firstBad?: { line: number; seq?: number; reason: string } } };
  }

  it('the untouched trail verifies (exit 0), and --json says so', async () => {
    const { text, json, report } = await verifyTampered((all) => all);
    expect(text.code).toBe(0);
    expect(json.code).toBe(0);
    expect(report).toMatchObject({ ok: true, records: lines.length });
  });

  const middle = 4; // 1-based line of a request record, with records on both sides

  const cases: Array<{ name: string; tamper: (all: string[]) => string[]; line: number | (() => number); seq: number | (() => number); reason: RegExp }> = [
    {
      name: 'one byte edited in a middle record',
      tamper: (all) => {
        const line = all[middle - 1]!;
        const at = line.indexOf('"status":') + '"status":'.length + 2; // the last digit of a 3-digit status
        expect(line.slice(at - 2, at + 1)).toMatch(/^\d{3}$/);
        all[middle - 1] = `${line.slice(0, at)}${(Number(line[at]) + 1) % 10}${line.slice(at + 1)}`;
        expect(all[middle - 1]).toHaveLength(line.length);
        return all;
      },
      line: middle, seq: middle, reason: /hash mismatch/,
    },
    { name: 'a middle line deleted', tamper: (all) => all.filter((_, index) => index !== middle - 1), line: middle, seq: middle + 1, reason: /deleted or reordered/ },
    { name: 'a line duplicated', tamper: (all) => [...all.slice(0, middle), all[middle - 1]!, ...all.slice(middle)], line: middle + 1, seq: middle, reason: /inserted or reordered/ },
    { name: 'two lines swapped', tamper: (all) => [...all.slice(0, middle - 1), all[middle]!, all[middle - 1]!, ...all.slice(middle + 1)], line: middle, seq: middle + 1, reason: /reordered/ },
    { name: 'the last two lines cut', tamper: (all) => all.slice(0, -2), line: () => lines.length - 1, seq: () => lines.length, reason: /truncated/ },
  ];

  it.each(cases)('$name: exit 1, naming the line and seq', async ({ tamper, line: lineOf, seq: seqOf, reason }) => {
    const line = typeof lineOf === 'function' ? lineOf() : lineOf;
    const seq = typeof seqOf === 'function' ? seqOf() : seqOf;
    const { text, json, report } = await verifyTampered(tamper);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`BROKEN at line ${line} (seq ${seq})`);
    expect(text.stdout).toMatch(reason);
    expect(json.code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.firstBad).toMatchObject({ line, seq });
    expect(report.firstBad!.reason).toMatch(reason);
  });

  it('a missing trail: exit 2 with one line, and --json still parses', async () => {
    const missing = path.join(await makeHome(), 'nowhere', 'audit.jsonl');
    const text = await runGw(['audit', 'verify', '--file', missing]);
    expect(text.code).toBe(2);
    expect(text.stderr.trim().split('\n')).toHaveLength(1);
    expect(text.stderr).toMatch(/^gw: cannot read .*audit\.jsonl/);
    const json = await runGw(['audit', 'verify', '--file', missing, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, file: missing });
  });
});
