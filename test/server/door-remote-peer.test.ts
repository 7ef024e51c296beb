// The sidecar's peer check at the door, in-process: with loopbackOnly (a sidecar), a connection
// from a non-loopback socket address is refused before anything else unless the injected
// remotePeer allows it, whatever its Host header says; requests and WebSocket upgrades alike.
import { afterEach, expect, it } from 'vitest';
import { parsePeerCidrs } from '../../src/sidecar/peer-allow-list.js';
import { startInProcessGateway, type InProcessGateway } from '../support/in-process-gateway.js';

const BODY = JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] });
let gateway: InProcessGateway | undefined;
afterEach(async () => { await gateway?.close(); gateway = undefined; });

async function chatFrom(remoteAddress: string) {
  const response = await gateway!.app.inject({ method: 'POST', url: '/v1/chat/completions', remoteAddress, payload: BODY,
    headers: { host: 'localhost:8080', 'content-type': 'application/json', authorization: `Bearer ${gateway!.key}` } });
  return { status: response.statusCode, code: response.json<{ error?: { code?: string } }>().error?.code ?? null };
}

it('a sidecar without --allow-remote-peer serves loopback peers only, Host: localhost or not', async () => {
  gateway = await startInProcessGateway({}, {}, { loopbackOnly: true });
  expect((await chatFrom('127.0.0.1')).status).toBe(200);
  expect((await chatFrom('::1')).status).toBe(200);
  expect((await chatFrom('::ffff:127.0.0.1')).status).toBe(200);
  expect(await chatFrom('192.0.2.7')).toEqual({ status: 403, code: 'auth_remote_peer' });
  expect(await chatFrom('fd00::7')).toEqual({ status: 403, code: 'auth_remote_peer' });
  const upgrade = gateway.door.guardUpgrade({ url: '/v1/realtime', headers: { host: 'localhost:8080' }, rawHeaders: ['host', 'localhost:8080'], socket: { remoteAddress: '192.0.2.7' } } as never);
  expect(upgrade?.code).toBe('GW_ERR_AUTH_REMOTE_PEER');
});

it('serves the peers remotePeer allows, and still refuses the others', async () => {
  const peers = parsePeerCidrs(['192.0.2.0/24', 'fd00::/8']);
  gateway = await startInProcessGateway({}, {}, { loopbackOnly: true, remotePeer: (address) => peers.allows(address) });
  expect((await chatFrom('192.0.2.7')).status).toBe(200);
  expect((await chatFrom('::ffff:192.0.2.7')).status).toBe(200);
  expect((await chatFrom('fd00::7')).status).toBe(200);
  expect(await chatFrom('198.51.100.1')).toEqual({ status: 403, code: 'auth_remote_peer' });
  expect(await chatFrom('2001:db8::1')).toEqual({ status: 403, code: 'auth_remote_peer' });
});

it('a gateway that is no sidecar does not look at the peer', async () => {
  gateway = await startInProcessGateway();
  expect((await chatFrom('198.51.100.1')).status).toBe(200);
});
