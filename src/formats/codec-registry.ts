// The only file that imports every dialect codec.
import type { DialectCodec } from '../canonical/codec.js';
import { anthropicMessagesCodec } from './anthropic-messages/index.js';
import { bedrockConverseCodec } from './bedrock-converse/index.js';
import { googleGenAiCodec } from './google-genai/index.js';
import { openAiChatCodec } from './openai-chat/index.js';
import { openAiCompletionsCodec } from './openai-completions/index.js';
import { openAiResponsesCodec } from './openai-responses/index.js';

export const CODECS: Record<DialectCodec['name'], DialectCodec> = {
  'openai-chat': openAiChatCodec,
  'openai-completions': openAiCompletionsCodec,
  'openai-responses': openAiResponsesCodec,
  'anthropic-messages': anthropicMessagesCodec,
  'google-genai': googleGenAiCodec,
  'bedrock-converse': bedrockConverseCodec,
};
