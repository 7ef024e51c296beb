// GenAI streams have no end marker: the stream's last chunk is the one whose candidates all
// carry a finishReason (with the final usageMetadata). Only chunks that name a finishReason are
// parsed. An error chunk is not terminal: it is an incomplete stream.
// https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
import type { WireEvent } from '../../canonical/codec.js';

export function isGoogleTerminalEvent(event: WireEvent): boolean {
  if (!event.data.includes('"finishReason"')) return false;
  let parsed: unknown;
  try { parsed = JSON.parse(event.data); } catch { return false; }
  const candidates = typeof parsed === 'object' && parsed !== null ? (parsed as { candidates?: unknown }).candidates : undefined;
  return Array.isArray(candidates) && candidates.length > 0
    && candidates.every((candidate: unknown) => typeof (candidate as { finishReason?: unknown } | null)?.finishReason === 'string');
}
