// `gw usage --cache` (a table, or CSV with --csv; docs/prompt-cache.md): per group,
// the tokens read from and written to the providers' prompt caches, the hit ratio (reads over
// all input), what the cache saved in USD (negative: the writes cost more than the reads saved)
// and the calls that broke their session's cache.
import { cacheHitRatio } from '../../spend/cache-usage.js';
import type { UsageRow } from '../../spend/usage-report.js';

/** The --cache table: a header, one line per group and a total line (left out of CSV). */
export function cacheTable(by: string, rows: readonly UsageRow[]): string[][] {
  const header = [by, 'calls', 'input', 'cache_read', 'cache_write', 'hit_ratio', 'saved_usd', 'cache_breaks', 'cost_usd'];
  const lines = rows.map((row) => [row.group, row.calls, row.input_tokens, row.cache_read_tokens, row.cache_write_tokens, ratioText(row.cache_hit_ratio), usd(row.cache_saved_nano_usd), row.cache_breaks, usd(row.cost_nano_usd)].map(String));
  const sum = (pick: (row: UsageRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const input = sum((row) => row.input_tokens);
  const read = sum((row) => row.cache_read_tokens);
  const total = ['total', sum((row) => row.calls), input, read, sum((row) => row.cache_write_tokens), ratioText(cacheHitRatio(read, input)),
    usd(sum((row) => row.cache_saved_nano_usd)), sum((row) => row.cache_breaks), usd(sum((row) => row.cost_nano_usd))].map(String);
  return [header, ...lines, total];
}

/** 0.8125 → `81.25%`; no input → `-`. */
function ratioText(ratio: number | null): string {
  return ratio === null ? '-' : `${(ratio * 100).toFixed(2)}%`;
}

/** Nine decimals (exact for nano-USD sums), the sign kept. */
function usd(nanos: number): string {
  return (nanos / 1e9).toFixed(9);
}
