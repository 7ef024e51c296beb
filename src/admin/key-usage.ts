// What each virtual key did over a window, read from the trail for the console's Keys page:
// its last use, its requests and its spend (priced calls' cost, exactly as `gw usage --by
// key_id` sums it). The file trail sums its in-memory summaries here; the PostgreSQL trail
// sums the same fields in SQL (src/postgres/postgres-key-usage.ts).
import { isControlPlaneCall } from '../audit/record.js';

/** The fields of a request summary (trail-reader.ts) this reads; structural, so no import cycle. */
interface KeyedCall { ts: string; key_id?: string; operation?: string; cost?: unknown }

export interface KeyUsage {
  key_id: string;
  /** The newest request made with the key in the window (any operation, control plane too). */
  last_used_at: string;
  /** Calls in the window, as usage counts them (control-plane calls left out). */
  requests: number;
  /** Nano-USD: the priced calls' cost (an unpriced call adds nothing; the Usage page counts those). */
  cost_nano_usd: number;
}

export function summarizeKeyUsage(summaries: Iterable<KeyedCall>, since: string): KeyUsage[] {
  const byKey = new Map<string, KeyUsage>();
  for (const summary of summaries) {
    if (summary.ts < since || typeof summary.key_id !== 'string') continue;
    let row = byKey.get(summary.key_id);
    if (!row) {
      row = { key_id: summary.key_id, last_used_at: summary.ts, requests: 0, cost_nano_usd: 0 };
      byKey.set(summary.key_id, row);
    }
    if (summary.ts > row.last_used_at) row.last_used_at = summary.ts;
    if (isControlPlaneCall(summary.operation)) continue;
    row.requests += 1;
    const nanos = (summary.cost as { nano_usd?: unknown } | undefined)?.nano_usd;
    if (typeof nanos === 'number') row.cost_nano_usd += nanos;
  }
  return [...byKey.values()].sort((a, b) => a.key_id.localeCompare(b.key_id));
}

/** The keys.list rows with their usage: null last use and zeros for a key unused in the window. */
export function withKeyUsage<T extends { id: string }>(keys: T[], usage: KeyUsage[]): Array<T & { last_used_at: string | null; requests: number; spend_nano_usd: number }> {
  const byId = new Map(usage.map((row) => [row.key_id, row]));
  return keys.map((key) => {
    const row = byId.get(key.id);
    return { ...key, last_used_at: row?.last_used_at ?? null, requests: row?.requests ?? 0, spend_nano_usd: row?.cost_nano_usd ?? 0 };
  });
}
