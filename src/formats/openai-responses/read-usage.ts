// Where Responses reports usage: `usage` on the response object; in a stream, `response.usage`
// on the terminal event (response.completed, .incomplete or .failed; earlier events carry null).
// https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
import type { StreamUsageReader } from '../../canonical/codec.js';
import type { Usage } from '../../canonical/usage.js';
import { CARRIES_USAGE_OBJECT, createStreamUsageReader, fieldOf } from '../shared/stream-usage-reader.js';
import { mapResponsesUsage } from './map-usage.js';

export function readResponsesUsage(body: unknown): Usage | undefined {
  return mapResponsesUsage(fieldOf(body, 'usage'));
}

export function createResponsesStreamUsageReader(): StreamUsageReader {
  return createStreamUsageReader({ carriesUsage: CARRIES_USAGE_OBJECT, read: (event) => readResponsesUsage(event.response) });
}
