// The hub wrapper's WebSocket handshakes (src/sidecar/hub-upstream.ts): a handshake to the hub
// carries the sidecar's session credential in x-gw-vk, a 401 exchanges again and retries once
// with the new one, and a handshake anywhere else goes out untouched. Injected exchange and
// opener; no network.
import { expect, it } from 'vitest';
import { HubSession, type ExchangeOutcome } from '../../src/sidecar/hub-session.js';
import { createHubUpstream } from '../../src/sidecar/hub-upstream.js';
import type { OpenWebSocket, UpstreamClient } from '../../src/upstream/upstream-client.js';

const HUB = 'https://hub.example';

function rig(refuseFirst: boolean) {
  let exchanges = 0;
  const session = new HubSession({ hub: HUB, token: 'atu-one', person: 'alice@example.com', team: 'eng', source: 'GW_TOKEN' }, {
    exchange: async (): Promise<ExchangeOutcome> => {
      exchanges += 1;
      return { ok: true, grant: { credential: `gws-${exchanges}`, team: 'eng', person: 'alice@example.com', expiresAt: Date.now() + 3_600_000, teamSettings: {} } };
    },
    now: Date.now, log: () => undefined,
  });
  const opened: Array<{ url: string; headers: Record<string, string> }> = [];
  const open: OpenWebSocket = async (url, headers) => {
    opened.push({ url, headers });
    if (refuseFirst && opened.length === 1) return { ok: false, status: 401, headers: {}, body: Buffer.from('{}') };
    return { ok: false, status: 418, headers: {}, body: Buffer.from('stand-in for an open socket') };
  };
  const inner: UpstreamClient = { send: async () => { throw new Error('no HTTP here'); }, openWebSocket: open, close: async () => undefined };
  return { upstream: createHubUpstream(inner, session), opened };
}

it('adds the session credential to a handshake to the hub, and to nothing else', async () => {
  const { upstream, opened } = rig(false);
  await upstream.openWebSocket!(`${HUB.replace('https', 'wss')}/v1/realtime?model=gpt-realtime`, { 'openai-beta': 'realtime=v1' }, [], 1_000);
  await upstream.openWebSocket!('wss://api.openai.example/v1/realtime?model=gpt-realtime', { authorization: 'Bearer sk-local' }, [], 1_000);
  expect(opened[0]!.headers).toEqual({ 'openai-beta': 'realtime=v1', 'x-gw-vk': 'gws-1' });
  expect(opened[1]!.headers).toEqual({ authorization: 'Bearer sk-local' });
});

it('after a 401 from the hub, exchanges again and retries once with the new credential', async () => {
  const { upstream, opened } = rig(true);
  const opening = await upstream.openWebSocket!(`${HUB.replace('https', 'wss')}/v1/realtime?model=gpt-realtime`, {}, [], 1_000);
  expect(opening).toMatchObject({ ok: false, status: 418 });
  expect(opened.map((entry) => entry.headers['x-gw-vk'])).toEqual(['gws-1', 'gws-2']);
});
