// Refused credentials in the request explorer (issue 40): calls with no key, a wrong key and a
// revoked key are refused with 401 at the door, and the admin requests API the explorer reads
// lists them (as the door records them: each origin's first refusal at once, the rest in the
// window's summary) with the refused key's hint and id, never the key, found by result=refused.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { GatewayJar, waitForState, waitUntil } from '../helpers.js';

const jar = new GatewayJar();
let gateway: GatewayProcess;
let adminToken = '';
const revoked = { key: '', id: '', hint: '' };
const WRONG_KEY = 'sk-gw-ZZZZwrongkeythatgwnevermadeQQ';

async function gw(...args: string[]): Promise<string> {
  const result = await runGw(args, { home: gateway.home });
  expect(result.code, result.stderr).toBe(0);
  return `${result.stdout}${result.stderr}`;
}

beforeAll(async () => {
  // Refusals after an origin's first are summed per window (read at start): one second, so the summary comes soon.
  const home = await makeHome();
  const window = await runGw(['settings', 'set', 'refused_burst_window_seconds', '1'], { home });
  expect(window.code, window.stderr).toBe(0);
  gateway = await jar.start({ home, args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
  adminToken = /gwa-\w+/.exec(await gw('admin', 'tokens', 'create', '--name', 'ops@example.com'))?.[0] ?? '';
  await gw('teams', 'create', 'eng');
  const made = await gw('keys', 'create', '--team', 'eng');
  revoked.key = /sk-gw-\w+/.exec(made)?.[0] ?? '';
  revoked.id = /vk_\w+/.exec(made)?.[0] ?? '';
  revoked.hint = `sk-gw-${revoked.key.slice(6, 10)}…${revoked.key.slice(-4)}`;
  await gw('keys', 'revoke', revoked.id);
  await waitForState(gateway);
}, 30_000);

afterAll(async () => { await jar.stopAll(); });

interface Row { status: number; route?: string; key_id?: string; key_hint?: string; result_kind: string; result: string; data: { reasons: Record<string, number>; keys: string[]; key_ids: string[] } }

async function refusedRows(): Promise<Row[]> {
  const response = await fetch(`${gateway.url}/admin/api/requests?result=refused&plane=data`, { headers: { authorization: `Bearer ${adminToken}` } });
  expect(response.status).toBe(200);
  const text = await response.text();
  for (const secret of [revoked.key, WRONG_KEY]) expect(text).not.toContain(secret);
  return JSON.parse(text) as Row[];
}

it('lists calls refused for no key, a wrong key and a revoked key, with the key\'s hint and never the key', async () => {
  const chat = (authorization: string | null) => fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...(authorization === null ? {} : { authorization }) },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] }),
  });
  for (const authorization of [null, `Bearer ${WRONG_KEY}`, `Bearer ${revoked.key}`]) {
    const answer = await chat(authorization);
    expect(answer.status).toBe(401);
    await answer.text();
  }
  const reasons = (rows: Row[]) => new Set(rows.flatMap((row) => Object.keys(row.data.reasons)));
  let rows: Row[] = [];
  await waitUntil(async () => {
    rows = await refusedRows();
    // A made-up key fails gw's checksum (malformed) before any lookup; a well-formed stranger is unknown.
    const seen = reasons(rows);
    return seen.has('missing') && seen.has('revoked') && (seen.has('malformed') || seen.has('unknown'));
  }, { timeoutMs: 10_000, what: 'the three refusals in the explorer' });
  expect(rows.every((row) => row.status === 401 && row.result_kind === 'refused' && row.route === '/v1/chat/completions')).toBe(true);
  expect(rows.some((row) => row.data.keys.includes(revoked.hint) && row.data.key_ids.includes(revoked.id))).toBe(true);
  expect(rows.some((row) => row.data.keys.includes(`sk-gw-ZZZZ…${WRONG_KEY.slice(-4)}`))).toBe(true);
  expect(rows.map((row) => row.result).join(' ')).toMatch(/auth: .*no key/);
  expect(rows.map((row) => row.result).join(' ')).toMatch(/auth: .*revoked key/);
  // A refusal is not usage.
  const usage = await fetch(`${gateway.url}/admin/api/usage?by=team`, { headers: { authorization: `Bearer ${adminToken}` } });
  expect(((await usage.json()) as { groups: unknown[] }).groups).toEqual([]);
}, 30_000);
