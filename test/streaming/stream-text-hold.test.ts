// The output hold (src/dlp/scan-stream-text.ts): carriers of streamed text leave only
// once a secret starting in them would have been seen whole. Every built-in secret that
// blocks by default, dripped one character per carrier, is stopped before more than 4 of
// its characters were released; clean text comes out whole and in order.
import { describe, expect, it } from 'vitest';
import { resolveDlpSettings } from '../../src/dlp/dlp-config.js';
import { findMatches } from '../../src/dlp/find-matches.js';
import { prepareText } from '../../src/dlp/normalize-text.js';
import { createStreamTextHold, OUTPUT_HOLD_CHARS } from '../../src/dlp/scan-stream-text.js';
import { SAMPLES } from '../dlp/samples.js';

const rules = resolveDlpSettings([], ['*']).rules;

function longestRun(secret: string, text: string): number {
  let longest = 0;
  for (let start = 0; start < secret.length; start += 1) {
    for (let end = start + longest + 1; end <= secret.length && text.includes(secret.slice(start, end)); end += 1) longest = end - start;
  }
  return longest;
}

/** Pushes `text` one character per carrier; returns what was released and the blocking rule. */
function drip(text: string): { released: string; blockedBy: string | null } {
  const hold = createStreamTextHold<string>(rules);
  let released = '';
  for (const character of text) {
    const step = hold.push(character, character);
    released += step.release.join('');
    if (step.blocked) return { released, blockedBy: step.blocked.rule.detector.id };
  }
  return { released: released + hold.end().join(''), blockedBy: null };
}

const blocking = Object.entries(SAMPLES).filter(([, secret]) => findMatches(prepareText(secret).folded, rules).some((match) => match.rule.action === 'block'));

describe('a secret dripped one character at a time', () => {
  it('covers the built-in secrets', () => {
    expect(blocking.length).toBeGreaterThanOrEqual(10);
  });

  it.each(blocking)('%s is stopped before any 5 of its characters leave', (_name, secret) => {
    const prefix = 'Sure. The value you asked for is: ';
    const { released, blockedBy } = drip(`${prefix}${secret} and that is all.`);
    expect(blockedBy).not.toBeNull();
    expect(longestRun(secret, released)).toBeLessThanOrEqual(4);
    // What came wholly before the secret is not lost with it.
    expect(released).toBe(prefix);
  });
});

describe('the hold', () => {
  it('releases clean text whole and in order, the last of it when the stream ends', () => {
    const text = 'lorem ipsum dolor sit amet, '.repeat(40);
    const hold = createStreamTextHold<string>(rules);
    let early = '';
    for (const piece of text.match(/.{1,7}/gs)!) early += hold.push(piece, piece).release.join('');
    expect(text.length - early.length).toBeLessThanOrEqual(OUTPUT_HOLD_CHARS + 7);
    expect(text.length - early.length).toBeGreaterThanOrEqual(OUTPUT_HOLD_CHARS);
    expect(early + hold.end().join('')).toBe(text);
  });

  it('lets a carrier without text through at once when nothing is held before it, and keeps order otherwise', () => {
    const hold = createStreamTextHold<string>(rules);
    expect(hold.push('start', '').release).toEqual(['start']);
    expect(hold.push('hello', 'hello').release).toEqual([]);
    expect(hold.push('usage', '').release).toEqual([]);
    expect(hold.end()).toEqual(['hello', 'usage']);
  });

  it('a secret arriving in one piece after clean text: the clean carriers go, the secret\'s does not', () => {
    const hold = createStreamTextHold<string>(rules);
    expect(hold.push('a', 'first words ').blocked).toBeNull();
    const step = hold.push('b', `then ${SAMPLES.githubPat}`);
    expect(step.blocked?.rule.detector.id).toBe('github_token');
    expect(step.release).toEqual(['a']);
  });

  it('counts a log or redact match without stopping', () => {
    const settings = resolveDlpSettings([{ scope: '*', actions: { github_token: 'log' } }], ['*']);
    const hold = createStreamTextHold<string>(settings.rules);
    const step = hold.push('x', `token ${SAMPLES.githubPat}`);
    expect(step.blocked).toBeNull();
    expect(step.matches.map((match) => match.rule.detector.id)).toEqual(['github_token']);
    expect(hold.end()).toEqual(['x']);
  });
});
