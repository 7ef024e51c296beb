// Coding tools resend the whole conversation every turn, so nearly all of a
// 200 KB request is text the same rules already found clean a moment ago. Long
// clean texts are remembered (bounded by total characters, oldest out first) and
// not scanned again. A Set of strings compares whole contents, never a hash, so
// a changed character is always a miss. One cache per rule set: new rules, new cache.

export interface CleanTextCache {
  /** `minLength`: the joint windows (scan-joints.ts, at most 1 KB) are looked up from a lower length than whole texts. */
  has(text: string, minLength?: number): boolean;
  add(text: string, minLength?: number): void;
}

/** Texts shorter than this are cheaper to scan than to look up. */
export const CACHED_MIN_LENGTH = 2048;

export function createCleanTextCache(maxChars = 16 * 1024 * 1024): CleanTextCache {
  const texts = new Set<string>();
  let total = 0;
  return {
    has: (text, minLength = CACHED_MIN_LENGTH) => text.length >= minLength && texts.has(text),
    add(text, minLength = CACHED_MIN_LENGTH) {
      if (text.length < minLength || text.length > maxChars || texts.has(text)) return;
      texts.add(text);
      total += text.length;
      for (const oldest of texts) {
        if (total <= maxChars) break;
        texts.delete(oldest);
        total -= oldest.length;
      }
    },
  };
}
