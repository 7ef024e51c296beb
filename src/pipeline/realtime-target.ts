// Where a realtime WebSocket session goes (src/server/realtime-proxy.ts does the
// socket work): the `model` query parameter routes like a chat model
// (https://platform.openai.com/docs/guides/realtime-websocket: wss://…/v1/realtime?model=…),
// the provider's URL turns https into wss, and the headers are the allow-listed ones
// with the provider's credential, as for any other call.
import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../errors.js';
import { adapterFor } from '../providers/registry.js';
import { resolveModel } from '../routing/resolve-model.js';
import { offers } from './resource-routes.js';
import type { GatewayServices } from './gateway-services.js';
import { buildUpstreamHeaders } from './upstream-headers.js';

export interface RealtimeTarget {
  provider: string;
  model: string;
  url: string;
  headers: Record<string, string>;
  /** The client's subprotocols, without one that carries a key (`openai-insecure-api-key.…`). */
  protocols: string[];
}

/** Browsers cannot set headers on a WebSocket, so OpenAI's clients put the key in a subprotocol. */
export const KEY_PROTOCOL_PREFIX = 'openai-insecure-api-key.';

export function readSubprotocols(headers: IncomingHttpHeaders): string[] {
  return String(headers['sec-websocket-protocol'] ?? '').split(',').map((value) => value.trim()).filter(Boolean);
}

export function chooseRealtimeTarget(query: URLSearchParams, headers: IncomingHttpHeaders, services: GatewayServices): RealtimeTarget {
  const model = query.get('model');
  if (model === null || model === '') {
    throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'A realtime session needs ?model=… (for example openai/gpt-realtime).', param: 'model' });
  }
  const { providers, aliases } = services.providers();
  const route = resolveModel(model, providers, aliases);
  if (!offers(route.provider, 'realtime')) {
    const able = providers.filter((provider) => offers(provider, 'realtime')).map((provider) => provider.name);
    throw new GatewayError('GW_ERR_PROVIDER_OPERATION_UNSUPPORTED', {
      message: `Provider ${route.provider.name} (${route.provider.kind}) does not offer realtime; ${able.length > 0 ? `configured providers that do: ${able.join(', ')}` : 'no configured provider does'} (provider kinds that do: openai).`,
    });
  }
  const adapter = adapterFor(route.provider.kind);
  const upstreamQuery = new URLSearchParams(query);
  upstreamQuery.set('model', route.upstreamModel);
  const url = adapter.urlFor(route.provider, { operation: 'realtime', model: route.upstreamModel, stream: true, query: upstreamQuery, resourcePath: '/realtime' });
  if (url === null) throw new GatewayError('GW_ERR_PROVIDER_OPERATION_UNSUPPORTED', { message: `Provider ${route.provider.name} does not offer realtime.` });
  const upstreamHeaders = buildUpstreamHeaders(headers, { auth: adapter.authHeaders(route.provider), defaults: adapter.defaultHeaders(route.provider) });
  delete upstreamHeaders['accept-encoding'];
  delete upstreamHeaders['content-type'];
  return {
    provider: route.provider.name,
    model,
    url: url.replace(/^http/, 'ws'),
    headers: upstreamHeaders,
    protocols: readSubprotocols(headers).filter((protocol) => !protocol.startsWith(KEY_PROTOCOL_PREFIX)),
  };
}
