// The built-in mock (respond-as-mock.ts) answers every dialect in-process. Its URLs
// (`mock:<operation>/<model>`) are answered by answer-mock-call.ts, which the
// composition root puts in front of the real upstream client the way undici's
// MockAgent sits in front of a dispatcher: the pipeline calls the mock exactly as it
// calls any provider and never asks which kind it is talking to.
import type { ProviderAdapter, ProviderConfig, UpstreamCall } from '../provider-adapter.js';
import { MOCK_OPERATIONS } from './answer-mock-call.js';

export const MOCK_BASE_URL = 'mock:';

export const mockAdapter: ProviderAdapter = {
  kind: 'mock',
  dialect: 'any',
  urlFor(_config: ProviderConfig, call: UpstreamCall): string | null {
    // Only what the mock answers; Responses is served through the translator as Chat.
    if (!Object.hasOwn(MOCK_OPERATIONS, call.operation)) return null;
    return call.model === null ? `mock:${call.operation}` : `mock:${call.operation}/${encodeURIComponent(call.model)}`;
  },
  authHeaders: () => ({}),
  defaultHeaders: () => ({}),
  modelInBody: () => true,
  catalogIdsRoute: true,
};
