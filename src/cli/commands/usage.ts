// `gw usage`: tokens and cost from the audit trail, grouped by team, person, key, model,
// provider, day (UTC, or the --tz zone's days) or coding-agent session (docs/sessions.md). On a hub it reads the hub's trail (everyone's calls; with --store, every
// instance's trail in PostgreSQL); on a laptop the
// sidecar's trail, which holds only the logged-in person's calls (--person narrows any trail).
// Person is the human from device login, as recorded; never a session token.
import path from 'node:path';
import type { Command } from 'commander';
import { resolveStoreUrl } from '../../postgres/open-state.js';
import { openStoreTrailSource } from '../../postgres/store-trail-source.js';
import { readRequestRecords } from '../../spend/read-trail.js';
import { openTrailSource, type TrailSource } from '../../spend/trail-source.js';
import { UnknownTimeZoneError, checkTimeZone, usageBound } from '../../spend/usage-day.js';
import { summariseUsage, USAGE_GROUPINGS, type UsageGrouping, type UsageRow } from '../../spend/usage-report.js';
import { parseDuration } from '../../state/parse-duration.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { formatTable } from '../state-command.js';
import { cacheTable } from './usage-cache-columns.js';
import { usageTable } from './usage-table.js';
import { errorCode } from '../../error-code.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';

interface UsageFlags { by: string; since?: string; until?: string; tz?: string; person?: string; json?: boolean; csv?: boolean; cache?: boolean; file?: string; home?: string; store?: string }

export function registerUsageCommand(program: Command, context: CliContext): void {
  program.command('usage').description('Tokens and cost from the audit trail, by team, person, key, model, provider, day or session')
    .option('--by <grouping>', USAGE_GROUPINGS.join(', '), 'model')
    .option('--since <when>', 'from this long ago (7d, 12h) or this date (2026-11-01)', '30d')
    .option('--until <when>', 'up to this long ago or this date (default now)')
    .option('--tz <zone>', 'the time zone of --by day and of a date-only --since/--until: an IANA name such as America/Los_Angeles (default: UTC, as before)')
    .option('--person <email>', 'only this person\'s calls')
    .option('--json', 'print JSON').option('--csv', 'print CSV')
    .option('--cache', 'the prompt cache: tokens read and written, hit ratio, what it saved, session cache breaks (docs/prompt-cache.md)')
    .option('--file <path>', 'the trail to read (default: <home>/audit/audit.jsonl)').option('--home <dir>', HOME_HELP)
    .option('--store <url>', 'read the PostgreSQL trail of every instance (default: GW_DATABASE_URL)')
    .action(async (options: UsageFlags) => runUsage(options, context));
}

async function runUsage(options: UsageFlags, context: CliContext, now = new Date()): Promise<void> {
  if (!(USAGE_GROUPINGS as readonly string[]).includes(options.by)) throw new CliExit(2, `invalid --by "${options.by}": ${USAGE_GROUPINGS.join(', ')}`);
  if (options.json && options.csv) throw new CliExit(2, 'choose one of --json and --csv');
  const tz = zoneOf(options.tz);
  const since = parseWhen(options.since ?? '30d', now, '--since', tz);
  const until = options.until === undefined ? undefined : parseWhen(options.until, now, '--until', tz);
  // --file, else the store's trail when one is named (--store, GW_DATABASE_URL), else the home's.
  const trail: TrailSource = options.file
    ? { records: (from) => readRequestRecords(path.resolve(options.file!), from), where: path.resolve(options.file), close: async () => {} }
    : await openTrailSource(context.home(options.home), resolveStoreUrl(options.store, context.env), openStoreTrailSource);
  let rows: UsageRow[];
  try {
    rows = await summariseUsage(trail.records(since), options.by as UsageGrouping, { since, until, tz, ...(options.person ? { person: options.person } : {}) });
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw new CliExit(2, `no audit trail at ${trail.where}: gw serve writes one there`);
    throw new CliExit(2, `cannot read the audit trail in ${trail.where}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await trail.close().catch(() => undefined);
  }
  if (options.json) return context.stdout.write(`${JSON.stringify({ by: options.by, since: since.toISOString(), until: until?.toISOString() ?? null, tz, rows: rows.map(withUsd) }, null, 2)}\n`);
  // --cache: the prompt cache's columns instead (docs/prompt-cache.md), as a table or CSV.
  if (options.cache && (options.csv || rows.length > 0)) return writeCacheReport(context, options, rows);
  // Media units are columns after the existing ones, so a script reading the CSV by position keeps working.
  const header = [options.by, 'calls', 'input', 'output', 'cached_read', 'cache_write', 'reasoning', 'cost_usd', 'unpriced_calls', 'images', 'audio_seconds', 'characters'];
  const lines = rows.map((row) => [row.group, row.calls, row.input_tokens, row.output_tokens, row.cached_read_tokens, row.cache_write_tokens, row.reasoning_tokens, toUsd(row.cost_nano_usd), row.unpriced_calls, row.images, row.audio_seconds, row.characters].map(String));
  if (options.csv) return context.stdout.write([header, ...lines].map((line) => line.map(csvCell).join(',')).join('\n') + '\n');
  if (rows.length === 0) return context.stdout.write(`no calls since ${since.toISOString()}\n`);
  context.stdout.write(formatTable(usageTable(options.by, rows)));
}

function writeCacheReport(context: CliContext, options: UsageFlags, rows: UsageRow[]): void {
  const table = cacheTable(options.by, rows);
  if (options.csv) context.stdout.write(table.slice(0, -1).map((line) => line.map(csvCell).join(',')).join('\n') + '\n');
  else context.stdout.write(formatTable(table));
}

function zoneOf(zone: string | undefined): string {
  try { return checkTimeZone(zone); } catch (error) {
    if (error instanceof UnknownTimeZoneError) throw new CliExit(2, `invalid --tz: ${error.message}`);
    throw error;
  }
}

/** `7d` → now − 7 days; `2026-11-01` → that day's midnight in the zone; any ISO time → that instant. */
function parseWhen(text: string, now: Date, flag: string, zone: string): Date {
  if (/^\d+[smhdw]$/.test(text.trim())) {
    try { return new Date(now.getTime() - parseDuration(text)); } catch { /* reported below */ }
  }
  const at = /^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(Date.parse(text)) ? usageBound(text, zone) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) throw new CliExit(2, `invalid ${flag} "${text}": a duration (7d, 12h) or a date (2026-11-01)`);
  return at;
}

/** Nine decimals: exact for nano-USD sums. */
function toUsd(nanos: number): string {
  return (nanos / 1e9).toFixed(9);
}

function withUsd(row: UsageRow): UsageRow & { cost_usd: string; cache_saved_usd: string } {
  return { ...row, cost_usd: toUsd(row.cost_nano_usd), cache_saved_usd: toUsd(row.cache_saved_nano_usd) };
}

function csvCell(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
