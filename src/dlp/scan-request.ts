// DLP over a parsed request body, any dialect. The scan redacts in place: the
// object scanned is the object the pipeline then serialises and forwards, so
// what DLP saw is exactly what leaves (duplicate JSON keys were already folded,
// last wins, by the parser; the raw bytes are not forwarded after a redaction).
import type { CleanTextCache } from './clean-text-cache.js';
import type { DlpAction } from './detector.js';
import { findMatches, placeholderFor, redactMatches, type ActiveRule, type RuleMatch } from './find-matches.js';
import { normalizeText } from './normalize-text.js';
import { walkStrings, type AdjacentPair, type StringLeaf } from './walk-strings.js';

export interface DlpScan {
  /** rule id → matches, never the matched text. */
  counts: Record<string, number>;
  /** rule id → its action, for the rules that matched. */
  actions: Record<string, DlpAction>;
  /** The first block rule that matched, or null. */
  blockedBy: string | null;
  redacted: number;
  binarySkipped: number;
  /** Object keys in the scanned tree. */
  objectKeys: number;
}

/** How much of each side of a joint between two text parts is scanned together. */
export const JOINT_WINDOW = 512;

export function scanRequestBody(body: unknown, rules: readonly ActiveRule[], cache?: CleanTextCache): DlpScan {
  const scan: DlpScan = { counts: {}, actions: {}, blockedBy: null, redacted: 0, binarySkipped: 0, objectKeys: 0 };
  if (rules.length === 0) return scan;
  const walk = walkStrings(body);
  scan.binarySkipped = walk.binarySkipped;
  scan.objectKeys = walk.objectKeys;
  for (const leaf of walk.leaves) scanLeaf(leaf, rules, scan, cache);
  for (const pair of walk.pairs) scanJoint(pair, rules, scan);
  return scan;
}

function record(scan: DlpScan, match: RuleMatch): void {
  const id = match.rule.detector.id;
  scan.counts[id] = (scan.counts[id] ?? 0) + 1;
  scan.actions[id] = match.rule.action;
  if (match.rule.action === 'block') scan.blockedBy ??= id;
  if (match.rule.action === 'redact') scan.redacted += 1;
}

function write(leaf: StringLeaf, value: string): void {
  (leaf.container as Record<string | number, unknown>)[leaf.key] = value;
  leaf.value = value;
  leaf.normalized = undefined;
}

function scanLeaf(leaf: StringLeaf, rules: readonly ActiveRule[], scan: DlpScan, cache: CleanTextCache | undefined): void {
  if (cache?.has(leaf.value)) return;
  const text = normalizeText(leaf.value);
  leaf.normalized = text;
  const matches = findMatches(text, rules);
  if (matches.length === 0) {
    cache?.add(leaf.value);
    return;
  }
  for (const match of matches) record(scan, match);
  if (matches.some((match) => match.rule.action === 'redact')) write(leaf, redactMatches(text, matches));
}

/** The leaf's text as it now stands in its container, normalised (reusing the leaf scan's work when it is unchanged). */
function currentText(leaf: StringLeaf): string {
  const value = (leaf.container as Record<string | number, unknown>)[leaf.key];
  if (typeof value !== 'string') return '';
  return value === leaf.value && leaf.normalized !== undefined ? leaf.normalized : normalizeText(value);
}

/** A secret split across two parts: only matches that cross the joint are new here. */
function scanJoint(pair: AdjacentPair, rules: readonly ActiveRule[], scan: DlpScan): void {
  // Read from the containers: the leaves' own scans may have redacted them already.
  const left = currentText(pair.left);
  const right = currentText(pair.right);
  const tail = left.slice(-JOINT_WINDOW);
  const joint = tail.length;
  const crossing = findMatches(tail + right.slice(0, JOINT_WINDOW), rules).filter((match) => match.start < joint && match.end > joint);
  for (const match of crossing) {
    record(scan, match);
    if (match.rule.action !== 'redact') continue;
    // The placeholder goes where the secret began; the right part loses its half.
    const cut = left.length - joint + match.start;
    write(pair.left, left.slice(0, cut) + placeholderFor(match.rule.detector.id));
    write(pair.right, right.slice(match.end - joint));
    return;
  }
}
