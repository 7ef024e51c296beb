// The registry that picks each family's error encoder (the only file importing them all).
import type { GatewayError } from '../errors.js';
import { encodeAnthropicError } from './anthropic-messages/encode-error.js';
import { encodeBedrockError } from './bedrock-converse/encode-error.js';
import { encodeGoogleError } from './google-genai/encode-error.js';
import { encodeOpenAiError } from './openai-chat/encode-error.js';
import type { WireError } from './wire-error.js';

export type ErrorFamily = 'openai' | 'anthropic' | 'google' | 'bedrock' | 'operational';

export function encodeErrorForFamily(family: ErrorFamily, error: GatewayError): WireError {
  switch (family) {
    case 'anthropic': return encodeAnthropicError(error);
    case 'google': return encodeGoogleError(error);
    case 'bedrock': return encodeBedrockError(error);
    default: return encodeOpenAiError(error);
  }
}
