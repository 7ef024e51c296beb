// copyWith is a spread: same members, same order, later wins, no prototype change.
import { describe, expect, it } from 'vitest';
import { copyWith } from '../src/copy-with.js';

describe('copyWith', () => {
  it('gives what { ...base, ...extra } gives: members, order, the later one winning', () => {
    const base = { a: 1, b: 'two', c: undefined, d: { nested: true } };
    const extra = { b: 'three', e: [1] };
    const copy = copyWith(base, extra);
    expect(copy).toEqual({ ...base, ...extra });
    expect(Object.keys(copy)).toEqual(Object.keys({ ...base, ...extra }));
    expect(copy.d).toBe(base.d); // shallow, as a spread
    expect(copy).not.toBe(base);
    expect(base.b).toBe('two');
  });

  it('keeps a parsed __proto__ key as an own member instead of setting the prototype', () => {
    const hostile = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as object;
    const copy = copyWith(hostile, { b: 2 }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.polluted).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['__proto__', 'a', 'b']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify({ ...hostile, b: 2 }));
  });

  it('copies only own members, as a spread does', () => {
    const base = Object.create({ inherited: 1 }) as Record<string, unknown>;
    base.own = 2;
    expect(copyWith(base, {})).toEqual({ own: 2 });
  });
});
