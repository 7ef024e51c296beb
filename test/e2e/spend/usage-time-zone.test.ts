// `gw usage --tz` (a real gw process over a trail file): days and date-only bounds read in the
// zone, UTC when not told (as before), the zone named in --json, an unknown zone a clear error.
// Its table reads as a report: all-zero columns left out, dollars to six decimals (issue 40).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw } from '../../support/gateway-process.js';

let trail: string;
let home: string;

// 2026-03-01T06:30Z is still 2026-02-28 in Los Angeles (22:30 PST); 2026-03-08 is the day its clocks go forward.
const TIMES = ['2026-02-28T20:00:00.000Z', '2026-03-01T06:30:00.000Z', '2026-03-01T08:30:00.000Z', '2026-03-08T07:30:00.000Z', '2026-03-09T06:30:00.000Z', '2026-03-09T07:30:00.000Z'];

beforeAll(async () => {
  home = await makeHome('gw-usage-tz-');
  trail = path.join(home, 'trail.jsonl');
  const lines = TIMES.map((ts, index) => JSON.stringify({ kind: 'request', ts, request_id: `req_${index}`, team: 'web', model: 'gpt-4.1', provider: 'openai', status: 200, tokens: { input: 10, output: 5 }, cost: { nano_usd: 1_000, price: 'dataset' } }));
  await writeFile(trail, `${lines.join('\n')}\n`);
});

async function usage(...args: string[]): Promise<{ tz: string; since: string; until: string | null; rows: Array<{ group: string; calls: number }> }> {
  const result = await runGw(['usage', '--file', trail, '--json', ...args], { home });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Awaited<ReturnType<typeof usage>>;
}

const days = (rows: Array<{ group: string; calls: number }>) => Object.fromEntries(rows.map((row) => [row.group, row.calls]));

describe('gw usage --tz', () => {
  it('counts the days of the zone, and says which zone it used', async () => {
    const report = await usage('--by', 'day', '--since', '2026-02-01', '--tz', 'America/Los_Angeles');
    expect(report.tz).toBe('America/Los_Angeles');
    expect(report.since).toBe('2026-02-01T08:00:00.000Z');
    expect(days(report.rows)).toEqual({ '2026-02-28': 2, '2026-03-01': 1, '2026-03-07': 1, '2026-03-08': 1, '2026-03-09': 1 });
  }, 30_000);

  it('without --tz counts UTC days, as it always did', async () => {
    const report = await usage('--by', 'day', '--since', '2026-02-01');
    expect(report.tz).toBe('UTC');
    expect(days(report.rows)).toEqual({ '2026-02-28': 1, '2026-03-01': 2, '2026-03-08': 1, '2026-03-09': 2 });
  }, 30_000);

  it('reads a date-only --since/--until as the zone\'s midnight', async () => {
    const report = await usage('--by', 'team', '--since', '2026-03-01', '--until', '2026-03-09', '--tz', 'America/Los_Angeles');
    expect(report.since).toBe('2026-03-01T08:00:00.000Z');
    // The day clocks go forward is 23 hours: 2026-03-09 starts at 07:00Z.
    expect(report.until).toBe('2026-03-09T07:00:00.000Z');
    expect(days(report.rows)).toEqual({ web: 3 });
  }, 30_000);

  it('refuses a zone it does not know, naming it', async () => {
    const result = await runGw(['usage', '--file', trail, '--by', 'day', '--tz', 'Mars/Olympus_Mons'], { home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('invalid --tz: unknown time zone "Mars/Olympus_Mons"');
    expect(result.stdout).toBe('');
  }, 30_000);

  it('says in --help that the default is UTC', async () => {
    const result = await runGw(['usage', '--help']);
    expect(result.stdout).toMatch(/--tz <zone>[\s\S]*default: UTC/);
  }, 30_000);
});

describe('gw usage as a table', () => {
  it('leaves out the columns that are zero in every row, and shows dollars, not nano-dollars', async () => {
    const result = await runGw(['usage', '--file', trail, '--by', 'model', '--since', '2026-02-01'], { home });
    expect(result.code, result.stderr).toBe(0);
    const [header, row, total] = result.stdout.trimEnd().split('\n').map((line) => line.trim().split(/\s+/));
    expect(header).toEqual(['model', 'calls', 'input', 'output', 'cost_usd']);
    expect(row).toEqual(['gpt-4.1', '6', '60', '30', '$0.000006']);
    expect(total).toEqual(['total', '6', '60', '30', '$0.000006']);
    // --csv keeps every column, for scripts that read it by position.
    const csv = await runGw(['usage', '--file', trail, '--by', 'model', '--since', '2026-02-01', '--csv'], { home });
    expect(csv.stdout.split('\n')[0]).toBe('model,calls,input,output,cached_read,cache_write,reasoning,cost_usd,unpriced_calls,images,audio_seconds,characters');
  }, 30_000);
});
