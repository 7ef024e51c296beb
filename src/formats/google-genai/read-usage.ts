// Where GenAI reports usage: `usageMetadata` on the response and on stream chunks, each chunk's
// a running total (the last one wins). https://ai.google.dev/api/generate-content#UsageMetadata
import type { StreamUsageReader } from '../../canonical/codec.js';
import type { Usage } from '../../canonical/usage.js';
import { createStreamUsageReader, fieldOf } from '../shared/stream-usage-reader.js';
import { mapGoogleUsage } from './map-usage.js';

export function readGoogleUsage(body: unknown): Usage | undefined {
  return mapGoogleUsage(fieldOf(body, 'usageMetadata'));
}

export function createGoogleStreamUsageReader(): StreamUsageReader {
  return createStreamUsageReader({ carriesUsage: /"usageMetadata"\s*:\s*\{/, read: readGoogleUsage });
}
