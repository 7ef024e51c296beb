// Admin-written rules run on re2js: linear time whatever the pattern, so a rule
// like (a+)+$ cannot turn a 20 MB prompt into a stalled gateway (ReDoS).
import { RE2JS } from 're2js';
import type { Detector, DlpAction, TextMatch } from './detector.js';

export interface CustomRuleRecord {
  id: string;
  /** RE2 syntax (https://github.com/google/re2/wiki/Syntax). */
  pattern: string;
  action: DlpAction;
  case_insensitive?: boolean;
}

export const RULE_ID = /^[a-z][a-z0-9_]{1,62}$/;

/** Compiles an admin rule; throws an Error naming the rule when the pattern is not valid RE2. */
export function compileCustomRule(rule: CustomRuleRecord): Detector {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(rule.pattern, rule.case_insensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    throw new Error(`DLP rule ${rule.id}: the pattern is not valid RE2 (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  return {
    id: rule.id,
    category: 'custom',
    description: `custom pattern ${rule.pattern}`,
    find(text) {
      const matches: TextMatch[] = [];
      const matcher = compiled.matcher(text);
      while (matcher.find()) {
        const start = matcher.start();
        const end = matcher.end();
        if (end > start) matches.push({ start, end });
      }
      return matches;
    },
  };
}
