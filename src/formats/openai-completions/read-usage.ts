// Where Completions reports usage: `usage` on the response and on the stream's last chunk
// (with stream_options.include_usage). https://platform.openai.com/docs/api-reference/completions/object
import type { StreamUsageReader } from '../../canonical/codec.js';
import type { Usage } from '../../canonical/usage.js';
import { CARRIES_USAGE_OBJECT, createStreamUsageReader, fieldOf } from '../shared/stream-usage-reader.js';
import { mapCompletionsUsage } from './map-usage.js';

export function readCompletionsUsage(body: unknown): Usage | undefined {
  return mapCompletionsUsage(fieldOf(body, 'usage'));
}

export function createCompletionsStreamUsageReader(): StreamUsageReader {
  return createStreamUsageReader({ carriesUsage: CARRIES_USAGE_OBJECT, read: readCompletionsUsage });
}
