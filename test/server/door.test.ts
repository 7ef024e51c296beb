// The door, in-process: the auth matrix of the spec's Authentication table, each
// credential place × (gw key, provider key, missing, revoked, malformed), and the
// refusal shapes of each family.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKey, revokeKey } from '../../src/state/virtual-keys.js';
import { startInProcessGateway, type InProcessGateway } from '../support/in-process-gateway.js';

let gateway: InProcessGateway;
beforeEach(async () => { gateway = await startInProcessGateway(); });
afterEach(async () => { await gateway.close(); });

const PLACES = ['x-gw-vk', 'authorization', 'x-api-key', 'x-goog-api-key', 'api-key'] as const;
const BODY = JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] });

function headerFor(place: (typeof PLACES)[number], value: string): Record<string, string> {
  return { [place]: place === 'authorization' ? `Bearer ${value}` : value, 'content-type': 'application/json' };
}

async function post(headers: Record<string, string>, url = '/v1/chat/completions') {
  return gateway.app.inject({ method: 'POST', url, headers, payload: BODY });
}

function passedTheDoor(response: { statusCode: number }): boolean {
  return response.statusCode !== 401 && response.statusCode !== 400;
}

describe('auth matrix', () => {
  it.each(PLACES)('a gw key in %s passes the door and is recorded with its key id', async (place) => {
    const response = await post(headerFor(place, gateway.key));
    expect(passedTheDoor(response)).toBe(true);
    const records = await gateway.auditRecords();
    expect(records.at(-1)).toMatchObject({ kind: 'request', team: 'alpha', key_id: gateway.keyId, route: '/v1/chat/completions' });
  });

  it.each(PLACES.filter((place) => place !== 'x-gw-vk'))('a provider key in %s is never taken for a virtual key: 401', async (place) => {
    const response = await post(headerFor(place, 'sk-proj-provider0123456789'));
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('auth_not_gw_key');
  });

  it('a provider key in x-gw-vk is taken as a virtual key, and refused as invalid', async () => {
    const response = await post(headerFor('x-gw-vk', 'sk-proj-provider0123456789'));
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('auth_invalid');
  });

  it('a missing credential is 401 with WWW-Authenticate', async () => {
    const response = await post({ 'content-type': 'application/json' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="gw"');
  });

  it.each(PLACES)('a revoked key in %s is refused with the same answer as an unknown one', async (place) => {
    const { key, record } = await createKey(gateway.store, { team: 'alpha', name: 'doomed', expiresAt: null });
    expect(passedTheDoor(await post(headerFor(place, key)))).toBe(true);
    await revokeKey(gateway.store, record.id);
    const response = await post(headerFor(place, key));
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('auth_invalid');
  });

  it.each(PLACES)('a malformed gw key in %s (bad checksum) is refused', async (place) => {
    const tampered = gateway.key.slice(0, -1) + (gateway.key.endsWith('A') ? 'B' : 'A');
    const response = await post(headerFor(place, tampered));
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('auth_invalid');
  });

  it('an expired key is refused', async () => {
    const { key } = await createKey(gateway.store, { team: 'alpha', name: 'old', expiresAt: new Date(Date.now() - 1000) });
    expect((await post(headerFor('x-api-key', key))).statusCode).toBe(401);
  });

  it('two different gw keys in one request: 400', async () => {
    const { key: other } = await createKey(gateway.store, { team: 'alpha', name: 'other', expiresAt: null });
    const response = await post({ 'x-api-key': gateway.key, authorization: `Bearer ${other}`, 'content-type': 'application/json' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('auth_ambiguous');
  });

  it('a gw key next to an upstream OAuth token (Claude Desktop) is served', async () => {
    const response = await post({ 'x-api-key': gateway.key, authorization: 'Bearer sk-ant-oat01-upstream', 'content-type': 'application/json' });
    expect(passedTheDoor(response)).toBe(true);
  });
});

describe('refusal shapes by family', () => {
  it('Anthropic routes answer in the Anthropic shape', async () => {
    const response = await post({ 'content-type': 'application/json' }, '/v1/messages');
    expect(response.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: expect.stringContaining('No gw credential') } });
  });

  it('GenAI routes answer in the Google shape', async () => {
    const response = await post({ 'content-type': 'application/json' }, '/genai/v1beta/models/gemini-2.5-flash:generateContent');
    expect(response.json()).toEqual({ error: { code: 401, status: 'UNAUTHENTICATED', message: expect.stringContaining('No gw credential') } });
  });

  it('GET /v1/models with anthropic-version answers in the Anthropic shape', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/v1/models', headers: { 'anthropic-version': '2023-06-01' } });
    expect(response.statusCode).toBe(401);
    expect(response.json().type).toBe('error');
  });

  it('Bedrock routes under /litellm answer with x-amzn-errortype', async () => {
    const response = await post({ 'content-type': 'application/json' }, '/litellm/bedrock/model/anthropic.claude-v2/converse');
    expect(response.headers['x-amzn-errortype']).toBe('UnrecognizedClientException');
    expect(response.json()).toEqual({ message: expect.stringContaining('No gw credential') });
  });
});

describe('enforce_auth and default_team', () => {
  it('with enforce_auth on, the refusal names the header', async () => {
    await gateway.store.update((draft) => { draft.settings.enforce_auth = true; draft.settings.default_team = 'alpha'; });
    const response = await post({ 'content-type': 'application/json' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toContain('x-gw-vk');
  });

  it('with enforce_auth off, a request without a credential is served under default_team', async () => {
    await gateway.store.update((draft) => { draft.settings.default_team = 'alpha'; });
    const response = await post({ 'content-type': 'application/json' });
    expect(passedTheDoor(response)).toBe(true);
    expect((await gateway.auditRecords()).at(-1)).toMatchObject({ kind: 'request', team: 'alpha' });
  });
});

describe('refused_burst', () => {
  it('aggregates refusals per origin instead of an audit record per call', async () => {
    for (let i = 0; i < 50; i += 1) await post({ 'content-type': 'application/json' });
    gateway.door.flushRefusals(true);
    const records = await gateway.auditRecords();
    const refusals = records.filter((record) => String(record.kind).startsWith('auth.'));
    expect(refusals.map((record) => record.kind)).toEqual(['auth.refused', 'auth.refused_burst']);
    expect(refusals[1]).toMatchObject({ origin: '127.0.0.1', data: { count: 50, reasons: { missing: 50 } } });
    expect(records.filter((record) => record.kind === 'request')).toHaveLength(0);
    const metrics = await gateway.services.metrics.render();
    expect(metrics).toMatch(/gw_auth_refusals_total\{reason="missing"\} 50/);
  });

  it('a refusal flood from 10,000 origins keeps the process up and the records bounded', async () => {
    for (let i = 0; i < 10_000; i += 1) {
      await gateway.app.inject({ method: 'GET', url: '/v1/models', remoteAddress: `10.1.${i >> 8}.${i & 255}` });
    }
    const health = await gateway.app.inject({ method: 'GET', url: '/health' });
    expect(health.json().status).toBe('ok');
    const records = await gateway.auditRecords();
    expect(records.filter((record) => record.kind === 'auth.refused')).toHaveLength(10_000);
    gateway.door.flushRefusals(true);
    expect(records.length).toBeLessThan(10_010);
  }, 60_000);
});
