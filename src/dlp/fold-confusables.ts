// Cyrillic and Greek letters that look like Latin ones (`АKIA` with a Cyrillic
// А, U+0410) are folded to those Latin letters before matching, so a homoglyph
// cannot hide a secret's ASCII prefix. NFKC (normalize-text.ts) already folds
// full-width and mathematical forms; these letters it leaves alone. The pairs
// follow Unicode's confusables.txt (https://www.unicode.org/Public/security/latest/confusables.txt),
// kept to those whose target is one ASCII letter. Every source is one UTF-16
// unit and every target one ASCII character, so folding keeps each offset: a
// match found in the folded text redacts the same span of the unfolded text,
// which is what is written back (a Russian sentence must not reach the model
// with its letters swapped for Latin ones).

const PAIRS: ReadonlyArray<readonly [string, string]> = [
  // Cyrillic capitals and small letters
  ['А', 'A'], ['В', 'B'], ['С', 'C'], ['Е', 'E'], ['Н', 'H'], ['І', 'I'], ['Ј', 'J'], ['К', 'K'], ['М', 'M'], ['О', 'O'],
  ['Р', 'P'], ['Ѕ', 'S'], ['Т', 'T'], ['Х', 'X'], ['Ү', 'Y'], ['Ԛ', 'Q'], ['Ԝ', 'W'], ['Ӏ', 'I'],
  ['а', 'a'], ['с', 'c'], ['ԁ', 'd'], ['е', 'e'], ['һ', 'h'], ['і', 'i'], ['ј', 'j'], ['ӏ', 'l'], ['о', 'o'], ['р', 'p'],
  ['ԛ', 'q'], ['ѕ', 's'], ['у', 'y'], ['ԝ', 'w'], ['х', 'x'],
  // Greek capitals and small letters
  ['Α', 'A'], ['Β', 'B'], ['Ε', 'E'], ['Η', 'H'], ['Ι', 'I'], ['Κ', 'K'], ['Μ', 'M'], ['Ν', 'N'], ['Ο', 'O'], ['Ρ', 'P'],
  ['Τ', 'T'], ['Υ', 'Y'], ['Χ', 'X'], ['Ζ', 'Z'], ['ο', 'o'], ['ν', 'v'], ['ρ', 'p'], ['ι', 'i'], ['α', 'a'],
  // Latin letters outside ASCII that read as ASCII ones
  ['ı', 'i'], ['ȷ', 'j'], ['ɑ', 'a'], ['ɡ', 'g'], ['ᴀ', 'A'],
];

const FOLDS = new Map<string, string>(PAIRS);
const CONFUSABLE = new RegExp(`[${PAIRS.map(([from]) => from).join('')}]`, 'g');
const foldOne = (character: string) => FOLDS.get(character) ?? character;

/** Ranges (RegExp class syntax) holding every source letter: a cheap first test, see normalize-text.ts. */
export const FOLDABLE_RANGES = '\\u0131\\u0237\\u0251\\u0261\\u0391-\\u052F\\u1D00';

/** The text with each confusable letter replaced by its ASCII look-alike; same length, same offsets. */
export function foldConfusables(text: string): string {
  return text.replace(CONFUSABLE, foldOne);
}

/** The source → target pairs, for tests. */
export const CONFUSABLE_PAIRS = PAIRS;
