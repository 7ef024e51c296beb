// Where a realtime WebSocket session goes (src/server/realtime-proxy.ts does the
// socket work): the `model` query parameter names the model
// (https://platform.openai.com/docs/guides/realtime-websocket: wss://…/v1/realtime?model=…),
// routed like any other call by planTargets (routing rules, aliases, well-known names,
// policy's provider filter); this file turns one planned target into the provider's
// wss URL and the allow-listed headers with the provider's credential.
import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../../errors.js';
import type { ProviderConfig } from '../../providers/provider-adapter.js';
import { offers } from '../decode/resource-routes.js';
import type { Target } from '../plan/plan-targets.js';
import { describeProviderCall } from '../attempt/send-to-provider.js';
import { KEY_PROTOCOL_PREFIX, readSubprotocols } from '../door/read-subprotocols.js';

export interface RealtimeTarget {
  provider: string;
  /** The model as the client named it (a routing rule's name, an alias, `openai/gpt-realtime`). */
  model: string;
  url: string;
  headers: Record<string, string>;
  /** The client's subprotocols, without one that carries a key (`openai-insecure-api-key.…`). */
  protocols: string[];
}

/** Decode for a realtime handshake: the model is the `model` query parameter. */
export function readRealtimeModel(query: URLSearchParams): string {
  const model = query.get('model');
  if (model === null || model === '') {
    throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'A realtime session needs ?model=… (for example openai/gpt-realtime).', param: 'model' });
  }
  return model;
}

/** Refuses a target whose provider has no realtime endpoint, naming the configured ones that do. */
export function requireRealtimeProvider(provider: ProviderConfig, all: readonly ProviderConfig[]): void {
  if (offers(provider, 'realtime')) return;
  const able = all.filter((candidate) => offers(candidate, 'realtime')).map((candidate) => candidate.name);
  throw new GatewayError('GW_ERR_PROVIDER_OPERATION_UNSUPPORTED', {
    message: `Provider ${provider.name} (${provider.kind}) does not offer realtime; ${able.length > 0 ? `configured providers that do: ${able.join(', ')}` : 'no configured provider does'} (provider kinds that do: openai).`,
  });
}

export function buildRealtimeTarget(target: Target, model: string, query: URLSearchParams, headers: IncomingHttpHeaders): RealtimeTarget {
  const { provider } = target;
  const upstreamModel = target.upstreamModel ?? model;
  const upstreamQuery = new URLSearchParams(query);
  upstreamQuery.set('model', upstreamModel);
  // The same URL and header building as every other provider call (send-to-provider.ts); a socket instead of a request.
  // clientPath: another gw (a sidecar's hub) serves the same /v1/realtime and routes the model itself.
  const call = { operation: 'realtime' as const, model: upstreamModel, stream: true, query: upstreamQuery, resourcePath: '/realtime', clientPath: `/v1/realtime?${upstreamQuery.toString()}` };
  const { url, headers: upstreamHeaders } = describeProviderCall(target, call, headers);
  delete upstreamHeaders['accept-encoding'];
  delete upstreamHeaders['content-type'];
  return {
    provider: provider.name,
    model,
    url: url.replace(/^http/, 'ws'),
    headers: upstreamHeaders,
    protocols: readSubprotocols(headers).filter((protocol) => !protocol.startsWith(KEY_PROTOCOL_PREFIX)),
  };
}
