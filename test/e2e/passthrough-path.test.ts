// Passthrough paths through a real `gw serve`: a dot segment or an encoded "/", "?"
// or "#" would leave the provider's base path (or turn into a query or fragment),
// so each is refused with 400 in the family's error shape and nothing is forwarded.
// Node's http client sends the path as written (fetch would resolve "..").
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecord, startRig, type Rig } from './forwarding/support.js';

let rig: Rig;
beforeAll(async () => { rig = await startRig({ eventDelayMs: 1 }); });
afterAll(async () => { await rig.close(); });

function get(rawPath: string): Promise<{ status: number; body: string }> {
  const url = new URL(rig.gw.url);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, method: 'GET', path: rawPath, headers: { authorization: `Bearer ${rig.key}` } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; }).on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject).end();
  });
}

function sentUpstream(): string[] {
  return rig.fakes().flatMap((fake) => fake.requests.map((request) => request.path));
}

describe('passthrough paths', () => {
  it.each([
    ['/openai_passthrough/v1/../admin/keys', 'openai'],
    ['/openai_passthrough/v1/%2e%2E/admin/keys', 'openai'],
    ['/openai_passthrough/v1/files%2F..%2F..%2Fadmin', 'openai'],
    ['/openai_passthrough/v1/models%3Fleak=1', 'openai'],
    ['/openai_passthrough/v1/models%23frag', 'openai'],
    ['/openai_passthrough/v1/models%252F..%252Fadmin', 'openai'],
    ['/anthropic_passthrough/v1/./../admin', 'anthropic'],
    ['/anthropic_passthrough/v1/models%2fx', 'anthropic'],
    ['/genai_passthrough/v1beta/..%2Fadmin', 'google'],
    ['/genai_passthrough/v1beta/models%3Fkey=x', 'google'],
  ])('%s is refused with 400 in the %s shape and never forwarded', async (path, family) => {
    const before = sentUpstream().length;
    const response = await get(path);
    expect(response.status).toBe(400);
    const body = JSON.parse(response.body) as Record<string, { code?: unknown; message?: string; status?: string; type?: string }>;
    if (family === 'openai') expect(body.error).toMatchObject({ code: 'request_invalid', type: 'invalid_request_error' });
    if (family === 'anthropic') expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    if (family === 'google') expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(body.error?.message).toMatch(/passthrough path is refused/);
    expect(sentUpstream().length).toBe(before);
  });

  it('a plain passthrough path still reaches the provider under its base path', async () => {
    const response = await get('/openai_passthrough/v1/models');
    expect(response.status).toBe(200);
    expect(rig.openai.requests.at(-1)?.path).toBe('/v1/models');
  });
});

describe('the audit record of a streamed body', () => {
  it('names its origin, as a JSON request\'s record does', async () => {
    const response = await fetch(`${rig.gw.url}/openai_passthrough/v1/files`, {
      method: 'POST', headers: { authorization: `Bearer ${rig.key}`, 'content-type': 'application/octet-stream' }, body: Buffer.alloc(64 * 1024, 7),
    });
    const requestId = response.headers.get('x-request-id')!;
    await response.arrayBuffer();
    const record = await auditRecord(rig.gw.home, requestId);
    expect(record).toMatchObject({ kind: 'request', route: '/openai_passthrough/*', origin: '127.0.0.1' });
  });
});
