// `gw usage`'s table, read as a report: the group, calls and cost always, every other column only
// when some row has something in it, and dollars to six decimals below a dollar (four above), where
// nine decimals of nano-USD hid the figure. --csv and --json keep every column and exact sums.
import type { UsageRow } from '../../spend/usage-report.js';

type Column = readonly [title: string, value: (row: UsageRow) => number];

const COUNTED: readonly Column[] = [
  ['input', (row) => row.input_tokens], ['output', (row) => row.output_tokens],
  ['cached_read', (row) => row.cached_read_tokens], ['cache_write', (row) => row.cache_write_tokens],
  ['reasoning', (row) => row.reasoning_tokens],
];
const AFTER_COST: readonly Column[] = [
  ['unpriced_calls', (row) => row.unpriced_calls], ['images', (row) => row.images],
  ['audio_seconds', (row) => row.audio_seconds], ['characters', (row) => row.characters],
];

/** `$12.3456`, `$0.000123`: enough decimals to read a small call's cost, not nano-dollars. */
function formatUsd(nanos: number): string {
  const dollars = nanos / 1e9;
  return `$${dollars.toFixed(Math.abs(dollars) >= 1 ? 4 : 6)}`;
}

function sumOf(rows: readonly UsageRow[], value: (row: UsageRow) => number): number {
  return rows.reduce((sum, row) => sum + value(row), 0);
}

/** The table's rows, header first and a total last; columns all zero in every row left out. */
export function usageTable(by: string, rows: readonly UsageRow[]): string[][] {
  const shown = (columns: readonly Column[]) => columns.filter(([, value]) => rows.some((row) => value(row) !== 0));
  const before = shown(COUNTED);
  const after = shown(AFTER_COST);
  // A routing rule's calls are under the model that served them: the rule is named beside it.
  const ruled = rows.some((row) => row.rules !== undefined);
  const header = [by, ...(ruled ? ['via rule'] : []), 'calls', ...before.map(([title]) => title), 'cost_usd', ...after.map(([title]) => title)];
  const line = (group: string, rules: readonly string[], pick: (value: (row: UsageRow) => number) => number) => [
    group, ...(ruled ? [rules.join(', ')] : []), String(pick((row) => row.calls)), ...before.map(([, value]) => String(pick(value))),
    formatUsd(pick((row) => row.cost_nano_usd)), ...after.map(([, value]) => String(pick(value))),
  ];
  return [header, ...rows.map((row) => line(row.group, row.rules ?? [], (value) => value(row))), line('total', [], (value) => sumOf(rows, value))];
}
