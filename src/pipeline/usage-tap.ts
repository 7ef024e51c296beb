// Reads usage from a provider's response on the side, without changing what the
// client gets: from the JSON body, or from stream events as they pass.
import type { Usage } from '../canonical/usage.js';
import { mapAnthropicUsage, mergeUsage } from '../formats/anthropic-messages/map-usage.js';
import { mapGoogleUsage } from '../formats/google-genai/map-usage.js';
import { mapOpenAiUsage } from '../formats/openai-chat/map-usage.js';
import type { WireDialect } from '../providers/provider-adapter.js';

export interface UsageTap {
  readJson(body: unknown): void;
  readEvent(data: unknown): void;
  usage(): Usage | undefined;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

export function createUsageTap(dialect: WireDialect): UsageTap {
  let usage: Usage | undefined;
  const readers: Record<WireDialect, (data: unknown) => Usage | undefined> = {
    openai: (data) => mapOpenAiUsage(field(data, 'usage') ?? field(field(data, 'response'), 'usage')),
    // message_start nests usage in `message`; message_delta carries it at the top.
    anthropic: (data) => mapAnthropicUsage(field(data, 'usage') ?? field(field(data, 'message'), 'usage')),
    google: (data) => mapGoogleUsage(field(data, 'usageMetadata')),
  };
  const read = readers[dialect];
  return {
    readJson(body) { usage = read(body) ?? usage; },
    readEvent(data) {
      const found = read(data);
      if (found) usage = dialect === 'anthropic' ? mergeUsage(usage, found) : found;
    },
    usage: () => usage,
  };
}
