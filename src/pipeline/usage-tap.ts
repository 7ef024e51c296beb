// Reads usage from a provider's response on the side, without changing what the
// client gets: from the JSON body, or from stream events as they pass. Only events
// that can carry usage are parsed (a substring test first), so a long stream costs
// one JSON.parse per usage event, not per token.
import type { Usage } from '../canonical/usage.js';
import { mapAnthropicUsage, mergeUsage } from '../formats/anthropic-messages/map-usage.js';
import { mapGoogleUsage } from '../formats/google-genai/map-usage.js';
import { mapOpenAiUsage } from '../formats/openai-chat/map-usage.js';
import type { WireDialect } from '../canonical/dialect.js';

export interface UsageTap {
  readJson(body: unknown): void;
  /** Reads one event's data; returns the parsed event when it carried usage, else undefined. */
  readEventData(data: string): Record<string, unknown> | undefined;
  usage(): Usage | undefined;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

// OpenAI sends `"usage":null` on every chunk once include_usage is on: only an object counts.
const CARRIES_USAGE: Record<WireDialect, RegExp> = {
  openai: /"usage"\s*:\s*\{/,
  anthropic: /"usage"\s*:\s*\{/,
  google: /"usageMetadata"\s*:\s*\{/,
  bedrock: /"usage"\s*:\s*\{/,
};

const READERS: Record<WireDialect, (data: unknown) => Usage | undefined> = {
  openai: (data) => mapOpenAiUsage(field(data, 'usage') ?? field(field(data, 'response'), 'usage')),
  // message_start nests usage in `message`; message_delta carries it at the top.
  anthropic: (data) => mapAnthropicUsage(field(data, 'usage') ?? field(field(data, 'message'), 'usage')),
  google: (data) => mapGoogleUsage(field(data, 'usageMetadata')),
  bedrock: (data) => mapBedrockUsage(field(data, 'usage')),
};

// Bedrock Converse `usage`: inputTokens excludes cache reads and writes, as Anthropic's does.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html
function mapBedrockUsage(usage: unknown): Usage | undefined {
  const record = usage as Record<string, unknown> | undefined;
  if (!record) return undefined;
  return mapAnthropicUsage({
    input_tokens: record.inputTokens, output_tokens: record.outputTokens,
    cache_read_input_tokens: record.cacheReadInputTokens, cache_creation_input_tokens: record.cacheWriteInputTokens,
  });
}

export function createUsageTap(dialect: WireDialect): UsageTap {
  let usage: Usage | undefined;
  const read = READERS[dialect];
  const carriesUsage = CARRIES_USAGE[dialect];
  return {
    readJson(body) { usage = read(body) ?? usage; },
    readEventData(data) {
      if (!carriesUsage.test(data)) return undefined;
      let parsed: unknown;
      try { parsed = JSON.parse(data); } catch { return undefined; }
      const found = read(parsed);
      if (found) usage = dialect === 'anthropic' ? mergeUsage(usage, found) : found;
      return typeof parsed === 'object' && parsed !== null ? parsed as Record<string, unknown> : undefined;
    },
    usage: () => usage,
  };
}
