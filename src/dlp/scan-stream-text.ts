// Output scanning: text arrives in pieces (stream deltas), so a secret can be
// split across two of them. A bounded look-behind keeps the last `window`
// characters and scans them with each new piece; a match is reported once, when
// it first ends in new text. What was already sent cannot be unsent: a block
// ends the stream at that point (README, "Decisions").
import { findMatches, type ActiveRule, type RuleMatch } from './find-matches.js';
import { prepareText } from './normalize-text.js';

export interface StreamTextScanner {
  /** The matches that end in `text` (with the look-behind before it); offsets are into the look-behind and `text`, normalised and folded. */
  push(text: string): RuleMatch[];
}

export function createStreamTextScanner(rules: readonly ActiveRule[], window = 512): StreamTextScanner {
  let tail = '';
  // Absolute offsets, so a match that keeps growing (a JWT arriving in pieces) is reported once.
  let tailStart = 0;
  let reportedUpTo = 0;
  return {
    push(text) {
      if (rules.length === 0 || text.length === 0) return [];
      const buffer = tail + prepareText(text).folded;
      const found = findMatches(buffer, rules).filter((match) => tailStart + match.start >= reportedUpTo && match.end > tail.length);
      for (const match of found) reportedUpTo = Math.max(reportedUpTo, tailStart + match.end);
      const keep = Math.min(window, buffer.length);
      tailStart += buffer.length - keep;
      tail = buffer.slice(buffer.length - keep);
      return found;
    },
  };
}
