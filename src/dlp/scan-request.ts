// DLP over a parsed request body, any dialect. The scan redacts in place: the
// object scanned is the object the pipeline then serialises and forwards, so
// what DLP saw is exactly what leaves (duplicate JSON keys were already folded,
// last wins, by the parser; the raw bytes are not forwarded after a redaction).
//
// Object keys are scanned like values. A key a redact rule matches is renamed to
// its redacted form, in place and in its order; when that name is already taken
// in the same object (two keys redacting alike, or a key already so named) the
// rename would merge two members and drop a value, so the body is blocked by the
// rule instead. A body that is one string is scanned and, redacted, handed back
// as `body`. A base64 payload declared as text is decoded and scanned (not
// rewritten: a redact rule blocks it).
import type { CleanTextCache } from './clean-text-cache.js';
import type { DlpAction } from './detector.js';
import { findMatches, redactMatches, type ActiveRule, type RuleMatch } from './find-matches.js';
import { prepareText } from './normalize-text.js';
import { scanRun, write } from './scan-run.js';
import { walkStrings, type EncodedText, type StringLeaf } from './walk-strings.js';

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
  /** The body after the scan: the same object, redacted in place, or a top-level string's redacted copy. */
  body: unknown;
}

/** A key's verdict, worked out once per name per scan. */
interface KeyVerdict {
  matches: RuleMatch[];
  /** The redacted name, or null when no redact rule matched. */
  renamed: string | null;
}

export function scanRequestBody(body: unknown, rules: readonly ActiveRule[], cache?: CleanTextCache): DlpScan {
  const scan: DlpScan = { counts: {}, actions: {}, blockedBy: null, redacted: 0, binarySkipped: 0, objectKeys: 0, body };
  if (rules.length === 0) return scan;
  const walk = walkStrings(body, cache ? { isCleanKey: cache.hasKey } : {});
  scan.binarySkipped = walk.binarySkipped;
  scan.objectKeys = walk.objectKeys;
  for (const leaf of walk.leaves) scanLeaf(leaf, rules, scan, cache);
  for (const run of walk.runs) scanRun(run, rules, (match) => record(scan, match), cache);
  for (const encoded of walk.encodedText) scanEncodedText(encoded, rules, scan);
  // Renames last: a value below a key is reached through its old name until every value is written.
  if (walk.keys.length > 0) scanKeys(walk.keys, rules, scan, cache);
  scan.body = walk.holder.root;
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

/**
 * A base64 payload declared as text, decoded (standard or URL-safe) and scanned. It is not
 * rewritten: a redact rule refuses the body here, as a block rule does.
 */
function scanEncodedText(encoded: EncodedText, rules: readonly ActiveRule[], scan: DlpScan): void {
  const text = Buffer.from(encoded.value.slice(encoded.from), 'base64').toString('utf8');
  const matches = findMatches(prepareText(text).folded, rules);
  for (const match of matches) {
    record(scan, match);
    if (match.rule.action === 'redact') scan.blockedBy ??= match.rule.detector.id;
  }
}

function scanKeys(keys: readonly StringLeaf[], rules: readonly ActiveRule[], scan: DlpScan, cache: CleanTextCache | undefined): void {
  const verdicts = new Map<string, KeyVerdict>();
  for (const leaf of keys) {
    let verdict = verdicts.get(leaf.value);
    if (verdict === undefined) {
      verdict = judgeKey(leaf.value, rules);
      verdicts.set(leaf.value, verdict);
      if (verdict.matches.length === 0) cache?.addKey(leaf.value);
    }
    if (verdict.matches.length === 0) continue;
    for (const match of verdict.matches) record(scan, match);
    if (verdict.renamed === null) continue;
    const container = leaf.container as Record<string, unknown>;
    if (Object.prototype.hasOwnProperty.call(container, verdict.renamed)) {
      scan.blockedBy ??= verdict.matches.find((match) => match.rule.action === 'redact')!.rule.detector.id;
      continue;
    }
    renameKey(container, leaf.value, verdict.renamed);
  }
}

function judgeKey(name: string, rules: readonly ActiveRule[]): KeyVerdict {
  const { normalized, folded } = prepareText(name);
  const matches = findMatches(folded, rules);
  const redacts = matches.some((match) => match.rule.action === 'redact');
  return { matches, renamed: redacts ? redactMatches(normalized, matches) : null };
}

/** Renames one member, keeping the members' order; defined, not assigned, so a key named `__proto__` stays a plain member. */
function renameKey(object: Record<string, unknown>, from: string, to: string): void {
  const entries = Object.entries(object);
  for (const [name] of entries) delete object[name];
  for (const [name, value] of entries) {
    Object.defineProperty(object, name === from ? to : name, { value, writable: true, enumerable: true, configurable: true });
  }
}
