import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AuditRecordError, GENESIS_PREV, hashRecord, sealRecord, type UnsealedRecord } from '../../src/audit/chain.js';

const base: UnsealedRecord = { v: 1, seq: 1, ts: '2026-01-01T00:00:00.000Z', kind: 'gateway.start', prev: GENESIS_PREV };
const canonicalize = canonicalizeModule as unknown as (value: unknown) => string;

describe('hashRecord', () => {
  it('matches a known vector (sha256 of prev, newline, JCS) computed outside Node', () => {
    expect(hashRecord(GENESIS_PREV, base)).toBe('72b59d6cbdd4d15374ce108d306fbce01755e9702fa86c254606ff0667c756fd');
  });

  it('sorts keys by UTF-16 code units (RFC 8785 §3.2.3 example keys)', () => {
    const data = { '\u20ac': 5, '\r': 1, '\ufb33': 7, '1': 2, '\ud83d\ude00': 6, '\u0080': 3, '\u00f6': 4 };
    expect(hashRecord(GENESIS_PREV, { ...base, kind: 'request', data }))
      .toBe('a24809ebc55ce094b220a313883327fc623cd7420bef21b73265d1848d368c8c');
  });

  it('ignores a hash field and undefined fields, and depends on prev', () => {
    const plain = hashRecord(GENESIS_PREV, base);
    expect(hashRecord(GENESIS_PREV, { ...base, hash: 'f'.repeat(64), model: undefined })).toBe(plain);
    expect(hashRecord('1'.repeat(64), base)).not.toBe(plain);
  });

  it('rejects floats, unsafe integers, NaN, lone surrogates, undefined in arrays and non-plain objects', () => {
    const bad: unknown[] = [1.5, 2 ** 53, Number.NaN, Infinity, '\ud800x', [undefined], new Date(0), 10n];
    for (const value of bad) {
      expect(() => hashRecord(GENESIS_PREV, { ...base, data: { value } })).toThrow(AuditRecordError);
    }
  });
});

describe('sealRecord', () => {
  it('builds a line that is the JCS form of the full record, hash included', () => {
    const { record, line } = sealRecord({ ...base, kind: 'request', status: 200, tokens: { output: 2, input: 1 }, outcome: ['ok'] });
    expect(line).toBe(canonicalize(record));
    expect(line).toContain(`"hash":"${record.hash}"`);
    expect(record.hash).toBe(createHash('sha256').update(`${GENESIS_PREV}\n${canonicalize({ ...record, hash: undefined })}`).digest('hex'));
    expect(JSON.parse(line)).toEqual(record);
  });

  it('splices the hash member in at its sorted place', () => {
    const { record, line } = sealRecord({ ...base, kind: 'request', dlp: { email: 1 }, bytes_in: 3 });
    expect(line.startsWith('{"bytes_in":3,"dlp":{"email":1},"hash":')).toBe(true);
    expect(line).toBe(canonicalize(record));
  });

  it('stores -0 as 0 and drops undefined, so the record equals its own parse', () => {
    const { record, line } = sealRecord({ ...base, status: -0, model: undefined });
    expect(Object.is(record.status, 0)).toBe(true);
    expect('model' in record).toBe(false);
    expect(JSON.parse(line)).toEqual(record);
  });
});

describe('the per-shape fast path', () => {
  const value = fc.letrec((tie) => ({
    leaf: fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
    node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('leaf'), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), tie('leaf'), { maxKeys: 4 })),
  })).node;

  it('gives the same line and hash as RFC 8785 over the whole record, whatever the keys (property)', () => {
    fc.assert(fc.property(fc.dictionary(fc.string({ maxLength: 6 }), fc.option(value, { nil: undefined }), { maxKeys: 8 }), (extra) => {
      const unsealed = { ...extra, ...base, kind: 'request' } as UnsealedRecord;
      // Twice: the second call takes the cached shape.
      for (let round = 0; round < 2; round += 1) {
        const { record, line } = sealRecord(unsealed);
        expect(line).toBe(canonicalize(record));
        expect(record.hash).toBe(hashRecord(GENESIS_PREV, unsealed));
      }
    }), { numRuns: 300 });
  });
});
