// Text is compared after NFKC (full-width and ligature look-alikes fold to ASCII)
// with invisible characters removed (zero-width space/joiners, word joiner, BOM,
// soft hyphen), so `AKIA\u200B…` or a full-width key is still the key.
// ASCII text cannot change under either step and is returned as it is: that is
// nearly all of a coding tool's request, and skipping it is most of the speed.
// (Normalising only the stretches around non-ASCII characters was tried: ICU's
// own quick-check over the whole text measured faster than finding them.)

import { FOLDABLE_RANGES, foldConfusables } from './fold-confusables.js';

const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g;
const isInvisible = (character: string) => {
  const code = character.charCodeAt(0);
  return code === 0xad || code === 0x180e || (code >= 0x200b && code <= 0x200f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2060 && code <= 0x2064) || code === 0xfeff;
};

/**
 * UTF-8 length equals UTF-16 length only when every code unit is ASCII (a lone
 * surrogate takes 3 bytes). Node counts natively: 9x faster than /[^\x00-\x7F]/.
 */
export function isAscii(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') === text.length;
}

export function normalizeText(text: string): string {
  if (isAscii(text)) return text;
  return text.normalize('NFKC').replace(INVISIBLE, '');
}

export interface MatchableText {
  /** What a redaction writes back: NFKC, invisible characters removed. */
  normalized: string;
  /** What detectors read: `normalized` with confusables folded (fold-confusables.ts); same length, same offsets. */
  folded: string;
}

/**
 * Invisible characters and the blocks confusables come from, in one class of
 * ranges: one pass removes the first and notes whether any of the second is
 * there, so text without Greek or Cyrillic pays nothing for folding (a class of
 * the 60 single letters measured 6x slower than these ranges).
 */
const INVISIBLE_OR_FOLDABLE = new RegExp(`[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF${FOLDABLE_RANGES}]`, 'g');

export function prepareText(text: string): MatchableText {
  if (isAscii(text)) return { normalized: text, folded: text };
  let foldable = false;
  const normalized = text.normalize('NFKC').replace(INVISIBLE_OR_FOLDABLE, (character) => {
    if (isInvisible(character)) return '';
    foldable = true;
    return character;
  });
  return { normalized, folded: foldable ? foldConfusables(normalized) : normalized };
}
