// The checks that turn "looks like" into "is": a card number passes Luhn, an
// IBAN passes ISO 13616 mod-97, an SSN is outside the ranges the SSA never issues.

/** Luhn (ISO/IEC 7812-1) over a string of digits. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let value = digits.charCodeAt(index) - 48;
    if (value < 0 || value > 9) return false;
    if (double) {
      value *= 2;
      if (value > 9) value -= 9;
    }
    sum += value;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Issuer prefixes of the networks people paste (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro). */
const CARD_PREFIX = /^(?:4|5[1-5]|2[2-7]|3[47]|3[068]|6(?:011|5|4[4-9]|2)|35|5[06-9]|6[37])/;

export function isCardNumber(digits: string): boolean {
  if (digits.length < 13 || digits.length > 19) return false;
  // 4111…, 0000…: repeated digits are test data or padding, not a card someone leaked.
  if (/^(\d)\1+$/.test(digits)) return false;
  return CARD_PREFIX.test(digits) && passesLuhn(digits);
}

// IBAN lengths by country (ISO 13616 registry, SWIFT release 2024): a checksum alone lets 1 in 97 random strings through.
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, CH: 21, CR: 22, CY: 28, CZ: 24,
  DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27,
  GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21,
  LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24, PL: 28,
  PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SC: 31, SE: 24, SI: 19, SK: 24, SM: 27, TN: 24, TR: 26, UA: 29,
  VA: 22, VG: 24, XK: 20,
};

/** An IBAN without spaces: known country, its length, and mod-97 = 1. */
export function isIban(compact: string): boolean {
  const length = IBAN_LENGTHS[compact.slice(0, 2)];
  if (length === undefined || compact.length !== length) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const code = character.charCodeAt(0);
    const value = code >= 65 ? code - 55 : code - 48;
    if (value < 0 || value > 35) return false;
    // Letters are two digits: fold each into the running remainder.
    remainder = value > 9 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder === 1;
}

/** US SSN: area 000, 666 and 900–999, group 00 and serial 0000 are never issued (SSA randomization rules). */
export function isUsSsn(area: string, group: string, serial: string): boolean {
  const areaNumber = Number(area);
  if (areaNumber === 0 || areaNumber === 666 || areaNumber >= 900) return false;
  if (group === '00' || serial === '0000') return false;
  // Numbers printed in advertising and documentation (Woolworth's wallet card, the SSA's own example).
  return !['078-05-1120', '219-09-9999', '123-45-6789'].includes(`${area}-${group}-${serial}`);
}

/** A JWT's header is base64url JSON that names its algorithm. */
export function hasJwtHeader(token: string): boolean {
  const header = token.slice(0, token.indexOf('.'));
  try {
    const decoded = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as unknown;
    return typeof decoded === 'object' && decoded !== null && 'alg' in decoded;
  } catch {
    return false;
  }
}

/** Upper, lower and digit all present: what a 40-character AWS secret has and a SHA-1 hex digest has not. */
export function hasMixedCharacters(value: string): boolean {
  return /[A-Z]/.test(value) && /[a-z]/.test(value) && /[0-9]/.test(value);
}
