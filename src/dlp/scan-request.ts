// DLP over a parsed request body, any dialect. The scan redacts in place: the
// object scanned is the object the pipeline then serialises and forwards, so
// what DLP saw is exactly what leaves (duplicate JSON keys were already folded,
// last wins, by the parser; the raw bytes are not forwarded after a redaction).
import type { CleanTextCache } from './clean-text-cache.js';
import type { DlpAction } from './detector.js';
import { findMatches, redactMatches, type ActiveRule, type RuleMatch } from './find-matches.js';
import { prepareText } from './normalize-text.js';
import { scanRun, write } from './scan-run.js';
import { walkStrings, type StringLeaf } from './walk-strings.js';

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

export function scanRequestBody(body: unknown, rules: readonly ActiveRule[], cache?: CleanTextCache): DlpScan {
  const scan: DlpScan = { counts: {}, actions: {}, blockedBy: null, redacted: 0, binarySkipped: 0, objectKeys: 0 };
  if (rules.length === 0) return scan;
  const walk = walkStrings(body);
  scan.binarySkipped = walk.binarySkipped;
  scan.objectKeys = walk.objectKeys;
  for (const leaf of walk.leaves) scanLeaf(leaf, rules, scan, cache);
  for (const run of walk.runs) scanRun(run, rules, (match) => record(scan, match), cache);
  return scan;
}

function record(scan: DlpScan, match: RuleMatch): void {
  const id = match.rule.detector.id;
  scan.counts[id] = (scan.counts[id] ?? 0) + 1;
  scan.actions[id] = match.rule.action;
  if (match.rule.action === 'block') scan.blockedBy ??= id;
  if (match.rule.action === 'redact') scan.redacted += 1;
}

function scanLeaf(leaf: StringLeaf, rules: readonly ActiveRule[], scan: DlpScan, cache: CleanTextCache | undefined): void {
  const known = cache?.lookup(leaf.value);
  if (known !== undefined) {
    // Clean before; its forms, when kept, spare the run's joint check normalising it again.
    if (known !== true) { leaf.normalized = known.normalized; leaf.folded = known.folded; }
    return;
  }
  const { normalized, folded } = prepareText(leaf.value);
  leaf.normalized = normalized;
  leaf.folded = folded;
  const matches = findMatches(folded, rules);
  if (matches.length === 0) {
    // With its forms: the run's joint check reads them again next turn.
    cache?.add(leaf.value, undefined, leaf.inRun ? { normalized, folded } : undefined);
    return;
  }
  if (leaf.inRun) {
    leaf.matches = matches;
    return;
  }
  for (const match of matches) record(scan, match);
  if (matches.some((match) => match.rule.action === 'redact')) write(leaf, redactMatches(normalized, matches));
}
