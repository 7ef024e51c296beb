// The usage reader every SSE dialect uses: a cheap substring test picks the events that can
// carry usage, only those are parsed, and the dialect says where usage sits and how reports combine.
import type { StreamUsageReader } from '../../canonical/codec.js';
import type { Usage } from '../../canonical/usage.js';

export interface StreamUsageShape {
  /** Matches the raw data of an event that can carry usage. OpenAI sends `"usage":null` on every chunk once include_usage is on: only an object counts. */
  carriesUsage: RegExp;
  /** Usage in one parsed event, or undefined. */
  read(event: Record<string, unknown>): Usage | undefined;
  /** How a later report combines with the earlier ones; by default the later one replaces them. */
  merge?(earlier: Usage | undefined, later: Usage): Usage | undefined;
}

/** `"usage": {` with any spacing: what OpenAI, Anthropic and Bedrock events carry. */
export const CARRIES_USAGE_OBJECT = /"usage"\s*:\s*\{/;

export function createStreamUsageReader(shape: StreamUsageShape): StreamUsageReader {
  let usage: Usage | undefined;
  return {
    read(data) {
      if (!shape.carriesUsage.test(data)) return undefined;
      let parsed: unknown;
      try { parsed = JSON.parse(data); } catch { return undefined; }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
      const record = parsed as Record<string, unknown>;
      const found = shape.read(record);
      if (found) usage = shape.merge ? shape.merge(usage, found) : found;
      return record;
    },
    usage: () => usage,
  };
}

/** One field of a parsed JSON value, whatever it is. */
export function fieldOf(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}
