// Coding tools resend the whole conversation every turn, so nearly all of a
// 200 KB request is text the same rules already found clean a moment ago. Long
// clean texts are remembered (bounded by total characters, oldest out first) and
// not scanned again. One cache per rule set: new rules, new cache.
//
// A lookup must not cost what it saves. Each request's texts are new strings, and a Map keyed
// by them hashes every character of each one (measured: 15% of gw's CPU on a 200 KB request),
// so texts are filed under a short fingerprint (length and three 32-character samples) and
// then compared whole with `===`: a changed character anywhere is still a miss, and the
// comparison runs at memory speed.
//
// With each text its normalised and folded forms are kept: the joint check of a run
// (scan-run.ts) reads every part's folded text, and normalising a part again each turn cost
// as much as the rest of the warm scan. For ASCII text they are the text itself (no copy).
//
// Object keys are the other end: short, and the same few names on every request (`role`,
// `content`, `type`, a tool schema's property names). They are kept apart, in a plain Set
// (a short key hashes cheaply, and the parser's keys are usually internalised strings whose
// hash is already known), bounded by count and cleared when full.
import type { MatchableText } from './normalize-text.js';

export interface CleanTextCache {
  /** `minLength`: the joint windows (scan-joints.ts, at most 1 KB) are looked up from a lower length than whole texts. */
  has(text: string, minLength?: number): boolean;
  /** A text remembered clean: its normalised and folded forms when they were kept, else true; undefined when not remembered. */
  lookup(text: string, minLength?: number): MatchableText | true | undefined;
  add(text: string, minLength?: number, prepared?: MatchableText): void;
  /** An object key these rules found clean. */
  hasKey: (name: string) => boolean;
  addKey(name: string): void;
}

/** Keys longer than this are scanned each time: a long key is unusual and would crowd the set. */
const CACHED_KEY_MAX_LENGTH = 256;
const CACHED_KEYS_MAX = 8192;

/** Texts shorter than this are cheaper to scan than to look up. */
const CACHED_MIN_LENGTH = 2048;

interface Entry {
  text: string;
  prepared: MatchableText | null;
  size: number;
}

const SAMPLE = 32;

function fingerprint(text: string): string {
  const middle = text.length >> 1;
  return `${text.length}:${text.slice(0, SAMPLE)}${text.slice(middle, middle + SAMPLE)}${text.slice(-SAMPLE)}`;
}

export function createCleanTextCache(maxChars = 16 * 1024 * 1024): CleanTextCache {
  // fingerprint → the texts filed under it (nearly always one); insertion order is eviction order.
  const byPrint = new Map<string, Entry[]>();
  const cleanKeys = new Set<string>();
  const order: Entry[] = [];
  let oldest = 0;
  let total = 0;
  const find = (text: string, minLength: number): Entry | undefined => {
    if (text.length < minLength) return undefined;
    return byPrint.get(fingerprint(text))?.find((entry) => entry.text === text);
  };
  const evict = () => {
    while (total > maxChars && oldest < order.length) {
      const entry = order[oldest]!;
      order[oldest++] = undefined as unknown as Entry;
      const print = fingerprint(entry.text);
      const filed = byPrint.get(print)!.filter((candidate) => candidate !== entry);
      if (filed.length === 0) byPrint.delete(print); else byPrint.set(print, filed);
      total -= entry.size;
    }
    // Drop the evicted head now and then, so the queue does not grow without bound.
    if (oldest > 1024 && oldest * 2 > order.length) { order.splice(0, oldest); oldest = 0; }
  };
  return {
    has: (text, minLength = CACHED_MIN_LENGTH) => find(text, minLength) !== undefined,
    lookup(text, minLength = CACHED_MIN_LENGTH) {
      const entry = find(text, minLength);
      return entry === undefined ? undefined : entry.prepared ?? true;
    },
    add(text, minLength = CACHED_MIN_LENGTH, prepared) {
      if (text.length < minLength || text.length > maxChars || find(text, minLength)) return;
      const size = text.length + (prepared && prepared.normalized !== text ? prepared.normalized.length : 0) + (prepared && prepared.folded !== prepared.normalized ? prepared.folded.length : 0);
      const entry: Entry = { text, prepared: prepared ?? null, size };
      const print = fingerprint(text);
      byPrint.set(print, [...(byPrint.get(print) ?? []), entry]);
      order.push(entry);
      total += size;
      evict();
    },
    hasKey: (name) => cleanKeys.has(name),
    addKey(name) {
      if (name.length > CACHED_KEY_MAX_LENGTH) return;
      if (cleanKeys.size >= CACHED_KEYS_MAX) cleanKeys.clear();
      cleanKeys.add(name);
    },
  };
}
