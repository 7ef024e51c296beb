// What the console's request explorer and usage charts read: the `request` records of the
// audit trail, newest first. On the embedded store the trail file is tailed into an
// in-memory list of summaries (read once, then only the bytes appended since), so a search
// over the last 100,000 records is a scan of an array, not a parse of the file.
import { open, stat } from 'node:fs/promises';
import { isControlPlaneCall } from '../audit/record.js';
import { createUnpricedModels, inWindow, isUnpriced, withRule, type UnpricedModel } from './usage-unpriced.js';
import { summarizeKeyUsage, type KeyUsage } from './key-usage.js';
import { describeRequest, planeOf, type RequestDescription } from './describe-request.js';
import { sessionCallsOf, type SessionCall } from './session-calls.js';
import { summarizeSessions, type SessionFilter, type SessionSummary } from './session-list.js';
import { dayIn } from '../spend/usage-day.js';
import { summarizeCacheUsage, type CacheGrouping, type CacheUsageRow } from './summarize-cache-usage.js';
import { toRefusalSummary } from './refused-calls.js';

/** A request record as the explorer lists it, with what it was and how it ended in words (describe-request.ts). */
export interface RequestSummary extends Partial<RequestDescription> {
  seq: number;
  ts: string;
  request_id?: string;
  person?: string;
  team?: string;
  key_id?: string;
  model?: string;
  provider?: string;
  /** The routing rule the caller named (then `model` is the target that served it). */
  rule?: string;
  operation?: string;
  route?: string;
  status?: number;
  latency_ms?: number;
  tokens?: { input?: number; output?: number; cached_read?: number; cache_write?: number; total?: number };
  outcome?: string[];
  dlp?: Record<string, number>;
  warnings?: string[];
  data?: Record<string, unknown>;
  cost?: unknown;
  session?: string;
  agent?: string;
  /** A refusal at the door (refused-calls.ts): the refused gw key's hint, never the key. */
  key_hint?: string;
}

/** `plane: 'data'` leaves out the control plane (model lists, logins, checkpoints, MCP handshakes). */
export type RequestFilter = Partial<Record<'person' | 'team' | 'key_id' | 'model' | 'provider' | 'status' | 'request_id' | 'since' | 'until' | 'plane' | 'result', string>>;

export interface UsageReport {
  by: string;
  /** cost_nano_usd sums the priced calls' costs, exactly as `gw usage` does (nano-USD integers). */
  groups: Array<{ group: string; requests: number; input_tokens: number; output_tokens: number; dlp_hits: number; cost_nano_usd: number; unpriced: number; rules?: string[] }>;
  /** Per day (in `tz`) and group, for the charts. */
  daily: Array<{ day: string; group: string; requests: number; tokens: number; dlp_hits: number; cost_nano_usd: number; unpriced: number }>;
  /** The window summed: since included, until excluded (as gw usage); null for no bound. */
  since: string | null;
  until: string | null;
  /** The time zone whose days `daily` (and the day grouping) count (src/spend/usage-day.ts). */
  tz: string;
  /** `unpriced` counts calls whose model has no price (not in cost_nano_usd); these are their models. */
  unpriced_models: UnpricedModel[];
}

/** One provider's calls in a window, for the console's provider health. */
export interface ProviderHealthRow {
  provider: string;
  requests: number;
  /** Answered 5xx: the provider failed, timed out or died mid-stream (or gw could not reach it). */
  errors: number;
  rate_limited: number;
  /** Latency percentiles in ms (nearest rank, as PostgreSQL's percentile_disc), null with no latency recorded. */
  p50_ms: number | null;
  p95_ms: number | null;
  last_error_at: string | null;
}

export interface TrailReader {
  search(filter: RequestFilter, limit: number): Promise<RequestSummary[]>;
  /** `tz`: the zone of the days (checked by the caller, usage-day.ts checkTimeZone); UTC when absent. */
  usage(by: 'team' | 'person' | 'model' | 'provider' | 'day' | 'key_id', since?: string, until?: string, tz?: string): Promise<UsageReport>;
  providerHealth(since: string): Promise<ProviderHealthRow[]>;
  /** Each key's last use, requests and spend since then (the Keys page; src/admin/key-usage.ts). */
  keyUsage(since: string): Promise<KeyUsage[]>;
  /** Recent coding-agent sessions (src/admin/session-list.ts), the most recently active first. */
  sessions(filter: SessionFilter, limit: number): Promise<SessionSummary[]>;
  /** Every call of one session in trail order, as `gw audit show --session --json` lists them. */
  session(id: string): Promise<SessionCall[]>;
  /** The prompt cache per group (summarize-cache-usage.ts, docs/prompt-cache.md). */
  cacheUsage(by: CacheGrouping, since?: string, until?: string, tz?: string): Promise<CacheUsageRow[]>;
}

/** Summaries kept in memory (about 300 bytes each): the explorer's window on a busy hub. */
const MAX_SUMMARIES = 200_000;

export function toSummary(line: string): RequestSummary | null {
  // Cheap pre-check: most lines of a busy trail are requests, but skipping the rest unparsed is free.
  if (!line.includes('"kind":"request"')) return null;
  try {
    const record = JSON.parse(line) as RequestSummary & { kind?: string; prev?: string; hash?: string; v?: number; origin?: string };
    if (record.kind !== 'request') return null;
    const { kind: _kind, prev: _prev, hash: _hash, v: _v, origin: _origin, ...summary } = record;
    return summary;
  } catch {
    return null;
  }
}

export function matches(summary: RequestSummary, filter: RequestFilter): boolean {
  for (const [name, wanted] of Object.entries(filter)) {
    if (wanted === undefined || wanted === '') continue;
    if (name === 'plane') { if (planeOf(summary) !== wanted) return false; continue; }
    // ok, refused or failed, as the explorer words it (describe-request.ts).
    if (name === 'result') { if (describeRequest(summary).result_kind !== wanted) return false; continue; }
    if (name === 'since') { if (summary.ts < wanted) return false; continue; }
    if (name === 'until') { if (summary.ts > wanted) return false; continue; }
    if (name === 'status') { if (String(summary.status) !== wanted && !(wanted.endsWith('xx') && String(summary.status).startsWith(wanted[0]!))) return false; continue; }
    if (String((summary as unknown as Record<string, unknown>)[name] ?? '') !== wanted) return false;
  }
  return true;
}

/** A summary as the explorer shows it: with its operation, plane and outcome in words (made for the rows returned only). */
export function described(summary: RequestSummary): RequestSummary {
  return { ...summary, ...describeRequest(summary) };
}

export function summarizeUsage(summaries: Iterable<RequestSummary>, by: string, since?: string, until?: string, tz = 'UTC'): UsageReport {
  const groups = new Map<string, UsageReport['groups'][number]>();
  const daily = new Map<string, UsageReport['daily'][number]>();
  const unpricedModels = createUnpricedModels();
  for (const summary of summaries) {
    if (!inWindow(summary.ts, since, until) || isControlPlaneCall(summary.operation)) continue;
    const day = dayIn(summary.ts, tz);
    const group = by === 'day' ? day : String((summary as unknown as Record<string, unknown>)[by] ?? '(none)');
    const input = summary.tokens?.input ?? 0;
    const output = summary.tokens?.output ?? 0;
    const hits = Object.values(summary.dlp ?? {}).reduce((sum, count) => sum + count, 0);
    const cost = costOf(summary);
    const unpriced = isUnpriced(summary) ? 1 : 0;
    if (unpriced) unpricedModels.note(summary);
    const total = groups.get(group) ?? { group, requests: 0, input_tokens: 0, output_tokens: 0, dlp_hits: 0, cost_nano_usd: 0, unpriced: 0 };
    total.requests += 1; total.input_tokens += input; total.output_tokens += output; total.dlp_hits += hits; total.cost_nano_usd += cost; total.unpriced += unpriced;
    // A routing rule's calls are grouped under the model that served them, the rule named beside it.
    const rules = withRule(total.rules, summary.rule);
    if (rules !== undefined) total.rules = rules;
    groups.set(group, total);
    const key = `${day}\u0000${group}`;
    const cell = daily.get(key) ?? { day, group, requests: 0, tokens: 0, dlp_hits: 0, cost_nano_usd: 0, unpriced: 0 };
    cell.requests += 1; cell.tokens += input + output; cell.dlp_hits += hits; cell.cost_nano_usd += cost; cell.unpriced += unpriced;
    daily.set(key, cell);
  }
  return {
    by, groups: [...groups.values()].sort((a, b) => b.requests - a.requests || a.group.localeCompare(b.group)), daily: [...daily.values()].sort((a, b) => a.day.localeCompare(b.day) || a.group.localeCompare(b.group)),
    since: since ?? null, until: until ?? null, tz, unpriced_models: unpricedModels.list(),
  };
}

export function summarizeProviderHealth(summaries: Iterable<RequestSummary>, since: string): ProviderHealthRow[] {
  const byProvider = new Map<string, { row: ProviderHealthRow; latencies: number[] }>();
  for (const summary of summaries) {
    if (summary.ts < since || summary.provider === undefined) continue;
    let entry = byProvider.get(summary.provider);
    if (!entry) {
      entry = { row: { provider: summary.provider, requests: 0, errors: 0, rate_limited: 0, p50_ms: null, p95_ms: null, last_error_at: null }, latencies: [] };
      byProvider.set(summary.provider, entry);
    }
    entry.row.requests += 1;
    if ((summary.status ?? 0) >= 500) {
      entry.row.errors += 1;
      if (entry.row.last_error_at === null || summary.ts > entry.row.last_error_at) entry.row.last_error_at = summary.ts;
    }
    if (summary.status === 429) entry.row.rate_limited += 1;
    if (typeof summary.latency_ms === 'number') entry.latencies.push(summary.latency_ms);
  }
  return [...byProvider.values()].map(({ row, latencies }) => {
    latencies.sort((a, b) => a - b);
    return { ...row, p50_ms: nearestRank(latencies, 0.5), p95_ms: nearestRank(latencies, 0.95) };
  }).sort((a, b) => b.requests - a.requests || a.provider.localeCompare(b.provider));
}

/** The smallest value with at least `fraction` of the values at or below it. */
function nearestRank(sorted: number[], fraction: number): number | null {
  return sorted.length === 0 ? null : sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)]!;
}

function newestMatching(list: readonly RequestSummary[], filter: RequestFilter, limit: number): RequestSummary[] {
  const found: RequestSummary[] = [];
  for (let index = list.length - 1; index >= 0 && found.length < limit; index -= 1) {
    if (matches(list[index]!, filter)) found.push(list[index]!);
  }
  return found;
}

/** Two lists, each newest first, as one (by trail order), at most `limit` long. */
function mergeNewestFirst(a: RequestSummary[], b: RequestSummary[], limit: number): RequestSummary[] {
  return [...a, ...b].sort((x, y) => y.seq - x.seq).slice(0, limit);
}

function pushRefusal(refusals: RequestSummary[], line: string): void {
  const refusal = toRefusalSummary(line);
  if (refusal !== null) refusals.push(refusal);
}

/** A priced call's cost in nano-USD; 0 for a call with no price (gw usage counts those apart). */
function costOf(summary: RequestSummary): number {
  const nanos = (summary.cost as { nano_usd?: unknown } | undefined)?.nano_usd;
  return typeof nanos === 'number' ? nanos : 0;
}

/** Tails audit.jsonl: each call reads only what was appended since the last one. */
export function createFileTrailReader(file: string, maxSummaries = MAX_SUMMARIES): TrailReader {
  let summaries: RequestSummary[] = [];
  // Refused credentials (auth.refused, auth.refused_burst): listed by search, never summed as usage.
  let refusals: RequestSummary[] = [];
  let offset = 0;
  let partial = '';
  let reading: Promise<void> | null = null;
  const catchUp = async () => {
    let size: number;
    try {
      size = (await stat(file)).size;
    } catch {
      return;
    }
    // A trail shorter than what was read was replaced (a test, a restore): start over.
    if (size < offset) { summaries = []; refusals = []; offset = 0; partial = ''; }
    if (size === offset) return;
    const handle = await open(file, 'r');
    try {
      const chunkSize = 4 * 1024 * 1024;
      const buffer = Buffer.alloc(chunkSize);
      while (offset < size) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(chunkSize, size - offset), offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
        const lines = (partial + buffer.subarray(0, bytesRead).toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          const summary = toSummary(line);
          if (summary) summaries.push(summary);
          else if (line.includes('"kind":"auth.refused')) pushRefusal(refusals, line);
        }
      }
    } finally {
      await handle.close();
    }
    if (summaries.length > maxSummaries) summaries = summaries.slice(-maxSummaries);
    if (refusals.length > maxSummaries) refusals = refusals.slice(-maxSummaries);
  };
  const fresh = async () => {
    reading ??= catchUp().finally(() => { reading = null; });
    await reading;
  };
  return {
    async search(filter, limit) {
      await fresh();
      return mergeNewestFirst(newestMatching(summaries, filter, limit), newestMatching(refusals, filter, limit), limit).map(described);
    },
    async usage(by, since, until, tz) {
      await fresh();
      return summarizeUsage(summaries, by, since, until, tz);
    },
    async providerHealth(since) {
      await fresh();
      return summarizeProviderHealth(summaries, since);
    },
    async keyUsage(since) {
      await fresh();
      return summarizeKeyUsage(summaries, since);
    },
    async sessions(filter, limit) {
      await fresh();
      return summarizeSessions(summaries, filter, limit);
    },
    async session(id) {
      await fresh();
      return sessionCallsOf(summaries, id);
    },
    async cacheUsage(by, since, until, tz) {
      await fresh();
      return summarizeCacheUsage(summaries, by, since, until, tz);
    },
  };
}
