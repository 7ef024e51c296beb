// Calls to the hub carry the team's live key (x-gw-vk) and the person proof,
// added here at the last moment from memory, so the key never sits in a provider
// configuration, a log or a state file. A 401 from the hub means the key was
// rotated away or revoked: re-exchange once and resend (bodies are buffered
// bytes); a rotation notice refreshes in the background.
import { GatewayError } from '../errors.js';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from '../upstream/upstream-client.js';
import type { HubGrant, HubSession } from './hub-session.js';
import { loginRejected } from './hub-session.js';

export const KEY_ROTATED_HEADER = 'x-gw-key-rotated';
export const PERSON_PROOF_HEADER = 'x-gw-on-behalf-of';

function withGrant(call: UpstreamRequest, grant: HubGrant): UpstreamRequest {
  return { ...call, headers: { ...call.headers, 'x-gw-vk': grant.liveKey, [PERSON_PROOF_HEADER]: grant.proof } };
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
      let response = await send(call, await session.credentials());
      if (response.status === 401 && canResend(call.body)) {
        response.body.resume();
        const fresh = await session.refresh();
        if (fresh === null) throw loginRejected();
        response = await send(call, fresh);
      }
      if (response.headers[KEY_ROTATED_HEADER] !== undefined) {
        void session.refresh();
        const { [KEY_ROTATED_HEADER]: _notice, ...headers } = response.headers;
        response = { ...response, headers };
      }
      return response;
    },
    close: () => inner.close(),
  };
}

