// AWS Bedrock runtime, Converse API (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html).
// The model id is in the path: {base}/model/{modelId}/converse and /converse-stream, the
// stream being the binary AWS event stream (event-stream.ts). Auth: a Bedrock API key as
// a bearer token here; SigV4 covers the body, so signed calls go through signBedrockRequest
// once the body is final (sign-request.ts), and authHeaders is empty for them.
import type { ProviderAdapter, ProviderConfig, UpstreamCall } from '../provider-adapter.js';
import type { UpstreamOperation } from '../../canonical/dialect.js';
import { bearerAuth, trimBaseUrl, withQuery } from '../provider-http.js';

const ACTIONS: Partial<Record<UpstreamOperation, string>> = {
  'bedrock.converse': '/converse',
  'bedrock.converse_stream': '/converse-stream',
};

export const bedrockAdapter: ProviderAdapter = {
  kind: 'bedrock',
  dialect: 'bedrock',
  urlFor(config: ProviderConfig, call: UpstreamCall): string | null {
    const action = ACTIONS[call.operation];
    if (action === undefined || call.model === null) return null;
    // Model ids and ARNs carry ':' and '/', which the path must escape (the AWS SDK does the same).
    return withQuery(`${trimBaseUrl(config.baseUrl)}/model/${encodeURIComponent(call.model)}${action}`, call.query);
  },
  // A Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) is the apiKey; SigV4-configured instances have none.
  authHeaders: (config) => bearerAuth(config.apiKey),
  defaultHeaders: () => ({}),
  modelInBody: () => false,
};
