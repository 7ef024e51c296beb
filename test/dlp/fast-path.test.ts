// The fast paths are equivalent to the straightforward scan they replace: the
// shared trigger pass against each detector's keywords and finder run over the
// whole text, the ASCII shortcut of normalisation against NFKC, on random texts with
// planted secrets, near-misses, zero-width characters and non-ASCII text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_DETECTORS } from '../../src/dlp/built-in-detectors.js';
import { resolveDlpSettings } from '../../src/dlp/dlp-config.js';
import { hasKeyword } from '../../src/dlp/detector.js';
import { findMatches, type ActiveRule } from '../../src/dlp/find-matches.js';
import { CONFUSABLE_PAIRS, FOLDABLE_RANGES, foldConfusables } from '../../src/dlp/fold-confusables.js';
import { isAscii, normalizeText, prepareText } from '../../src/dlp/normalize-text.js';
import { scanRequestBody } from '../../src/dlp/scan-request.js';
import { createCleanTextCache } from '../../src/dlp/clean-text-cache.js';
import { scanTriggers } from '../../src/dlp/trigger-scan.js';
import { walkStrings } from '../../src/dlp/walk-strings.js';
import { SAMPLES } from './samples.js';

const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g;
const referenceNormalize = (text: string) => text.normalize('NFKC').replace(INVISIBLE, '');

/** The scan before the trigger pass: every rule behind its keywords, over the whole text. */
function referenceFindMatches(text: string, rules: readonly ActiveRule[]): Array<{ id: string; start: number; end: number }> {
  if (text.length === 0) return [];
  const all = rules.flatMap((rule, order) => (hasKeyword(text, rule.detector.keywords) ? rule.detector.find(text).map((match) => ({ ...match, rule, order })) : []));
  all.sort((left, right) => left.start - right.start || (right.end - right.start) - (left.end - left.start) || left.order - right.order);
  const kept: Array<{ id: string; start: number; end: number }> = [];
  let reached = -1;
  for (const match of all) {
    if (match.start < reached) continue;
    kept.push({ id: match.rule.detector.id, start: match.start, end: match.end });
    reached = match.end;
  }
  return kept;
}

const simplified = (matches: ReturnType<typeof findMatches>) => matches.map((match) => ({ id: match.rule.detector.id, start: match.start, end: match.end }));

/** Pieces of secrets and PII, their triggers' near-misses, and text that normalises. */
const FRAGMENTS = [
  ...Object.values(SAMPLES),
  ...Object.values(SAMPLES).map((sample) => sample.slice(0, Math.ceil(sample.length / 2))),
  'aws_secret_access_key = ', 'AWS_SECRET_KEY=', 'aws_sEcret_key: ', 'secret_access_key ', 'SeCrEt', 'ecret', 'ECRET', 'cret',
  'AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T', 'AIza', 'A', 'sk-', 'task-', '_sk-', 'sk-ant-api03-', 'sk-proj-', 'sk-gw-', 'atu-', 'datu-',
  'ghp_', 'gho_', 'github_pat_', 'gh', '_live_', 'sk_live_', 'xoxb-', 'xox', 'eyJ', 'ey', 'J', '-----BEGIN ', 'PRIVATE KEY', '-----',
  '@', 'a@b.io', '+', '+1', '+0', '-', ' ', '.', '123-45-6789', '536-22-8041', '4111 1111 1111 1111', '4539578763621486', '1 2', '12-',
  'DE89', 'GB29', 'ES2020', '0000000000000', '\u200B', '\u200D', '\uFEFF', '\u00AD', 'é', 'e\u0301', '\u0301', 'Ａ', 'ｋ', 'ﬁ', '—', '→', '日本語',
  '😀', '\uD83D', '\uDE00', '\u1100\u1161', 'x'.repeat(300),
  // Confusables, glued prefixes, escaped newlines (the review's evasions)
  ...CONFUSABLE_PAIRS.map(([from]) => from), '\u0410KIA', 'gh\u0440_', 'Ж', 'ω', 'KEY_', 'token', 'x', '_', '\\n', '\\\\n', '\\',
  SAMPLES.privateKey.replace(/\n/g, '\\n'), SAMPLES.privateKey.replace(/\n/g, '\\n').slice(0, 120),
];

const text = fc.array(fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...FRAGMENTS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[0-9 -]{1,30}$/) },
), { maxLength: 24 }).map((parts) => parts.join(''));

const ALL_RULES = resolveDlpSettings([], ['*']).rules;

describe('the trigger pass loses nothing and adds nothing', () => {
  it('findMatches equals the keyword-and-finder scan, raw and normalised', () => {
    fc.assert(fc.property(text, (sample) => {
      for (const candidate of [sample, normalizeText(sample), prepareText(sample).folded]) {
        expect(simplified(findMatches(candidate, ALL_RULES))).toEqual(referenceFindMatches(candidate, ALL_RULES));
      }
    }), { numRuns: 3000 });
  });

  it('each detector: a match behind its keywords sets a trigger; a trigger without the keywords finds nothing', () => {
    fc.assert(fc.property(text, (sample) => {
      const triggers = scanTriggers(sample);
      for (const detector of BUILT_IN_DETECTORS) {
        const found = detector.find(sample).length > 0;
        const keyword = hasKeyword(sample, detector.keywords);
        if (found && keyword) expect({ id: detector.id, triggered: (triggers & detector.triggers!) !== 0 }).toEqual({ id: detector.id, triggered: true });
        if (found && !keyword) expect({ id: detector.id, triggered: (triggers & detector.triggers!) !== 0 }).toEqual({ id: detector.id, triggered: false });
      }
    }), { numRuns: 3000 });
  });

  it('every built-in detector has triggers', () => {
    expect(BUILT_IN_DETECTORS.filter((detector) => detector.triggers === undefined).map((detector) => detector.id)).toEqual([]);
  });

  it('a mixed-case AWS label without the keywords stays undetected, as before', () => {
    const sample = `aws_sEcret_key=${SAMPLES.awsSecret}`;
    expect(BUILT_IN_DETECTORS.find((detector) => detector.id === 'aws_secret_key')!.find(sample)).toHaveLength(1);
    expect(findMatches(sample, ALL_RULES)).toEqual([]);
  });

  it('a digit shape overlapping another is still seen (the search steps one character)', () => {
    const ibanThenDigits = `DE89${'3'.repeat(11)}`;
    expect(scanTriggers(ibanThenDigits) & BUILT_IN_DETECTORS.find((detector) => detector.id === 'credit_card')!.triggers!).not.toBe(0);
    const cardOverSsn = '123-45-6789 0123';
    expect(scanTriggers(cardOverSsn) & BUILT_IN_DETECTORS.find((detector) => detector.id === 'us_ssn')!.triggers!).not.toBe(0);
  });
});

describe('normalisation with its ASCII shortcut', () => {
  it('equals NFKC with invisible characters removed', () => {
    fc.assert(fc.property(text, (sample) => {
      expect(normalizeText(sample)).toBe(referenceNormalize(sample));
    }), { numRuns: 3000 });
  });

  it('equals it on arbitrary UTF-16, lone surrogates included', () => {
    fc.assert(fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 40 }), (sample) => {
      expect(normalizeText(sample)).toBe(referenceNormalize(sample));
    }), { numRuns: 3000 });
  });

  it('ASCII text is returned as it is; a lone surrogate is not ASCII', () => {
    const ascii = 'plain text, no change';
    expect(normalizeText(ascii)).toBe(ascii);
    expect(isAscii('\uD83D')).toBe(false);
    expect(isAscii('\u0080')).toBe(false);
    expect(isAscii('~\u007F')).toBe(true);
  });
});

describe('folding confusables', () => {
  const referenceFold = (sample: string) => [...sample].map((character) => CONFUSABLE_PAIRS.find(([from]) => from === character)?.[1] ?? character).join('');

  it('prepareText: normalised as before, folded one UTF-16 unit for one, so offsets carry over', () => {
    fc.assert(fc.property(text, (sample) => {
      const { normalized, folded } = prepareText(sample);
      expect(normalized).toBe(referenceNormalize(sample));
      expect(folded).toBe(referenceFold(normalized));
      expect(folded.length).toBe(normalized.length);
    }), { numRuns: 3000 });
  });

  it('every source is one UTF-16 unit inside the quick-test ranges, every target one ASCII letter', () => {
    const ranges = new RegExp(`^[${FOLDABLE_RANGES}]$`);
    for (const [from, to] of CONFUSABLE_PAIRS) {
      expect({ from, length: from.length, inRanges: ranges.test(from), target: /^[A-Za-z]$/.test(to) }).toEqual({ from, length: 1, inRanges: true, target: true });
      expect(from.normalize('NFKC')).toBe(from);
    }
    expect(foldConfusables('\u0410KI\u0391 ghр_ Привет')).toBe('AKIA ghp_ Пpивeт');
  });
});

describe('a secret cut into any number of parts, across messages, is found', () => {
  const SECRETS = { github_token: SAMPLES.githubPat, aws_access_key: SAMPLES.awsKeyId, google_api_key: SAMPLES.google, anthropic_api_key: SAMPLES.anthropic, jwt: SAMPLES.jwt, private_key: SAMPLES.privateKey.replace(/\n/g, '\\n') };
  const filler = fc.stringMatching(/^[a-z ,.]{0,40}$/);
  /** The pieces laid out as each dialect would carry consecutive text. */
  const SHAPES: Record<string, (pieces: string[]) => unknown> = {
    'OpenAI messages': (pieces) => ({ messages: pieces.map((content) => ({ role: 'user', content })) }),
    'OpenAI content parts': (pieces) => ({ messages: [{ role: 'user', content: pieces.map((text) => ({ type: 'text', text })) }] }),
    'Anthropic blocks over messages': (pieces) => ({ messages: pieces.map((text, index) => ({ role: index % 2 ? 'assistant' : 'user', content: [{ type: 'text', text }] })) }),
    'GenAI parts': (pieces) => ({ contents: [{ role: 'user', parts: pieces.map((text) => ({ text })) }] }),
  };

  const REDACT_SECRETS = resolveDlpSettings([{ scope: '*', actions: Object.fromEntries(Object.keys(SECRETS).map((id) => [id, 'redact'])) }], ['*']).rules;

  it('counted once and redacted whole, whatever the cuts', () => {
    fc.assert(fc.property(
      fc.constantFrom(...Object.keys(SECRETS) as Array<keyof typeof SECRETS>), fc.constantFrom(...Object.keys(SHAPES)), filler, filler,
      fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 8 }),
      (id, shape, before, after, cuts) => {
        const secret = SECRETS[id];
        const text = `${before} ${secret} ${after}`;
        const offsets = cuts.map((cut) => before.length + 1 + Math.min(cut, secret.length - 1)).sort((left, right) => left - right);
        const pieces = [0, ...offsets].map((from, index) => text.slice(from, [...offsets, text.length][index]));
        const scan = scanRequestBody(SHAPES[shape]!(pieces), ALL_RULES);
        // Once, even when a piece is itself a whole (shorter) key that goes on in the next piece.
        expect(scan.counts).toEqual({ [id]: 1 });
        const body = SHAPES[shape]!(pieces);
        expect(scanRequestBody(body, REDACT_SECRETS).redacted).toBe(1);
        expect(walkStrings(body).runs[0]!.map((leaf) => leaf.value).join('')).toBe(`${before} [REDACTED:${id}] ${after}`);
      },
    ), { numRuns: 1500 });
  });
  // A conversation resent turn after turn: long parts come back from the clean-text cache. A
  // secret that starts at the end of a part the cache knows and goes on in a new part must still
  // be found, every turn, as a fresh scan finds it.
  const longText = fc.tuple(filler, fc.integer({ min: 2100, max: 2600 })).map(([text, size]) => `${text} `.repeat(Math.ceil(size / (text.length + 1))).slice(0, size));
  it('with the clean-text cache, every turn of a growing conversation finds what a fresh scan finds', () => {
    fc.assert(fc.property(
      fc.array(fc.oneof(filler, longText), { minLength: 1, maxLength: 5 }), longText, fc.constantFrom(...Object.keys(SECRETS) as Array<keyof typeof SECRETS>),
      fc.integer({ min: 1, max: 30 }), fc.constantFrom(...Object.keys(SHAPES)),
      (history, last, id, cut, shape) => {
        const secret = SECRETS[id];
        const split = Math.min(cut, secret.length - 1);
        const opened = [...history, `${last} ${secret.slice(0, split)}`];
        const turns = [history, opened, [...opened, `${secret.slice(split)} and more`], [...opened, `${secret.slice(split)} and more`, 'next question']];
        const cache = createCleanTextCache();
        for (const pieces of turns) {
          for (let pass = 0; pass < 2; pass += 1) {
            expect(scanRequestBody(SHAPES[shape]!(pieces), ALL_RULES, cache).counts).toEqual(scanRequestBody(SHAPES[shape]!(pieces), ALL_RULES).counts);
          }
        }
        expect(scanRequestBody(SHAPES[shape]!(turns[2]!), ALL_RULES, cache).counts).toEqual({ [id]: 1 });
      },
    ), { numRuns: 300 });
  });
});

describe('the joint check reuses the leaves\' normalised text', () => {
  it('a secret split across non-ASCII parts, zero-width characters inside, is found and redacted on the joint', () => {
    const secret = SAMPLES.githubPat;
    const body = { messages: [{ role: 'user', content: [`— ${'é'.repeat(600)} ${secret.slice(0, 9)}\u200B${secret.slice(9, 20)}`, `${secret.slice(20)} → fin`] }] };
    const blocked = scanRequestBody(structuredClone(body), ALL_RULES);
    expect(blocked.counts).toEqual({ github_token: 1 });
    const redacting = resolveDlpSettings([{ scope: '*', actions: { github_token: 'redact' } }], ['*']).rules;
    const redacted = structuredClone(body);
    scanRequestBody(redacted, redacting);
    expect(redacted.messages[0]!.content).toEqual([`— ${'é'.repeat(600)} [REDACTED:github_token]`, ' → fin']);
  });
});
