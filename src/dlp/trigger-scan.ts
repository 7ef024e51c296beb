// One shared pre-filter that tells which built-in detectors could match in a text.
// Running each detector's keyword `includes` and then its pattern costs one pass
// over the text per keyword and per pattern (about 40 over a 200 KB request),
// and the keyword-less or common-keyword ones (cards, IBANs, `-`, `+`) ran their
// full patterns over every text. Here the engine's vectorised `indexOf` finds the few characters a
// shape must contain (`-`, `_`, `A`, `@`, `J`…) and only their neighbours are
// read; the digit shapes (cards, IBANs, SSNs, phones) share one RegExp pass.
// (A hand-written loop over every character measured 4x slower than this.)
// Each trigger is a necessary condition of its detectors' matches: a detector
// whose trigger is absent cannot match, so skipping it loses nothing
// (test/dlp/fast-path.test.ts compares against the keywords-then-finder scan).

export const TRIGGER = {
  /** `-----`: a PEM armour line, in any case (`-----begin rsa private key-----` is a key too) */
  privateKey: 1 << 0,
  /** `AKIA`, `ASIA`, `ABIA`, `ACCA`, `A3T`: the AWS keywords, anywhere */
  awsKeyword: 1 << 1,
  /** `ecret` or `ECRET`: the AWS secret label's keywords */
  secretWord: 1 << 2,
  /** `gh[pousr]_` or `github_pat_` */
  github: 1 << 3,
  /** `sk-` */
  skDash: 1 << 4,
  /** `atu-` */
  atuDash: 1 << 5,
  /** `AIza` */
  google: 1 << 6,
  /** `xox[abpr]-` */
  slack: 1 << 7,
  /** `_live_` */
  stripe: 1 << 8,
  /** `eyJ` */
  jwt: 1 << 9,
  /** `@` */
  at: 1 << 10,
  /** 13 digits in a row, at most one space or dash between two of them */
  cardDigits: 1 << 11,
  /** two capitals then two digits: an IBAN's country and check digits */
  iban: 1 << 12,
  /** `ddd-dd-d` */
  ssn: 1 << 13,
  /** `+` then a digit 1–9 */
  phone: 1 << 14,
} as const;

/** `startsWith` that is false before the text's start (startsWith itself would clamp to 0). */
const hasAt = (text: string, word: string, index: number) => index >= 0 && text.startsWith(word, index);

/**
 * Where a digit shape may begin. The search restarts one character after each
 * hit, so a shape inside or overlapping another is still seen; each hit is then
 * tested against every shape, since an alternation reports only its first.
 */
const DIGIT_SHAPES = /\d(?:[ -]?\d){12}|[A-Z]{2}\d\d|\d\d\d-\d\d-\d|\+[1-9]/g;
const CARD_AT = /\d(?:[ -]?\d){12}/y;
const IBAN_AT = /[A-Z]{2}\d\d/y;
const SSN_AT = /\d\d\d-\d\d-\d/y;

const testAt = (pattern: RegExp, text: string, index: number) => {
  pattern.lastIndex = index;
  return pattern.test(text);
};

function digitTriggers(text: string): number {
  let found = 0;
  DIGIT_SHAPES.lastIndex = 0;
  for (let match = DIGIT_SHAPES.exec(text); match !== null; match = DIGIT_SHAPES.exec(text)) {
    const index = match.index;
    if (text.charCodeAt(index) === 43) found |= TRIGGER.phone;
    else {
      if (testAt(CARD_AT, text, index)) found |= TRIGGER.cardDigits;
      if (testAt(IBAN_AT, text, index)) found |= TRIGGER.iban;
      if (testAt(SSN_AT, text, index)) found |= TRIGGER.ssn;
    }
    DIGIT_SHAPES.lastIndex = index + 1;
  }
  return found;
}

/** Calls `check` at every index of `character` in `text`, OR-ing what it returns. */
function around(text: string, character: string, check: (text: string, index: number) => number): number {
  let found = 0;
  for (let index = text.indexOf(character); index >= 0; index = text.indexOf(character, index + 1)) found |= check(text, index);
  return found;
}

/** `sk-`, `atu-` or `xox[abpr]-` ending at this dash. */
function dashTriggers(text: string, index: number): number {
  const before = text.charCodeAt(index - 1);
  if (before === 107 && text.charCodeAt(index - 2) === 115) return TRIGGER.skDash; // sk-
  if (before === 117 && hasAt(text, 'atu', index - 3)) return TRIGGER.atuDash; // atu-
  if ((before === 97 || before === 98 || before === 112 || before === 114) && hasAt(text, 'xox', index - 4)) return TRIGGER.slack; // xox[abpr]-
  return 0;
}

/** AKIA, ASIA, ABIA, ACCA, A3T, AIza starting at this capital A. */
function capitalATriggers(text: string, index: number): number {
  const next = text.charCodeAt(index + 1);
  if (next === 73) return text.startsWith('za', index + 2) ? TRIGGER.google : 0; // AIza
  if (next === 51) return text.charCodeAt(index + 2) === 84 ? TRIGGER.awsKeyword : 0; // A3T
  const tail = next === 75 || next === 83 || next === 66 ? 'IA' : next === 67 ? 'CA' : null;
  return tail !== null && text.startsWith(tail, index + 2) ? TRIGGER.awsKeyword : 0;
}

/** gh[pousr]_, github_pat_ or _live_ at this underscore. */
function underscoreTriggers(text: string, index: number): number {
  let found = 0;
  const before = text.charCodeAt(index - 1);
  if ((before === 112 || before === 111 || before === 117 || before === 115 || before === 114) && hasAt(text, 'gh', index - 3)) found |= TRIGGER.github;
  if (before === 98 && hasAt(text, 'github_pat_', index - 6)) found |= TRIGGER.github;
  if (text.startsWith('_live_', index)) found |= TRIGGER.stripe;
  return found;
}

const jwtAt = (text: string, index: number) => (hasAt(text, 'ey', index - 2) ? TRIGGER.jwt : 0);
// `ecret` is searched as `cret`: `e` is the commonest letter, and indexOf skips by the first character.
const secretAt = (text: string, index: number) => (text.charCodeAt(index - 1) === 101 ? TRIGGER.secretWord : 0);

/** The triggers present in `text`, as a bit set of TRIGGER values. */
export function scanTriggers(text: string): number {
  let found = digitTriggers(text);
  if (text.includes('@')) found |= TRIGGER.at;
  if (text.includes('-----')) found |= TRIGGER.privateKey;
  if (text.includes('ECRET')) found |= TRIGGER.secretWord;
  else found |= around(text, 'cret', secretAt);
  found |= around(text, '-', dashTriggers);
  found |= around(text, '_', underscoreTriggers);
  found |= around(text, 'A', capitalATriggers);
  found |= around(text, 'J', jwtAt);
  return found;
}
