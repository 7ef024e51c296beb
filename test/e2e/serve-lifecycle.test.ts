// `gw serve` as a user runs it: the first-start banner, /health, a clean stop on
// SIGTERM that lets an in-flight request finish, and one clear line (no stack
// trace) for each way it cannot start.
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { makeHome, runGw, startGatewayProcess, type CliResult } from '../support/gateway-process.js';
import { CHAT_BODY, GatewayJar, RawConnection, passedTheDoor, readAudit, requestHead, sleep, waitUntil } from './helpers.js';

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });
// Also after a failed beforeAll, which skips the afterEach hooks.
afterAll(async () => { await jar.stopAll(); });

/** A failed start: non-zero, nothing on stdout, exactly one `gw: …` line on stderr and no stack trace. */
function expectOneClearLine(result: CliResult): string {
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe('');
  const lines = result.stderr.split('\n').filter((line) => line !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^gw: \S/);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  return lines[0]!;
}

describe('gw serve: start', () => {
  it('prints the key on the first start only, and /health says ok', async () => {
    const first = await jar.start();
    expect(first.bootstrapKey).toMatch(/^sk-gw-[0-9A-Za-z]{40,}$/);
    expect(first.stdout()).toContain('First start');
    // The key is on its own indented line exactly once (the other lines are copy-paste examples).
    expect(first.stdout().split('\n').filter((line) => line.trim() === first.bootstrapKey)).toHaveLength(1);

    const health = await fetch(`${first.url}/health`);
    expect(health.status).toBe(200);
    const report = await health.json() as { status: string; components: Record<string, { status: string }> };
    expect(report.status).toBe('ok');
    expect(report.components.audit?.status).toBe('ok');
    expect(report.components.state?.status).toBe('ok');
    expect(await first.stop()).toBe(0);

    const second = await jar.start({ home: first.home });
    expect(second.bootstrapKey).toBeNull();
    expect(second.stdout()).not.toContain('sk-gw-');
    expect(second.stdout()).not.toContain('First start');
    // The key printed the first time still works.
    const response = await fetch(`${second.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${first.bootstrapKey}`, 'content-type': 'application/json' }, body: CHAT_BODY,
    });
    expect(passedTheDoor(response.status), `status ${response.status}`).toBe(true);
  }, 30_000);
});

describe('gw serve: request log', () => {
  it('a lone request\'s log line reaches stderr within about a second, while gw keeps running', async () => {
    const gateway = await jar.start();
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${gateway.bootstrapKey}`, 'content-type': 'application/json' }, body: CHAT_BODY,
    });
    await response.arrayBuffer();
    // Lines are gathered into larger writes under load; a quiet gateway must still not sit on them.
    const waited = await waitUntil(() => gateway.stderr().includes('"msg":"request"'), { timeoutMs: 3_000, what: 'the request line on stderr' });
    expect(waited).toBeLessThan(2_000);
    const line = gateway.stderr().split('\n').find((text) => text.includes('"msg":"request"'))!;
    expect(JSON.parse(line)).toMatchObject({ path: '/v1/chat/completions', status: response.status });
    expect(line).not.toContain(gateway.bootstrapKey);
  }, 30_000);
});

describe('gw serve: stop', () => {
  it('SIGTERM exits 0, writes gateway.stop last, and the trail verifies', async () => {
    const gateway = await jar.start();
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST', headers: { 'x-gw-vk': gateway.bootstrapKey!, 'content-type': 'application/json' }, body: CHAT_BODY,
    });
    expect(passedTheDoor(response.status), `status ${response.status}`).toBe(true);
    expect(await gateway.stop('SIGTERM')).toBe(0);
    expect(gateway.stderr()).toContain('stopped; audit trail flushed');
    const records = await readAudit(gateway.home);
    expect(records[0]?.kind).toBe('gateway.start');
    expect(records.at(-1)?.kind).toBe('gateway.stop');
    expect(records.map((record) => record.kind)).toContain('request');
    const verify = await runGw(['audit', 'verify'], { home: gateway.home });
    expect(verify.code).toBe(0);
    expect(verify.stdout).toContain('intact');
  }, 30_000);

  it('a request whose body is still arriving when SIGTERM lands gets a complete response', async () => {
    const gateway = await jar.start();
    const body = Buffer.from(CHAT_BODY);
    const connection = await RawConnection.open(gateway.url);
    try {
      await connection.write(requestHead('POST', `${gateway.url}/v1/chat/completions`, {
        'x-gw-vk': gateway.bootstrapKey!, 'content-type': 'application/json', 'content-length': body.length,
      }));
      await connection.write(body.subarray(0, 10));
      await sleep(150);
      gateway.child.kill('SIGTERM');
      await waitUntil(() => gateway.stderr().includes('SIGTERM'), { what: 'the gateway to notice SIGTERM' });
      await sleep(300); // the stop is under way: fastify is closing
      expect(gateway.child.exitCode).toBeNull(); // still draining, waiting for this request
      // No new connections while draining.
      await expect(fetch(`${gateway.url}/health`)).rejects.toThrow();
      await connection.write(body.subarray(10));
      // Complete: status line, headers and the whole content-length body, before any close or reset.
      const response = await connection.response();
      expect(passedTheDoor(response.status), `status ${response.status}`).toBe(true);
      expect(JSON.parse(response.body)).toBeTypeOf('object');
    } finally {
      // (The gateway keeps the drained connection open until its keep-alive timeout: see the report.)
      connection.destroy();
    }
    // SIGTERM was sent once already; a second would force the exit (130).
    expect(await gateway.exited()).toBe(0);
    const records = await readAudit(gateway.home);
    const kinds = records.map((record) => record.kind);
    expect(kinds.at(-1)).toBe('gateway.stop');
    const request = records.find((record) => record.kind === 'request');
    expect(request).toMatchObject({ route: '/v1/chat/completions' });
    expect(passedTheDoor(request!.status as number)).toBe(true);
    expect((await runGw(['audit', 'verify'], { home: gateway.home })).code).toBe(0);
  }, 30_000);
});

describe('gw serve: cannot start', () => {
  it('port already in use: one line naming the port', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const home = await makeHome();
    try {
      const result = await runGw(['serve', '--port', String(port)], { home });
      const line = expectOneClearLine(result);
      expect(line).toContain(String(port));
      expect(line).toMatch(/in use/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    // The failed start did not use up the one-time printing of the first key.
    const next = await startGatewayProcess({ home });
    try {
      expect(next.bootstrapKey).toMatch(/^sk-gw-/);
    } finally {
      await next.stop();
    }
  }, 30_000);

  it('a broken state.json: one line naming the file', async () => {
    const home = await makeHome();
    await writeFile(path.join(home, 'state.json'), '{bad');
    const line = expectOneClearLine(await runGw(['serve', '--port', '0'], { home }));
    expect(line).toContain('state.json');
    expect(line).toMatch(/not valid JSON/);
  }, 20_000);

  it('a home that cannot be created (its parent is a regular file): one line', async () => {
    const parent = path.join(await makeHome(), 'a-file');
    await writeFile(parent, 'not a folder');
    const home = path.join(parent, 'home');
    const line = expectOneClearLine(await runGw(['serve', '--port', '0'], { home }));
    expect(line).toContain(home);
  }, 20_000);

  it('a second gw serve on the same home is refused: the audit trail is locked', async () => {
    const first = await jar.start();
    const line = expectOneClearLine(await runGw(['serve', '--port', '0'], { home: first.home }));
    expect(line).toMatch(/audit trail is in use by another gateway/);
    expect(line).toContain(`pid ${first.child.pid}`);
    // The first one is unharmed.
    expect((await fetch(`${first.url}/health`)).status).toBe(200);
    expect(await first.stop()).toBe(0);
    expect((await runGw(['audit', 'verify'], { home: first.home })).code).toBe(0);
  }, 30_000);
});
