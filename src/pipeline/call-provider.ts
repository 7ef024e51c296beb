// The provider call: over undici, or in-process for the built-in mock, which
// answers with the same HTTP-like shape so everything after this is shared.
import type { ProviderConfig } from '../providers/provider-adapter.js';
import type { UpstreamOperation } from '../canonical/dialect.js';
import { respondAsMock, type MockOperation } from '../providers/mock/respond-as-mock.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import type { EncodedCall } from './encode-upstream-call.js';
import { Readable } from 'node:stream';
import { GatewayError } from '../errors.js';
import { signBedrockRequest } from '../providers/bedrock/sign-request.js';
import type { CancelSignal } from '../upstream/cancel-signal.js';

export interface ProviderReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array>;
}

const MOCK_OPERATIONS: Partial<Record<UpstreamOperation, MockOperation>> = {
  'chat.completions': 'chat', completions: 'completions', embeddings: 'embeddings', 'models.list': 'models',
  messages: 'messages', 'messages.count_tokens': 'count_tokens',
  'genai.generateContent': 'generateContent', 'genai.streamGenerateContent': 'streamGenerateContent',
  'genai.countTokens': 'countTokens', 'genai.embedContent': 'embedContent', 'genai.batchEmbedContents': 'batchEmbedContents',
};

export async function callProvider(encoded: EncodedCall, provider: ProviderConfig, upstream: UpstreamClient, signal: CancelSignal): Promise<ProviderReply> {
  if (provider.kind === 'mock') {
    const operation = MOCK_OPERATIONS[encoded.call.operation];
    if (!operation) throw new GatewayError('GW_ERR_PROVIDER_OPERATION_UNSUPPORTED', { message: `The mock provider does not offer ${encoded.call.operation}.` });
    // The mock reads its behaviour from the full name (mock/slow, mock/error-429).
    return respondAsMock({ operation, model: `mock/${encoded.call.model ?? 'echo'}`, body: encoded.json, stream: encoded.call.stream });
  }
  let headers = encoded.headers;
  if (provider.aws && encoded.body !== null && !(encoded.body instanceof Readable)) {
    // SigV4 covers the body, so Bedrock calls are signed here, once the body is final.
    const signed = await signBedrockRequest({ url: encoded.url!, method: encoded.method, headers, body: encoded.body, region: provider.aws.region, credentials: provider.aws.credentials });
    const { host: _host, ...withoutHost } = signed;
    headers = withoutHost;
  }
  return upstream.send({ url: encoded.url!, method: encoded.method, headers, body: encoded.body, signal });
}
