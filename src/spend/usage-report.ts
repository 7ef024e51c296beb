// `gw usage`: the trail's request records added up by one grouping. Pure: the records come in
// as an iterable (src/spend/read-trail.ts reads them). Costs are summed in nano-USD integers, so
// the report's total is exactly the sum of the records' costs; calls with usage but no known
// price are counted apart (unpriced), never as 0.
import type { RequestRecord } from './read-trail.js';
import { isControlPlaneCall } from '../audit/record.js';
import { addCacheFields, emptyCacheFields, finishCacheFields, type CacheFields } from './cache-usage.js';
import { dayIn } from './usage-day.js';

export type UsageGrouping = 'team' | 'person' | 'key' | 'model' | 'provider' | 'day' | 'session';

export const USAGE_GROUPINGS: readonly UsageGrouping[] = ['team', 'person', 'key', 'model', 'provider', 'day', 'session'];

/** The prompt-cache columns (cache-usage.ts) come with every row. */
export interface UsageRow extends CacheFields {
  group: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cached_read_tokens: number;
  reasoning_tokens: number;
  /** Media units (src/audit/record.ts AuditTokens): images made, seconds of audio heard, characters spoken. */
  images: number;
  audio_seconds: number;
  characters: number;
  cost_nano_usd: number;
  /** Calls with usage whose price is unknown: their cost is not in cost_nano_usd. */
  unpriced_calls: number;
  /** The routing rules (gw routes) whose calls are in this row: a rule's call is grouped under the model that served it. */
  rules?: string[];
}

export interface UsageFilter {
  since?: Date;
  until?: Date;
  /** Only this person's calls (a laptop's own usage). */
  person?: string;
  /** The zone whose days `day` groups by (usage-day.ts, checked by the caller); UTC when absent. */
  tz?: string;
}

export async function summariseUsage(records: AsyncIterable<RequestRecord> | Iterable<RequestRecord>, by: UsageGrouping, filter: UsageFilter = {}): Promise<UsageRow[]> {
  const rows = new Map<string, UsageRow>();
  const since = filter.since?.toISOString();
  const until = filter.until?.toISOString();
  for await (const record of records) {
    if ((since !== undefined && record.ts < since) || (until !== undefined && record.ts >= until)) continue;
    if (filter.person !== undefined && record.person !== filter.person) continue;
    if (isControlPlaneCall(record.operation)) continue;
    const group = groupOf(record, by, filter.tz ?? 'UTC');
    let row = rows.get(group);
    if (!row) {
      row = { group, calls: 0, input_tokens: 0, output_tokens: 0, cached_read_tokens: 0, reasoning_tokens: 0, images: 0, audio_seconds: 0, characters: 0, cost_nano_usd: 0, unpriced_calls: 0, ...emptyCacheFields() };
      rows.set(group, row);
    }
    row.calls += 1;
    const tokens = record.tokens;
    row.input_tokens += tokens?.input ?? 0;
    row.output_tokens += tokens?.output ?? 0;
    row.cached_read_tokens += tokens?.cached_read ?? 0;
    row.reasoning_tokens += tokens?.reasoning ?? 0;
    row.images += tokens?.images ?? 0;
    row.audio_seconds += tokens?.audio_seconds ?? 0;
    row.characters += tokens?.characters ?? 0;
    if (record.cost?.nano_usd !== undefined) row.cost_nano_usd += record.cost.nano_usd;
    else if (record.cost?.price === 'unknown') row.unpriced_calls += 1;
    addCacheFields(row, record);
    if (record.rule !== undefined && !(row.rules ?? []).includes(record.rule)) row.rules = [...(row.rules ?? []), record.rule].sort();
  }
  return [...rows.values()].map((row) => finishCacheFields(row, row.input_tokens)).sort((a, b) => b.cost_nano_usd - a.cost_nano_usd || a.group.localeCompare(b.group));
}

function groupOf(record: RequestRecord, by: UsageGrouping, zone: string): string {
  switch (by) {
    case 'team': return record.team ?? '(none)';
    case 'person': return record.person ?? '(no person)';
    case 'key': return record.key_id ?? '(no key)';
    case 'model': return record.model ?? '(no model)';
    case 'provider': return record.provider ?? '(no provider)';
    case 'day': return dayIn(record.ts, zone);
    // A coding-agent session (docs/sessions.md): its model calls and its MCP tool calls together.
    case 'session': return record.session ?? '(no session)';
  }
}
