// The only file that imports every dialect codec, and the one place code outside src/formats/
// picks a codec: by its name, by the operation a client called, or by the route's dialect.
import type { RouteDialect } from '../canonical/dialect.js';
import type { DialectCodec } from '../canonical/codec.js';
import { anthropicMessagesCodec } from './anthropic-messages/index.js';
import { bedrockConverseCodec } from './bedrock-converse/index.js';
import { googleGenAiCodec } from './google-genai/index.js';
import { openAiChatCodec } from './openai-chat/index.js';
import { openAiCompletionsCodec } from './openai-completions/index.js';
import { openAiResponsesCodec } from './openai-responses/index.js';

export type CodecName = DialectCodec['name'];

export const CODECS: Record<CodecName, DialectCodec> = {
  'openai-chat': openAiChatCodec,
  'openai-completions': openAiCompletionsCodec,
  'openai-responses': openAiResponsesCodec,
  'anthropic-messages': anthropicMessagesCodec,
  'google-genai': googleGenAiCodec,
  'bedrock-converse': bedrockConverseCodec,
};

export function codecFor(name: CodecName): DialectCodec {
  return CODECS[name];
}

/** The operations (src/providers/provider-adapter.ts UpstreamOperation) whose bodies a codec reads and writes. */
const OPERATION_CODECS: Record<string, CodecName> = {
  'chat.completions': 'openai-chat',
  completions: 'openai-completions',
  'responses.create': 'openai-responses',
  messages: 'anthropic-messages',
  'genai.generateContent': 'google-genai',
  'genai.streamGenerateContent': 'google-genai',
  'bedrock.converse': 'bedrock-converse',
  'bedrock.converse_stream': 'bedrock-converse',
};

/** The codec of a generation operation; undefined for the others (embeddings, files, lists…). */
export function codecForOperation(operation: string): DialectCodec | undefined {
  const name = Object.hasOwn(OPERATION_CODECS, operation) ? OPERATION_CODECS[operation] : undefined;
  return name === undefined ? undefined : CODECS[name];
}

const DIALECT_CODECS: Record<RouteDialect, CodecName> = {
  openai: 'openai-chat',
  anthropic: 'anthropic-messages',
  google: 'google-genai',
  bedrock: 'bedrock-converse',
  // gw's own routes (health, admin, device login) answer errors in OpenAI's shape.
  operational: 'openai-chat',
};

/**
 * The dialect's codec when no operation says more: errors before the body is read, a provider's
 * default dialect, the OpenAI-family resource routes (embeddings, files: OpenAI's error and usage shapes).
 */
export function codecForDialect(dialect: RouteDialect): DialectCodec {
  return CODECS[DIALECT_CODECS[dialect]];
}

/** The most precise codec known: the operation's, else the dialect's. */
export function codecForCall(dialect: RouteDialect, operation: string): DialectCodec {
  return codecForOperation(operation) ?? codecForDialect(dialect);
}

// The one same-dialect body edit the pipeline asks of a codec folder: an Anthropic-bound body
// loses thinking blocks gw wrapped because another provider signed them (docs/wire-fidelity.md).
export { stripForeignThinking } from './anthropic-messages/strip-foreign-thinking.js';
// The opt-in prompt-cache markers (pipeline/plan/cache-marker-for.ts picks one per call).
export { addAnthropicCacheMarker } from './anthropic-messages/add-cache-marker.js';
export { addOpenAiCacheBreakpoint, takesCacheBreakpoint } from './openai-chat/add-cache-breakpoint.js';
