// Never log a secret: canaries in every credential place (and ?key=), across
// accepted, refused, malformed, unknown-route and too-large requests; then every
// sink is read — the server's stdout and stderr, every file under its home (audit
// trail, checkpoint, state.json, …) and every response byte — and none may hold
// a canary or the real key. The first-start banner on stdout is the one place the
// real key is meant to appear; exactly that banner is left out of the check.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runGwSetup as runGw, type GatewayProcess } from '../support/gateway-process.js';
import { CHAT_BODY, GatewayJar, RawConnection, listFiles, passedTheDoor, readAudit, requestHead, waitUntil } from './helpers.js';

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });
// Also after a failed beforeAll, which skips the afterEach hooks.
afterAll(async () => { await jar.stopAll(); });

function alphanumeric(length: number): string {
  return randomBytes(length * 2).toString('base64').replace(/[^0-9A-Za-z]/g, '').slice(0, length);
}

const CANARIES = {
  provider: `sk-ant-api03-CANARY${alphanumeric(40)}`,
  unknownGw: `sk-gw-CANARY${alphanumeric(45)}`,
  token: `atu-CANARY${alphanumeric(40)}`,
};

type Place = 'x-gw-vk' | 'authorization' | 'x-api-key' | 'x-goog-api-key' | 'api-key' | 'query';
const PLACES: Place[] = ['x-gw-vk', 'authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'query'];

type Kind = 'chat' | 'malformed-json' | 'unknown-route' | 'too-large';
const KINDS: Kind[] = ['chat', 'malformed-json', 'unknown-route', 'too-large'];

const BODY_LIMIT = 1024;

/** The whole first-start banner (it ends with the Codex line); what follows it is checked like any log. */
function splitBanner(stdout: string): { banner: string; rest: string } {
  // The banner's last line names the console; every line with the key comes before it.
  const last = /^Admin console: .*\n/m.exec(stdout);
  expect(last, 'the first-start banner').not.toBeNull();
  const end = last!.index + last![0].length;
  return { banner: stdout.slice(0, end), rest: stdout.slice(end) };
}

interface Sent {
  label: string;
  status: number;
}

async function send(gateway: GatewayProcess, kind: Kind, credentials: Array<[Place, string]>, responses: string[]): Promise<Sent> {
  const query = credentials.filter(([place]) => place === 'query').map(([, value]) => `key=${encodeURIComponent(value)}`);
  const path = kind === 'unknown-route' ? '/v1/no-such-route' : '/v1/chat/completions';
  const url = `${gateway.url}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  const headers: Record<string, string | number> = { 'content-type': 'application/json' };
  for (const [place, value] of credentials) {
    if (place === 'query') continue;
    headers[place] = place === 'authorization' ? `Bearer ${value}` : value;
  }
  const body = Buffer.from(
    kind === 'malformed-json' ? `{"model":"mock/echo","api_key":"${credentials[0]?.[1]}", bad`
      : kind === 'too-large' ? JSON.stringify({ model: 'mock/echo', pad: 'x'.repeat(2 * BODY_LIMIT), key: credentials[0]?.[1] })
        : CHAT_BODY,
  );
  headers['content-length'] = body.length;
  const connection = await RawConnection.open(gateway.url);
  try {
    await connection.write(requestHead('POST', url, headers));
    await connection.write(body);
    const response = await connection.response();
    responses.push(connection.receivedText());
    return { label: `${kind} ${credentials.map(([place]) => place).join('+')}`, status: response.status };
  } finally {
    connection.destroy();
  }
}

describe('secrets never reach a log, the audit trail, the state or a response', () => {
  it('canaries in every credential place, across every kind of request', async () => {
    const gateway = await jar.start();
    const realKey = gateway.bootstrapKey!;
    expect(realKey).toBeTruthy();
    await runGw(['settings', 'set', 'body_limit_bytes', String(BODY_LIMIT)], { home: gateway.home });
    const responses: string[] = [];
    // The door reads body_limit_bytes live; wait until the running server has it.
    await waitUntil(async () => (await send(gateway, 'too-large', [['x-gw-vk', realKey]], responses)).status === 413, { what: 'the body limit to apply', intervalMs: 100 });

    const values = { real: realKey, ...CANARIES };
    const sent: Sent[] = [];
    for (const kind of KINDS) {
      for (const place of PLACES) {
        for (const value of Object.values(values)) sent.push(await send(gateway, kind, [[place, value]], responses));
        // The real key where it is read, with a provider key and a canary query alongside.
        if (place !== 'x-gw-vk') sent.push(await send(gateway, kind, [['x-gw-vk', realKey], [place, CANARIES.provider], ['query', CANARIES.unknownGw]], responses));
      }
      // Two different gw credentials: refused as ambiguous.
      sent.push(await send(gateway, kind, [['authorization', realKey], ['x-api-key', CANARIES.unknownGw]], responses));
    }
    // Every outcome the matrix is meant to cover happened.
    const statuses = new Set(sent.map((entry) => entry.status));
    for (const status of [401, 400, 404, 413]) expect(statuses, `status ${status} among ${[...statuses].join(',')}`).toContain(status);
    // A canary gw key in the query would be forwarded upstream: DLP refuses those calls (403) after the door.
    const accepted = sent.filter((entry) => entry.label.startsWith('chat') && (passedTheDoor(entry.status) || entry.status === 403));
    expect(accepted.length).toBeGreaterThanOrEqual(10);

    expect(await gateway.stop()).toBe(0);

    const { banner, rest } = splitBanner(gateway.stdout());
    expect(banner).toContain(realKey);
    const sinks: Array<[string, string]> = [
      ['stdout after the banner', rest],
      ['stderr', gateway.stderr()],
      ...responses.map((text, index): [string, string] => [`response ${index}`, text]),
    ];
    for (const file of await listFiles(gateway.home)) sinks.push([file, await readFile(file, 'latin1')]);

    // The sinks are not empty: the requests were logged and audited.
    const logLines = gateway.stderr().split('\n').filter((line) => line.includes('"msg":"request"'));
    expect(logLines.length).toBe(responses.length); // one log line per request
    const audit = await readAudit(gateway.home);
    expect(audit.filter((record) => record.kind === 'request').length).toBeGreaterThanOrEqual(accepted.length);
    expect(audit.some((record) => record.kind === 'auth.refused')).toBe(true);
    // A query DLP matched (the canary key) is not logged at all: the route's pattern stands for the path.
    expect(logLines.some((line) => line.includes('?… (withheld: DLP matched the URL)'))).toBe(true);

    const secrets: Array<[string, string]> = [
      ['the real key', realKey],
      ['the middle of the real key', realKey.slice(10, 26)],
      ['the word CANARY', 'CANARY'],
      ...Object.entries(CANARIES).map(([name, value]): [string, string] => [name, value]),
      ...Object.entries(CANARIES).map(([name, value]): [string, string] => [`${name}, URL-encoded`, encodeURIComponent(value)]),
    ];
    const leaks: string[] = [];
    for (const [sink, text] of sinks) {
      for (const [name, secret] of secrets) if (text.includes(secret)) leaks.push(`${name} in ${sink}`);
    }
    expect(leaks).toEqual([]);
  }, 45_000);
});
