// The clean-text cache files texts under a short fingerprint and compares them whole: a text that
// differs anywhere (outside the sampled places too) is a miss; the total size stays bounded,
// oldest out first; the forms kept with a text come back with it.
import { describe, expect, it } from 'vitest';
import { createCleanTextCache } from '../../src/dlp/clean-text-cache.js';

const text = (fill: string, size = 3000) => fill.repeat(Math.ceil(size / fill.length)).slice(0, size);

describe('clean-text cache', () => {
  it('a text with the same length and samples but one character changed elsewhere is a miss', () => {
    const cache = createCleanTextCache();
    const clean = text('abcdefgh');
    cache.add(clean);
    const twin = `${clean.slice(0, 100)}X${clean.slice(101)}`;
    expect(twin.length).toBe(clean.length);
    expect(cache.has(`${clean}`)).toBe(true);
    expect(cache.has(twin)).toBe(false);
    cache.add(twin);
    expect([cache.has(clean), cache.has(twin)]).toEqual([true, true]);
  });

  it('returns the forms kept with a text, true without them, and nothing for short texts', () => {
    const cache = createCleanTextCache();
    const plain = text('plain ');
    const accented = text('é ');
    cache.add(plain);
    cache.add(accented, undefined, { normalized: accented, folded: accented.toUpperCase() });
    expect(cache.lookup(plain)).toBe(true);
    expect(cache.lookup(accented)).toEqual({ normalized: accented, folded: accented.toUpperCase() });
    cache.add('short');
    expect(cache.lookup('short')).toBeUndefined();
    expect(cache.has('short window text', 4)).toBe(false);
  });

  it('keeps at most maxChars, dropping the oldest texts first', () => {
    const cache = createCleanTextCache(10_000);
    const texts = Array.from({ length: 10 }, (_, index) => text(`t${index} `));
    for (const entry of texts) cache.add(entry);
    expect(texts.map((entry) => cache.has(entry))).toEqual([false, false, false, false, false, false, false, true, true, true]);
    for (let round = 0; round < 2_000; round += 1) cache.add(text(`r${round} `));
    expect(cache.has(text('r1999 '))).toBe(true);
    expect(cache.has(text('r0 '))).toBe(false);
  });
});
