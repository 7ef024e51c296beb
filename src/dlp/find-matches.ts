// Runs a rule set over one (normalised) text: each detector behind its pre-filter
// (built-ins: one shared trigger pass; admin rules: none), then overlapping matches resolved so every character is counted
// and redacted once (earliest first, the longer one on a tie, then rule order).
import { hasKeyword, type Detector, type DlpAction } from './detector.js';
import { scanTriggers } from './trigger-scan.js';

export interface ActiveRule {
  detector: Detector;
  action: DlpAction;
}

export interface RuleMatch {
  rule: ActiveRule;
  start: number;
  end: number;
}

export function findMatches(text: string, rules: readonly ActiveRule[]): RuleMatch[] {
  if (text.length === 0) return [];
  const all: Array<RuleMatch & { order: number }> = [];
  // Computed on first need, so a rule set of admin rules alone never pays for it.
  let triggers = -1;
  for (let order = 0; order < rules.length; order += 1) {
    const rule = rules[order]!;
    const wanted = rule.detector.triggers;
    if (wanted === undefined) {
      if (!hasKeyword(text, rule.detector.keywords)) continue;
    } else {
      if (triggers < 0) triggers = scanTriggers(text);
      if ((triggers & wanted) === 0) continue;
    }
    for (const match of rule.detector.find(text)) all.push({ rule, start: match.start, end: match.end, order });
  }
  if (all.length <= 1) return all;
  all.sort((left, right) => left.start - right.start || (right.end - right.start) - (left.end - left.start) || left.order - right.order);
  const kept: RuleMatch[] = [];
  let reached = -1;
  for (const match of all) {
    if (match.start < reached) continue;
    kept.push(match);
    reached = match.end;
  }
  return kept;
}

export function placeholderFor(ruleId: string): string {
  return `[REDACTED:${ruleId}]`;
}

/** The text with every redact-action match replaced by its typed placeholder. */
export function redactMatches(text: string, matches: readonly RuleMatch[]): string {
  let output = '';
  let cursor = 0;
  for (const match of matches) {
    if (match.rule.action !== 'redact') continue;
    output += text.slice(cursor, match.start) + placeholderFor(match.rule.detector.id);
    cursor = match.end;
  }
  return cursor === 0 ? text : output + text.slice(cursor);
}
