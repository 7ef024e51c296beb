// Where Anthropic reports usage: `usage` on the message; in a stream, input counts in
// message_start (`message.usage`) and output counts in message_delta (`usage`), so the
// reports are merged rather than replaced. https://docs.anthropic.com/en/api/messages-streaming
import type { StreamUsageReader } from '../../canonical/codec.js';
import type { Usage } from '../../canonical/usage.js';
import { CARRIES_USAGE_OBJECT, createStreamUsageReader, fieldOf } from '../shared/stream-usage-reader.js';
import { mapAnthropicUsage, mergeUsage } from './map-usage.js';

export function readAnthropicUsage(body: unknown): Usage | undefined {
  return mapAnthropicUsage(fieldOf(body, 'usage'));
}

export function createAnthropicStreamUsageReader(): StreamUsageReader {
  return createStreamUsageReader({
    carriesUsage: CARRIES_USAGE_OBJECT,
    read: (event) => mapAnthropicUsage(event.usage ?? fieldOf(event.message, 'usage')),
    merge: mergeUsage,
  });
}
