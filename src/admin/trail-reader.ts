// What the console's request explorer and usage charts read: the `request` records of the
// audit trail, newest first. On the embedded store the trail file is tailed into an
// in-memory list of summaries (read once, then only the bytes appended since), so a search
// over the last 100,000 records is a scan of an array, not a parse of the file.
import { open, stat } from 'node:fs/promises';

export interface RequestSummary {
  seq: number;
  ts: string;
  request_id?: string;
  person?: string;
  team?: string;
  key_id?: string;
  model?: string;
  provider?: string;
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
}

export type RequestFilter = Partial<Record<'person' | 'team' | 'key_id' | 'model' | 'provider' | 'status' | 'request_id' | 'since' | 'until', string>>;

export interface UsageReport {
  by: string;
  groups: Array<{ group: string; requests: number; input_tokens: number; output_tokens: number; dlp_hits: number }>;
  /** Per UTC day and group, for the charts. */
  daily: Array<{ day: string; group: string; requests: number; tokens: number; dlp_hits: number }>;
}

export interface TrailReader {
  search(filter: RequestFilter, limit: number): Promise<RequestSummary[]>;
  usage(by: 'team' | 'person' | 'model' | 'provider' | 'day' | 'key_id', since?: string): Promise<UsageReport>;
}

/** Summaries kept in memory (about 300 bytes each): the explorer's window on a busy hub. */
export const MAX_SUMMARIES = 200_000;

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
    if (name === 'since') { if (summary.ts < wanted) return false; continue; }
    if (name === 'until') { if (summary.ts > wanted) return false; continue; }
    if (name === 'status') { if (String(summary.status) !== wanted && !(wanted.endsWith('xx') && String(summary.status).startsWith(wanted[0]!))) return false; continue; }
    if (String((summary as unknown as Record<string, unknown>)[name] ?? '') !== wanted) return false;
  }
  return true;
}

export function summarizeUsage(summaries: Iterable<RequestSummary>, by: string, since?: string): UsageReport {
  const groups = new Map<string, UsageReport['groups'][number]>();
  const daily = new Map<string, UsageReport['daily'][number]>();
  for (const summary of summaries) {
    if (since && summary.ts < since) continue;
    const day = summary.ts.slice(0, 10);
    const group = by === 'day' ? day : String((summary as unknown as Record<string, unknown>)[by] ?? '(none)');
    const input = summary.tokens?.input ?? 0;
    const output = summary.tokens?.output ?? 0;
    const hits = Object.values(summary.dlp ?? {}).reduce((sum, count) => sum + count, 0);
    const total = groups.get(group) ?? { group, requests: 0, input_tokens: 0, output_tokens: 0, dlp_hits: 0 };
    total.requests += 1; total.input_tokens += input; total.output_tokens += output; total.dlp_hits += hits;
    groups.set(group, total);
    const key = `${day}\u0000${group}`;
    const cell = daily.get(key) ?? { day, group, requests: 0, tokens: 0, dlp_hits: 0 };
    cell.requests += 1; cell.tokens += input + output; cell.dlp_hits += hits;
    daily.set(key, cell);
  }
  return { by, groups: [...groups.values()].sort((a, b) => b.requests - a.requests), daily: [...daily.values()].sort((a, b) => a.day.localeCompare(b.day) || a.group.localeCompare(b.group)) };
}

/** Tails audit.jsonl: each call reads only what was appended since the last one. */
export function createFileTrailReader(file: string, maxSummaries = MAX_SUMMARIES): TrailReader {
  let summaries: RequestSummary[] = [];
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
    if (size < offset) { summaries = []; offset = 0; partial = ''; }
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
        }
      }
    } finally {
      await handle.close();
    }
    if (summaries.length > maxSummaries) summaries = summaries.slice(-maxSummaries);
  };
  const fresh = async () => {
    reading ??= catchUp().finally(() => { reading = null; });
    await reading;
  };
  return {
    async search(filter, limit) {
      await fresh();
      const found: RequestSummary[] = [];
      for (let index = summaries.length - 1; index >= 0 && found.length < limit; index -= 1) {
        if (matches(summaries[index]!, filter)) found.push(summaries[index]!);
      }
      return found;
    },
    async usage(by, since) {
      await fresh();
      return summarizeUsage(summaries, by, since);
    },
  };
}
