import { describe, expect, it } from 'vitest';
import { fieldWording } from '../../src/admin/field-wording.js';

describe('fieldWording', () => {
  it('says a refused budget amount in the form\'s words', () => {
    expect(fieldWording('gw: invalid --amount "-1": USD > 0\n')).toBe('Amount must be more than 0 USD (not "-1")');
  });

  it('names the field, not the flag, for the CLI\'s other value refusals', () => {
    expect(fieldWording('gw: invalid --input "-1": a number of USD ≥ 0')).toBe('Input price must be a number of USD, 0 or more (not "-1")');
    expect(fieldWording('gw: invalid --base-url "ftp://example.com/v1": use an http(s) URL')).toBe('Base URL must be an http(s) URL (not "ftp://example.com/v1")');
    expect(fieldWording('gw: invalid --period "year": day, week or month')).toBe('Period must be day, week or month (not "year")');
    expect(fieldWording('gw: invalid --target "gpt-4o": start with provider/model')).toBe('Target must start with provider/model (not "gpt-4o")');
    expect(fieldWording('gw: invalid --rpm "lots": use a whole number (0 clears)')).toBe('Requests/min must be a whole number (0 clears) (not "lots")');
  });

  it('leaves other refusals to the CLI\'s own text', () => {
    expect(fieldWording('gw: team "eng" already exists')).toBeNull();
    expect(fieldWording('')).toBeNull();
  });
});
