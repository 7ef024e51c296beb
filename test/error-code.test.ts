import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { errorCode } from '../src/error-code.js';
import { errorMessage } from '../src/error-message.js';

describe('errorCode', () => {
  it('reads a system error\'s code', async () => {
    const error: unknown = await readFile('/no/such/file/for/gw').catch((caught: unknown) => caught);
    expect(errorCode(error)).toBe('ENOENT');
  });

  it('is undefined for what carries no string code', () => {
    expect(errorCode(new Error('plain'))).toBeUndefined();
    expect(errorCode({ code: 42 })).toBeUndefined();
    expect(errorCode('ENOENT')).toBeUndefined();
    expect(errorCode(null)).toBeUndefined();
  });
});

describe('errorMessage', () => {
  it('is an Error\'s message, else the thrown value as text', () => {
    expect(errorMessage(new Error('disk full'))).toBe('disk full');
    expect(errorMessage('plain text thrown')).toBe('plain text thrown');
  });
});
