// The CLI changes state.json while `gw serve` runs; the running server must
// notice within about a second: new keys work, revoked keys stop working, and
// enforce_auth / default_team decide what a credential-less request gets.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runGwSetup as runGw, type GatewayProcess } from '../support/gateway-process.js';
import { CHAT_BODY, GatewayJar, passedTheDoor, readAudit, waitUntil } from './helpers.js';

const jar = new GatewayJar();
afterEach(async () => { await jar.stopAll(); });
// Also after a failed beforeAll, which skips the afterEach hooks.
afterAll(async () => { await jar.stopAll(); });

interface Answer {
  status: number;
  body: { error?: { code?: string; message?: string } };
  headers: Headers;
}

async function chat(gateway: GatewayProcess, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: CHAT_BODY,
  });
  return { status: response.status, body: await response.json() as Answer['body'], headers: response.headers };
}

/** Runs a gw command against the gateway's home and expects it to succeed. */
async function gw(gateway: GatewayProcess, ...args: string[]) {
  const result = await runGw(args, { home: gateway.home });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

/** Polls every 100 ms until `accept` holds; returns the delay since the call, which must stay under `boundMs`. */
async function delayUntil(what: string, boundMs: number, probe: () => Promise<Answer>, accept: (answer: Answer) => boolean): Promise<number> {
  const delay = await waitUntil(async () => accept(await probe()), { timeoutMs: boundMs + 2_000, intervalMs: 100, what });
  expect(delay, `${what} took ${Math.round(delay)} ms`).toBeLessThan(boundMs);
  return delay;
}

describe('keys and settings changed by the CLI while gw serve runs', () => {
  it('a created key is accepted within a second, a revoked one refused within 1.5 s', async () => {
    const gateway = await jar.start();
    const created = await gw(gateway, 'keys', 'create', '--team', 'local', '--name', 'live-test');
    const key = created.stdout.trim();
    expect(key).toMatch(/^sk-gw-\S+$/);
    const id = /created (vk_\w+)/.exec(created.stderr)?.[1];
    expect(id).toBeDefined();

    await delayUntil('the new key to be accepted', 1_000, () => chat(gateway, { authorization: `Bearer ${key}` }), (answer) => passedTheDoor(answer.status));
    const accepted = await chat(gateway, { 'x-api-key': key });
    expect(passedTheDoor(accepted.status)).toBe(true);

    await gw(gateway, 'keys', 'revoke', id!);
    await delayUntil('the revoked key to be refused', 1_500, () => chat(gateway, { authorization: `Bearer ${key}` }), (answer) => answer.status === 401);
    const refused = await chat(gateway, { 'x-gw-vk': key });
    expect(refused.status).toBe(401);
    expect(refused.body.error?.code).toBe('auth_invalid');
    // The bootstrap key is untouched by the other key's revocation.
    expect(passedTheDoor((await chat(gateway, { 'x-gw-vk': gateway.bootstrapKey! })).status)).toBe(true);

    // Requests that passed the door are audited with the new key's id; after the revoke, nothing more under it.
    await gateway.stop();
    const records = await readAudit(gateway.home);
    const underNewKey = records.filter((record) => record.key_id === id);
    expect(underNewKey.length).toBeGreaterThanOrEqual(2);
    expect(underNewKey.every((record) => record.kind === 'request' && passedTheDoor(record.status as number))).toBe(true);
    expect(records.some((record) => record.kind === 'auth.refused')).toBe(true);
  }, 30_000);

  it('default_team serves credential-less requests; enforce_auth on refuses them naming x-gw-vk', async () => {
    const gateway = await jar.start();
    const anonymous = () => chat(gateway);
    const before = await anonymous();
    expect(before.status).toBe(401);
    expect(before.body.error?.code).toBe('auth_missing');

    await gw(gateway, 'settings', 'set', 'default_team', 'local');
    await delayUntil('default_team to serve credential-less requests', 1_500, anonymous, (answer) => passedTheDoor(answer.status));

    await gw(gateway, 'settings', 'set', 'enforce_auth', 'on');
    await delayUntil('enforce_auth to refuse credential-less requests', 1_500, anonymous, (answer) => answer.status === 401);
    const refused = await anonymous();
    expect(refused.status).toBe(401);
    expect(refused.body.error?.code).toBe('auth_required');
    expect(refused.body.error?.message).toContain('x-gw-vk');
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    // A request with its own key still passes.
    expect(passedTheDoor((await chat(gateway, { 'x-gw-vk': gateway.bootstrapKey! })).status)).toBe(true);

    await gw(gateway, 'settings', 'set', 'enforce_auth', 'off');
    await delayUntil('enforce_auth off to serve credential-less requests again', 1_500, anonymous, (answer) => passedTheDoor(answer.status));

    await gateway.stop();
    const anonymousRecords = (await readAudit(gateway.home)).filter((record) => record.kind === 'request' && record.key_id === undefined);
    expect(anonymousRecords.length).toBeGreaterThanOrEqual(2);
    expect(anonymousRecords.every((record) => record.team === 'local' && passedTheDoor(record.status as number))).toBe(true);
  }, 30_000);
});
