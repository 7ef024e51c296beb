// Calls to the hub carry the sidecar's gws- session credential (x-gw-vk), added
// here at the last moment from memory, so it never sits in a provider
// configuration, a log or a state file. This is the one place that adds it. A 401
// from the hub means the credential was refused (token revoked, person removed, or
// it expired): exchange again, looking for a new `gw login` first when the hub
// refuses the token, and resend once (bodies are buffered bytes). A realtime WebSocket
// handshake to the hub carries it the same way, so realtime goes through the hub as HTTP does.
import { GatewayError } from '../errors.js';
import type { OpenWebSocket, UpstreamClient, UpstreamRequest, UpstreamResponse } from '../upstream/upstream-client.js';
import type { HubGrant, HubSession } from './hub-session.js';

function withGrant(call: UpstreamRequest, grant: HubGrant): UpstreamRequest {
  return { ...call, headers: { ...call.headers, 'x-gw-vk': grant.credential } };
}

function canResend(body: UpstreamRequest['body']): boolean {
  return body === null || typeof body === 'string' || Buffer.isBuffer(body);
}

export function createHubUpstream(inner: UpstreamClient, session: HubSession): UpstreamClient {
  const hubPrefix = `${session.login.hub.replace(/\/+$/, '')}/`;
  const send = async (call: UpstreamRequest, grant: HubGrant): Promise<UpstreamResponse> => {
    try {
      const response = await inner.send(withGrant(call, grant));
      session.markReachable(true);
      return response;
    } catch (error) {
      if (error instanceof GatewayError && error.code === 'GW_ERR_UPSTREAM_UNREACHABLE') session.markReachable(false, error.message);
      throw error;
    }
  };
  return {
    async send(call) {
      if (!call.url.startsWith(hubPrefix)) return inner.send(call);
      const response = await send(call, await session.credentials());
      if (response.status !== 401 || !canResend(call.body)) return response;
      response.body.resume();
      let fresh = await session.refresh();
      if (fresh === null) {
        // Refused: a new gw login may already be stored; credentials() then exchanges it, or says what to do.
        await session.checkLogin();
        fresh = await session.credentials();
      }
      return send(call, fresh);
    },
    ...(inner.openWebSocket ? { openWebSocket: hubWebSocket(inner.openWebSocket, session, hubPrefix) } : {}),
    close: () => inner.close(),
  };
}

/** A handshake to the hub gets the credential (once more after a 401, as for calls); any other goes as it is. */
function hubWebSocket(open: OpenWebSocket, session: HubSession, hubPrefix: string): OpenWebSocket {
  return async (url, headers, protocols, connectTimeoutMs) => {
    if (!url.replace(/^ws/, 'http').startsWith(hubPrefix)) return open(url, headers, protocols, connectTimeoutMs);
    const attempt = async (grant: HubGrant) => {
      const opening = await open(url, { ...headers, 'x-gw-vk': grant.credential }, protocols, connectTimeoutMs);
      session.markReachable(opening.ok || opening.status !== null, opening.ok || opening.status !== null ? undefined : opening.failure);
      return opening;
    };
    const opening = await attempt(await session.credentials());
    if (opening.ok || opening.status !== 401) return opening;
    let fresh = await session.refresh();
    if (fresh === null) {
      await session.checkLogin();
      fresh = await session.credentials();
    }
    return attempt(fresh);
  };
}
