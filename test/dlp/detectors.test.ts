// Each built-in detector: true positives (in the shapes people paste) and false
// positives that look alike (a Luhn-invalid number is not a card).
import { describe, expect, it } from 'vitest';
import { BUILT_IN_DETECTORS } from '../../src/dlp/built-in-detectors.js';
import { hasKeyword } from '../../src/dlp/detector.js';
import { isIban, passesLuhn } from '../../src/dlp/checksums.js';
import { SAMPLES } from './samples.js';

function detect(text: string): string[] {
  return BUILT_IN_DETECTORS.filter((detector) => hasKeyword(text, detector.keywords) && detector.find(text).length > 0).map((detector) => detector.id);
}

const TRUE_POSITIVES: Array<[string, string]> = [
  ['aws_access_key', `aws_access_key_id = ${SAMPLES.awsKeyId}`],
  ['aws_secret_key', `aws_secret_access_key = ${SAMPLES.awsSecret}`],
  ['aws_secret_key', `key ${SAMPLES.awsKeyId} and then ${SAMPLES.awsSecret}`],
  ['github_token', `token: ${SAMPLES.githubPat}`],
  ['github_token', SAMPLES.githubOauth],
  ['github_token', `"${SAMPLES.githubServer}"`],
  ['github_token', SAMPLES.githubFineGrained],
  ['openai_api_key', `OPENAI_API_KEY=${SAMPLES.openaiProject}`],
  ['openai_api_key', SAMPLES.openaiLegacy],
  ['anthropic_api_key', `x-api-key: ${SAMPLES.anthropic}`],
  ['google_api_key', `key=${SAMPLES.google}&q=1`],
  ['slack_token', SAMPLES.slack],
  ['stripe_key', SAMPLES.stripeLive],
  ['stripe_key', SAMPLES.stripeRestricted],
  ['private_key', SAMPLES.privateKey],
  ['private_key', SAMPLES.privateKey.split('\n-----END')[0]!],
  ['jwt', `Authorization: Bearer ${SAMPLES.jwt}`],
  ['gw_virtual_key', `use ${SAMPLES.gwKey} here`],
  ['email', `write to ${SAMPLES.email}.`],
  ['credit_card', `card ${SAMPLES.visa} exp 12/29`],
  ['credit_card', SAMPLES.visaPlain],
  ['credit_card', SAMPLES.mastercard],
  ['iban', `IBAN ${SAMPLES.ibanDe}`],
  ['iban', SAMPLES.ibanGbCompact],
  ['us_ssn', `SSN: ${SAMPLES.ssn}`],
  ['phone_number', `call ${SAMPLES.phone}`],
  ['phone_number', SAMPLES.phoneUs],
];

const FALSE_POSITIVES: Array<[string, string]> = [
  ['aws_access_key', 'AKIA is a prefix; AKIAshort is not a key'],
  ['aws_secret_key', 'sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709 of nothing'],
  ['github_token', 'ghp_tooShort123'],
  ['openai_api_key', 'sk-this-is-not-a-key and sk-ant-… is Anthropic'],
  ['openai_api_key', SAMPLES.anthropic],
  ['anthropic_api_key', 'sk-ant-api03-short'],
  ['google_api_key', 'AIza then nothing'],
  ['slack_token', 'xoxb-not-a-token'],
  ['stripe_key', 'sk_test_4eC39HqLyjWDarjtT1zdp7dc'],
  ['private_key', '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----'],
  ['jwt', 'eyJub3QiOiJhIGp3dCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc'],
  ['gw_virtual_key', 'sk-gw-… is how keys start'],
  ['email', 'import x from "@scope/package"; user@localhost; @Component; name@1.2.3'],
  ['credit_card', '4111 1111 1111 1112 fails Luhn'],
  ['credit_card', 'order 1234567890123 and timestamp 1716239022123 and 0000000000000000'],
  ['credit_card', 'version 4.5.3.9578763621486'],
  ['iban', 'DE89 3704 0044 0532 0130 01 has a bad checksum'],
  ['iban', 'ZZ12 3456 7890 1234 is no country'],
  ['us_ssn', '000-12-3456, 666-12-3456, 912-12-3456, 123-00-4567, 123-45-0000, 123-45-6789'],
  ['us_ssn', 'uuid 4a3b5c6d-1234-56-7890 and dates 2024-01-15'],
  ['phone_number', 'a+1 and x = +123 and 1+2+3 and version +1.2'],
];

describe('built-in detectors', () => {
  it.each(TRUE_POSITIVES)('%s finds %s', (id, text) => {
    expect(detect(text)).toContain(id);
  });

  it.each(FALSE_POSITIVES)('%s ignores %s', (id, text) => {
    expect(detect(text)).not.toContain(id);
  });

  it('finds nothing in ordinary code and prose', () => {
    const code = 'export function add(a: number, b: number) { return a + b; } // see https://example.com/docs?id=12345\nconst port = 8080;\n';
    expect(detect(code)).toEqual([]);
  });

  it('checks Luhn and IBAN mod-97', () => {
    expect(passesLuhn('79927398713')).toBe(true);
    expect(passesLuhn('79927398710')).toBe(false);
    expect(isIban('GB82WEST12345698765432')).toBe(true);
    expect(isIban('GB82WEST12345698765431')).toBe(false);
  });

  it('has unique snake_case ids', () => {
    const ids = BUILT_IN_DETECTORS.map((detector) => detector.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9_]+$/);
  });
});
