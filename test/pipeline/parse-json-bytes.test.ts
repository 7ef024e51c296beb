// The piecewise JSON parse must be JSON.parse exactly: the same value for every valid body,
// an error for every invalid one (with the whole parse's message), poisoning refused, and the
// depth scan right about brackets inside strings.
import fc from 'fast-check';
import secureJson from 'secure-json-parse';
import { describe, expect, it } from 'vitest';
import { decodeLiteral, rememberedLiterals } from '../../src/pipeline/door/decoded-literals.js';
import { parseJsonBytes, readJsonLayout } from '../../src/pipeline/door/parse-json-bytes.js';

const parse = (bytes: Buffer) => parseJsonBytes(bytes, readJsonLayout(bytes));

/** What the body parser answers: the value, or the error's message. */
function outcome(run: () => unknown): { value: unknown } | { error: string } {
  try {
    return { value: run() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

// Long strings full of what could trip a byte scan: quotes, backslashes, escapes, multi-byte
// characters, control characters (escaped by JSON.stringify), a leading NUL like a placeholder.
const tricky = fc.constantFrom('"', '\\', '\\"', '\\\\"', '\u0000', '\u00001', '\n', '\t', '→', '—', '😀', '\ud800', ':', '{', '[', ']', '}', ',', 'a', ' ', 'é');
const longText = fc.array(fc.oneof(tricky, fc.string({ unit: 'grapheme', maxLength: 40 })), { minLength: 20, maxLength: 120 }).map((parts) => parts.join('').repeat(6));
// A short value that starts with NUL sends the whole body down the plain path (tested apart below).
const text = fc.oneof({ weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) }, { weight: 2, arbitrary: longText }, { weight: 1, arbitrary: tricky.filter((part) => !part.startsWith('\u0000')) });
const key = fc.oneof({ weight: 5, arbitrary: fc.string({ maxLength: 10 }) }, { weight: 1, arbitrary: longText }, { weight: 1, arbitrary: tricky });
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('node'), { maxLength: 6 }),
  object: fc.dictionary(key, tie('node'), { maxKeys: 6 }),
})).node;
/** Bodies are objects or arrays with a few members, as requests are. */
const body = fc.oneof(fc.array(value, { minLength: 2, maxLength: 8 }), fc.dictionary(key, value, { minKeys: 2, maxKeys: 8 }));
const spacing = fc.constantFrom(undefined, 0, 1, 2, '\t');

describe('parseJsonBytes', () => {
  it('gives what JSON.parse gives for any value, however it is spaced', () => {
    let piecewise = 0;
    fc.assert(fc.property(body, spacing, (json, space) => {
      const bytes = Buffer.from(JSON.stringify(json, null, space));
      const layout = readJsonLayout(bytes);
      if (layout.longValues.length >= 2 && !layout.placeholderLookalike) piecewise += 1;
      // The reference refuses poisoning keys (the generator writes `__proto__` now and then) as gw must.
      const reference = outcome(() => secureJson.parse(bytes.toString('utf8'), undefined, { protoAction: 'error', constructorAction: 'error' }));
      expect(outcome(() => parseJsonBytes(bytes, layout))).toStrictEqual(reference);
    }), { numRuns: 400 });
    // The generator must reach the piecewise path (two or more long values) often enough to mean something.
    expect(piecewise).toBeGreaterThan(60);
  });

  it('cuts long values out of a coding-agent body and puts each back where it was', () => {
    const body = { model: 'm', system: [{ type: 'text', text: 'x→'.repeat(2_000) }], messages: [{ role: 'user', content: 'line\n"quoted"\\'.repeat(300) }], short: 'ok' };
    const bytes = Buffer.from(JSON.stringify(body));
    expect(readJsonLayout(bytes).longValues).toHaveLength(2);
    expect(parse(bytes)).toStrictEqual(body);
  });

  it('keeps long keys and placeholder look-alikes exact (the skeleton would confuse them)', () => {
    const cases = [
      { ['k'.repeat(600)]: 'v'.repeat(600) },
      { a: '\u00000', b: 'v'.repeat(600) },
      ['\u00000', 'w'.repeat(700), '\u00001'],
      'the whole body one long string '.repeat(40),
    ];
    for (const json of cases) expect(parse(Buffer.from(JSON.stringify(json)))).toStrictEqual(json);
    expect(readJsonLayout(Buffer.from(JSON.stringify(cases[1]))).placeholderLookalike).toBe(true);
  });

  it('fails exactly when JSON.parse fails, with its message, whatever byte is broken', () => {
    const body = Buffer.from(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: `a "b" \\ ${'long text → '.repeat(80)}` }], tail: ['x'.repeat(600)] }));
    const breakers = [0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x0a, 0x00, 0x41, 0xff];
    fc.assert(fc.property(fc.nat(body.length - 1), fc.constantFrom(...breakers), fc.boolean(), (at, byte, insert) => {
      const broken = insert ? Buffer.concat([body.subarray(0, at), Buffer.from([byte]), body.subarray(at)]) : Buffer.from(body).fill(byte, at, at + 1);
      const whole = outcome(() => JSON.parse(broken.toString('utf8')));
      const pieces = outcome(() => parse(broken));
      if ('error' in whole) expect(pieces).toHaveProperty('error');
      else expect(pieces).toStrictEqual(whole);
      if ('error' in whole && 'error' in pieces) expect(pieces.error).toBe(whole.error);
    }), { numRuns: 600 });
  });

  it('refuses __proto__ and constructor.prototype keys however they are spelled, beside long values', () => {
    const long = 'z'.repeat(700);
    for (const poisoned of [`{"a":"${long}","__proto__":{"x":1}}`, `{"a":"${long}","\\u005f_proto__":{"x":1}}`, `{"b":["${long}"],"constructor":{"prototype":{"x":1}}}`]) {
      expect(() => parse(Buffer.from(poisoned))).toThrow(/prototype|__proto__/i);
    }
    // In a value, the names are only text.
    expect(parse(Buffer.from(`{"a":"${long} __proto__ constructor"}`))).toStrictEqual({ a: `${long} __proto__ constructor` });
  });
});

describe('decodeLiteral', () => {
  it('gives a literal decoded before the same string, and one that differs anywhere its own', () => {
    const text = `${'a'.repeat(300)}\n→${'b'.repeat(300)}`;
    const literal = Buffer.from(JSON.stringify(text));
    const first = decodeLiteral(Buffer.concat([Buffer.from('{"x":'), literal, Buffer.from('}')]), 5, 5 + literal.length);
    const again = decodeLiteral(Buffer.from(literal), 0, literal.length);
    expect(first).toBe(text);
    expect(again).toBe(first);
    // Same length and same samples at the start, middle and end: only the whole comparison tells them apart.
    const changed = Buffer.from(literal);
    changed[100] = 0x7a;
    expect(decodeLiteral(changed, 0, changed.length)).toBe(JSON.parse(changed.toString('utf8')));
    expect(decodeLiteral(changed, 0, changed.length)).not.toBe(text);
    // A broken literal still throws, every time.
    const broken = Buffer.from(literal);
    broken[200] = 0x0a;
    expect(() => decodeLiteral(broken, 0, broken.length)).toThrow(SyntaxError);
    expect(() => decodeLiteral(broken, 0, broken.length)).toThrow(SyntaxError);
  });

  it('holds at most 8 MB of literals, the oldest going first', () => {
    const literal = (index: number) => Buffer.from(JSON.stringify(`${index}:${'x'.repeat(1_000)}`));
    const first = literal(-1);
    const firstValue = decodeLiteral(first, 0, first.length);
    expect(decodeLiteral(Buffer.from(first), 0, first.length)).toBe(firstValue);
    for (let index = 0; index < 10_000; index++) {
      const bytes = literal(index);
      decodeLiteral(bytes, 0, bytes.length);
    }
    const held = rememberedLiterals();
    expect(held.bytes).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(held.bytes).toBeGreaterThan(7 * 1024 * 1024);
    // About 1 KB each: some 8,000 of the 10,001 stay; the oldest went, and decoding it again still gives its value.
    expect(held.literals).toBeLessThan(8_500);
    expect(decodeLiteral(Buffer.from(first), 0, first.length)).toBe(firstValue);
  });
});

describe('readJsonLayout depth', () => {
  const bytes = (text: string) => Buffer.from(text);

  it('counts [ and { outside strings', () => {
    expect(readJsonLayout(bytes('{"a":[[1]]}'), 3).tooDeep).toBe(false);
    expect(readJsonLayout(bytes('{"a":[[[1]]]}'), 3).tooDeep).toBe(true);
    expect(readJsonLayout(bytes(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).tooDeep).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(readJsonLayout(bytes(JSON.stringify({ text: '[[[[{{{{' })), 2).tooDeep).toBe(false);
    expect(readJsonLayout(bytes(JSON.stringify({ text: 'say \\"[[[[\\" and "{{{{"' })), 2).tooDeep).toBe(false);
  });

  it('depth comes back down after siblings close', () => {
    expect(readJsonLayout(bytes('[[1],[2],[3],[4]]'), 2).tooDeep).toBe(false);
  });
});
