// The output DLP matrix at the decoder level (issue 36): every dialect of the codec registry ×
// every cell (text, reasoning, tool name, tool arguments whole / split / escaped, n > 1
// interleaved, parallel tool calls interleaved, an error's message) × {same-format: the
// provider's events read by the codec's output-part reader and held as they are; translated:
// the provider's decoder's parts held before any encoder}. A secret is stopped before any
// event or part carrying three of its characters in a row is released, and what came wholly
// before it is released. test/e2e/output-dlp/ proves the real path per dialect.
import { describe, expect, it } from 'vitest';
import type { OutputPart, WireEvent } from '../../src/canonical/codec.js';
import type { StreamPart } from '../../src/canonical/response.js';
import { resolveDlpSettings } from '../../src/dlp/dlp-config.js';
import { createOutputPartScan, OUTPUT_PART_KINDS } from '../../src/dlp/scan-output-parts.js';
import { CODECS, type CodecName } from '../../src/formats/codec-registry.js';
import { BEFORE, CELL_EVENTS, cellEvents, cleanEvents, OUTPUT_CELLS, SECRET, type OutputCell } from '../support/output-dlp-cells.js';

const rules = resolveDlpSettings([], ['*']).rules;
const DIALECTS = Object.keys(CODECS) as CodecName[];
const CELLS = Object.keys(OUTPUT_CELLS) as OutputCell[];

/** Every string an event or part shows a client (keys too), JSON escapes undone as the client's JSON.parse would. */
function shown(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    out.push(value.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))));
    if (value.startsWith('{') || value.startsWith('[')) { try { shown(JSON.parse(value), out); } catch { /* a fragment */ } }
  } else if (Array.isArray(value)) for (const item of value) shown(item, out);
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) { out.push(key); shown(item, out); }
  return out;
}

function eventShown(event: WireEvent): string {
  try { return shown(JSON.parse(event.data)).join(''); } catch { return event.data; }
}

/** Whether `text` holds three characters of the secret in a row. */
function carriesSecret(text: string): boolean {
  for (let start = 0; start + 3 <= SECRET.length; start += 1) if (text.includes(SECRET.slice(start, start + 3))) return true;
  return false;
}

interface Outcome { released: string[]; blockedBy: string | null }

/** Pushes each item with its parts until a block; `released`: what each released item shows. */
function run<T>(items: Array<{ item: T; parts: OutputPart[] }>, textOf: (item: T) => string): Outcome {
  const scan = createOutputPartScan<T>(rules);
  const released: string[] = [];
  for (const { item, parts } of items) {
    const step = scan.push(item, parts);
    released.push(...step.release.map(textOf));
    if (step.blocked !== null) return { released, blockedBy: step.blocked.rule.detector.id };
  }
  released.push(...scan.end().map(textOf));
  return { released, blockedBy: null };
}

/** The provider's events, read by the codec's output-part reader, held as they are. */
function sameFormat(dialect: CodecName, events: WireEvent[]): Outcome {
  const reader = CODECS[dialect].createOutputPartReader();
  const items = events.map((event) => ({ item: event, parts: reader.push(event) }));
  items.push({ item: { data: '' }, parts: reader.end() });
  return run(items, eventShown);
}

/** The provider's decoder's parts, held before the client's encoder (choice 0: a translated stream is one answer). */
function translated(dialect: CodecName, events: WireEvent[]): Outcome {
  const decoder = CODECS[dialect].createStreamDecoder();
  const parts: StreamPart[] = [...events.flatMap((event) => decoder.push(event)), ...decoder.end()];
  return run(parts.map((part) => ({ item: part, parts: [{ choice: 0, part }] })), (part) => shown(part).join(''));
}

const ROWS = DIALECTS.flatMap((dialect) => CELLS.map((cell) => [dialect, cell, cellEvents(dialect, cell)] as const));
const EXPRESSIBLE = ROWS.flatMap(([dialect, cell, events]) => (Array.isArray(events) ? [[dialect, cell, events] as const] : []));

describe('the matrix covers every dialect and part kind', () => {
  it('has cells for every dialect of the codec registry', () => {
    expect(Object.keys(CELL_EVENTS).sort()).toEqual([...DIALECTS].sort());
  });

  it('has a cell for every part kind output DLP reads', () => {
    expect(new Set(Object.values(OUTPUT_CELLS))).toEqual(new Set(OUTPUT_PART_KINDS));
  });

  it('says why of every cell a dialect cannot express, and each kind is expressed by some dialect', () => {
    for (const [dialect, cell, events] of ROWS) {
      if (!Array.isArray(events)) expect(events.inexpressible, `${dialect} ${cell}`).toMatch(/\w{4,}/);
    }
    for (const cell of CELLS) expect(EXPRESSIBLE.filter(([, c]) => c === cell).length, cell).toBeGreaterThanOrEqual(2);
  });

  it('lists the inexpressible cells', () => {
    const inexpressible = ROWS.filter(([, , events]) => !Array.isArray(events)).map(([dialect, cell]) => `${dialect} × ${cell}`);
    expect(inexpressible).toEqual([
      'openai-completions × reasoning', 'openai-completions × tool name', 'openai-completions × tool arguments whole',
      'openai-completions × tool arguments split', 'openai-completions × tool arguments escaped', 'openai-completions × parallel tool calls interleaved',
      'anthropic-messages × n > 1 interleaved', 'openai-responses × n > 1 interleaved',
      'google-genai × tool arguments split', 'google-genai × parallel tool calls interleaved', 'bedrock-converse × n > 1 interleaved',
    ].sort((a, b) => ROWS.findIndex(([d, c]) => `${d} × ${c}` === a) - ROWS.findIndex(([d, c]) => `${d} × ${c}` === b)));
  });
});

describe.each(['same-format', 'translated'] as const)('%s: a secret in any part is stopped before it leaves', (mode) => {
  it.each(EXPRESSIBLE.map(([dialect, cell, events]) => [dialect, cell, events]))('%s × %s', (dialect, cell, events) => {
    const outcome = mode === 'same-format' ? sameFormat(dialect, [...events]) : translated(dialect, [...events]);
    expect(outcome.blockedBy).toBe('github_token');
    const leaked = outcome.released.filter(carriesSecret);
    expect(leaked).toEqual([]);
    // What came wholly before the secret in its part is not lost with it.
    if (OUTPUT_CELLS[cell] === 'text' || OUTPUT_CELLS[cell] === 'reasoning') expect(outcome.released.some((text) => text.includes(BEFORE.slice(0, 3)))).toBe(true);
  });
});

describe('control: a clean stream leaves whole', () => {
  it.each(DIALECTS)('%s same-format: every event, unchanged and in order', (dialect) => {
    const events = cleanEvents(dialect);
    const outcome = sameFormat(dialect, events);
    expect(outcome.blockedBy).toBeNull();
    expect(outcome.released).toEqual([...events.map(eventShown), '']);
  });
});
