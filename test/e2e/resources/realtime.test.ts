// Realtime over WebSocket through `gw serve`: a `ws` client exchanges events with a
// local WebSocket provider, the key is checked on the handshake, and open and close
// are audited with byte and event counts. (The Responses WebSocket is served turn
// by turn through the HTTPS corridor: responses-websocket.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { readAudit, sleep } from '../helpers.js';
import { startFakeResourceProvider, type FakeResourceProvider } from './fake-resource-provider.js';

const UPSTREAM_KEY = 'sk-fake-realtime-upstream';
let gw: GatewayProcess;
let fake: FakeResourceProvider;

beforeAll(async () => {
  fake = await startFakeResourceProvider(UPSTREAM_KEY);
  gw = await startGatewayProcess({ env: { OPENAI_API_KEY: UPSTREAM_KEY, OPENAI_BASE_URL: `${fake.url}/v1`, GW_LOG_LEVEL: 'warn' } });
});
afterAll(async () => {
  await gw?.stop();
  await fake?.close();
});

/** Resolves with the handshake's HTTP status when the server refuses the upgrade. */
function refusedStatus(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => reject(new Error('unexpectedly upgraded')));
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.once('error', () => undefined);
  });
}

describe('realtime WebSocket proxy', () => {
  it.each(['/v1/realtime', '/openai/realtime'])('exchanges events through %s with the provider key swapped in, and audits the session', async (route) => {
    const wsUrl = `${gw.url.replace('http', 'ws')}${route}?model=openai/gpt-realtime`;
    const client = new WebSocket(wsUrl, { headers: { authorization: `Bearer ${gw.bootstrapKey}`, 'openai-beta': 'realtime=v1' } });
    const received: Array<{ type: string }> = [];
    client.on('message', (data) => received.push(JSON.parse(String(data)) as { type: string }));
    await new Promise((resolve, reject) => { client.once('open', resolve); client.once('error', reject); });
    client.send(JSON.stringify({ type: 'session.update', session: { voice: 'alloy' } }));
    client.send(JSON.stringify({ type: 'goodbye' }));
    const closed = await new Promise<number>((resolve) => client.once('close', (code) => resolve(code)));
    expect(closed).toBe(4000);
    expect(received.map((event) => event.type)).toEqual(['session.created', 'session.update.ack', 'goodbye.ack']);
    expect(received[0]).toMatchObject({ session: { model: 'gpt-realtime' } });
    const upstream = fake.seen.at(-1)!;
    expect(upstream.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(upstream.headers['openai-beta']).toBe('realtime=v1');
    expect(JSON.stringify(upstream.headers)).not.toContain(gw.bootstrapKey!);

    let records = await readAudit(gw.home);
    for (let tries = 0; tries < 40 && !records.some((record) => record.kind === 'realtime.close' && record.route?.startsWith(route)); tries += 1) {
      await sleep(50);
      records = await readAudit(gw.home);
    }
    const open = records.filter((record) => record.kind === 'realtime.open' && record.route === route).at(-1)!;
    const close = records.filter((record) => record.kind === 'realtime.close' && record.request_id === open.request_id).at(-1)!;
    expect(open).toMatchObject({ team: 'local', provider: 'openai', model: 'openai/gpt-realtime', operation: 'realtime' });
    expect(close.data).toMatchObject({ client_events: 2, provider_events: 3, closed_by: 'provider', close_code: 4000 });
    expect(Number(close.data!.client_bytes)).toBeGreaterThan(40);
  });

  it('refuses a handshake without a gw key with 401, and one with a gw key in the subprotocol is served', async () => {
    const refused = await refusedStatus(`${gw.url.replace('http', 'ws')}/v1/realtime?model=gpt-realtime`, {});
    expect(refused.status).toBe(401);
    const client = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/realtime?model=gpt-realtime`, ['realtime', `openai-insecure-api-key.${gw.bootstrapKey}`]);
    await new Promise((resolve, reject) => { client.once('open', resolve); client.once('error', reject); });
    expect(client.protocol).toBe('realtime');
    client.close();
  });

});
