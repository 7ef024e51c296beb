// The built-in detectors. Secret shapes follow gitleaks' rules
// (https://github.com/gitleaks/gitleaks/blob/master/config/gitleaks.toml), PII
// follows Presidio's recognizers: pattern + checksum. Every pattern here is
// written without nested or overlapping quantifiers, so V8 runs it in linear
// time on the 200 KB bodies coding tools send; admin rules use re2js instead.
import { hasJwtHeader, hasMixedCharacters, isCardNumber, isIban, isUsSsn } from './checksums.js';
import { regexFinder, type Detector, type TextMatch } from './detector.js';
import { TRIGGER } from './trigger-scan.js';

// No secret pattern starts with `\b`: a prefix glued to a word (`KEY_AKIA…`,
// `tokenghp_…`) is still the secret.
/**
 * A PEM block, in any case, or its header and 64 characters of its body when the end is cut
 * off. The body's line breaks may arrive as the two characters `\n` (once or
 * twice escaped), as when a .env or JSON file is pasted: the backslash is not in
 * the base64 class, so the two alternatives cannot overlap and the match stays linear.
 */
const PRIVATE_KEY_BLOCK = /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]{1,65536}?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|(?:[A-Za-z0-9+/=\s]|\\{1,2}[nrt]){64,})/gi;
// No secret pattern ends with `\b` either: a key followed directly by a letter or `_` (`AKIA…and`,
// `ghp_…_old`) is still the key (a word boundary there let it through).
const AWS_KEY_ID = /(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}/g;
const AWS_SECRET_AFTER_LABEL = /(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["'\s:=]{1,6}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi;
const FORTY_BASE64 = /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
/** How far from an access key id a bare 40-character secret is believed to be its secret. */
const AWS_SECRET_NEARBY = 256;

const findLabelledAwsSecrets = regexFinder(AWS_SECRET_AFTER_LABEL, (match) => hasMixedCharacters(match[1] ?? ''), 1);
const findAwsKeyIds = regexFinder(AWS_KEY_ID);
const findFortyBase64 = regexFinder(FORTY_BASE64, (candidate) => hasMixedCharacters(candidate[0]));

function findAwsSecrets(text: string): TextMatch[] {
  const found = findLabelledAwsSecrets(text);
  for (const keyId of findAwsKeyIds(text)) {
    const from = Math.max(0, keyId.start - AWS_SECRET_NEARBY);
    const window = text.slice(from, keyId.end + AWS_SECRET_NEARBY);
    for (const match of findFortyBase64(window)) {
      found.push({ start: from + match.start, end: from + match.end });
    }
  }
  return found;
}

/** Emails are found from each `@` outwards: a pattern starting at every position would cost O(64·n). */
const EMAIL_DOMAIN = /^@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![A-Za-z0-9-])/;
const EMAIL_LOCAL_CHARACTER = /[A-Za-z0-9._%+-]/;

function findEmails(text: string): TextMatch[] {
  const found: TextMatch[] = [];
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && at - start < 64 && EMAIL_LOCAL_CHARACTER.test(text.charAt(start - 1))) start -= 1;
    while (start < at && text[start] === '.') start += 1;
    if (start === at) continue;
    const domain = EMAIL_DOMAIN.exec(text.slice(at, at + 256));
    if (domain) found.push({ start, end: at + domain[0].length });
  }
  return found;
}

const digitsOf = (value: string) => value.replace(/[^0-9]/g, '');

export const BUILT_IN_DETECTORS: readonly Detector[] = [
  {
    id: 'private_key', triggers: TRIGGER.privateKey, category: 'secret', description: 'PEM private key block (RSA, EC, OpenSSH, PGP…)', keywords: ['-----'],
    find: regexFinder(PRIVATE_KEY_BLOCK),
  },
  { id: 'aws_access_key', triggers: TRIGGER.awsKeyword, category: 'secret', description: 'AWS access key id (AKIA…, ASIA…)', keywords: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'], find: regexFinder(AWS_KEY_ID) },
  {
    id: 'aws_secret_key', triggers: TRIGGER.awsKeyword | TRIGGER.secretWord, category: 'secret', description: 'AWS secret access key (labelled, or next to an access key id)',
    keywords: ['ecret', 'ECRET', 'AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'], find: findAwsSecrets,
  },
  {
    id: 'github_token', triggers: TRIGGER.github, category: 'secret', description: 'GitHub token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    find: regexFinder(/gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{82}/g),
  },
  {
    id: 'anthropic_api_key', triggers: TRIGGER.skDash, category: 'secret', description: 'Anthropic API, admin or OAuth key (sk-ant-…)', keywords: ['sk-ant-'],
    find: regexFinder(/sk-ant-(?:api|admin|oat|ort)\d{2}-[A-Za-z0-9_-]{32,}/g),
  },
  {
    id: 'openai_api_key', triggers: TRIGGER.skDash, category: 'secret', description: 'OpenAI API key (sk-proj-…, sk-svcacct-…, sk-admin-…, legacy sk-…)', keywords: ['sk-'],
    find: regexFinder(/sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{48})(?![A-Za-z0-9_-])/g),
  },
  { id: 'google_api_key', triggers: TRIGGER.google, category: 'secret', description: 'Google API key (AIza…)', keywords: ['AIza'], find: regexFinder(/AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g) },
  { id: 'slack_token', triggers: TRIGGER.slack, category: 'secret', description: 'Slack token (xoxa-, xoxb-, xoxp-, xoxr-)', keywords: ['xox'], find: regexFinder(/xox[abpr]-\d{8,}-[0-9A-Za-z-]{8,}/g) },
  { id: 'stripe_key', triggers: TRIGGER.stripe, category: 'secret', description: 'Stripe live secret or restricted key (sk_live_, rk_live_)', keywords: ['_live_'], find: regexFinder(/[sr]k_live_[0-9A-Za-z]{20,}/g) },
  {
    id: 'jwt', triggers: TRIGGER.jwt, category: 'secret', description: 'JSON Web Token (header names its alg)', keywords: ['eyJ'],
    find: regexFinder(/eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, (match) => hasJwtHeader(match[0])),
  },
  { id: 'gw_virtual_key', triggers: TRIGGER.skDash | TRIGGER.atuDash, category: 'secret', description: "gw's own virtual keys and personal tokens (sk-gw-, atu-)", keywords: ['sk-gw-', 'atu-'], find: regexFinder(/(?:sk-gw-|atu-)[0-9A-Za-z]{20,}/g) },
  { id: 'email', triggers: TRIGGER.at, category: 'pii', description: 'Email address', keywords: ['@'], find: findEmails },
  {
    id: 'credit_card', triggers: TRIGGER.cardDigits, category: 'pii', description: 'Payment card number (13–19 digits, issuer prefix, Luhn)',
    find: regexFinder(/(?<![\d.-])\d(?:[ -]?\d){12,18}(?![\d-]|\.\d)/g, (match) => isCardNumber(digitsOf(match[0]))),
  },
  {
    id: 'iban', triggers: TRIGGER.iban, category: 'pii', description: 'IBAN (country length and mod-97 checksum)',
    find: regexFinder(/\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g, (match) => isIban(match[0].replace(/ /g, ''))),
  },
  {
    id: 'us_ssn', triggers: TRIGGER.ssn, category: 'pii', description: 'US Social Security number (ddd-dd-dddd, issued ranges only)', keywords: ['-'],
    find: regexFinder(/(?<![\d-])(\d{3})-(\d{2})-(\d{4})(?![\d-])/g, ([, area, group, serial]) => area !== undefined && group !== undefined && serial !== undefined && isUsSsn(area, group, serial)),
  },
  {
    id: 'phone_number', triggers: TRIGGER.phone, category: 'pii', description: 'International phone number (+country code, 8–15 digits)', keywords: ['+'],
    find: regexFinder(/(?<![\w+])\+[1-9]\d{0,2}(?:[ .-]?\(\d{1,4}\))?(?:[ .-]?\d{2,4}){2,5}(?![\w+])/g, (match) => {
      const count = digitsOf(match[0]).length;
      return count >= 8 && count <= 15;
    }),
  },
];
