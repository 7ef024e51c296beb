// Output scanning: text arrives in pieces (stream deltas), so a secret can be
// split across two of them. A bounded look-behind keeps the last `window`
// characters and scans them with each new piece; a match is reported once, when
// it first ends in new text.
//
// The hold (createStreamTextHold) sits on top: the pieces' carriers (SSE events,
// canonical stream parts, anything) are kept until the text after them is long
// enough that a secret starting in them would already have been seen whole, so no
// character of a matching secret leaves before the verdict. Both the same-format
// relay (raw events) and the translated one (canonical parts) use it.
import { findMatches, type ActiveRule, type RuleMatch } from './find-matches.js';
import { prepareText } from './normalize-text.js';

/** A match with where it starts in the whole scanned text (normalised and folded), not only in the look-behind. */
export interface StreamMatch extends RuleMatch {
  absoluteStart: number;
}

export interface StreamTextScanner {
  /** The matches that end in `text` (with the look-behind before it); offsets are into the look-behind and `text`, normalised and folded. */
  push(text: string): StreamMatch[];
  /** How many (normalised, folded) characters were pushed so far. */
  position(): number;
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
      const found: StreamMatch[] = [];
      for (const match of findMatches(buffer, rules)) {
        if (tailStart + match.start < reportedUpTo || match.end <= tail.length) continue;
        found.push({ ...match, absoluteStart: tailStart + match.start });
      }
      for (const match of found) reportedUpTo = Math.max(reportedUpTo, tailStart + match.end);
      const keep = Math.min(window, buffer.length);
      tailStart += buffer.length - keep;
      tail = buffer.slice(buffer.length - keep);
      return found;
    },
    position: () => tailStart + tail.length,
  };
}

/**
 * How many characters of text the hold keeps behind the newest: every built-in
 * detector decides within its first ~100 characters (a PEM header and 64 characters of
 * body, a `github_pat_` token), so a secret is seen whole while its first character is
 * still held. A stream's text reaches the client this many characters late.
 */
export const OUTPUT_HOLD_CHARS = 160;

export interface HoldStep<T> {
  /** The carriers now safe to send, in order. */
  release: T[];
  /** Every match that ended in this piece (counted by the caller), whatever its action. */
  matches: StreamMatch[];
  /** The first block match: the stream stops; `release` then holds only what came wholly before it. */
  blocked: StreamMatch | null;
}

export interface StreamTextHold<T> {
  /** A carrier and the text it brings ('' for none). */
  push(item: T, text: string): HoldStep<T>;
  /** The stream ended cleanly: everything still held, in order. */
  end(): T[];
}

interface Held<T> {
  item: T;
  /** The scanned position after this carrier's text. */
  end: number;
  hasText: boolean;
}

export function createStreamTextHold<T>(rules: readonly ActiveRule[], hold = OUTPUT_HOLD_CHARS): StreamTextHold<T> {
  const scanner = createStreamTextScanner(rules, Math.max(512, hold * 2));
  let queue: Array<Held<T>> = [];
  let head = 0;
  const take = (until: (held: Held<T>) => boolean): T[] => {
    const out: T[] = [];
    while (head < queue.length && until(queue[head]!)) out.push(queue[head++]!.item);
    // Compact now and then, so a long stream does not keep every carrier it ever held.
    if (head > 64 && head * 2 > queue.length) { queue = queue.slice(head); head = 0; }
    return out;
  };
  return {
    push(item, text) {
      const before = scanner.position();
      const matches = text.length > 0 ? scanner.push(text) : [];
      const total = scanner.position();
      queue.push({ item, end: total, hasText: total > before });
      let blocked: StreamMatch | null = null;
      for (const match of matches) if (match.rule.action === 'block') { blocked = match; break; }
      if (blocked !== null) {
        const start = blocked.absoluteStart;
        const release = take((held) => held.end <= start);
        queue = []; head = 0;
        return { release, matches, blocked };
      }
      // A carrier without text at the front exposes nothing: it goes at once.
      return { release: take((held) => !held.hasText || held.end <= total - hold), matches, blocked };
    },
    end() {
      const rest = take(() => true);
      queue = []; head = 0;
      return rest;
    },
  };
}
