// Which codec reads the client, and which codec (and provider operation) talks to the provider.
import type { DialectCodec } from '../canonical/codec.js';
import { CODECS } from '../formats/codec-registry.js';
import type { ProviderAdapter } from '../providers/provider-adapter.js';
import type { UpstreamOperation } from '../canonical/dialect.js';
import type { InboundCall } from './read-inbound-call.js';

const CLIENT_CODECS: Partial<Record<UpstreamOperation | 'bedrock', DialectCodec['name']>> = {
  'chat.completions': 'openai-chat',
  completions: 'openai-completions',
  'responses.create': 'openai-responses',
  messages: 'anthropic-messages',
  'genai.generateContent': 'google-genai',
  'genai.streamGenerateContent': 'google-genai',
};

export function clientCodecFor(inbound: InboundCall): DialectCodec | null {
  const name = inbound.bedrock ? 'bedrock-converse' : CLIENT_CODECS[inbound.operation];
  return name ? CODECS[name] : null;
}

export interface ProviderSide {
  codec: DialectCodec;
  operation: UpstreamOperation;
  /** Bedrock streams arrive as AWS binary event-stream frames, not SSE. */
  binaryEvents: boolean;
}

/** Only generation crosses dialects; other operations (embeddings, files…) stay with providers of their own format. */
export function providerSideFor(adapter: ProviderAdapter, inbound: InboundCall): ProviderSide | null {
  if (!clientCodecFor(inbound)) return null;
  if (adapter.kind === 'mock') return { codec: CODECS['openai-chat'], operation: 'chat.completions', binaryEvents: false };
  switch (adapter.dialect) {
    case 'openai': return { codec: CODECS['openai-chat'], operation: 'chat.completions', binaryEvents: false };
    case 'anthropic': return { codec: CODECS['anthropic-messages'], operation: 'messages', binaryEvents: false };
    case 'google': return { codec: CODECS['google-genai'], operation: inbound.stream ? 'genai.streamGenerateContent' : 'genai.generateContent', binaryEvents: false };
    case 'bedrock': return { codec: CODECS['bedrock-converse'], operation: inbound.stream ? 'bedrock.converse_stream' : 'bedrock.converse', binaryEvents: true };
    default: return null;
  }
}
