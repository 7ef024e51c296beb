// Where Converse reports usage: `usage` on the response; in ConverseStream, on the last
// event, `metadata` {usage, metrics}. https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamMetadataEvent.html
import type { StreamUsageReader } from '../../canonical/codec.js';
import type { Usage } from '../../canonical/usage.js';
import { CARRIES_USAGE_OBJECT, createStreamUsageReader, fieldOf } from '../shared/stream-usage-reader.js';
import { mapBedrockUsage } from './map-usage.js';

export function readBedrockUsage(body: unknown): Usage | undefined {
  return mapBedrockUsage(fieldOf(body, 'usage'));
}

/** Reads the payloads of decoded event-stream frames ({event, data}), the SDK's wrapped shape ({"metadata":{…}}) too. */
export function createBedrockStreamUsageReader(): StreamUsageReader {
  return createStreamUsageReader({ carriesUsage: CARRIES_USAGE_OBJECT, read: (event) => readBedrockUsage(event) ?? readBedrockUsage(event.metadata) });
}
