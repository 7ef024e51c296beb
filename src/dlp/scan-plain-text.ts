// DLP over a body that is not JSON (text/plain, form-encoded): the whole body is
// one text, scanned and redacted as one string leaf of a JSON body would be.
// Percent-escapes are not decoded here (`%41KIA…` is not `AKIA…` to this scan):
// a form body is best scanned field by field on its decoded values
// (URLSearchParams), each redacted value encoded again by the caller.
import { findMatches, redactMatches, type ActiveRule, type RuleMatch } from './find-matches.js';
import { prepareText } from './normalize-text.js';

export interface DlpTextScan {
  /** rule id → matches, never the matched text. */
  counts: Record<string, number>;
  /** The first block rule that matched, or null. */
  blockedBy: string | null;
  /** The text with redact matches replaced by placeholders; null when nothing was redacted. */
  redactedText: string | null;
  redacted: number;
}

/** Adds matches to running counts; the first block rule is kept. */
export function countMatches(matches: readonly RuleMatch[], counts: Record<string, number>, blockedBy: string | null): string | null {
  let firstBlock = blockedBy;
  for (const match of matches) {
    const id = match.rule.detector.id;
    counts[id] = (counts[id] ?? 0) + 1;
    if (match.rule.action === 'block') firstBlock ??= id;
  }
  return firstBlock;
}

export function scanPlainText(text: string, rules: readonly ActiveRule[]): DlpTextScan {
  const scan: DlpTextScan = { counts: {}, blockedBy: null, redactedText: null, redacted: 0 };
  if (rules.length === 0 || text.length === 0) return scan;
  const { normalized, folded } = prepareText(text);
  const matches = findMatches(folded, rules);
  scan.blockedBy = countMatches(matches, scan.counts, null);
  scan.redacted = matches.filter((match) => match.rule.action === 'redact').length;
  if (scan.redacted > 0) scan.redactedText = redactMatches(normalized, matches);
  return scan;
}
