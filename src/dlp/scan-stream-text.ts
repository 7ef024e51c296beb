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

/** One stream's text in a carrier: `stream` names the part stream (choice × block × kind). */
export interface StreamPiece {
  stream: string;
  text: string;
}

export interface PartStreamHold<T> {
  /**
   * A carrier, the text it brings to each part stream, and the part streams it closes (their
   * text is complete: nothing held for them needs to wait for more).
   */
  push(item: T, pieces: readonly StreamPiece[], closes?: readonly string[]): HoldStep<T>;
  /** The stream ended cleanly: everything still held, in order. */
  end(): T[];
}

/** Where a carrier's text ends in one part stream's scanned text. */
interface Touch {
  stream: string;
  end: number;
}

interface Held<T> {
  item: T;
  touches: Touch[];
}

/** One stream's text: the hold is createPartStreamHold's with a single part stream. */
export function createStreamTextHold<T>(rules: readonly ActiveRule[], hold = OUTPUT_HOLD_CHARS): StreamTextHold<T> {
  const parts = createPartStreamHold<T>(rules, hold);
  return { push: (item, text) => parts.push(item, text === '' ? [] : [{ stream: '', text }]), end: () => parts.end() };
}

/**
 * Each part stream (a choice's text block, a tool call's arguments…) has its own scanner, so
 * interleaved choices or parallel tool calls cannot split a secret between them. A carrier
 * leaves once, in every part stream it brought text to, `hold` characters have followed its
 * text or that stream is closed, and every carrier before it has left.
 */
export function createPartStreamHold<T>(rules: readonly ActiveRule[], hold = OUTPUT_HOLD_CHARS): PartStreamHold<T> {
  const scanners = new Map<string, StreamTextScanner>();
  const closed = new Set<string>();
  let queue: Array<Held<T>> = [];
  let head = 0;
  const settled = (touch: Touch) => closed.has(touch.stream) || touch.end <= (scanners.get(touch.stream)?.position() ?? 0) - hold;
  const take = (until: (held: Held<T>) => boolean): T[] => {
    const out: T[] = [];
    for (let held = queue[head]; held !== undefined && until(held); held = queue[head]) { out.push(held.item); head += 1; }
    // Compact now and then, so a long stream does not keep every carrier it ever held.
    if (head > 64 && head * 2 > queue.length) { queue = queue.slice(head); head = 0; }
    return out;
  };
  const scan = (piece: StreamPiece, touches: Touch[], matches: Array<StreamMatch & { stream: string }>) => {
    let scanner = scanners.get(piece.stream);
    if (scanner === undefined) { scanner = createStreamTextScanner(rules, Math.max(512, hold * 2)); scanners.set(piece.stream, scanner); }
    // Text after a close (a provider that reuses an index) is held again, on the same scanner.
    closed.delete(piece.stream);
    const before = scanner.position();
    for (const match of scanner.push(piece.text)) matches.push({ ...match, stream: piece.stream });
    if (scanner.position() > before) touches.push({ stream: piece.stream, end: scanner.position() });
  };
  return {
    push(item, pieces, closes = []) {
      const touches: Touch[] = [];
      const matches: Array<StreamMatch & { stream: string }> = [];
      for (const piece of pieces) if (piece.text.length > 0) scan(piece, touches, matches);
      queue.push({ item, touches });
      const blocked = matches.find((match) => match.rule.action === 'block') ?? null;
      if (blocked !== null) {
        // What wholly precedes the secret in its own stream, and is settled in the others, still goes.
        const before = (touch: Touch) => (touch.stream === blocked.stream ? touch.end <= blocked.absoluteStart : settled(touch));
        const release = take((held) => held.touches.every(before));
        queue = []; head = 0;
        return { release, matches, blocked };
      }
      for (const stream of closes) closed.add(stream);
      // A carrier without text exposes nothing: it goes as soon as those before it have.
      return { release: take((held) => held.touches.every(settled)), matches, blocked };
    },
    end() {
      const rest = take(() => true);
      queue = []; head = 0;
      return rest;
    },
  };
}
