// copyWith is a spread: same members, same order, later wins, no prototype change; on Node 20
// (V8 11) key by key, on V8 12+ the spread itself, and both copies must agree.
import { describe, expect, it } from 'vitest';
import { copyWith, copyWithFor } from '../src/copy-with.js';

const copies = [['key by key (V8 11, Node 20)', copyWithFor('11.3.244.8-node.33')], ['the spread (V8 12+, Node 22+)', copyWithFor('14.6.202.33-node.20')]] as const;

describe('copyWith', () => {
  it('takes the spread from V8 12 on and the key-by-key copy before, and uses the one for the running V8', () => {
    expect(copyWithFor('12.4.254.21-node.33')).toBe(copyWithFor('14.6.202.33-node.20'));
    expect(copyWithFor('11.3.244.8-node.33')).not.toBe(copyWithFor('12.4.254.21-node.33'));
    expect(copyWith).toBe(copyWithFor(process.versions.v8));
  });

  describe.each(copies)('%s', (_name, copy) => {
    it('gives what { ...base, ...extra } gives: members, order, the later one winning', () => {
      const base = { a: 1, b: 'two', c: undefined, d: { nested: true } };
      const extra = { b: 'three', e: [1] };
      const copied = copy(base, extra);
      expect(copied).toEqual({ ...base, ...extra });
      expect(Object.keys(copied)).toEqual(Object.keys({ ...base, ...extra }));
      expect(copied.d).toBe(base.d); // shallow, as a spread
      expect(copied).not.toBe(base);
      expect(base.b).toBe('two');
    });

    it('keeps a parsed __proto__ key as an own member instead of setting the prototype', () => {
      const hostile = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as object;
      const copied = copy(hostile, { b: 2 }) as Record<string, unknown>;
      expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
      expect(copied.polluted).toBeUndefined();
      expect(Object.keys(copied)).toEqual(['__proto__', 'a', 'b']);
      expect(JSON.stringify(copied)).toBe(JSON.stringify({ ...hostile, b: 2 }));
    });

    it('copies only own members, as a spread does', () => {
      const base = Object.create({ inherited: 1 }) as Record<string, unknown>;
      base.own = 2;
      expect(copy(base, {})).toEqual({ own: 2 });
    });
  });
});
