// A secret split across text parts the model reads one after the other (a run:
// walk-strings.ts) is found on the joints between them. Around each joint
// JOINT_WINDOW characters either side of the run's joined text are scanned,
// reaching across as many short parts as that takes, so a key cut into three or
// more pieces, or across two messages, is still seen. Windows that overlap are
// merged and scanned once: a run of many tiny parts costs one pass over its
// text, not a window per joint. The parts' own matches (found by the leaf scan)
// and the matches that span parts are then resolved together, as findMatches
// resolves one text's: a part that ends with what is already a whole key, the
// key going on in the next part, is one match, counted once and redacted whole.
// A redaction puts the placeholder where the secret began and removes its pieces
// from the parts after.
import { itemAt } from '../item-at.js';
import type { CleanTextCache } from './clean-text-cache.js';
import { findMatches, placeholderFor, type ActiveRule, type RuleMatch } from './find-matches.js';
import { prepareText, type MatchableText } from './normalize-text.js';
import type { StringLeaf } from './walk-strings.js';

/** How much of each side of a joint between two text parts is scanned together. */
const JOINT_WINDOW = 512;

/**
 * Windows shorter than this are scanned, not looked up in the clean-text cache.
 * A window is a new string each request, so a lookup hashes it: worth it at 1 KB
 * (the next turn of a conversation has the same joints), not for a few characters.
 */
const CACHED_WINDOW_MIN_LENGTH = 256;

export function write(leaf: StringLeaf, value: string): void {
  (leaf.container as Record<string | number, unknown>)[leaf.key] = value;
  leaf.value = value;
  leaf.normalized = undefined;
  leaf.folded = undefined;
}

/** The leaf's text, reusing the leaf scan's normalisation (or the cache's, which the leaf scan copied). */
function textOf(leaf: StringLeaf): MatchableText {
  if (leaf.normalized === undefined || leaf.folded === undefined) {
    const prepared = prepareText(leaf.value);
    leaf.normalized = prepared.normalized;
    leaf.folded = prepared.folded;
  }
  return { normalized: leaf.normalized, folded: leaf.folded };
}

/** One replacement inside one part, in that part's offsets. */
interface Edit {
  from: number;
  to: number;
  text: string;
}

/** Counts (through `record`) and redacts the matches of a run whose leaves were scanned but not yet recorded. */
export function scanRun(run: readonly StringLeaf[], rules: readonly ActiveRule[], record: (match: RuleMatch) => void, cache?: CleanTextCache): void {
  const texts = run.map(textOf);
  // starts[i]: where part i begins in the run's joined text; starts[run.length]: its length.
  const starts = [0];
  let joined = 0;
  for (const text of texts) {
    joined += text.folded.length;
    starts.push(joined);
  }
  const found: RuleMatch[] = [];
  run.forEach((leaf, index) => {
    const start = itemAt(starts, index);
    for (const match of leaf.matches ?? []) found.push({ rule: match.rule, start: start + match.start, end: start + match.end });
    leaf.matches = undefined;
  });
  findSpanningMatches(texts, starts, rules, found, cache);
  const edits = new Map<number, Edit[]>();
  for (const match of resolveOverlaps(found, rules)) {
    record(match);
    if (match.rule.action === 'redact') planRedaction(edits, starts, match, match.rule.detector.id);
  }
  for (const [index, partEdits] of edits) write(itemAt(run, index), applyEdits(itemAt(texts, index).normalized, partEdits));
}

/** Adds to `found` the matches, in joined-text offsets, that the windows around the joints see spanning two parts or more. */
function findSpanningMatches(texts: readonly MatchableText[], starts: readonly number[], rules: readonly ActiveRule[], found: RuleMatch[], cache: CleanTextCache | undefined): void {
  let part = 0;
  for (const [from, to] of mergedWindows(starts)) {
    while (itemAt(starts, part + 1) <= from) part += 1;
    let window = '';
    for (let index = part; index < texts.length && itemAt(starts, index) < to; index += 1) {
      window += itemAt(texts, index).folded.slice(Math.max(0, from - itemAt(starts, index)), to - itemAt(starts, index));
    }
    if (cache?.has(window, CACHED_WINDOW_MIN_LENGTH)) continue;
    const matches = findMatches(window, rules);
    if (matches.length === 0) cache?.add(window, CACHED_WINDOW_MIN_LENGTH);
    for (const match of matches) {
      const start = from + match.start;
      const end = from + match.end;
      // Inside one part: the leaf scan's, which saw the whole part.
      if (partAt(starts, start) !== partAt(starts, end - 1)) found.push({ rule: match.rule, start, end });
    }
  }
}

/** [from, to) of the joined text around every joint, overlapping windows merged, in order. */
function mergedWindows(starts: readonly number[]): Array<[number, number]> {
  const total = itemAt(starts, starts.length - 1);
  const windows: Array<[number, number]> = [];
  for (let joint = 1; joint < starts.length - 1; joint += 1) {
    const at = itemAt(starts, joint);
    // A joint with nothing on one side cannot be crossed.
    if (at === 0 || at === total) continue;
    const from = Math.max(0, at - JOINT_WINDOW);
    const to = Math.min(total, at + JOINT_WINDOW);
    const last = windows[windows.length - 1];
    if (last && from <= last[1]) last[1] = to;
    else windows.push([from, to]);
  }
  return windows;
}

/** findMatches' rule across the run: earliest first, the longer on a tie, then rule order; a match overlapping a kept one is dropped. */
function resolveOverlaps(found: RuleMatch[], rules: readonly ActiveRule[]): RuleMatch[] {
  if (found.length <= 1) return found;
  found.sort((left, right) => left.start - right.start || (right.end - right.start) - (left.end - left.start) || rules.indexOf(left.rule) - rules.indexOf(right.rule));
  const kept: RuleMatch[] = [];
  let reached = -1;
  for (const match of found) {
    if (match.start < reached) continue;
    kept.push(match);
    reached = match.end;
  }
  return kept;
}

/** The part holding joined-text offset `offset` (the last of equal starts: empty parts hold nothing). */
function partAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (itemAt(starts, middle) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

function planRedaction(edits: Map<number, Edit[]>, starts: readonly number[], match: RuleMatch, ruleId: string): void {
  const add = (index: number, edit: Edit) => {
    const list = edits.get(index);
    if (list) list.push(edit);
    else edits.set(index, [edit]);
  };
  const first = partAt(starts, match.start);
  const last = partAt(starts, match.end - 1);
  const placeholder = placeholderFor(ruleId);
  if (first === last) {
    add(first, { from: match.start - itemAt(starts, first), to: match.end - itemAt(starts, first), text: placeholder });
    return;
  }
  add(first, { from: match.start - itemAt(starts, first), to: itemAt(starts, first + 1) - itemAt(starts, first), text: placeholder });
  for (let index = first + 1; index < last; index += 1) add(index, { from: 0, to: itemAt(starts, index + 1) - itemAt(starts, index), text: '' });
  add(last, { from: 0, to: match.end - itemAt(starts, last), text: '' });
}

/** Edits arrive in text order (matches are resolved left to right) and never overlap. */
function applyEdits(text: string, edits: readonly Edit[]): string {
  let output = '';
  let cursor = 0;
  for (const edit of edits) {
    output += text.slice(cursor, edit.from) + edit.text;
    cursor = edit.to;
  }
  return output + text.slice(cursor);
}
