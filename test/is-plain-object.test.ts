import { describe, expect, it } from 'vitest';
import { isPlainObject } from '../src/is-plain-object.js';

describe('isPlainObject', () => {
  it('accepts what JSON.parse gives for an object', () => {
    expect(isPlainObject(JSON.parse('{"a":1}'))).toBe(true);
    expect(isPlainObject({})).toBe(true);
  });

  it('refuses null, arrays and scalars', () => {
    for (const value of [null, undefined, [], [1], 'text', 1, true]) expect(isPlainObject(value)).toBe(false);
  });
});
