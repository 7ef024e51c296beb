// Text is compared after NFKC (full-width and ligature look-alikes fold to ASCII)
// with invisible characters removed (zero-width space/joiners, word joiner, BOM,
// soft hyphen), so `AKIA\u200B…` or a full-width key is still the key.
// ASCII text cannot change under either step and is returned as it is: that is
// nearly all of a coding tool's request, and skipping it is most of the speed.

const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g;
const NON_ASCII = /[^\x00-\x7F]/;

export function normalizeText(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  return text.normalize('NFKC').replace(INVISIBLE, '');
}
