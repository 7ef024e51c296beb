// Reads usage from a provider's response on the side, without changing what the
// client gets: from the JSON body, or from stream events as they pass. The codec
// knows where its dialect puts usage; its stream reader parses only events that can
// carry usage (a substring test first), so a long stream costs one JSON.parse per
// usage event, not per token. While budgets apply, each event's data is also kept
// (`relayed`) so a stream cut before its usage is charged what it relayed.
import type { DialectCodec } from '../../canonical/codec.js';
import type { Usage } from '../../canonical/usage.js';
import type { RelayedOutput } from '../relayed-output.js';

export interface UsageTap {
  readJson(body: unknown): void;
  /** Reads one event's data; returns the parsed event when it could carry usage, else undefined. */
  readEventData(data: string): Record<string, unknown> | undefined;
  usage(): Usage | undefined;
}

export function createUsageTap(codec: Pick<DialectCodec, 'readUsage' | 'createStreamUsageReader'>, relayed?: RelayedOutput): UsageTap {
  const stream = codec.createStreamUsageReader();
  let json: Usage | undefined;
  return {
    readJson(body) { json = codec.readUsage(body) ?? json; },
    readEventData: relayed ? (data) => { relayed.addEvent(data); return stream.read(data); } : (data) => stream.read(data),
    usage: () => stream.usage() ?? json,
  };
}
