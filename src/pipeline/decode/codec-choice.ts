// Which codec reads the client, and which codec (and provider operation) talks to the provider.
import type { DialectCodec } from '../../canonical/codec.js';
import { codecFor, codecForOperation } from '../../formats/codec-registry.js';
import type { ProviderAdapter } from '../../providers/provider-adapter.js';
import type { UpstreamOperation } from '../../canonical/dialect.js';
import type { InboundCall } from './read-inbound-call.js';

/** The client's codec, for the generation operations; null for the others (embeddings, files…). */
export function clientCodecFor(inbound: InboundCall): DialectCodec | null {
  return codecForOperation(inbound.operation) ?? null;
}

export interface ProviderSide {
  codec: DialectCodec;
  operation: UpstreamOperation;
}

function side(codec: DialectCodec, operation: UpstreamOperation): ProviderSide {
  return { codec, operation };
}

/** Only generation crosses dialects; other operations (embeddings, files…) stay with providers of their own format. */
export function providerSideFor(adapter: ProviderAdapter, inbound: InboundCall): ProviderSide | null {
  if (!clientCodecFor(inbound)) return null;
  switch (adapter.dialect) {
    // 'any' (the mock, another gw) serves Chat too: it is what a call it lacks natively (Responses) becomes.
    case 'any':
    case 'openai': return side(codecFor('openai-chat'), 'chat.completions');
    case 'anthropic': return side(codecFor('anthropic-messages'), 'messages');
    case 'google': return side(codecFor('google-genai'), inbound.stream ? 'genai.streamGenerateContent' : 'genai.generateContent');
    case 'bedrock': return side(codecFor('bedrock-converse'), inbound.stream ? 'bedrock.converse_stream' : 'bedrock.converse');
    default: return null;
  }
}
