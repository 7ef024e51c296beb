// The built-in mock (respond-as-mock.ts) answers every dialect in-process: the
// pipeline dispatches kind 'mock' to respondAsMock and never opens a socket, so
// the `mock:` URL here only names the call (for logs and audit), it is never fetched.
import type { ProviderAdapter, ProviderConfig, UpstreamCall } from '../provider-adapter.js';

export const MOCK_BASE_URL = 'mock:';

export const mockAdapter: ProviderAdapter = {
  kind: 'mock',
  dialect: 'any',
  urlFor(_config: ProviderConfig, call: UpstreamCall): string | null {
    if (call.operation === 'passthrough') return null;
    return call.model === null ? `mock:${call.operation}` : `mock:${call.operation}/${encodeURIComponent(call.model)}`;
  },
  authHeaders: () => ({}),
  defaultHeaders: () => ({}),
  modelInBody: () => true,
};
