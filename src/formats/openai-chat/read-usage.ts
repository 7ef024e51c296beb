// Where Chat Completions reports usage: `usage` on the response, and on the last chunk of a
// stream when stream_options.include_usage is on (a chunk with `choices: []`).
// https://platform.openai.com/docs/api-reference/chat-streaming/streaming#chat-streaming/streaming-usage
import type { StreamUsageReader } from '../../canonical/codec.js';
import type { Usage } from '../../canonical/usage.js';
import { CARRIES_USAGE_OBJECT, createStreamUsageReader, fieldOf } from '../shared/stream-usage-reader.js';
import { mapOpenAiUsage } from './map-usage.js';

export function readOpenAiChatUsage(body: unknown): Usage | undefined {
  return mapOpenAiUsage(fieldOf(body, 'usage'));
}

export function createOpenAiChatStreamUsageReader(): StreamUsageReader {
  return createStreamUsageReader({ carriesUsage: CARRIES_USAGE_OBJECT, read: readOpenAiChatUsage });
}
