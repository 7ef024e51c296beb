import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { patchTopLevelString, scanTopLevel } from '../../src/formats/patch-json-field.js';

describe('patchTopLevelString', () => {
  it('replaces only the top-level field, keeping every other byte', () => {
    const raw = Buffer.from('{ "messages": [{"model": "inner", "content": "a \\" , }"}],\n  "model" : "openai/gpt-4o", "stream": true }');
    const patched = patchTopLevelString(raw, 'model', 'gpt-4o')!;
    expect(patched.toString()).toBe('{ "messages": [{"model": "inner", "content": "a \\" , }"}],\n  "model" : "gpt-4o", "stream": true }');
  });

  it('refuses to patch in place when a top-level key is duplicated', () => {
    expect(patchTopLevelString(Buffer.from('{"model":"a","model":"b"}'), 'model', 'c')).toBeNull();
    expect(scanTopLevel(Buffer.from('{"model":"a","x":{"y":1},"x":2}'), 'model').duplicateKeys).toBe(true);
  });

  it('returns null when the field is absent or not a string', () => {
    expect(patchTopLevelString(Buffer.from('{"messages":[]}'), 'model', 'c')).toBeNull();
    expect(patchTopLevelString(Buffer.from('{"model":42}'), 'model', 'c')).toBeNull();
  });

  it('agrees with JSON.parse for any object (property)', () => {
    fc.assert(fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), fc.string(), (object, model, replacement) => {
      const raw = Buffer.from(JSON.stringify({ ...object, model }, null, 1));
      const patched = patchTopLevelString(raw, 'model', replacement);
      expect(patched).not.toBeNull();
      expect(JSON.parse(patched!.toString())).toEqual(JSON.parse(JSON.stringify({ ...object, model: replacement })));
    }), { numRuns: 300 });
  });
});
