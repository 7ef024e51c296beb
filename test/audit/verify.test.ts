import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GENESIS_PREV, sealRecord } from '../../src/audit/chain.js';
import { signCheckpoint, trailIdOf } from '../../src/audit/checkpoint.js';
import { verifyLines } from '../../src/audit/verify.js';
import { buildChain } from './helpers.js';

const key = Buffer.alloc(32, 7);

function headOf(line: string): { seq: number; hash: string } {
  const { seq, hash } = JSON.parse(line) as { seq: number; hash: string };
  return { seq, hash };
}

describe('verifyLines on an intact chain', () => {
  it('passes and reports the head', async () => {
    const lines = buildChain(30);
    const result = await verifyLines(lines, { checkpoint: signCheckpoint(key, headOf(lines[29]!)), key });
    expect(result).toEqual({ ok: true, records: 30, head: headOf(lines[29]!), warnings: [], trail: trailIdOf(headOf(lines[0]!).hash), hashesAt: new Map() });
  });

  it('accepts an async iterable', async () => {
    async function* generate(): AsyncGenerator<string> {
      yield* buildChain(3);
    }
    expect((await verifyLines(generate())).records).toBe(3);
  });

  it('passes an empty log and warns when there is no checkpoint or no key', async () => {
    expect(await verifyLines([])).toMatchObject({ ok: true, records: 0, head: null });
    const lines = buildChain(2);
    const result = await verifyLines(lines, { checkpoint: signCheckpoint(key, headOf(lines[1]!)) });
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual(['no audit key: the checkpoint HMAC was not verified']);
    expect((await verifyLines(lines)).warnings).toEqual(['no checkpoint: a cut tail cannot be detected']);
  });

  it('treats an incomplete last line as a warning, not a record', async () => {
    const lines = [...buildChain(3), '{"v":1,"se'];
    const result = await verifyLines(lines, { lastLineIncomplete: true });
    expect(result).toMatchObject({ ok: true, records: 3 });
    expect(result.warnings[0]).toMatch(/^line 4: the last line has no trailing newline/);
  });
});

describe('verifyLines names the tampered record', () => {
  const lines = buildChain(20);

  it('edit one byte', async () => {
    const edited = [...lines];
    edited[16] = edited[16]!.replace('"status":200', '"status":201');
    expect((await verifyLines(edited)).firstBad).toEqual({ line: 17, seq: 17, reason: 'record 17: hash mismatch (edited)' });
  });

  it('edit with the hash recomputed: the next record no longer links', async () => {
    const edited = [...lines];
    const original = JSON.parse(edited[16]!) as Parameters<typeof sealRecord>[0];
    edited[16] = sealRecord({ ...original, status: 500 }).line; // sealRecord ignores the old hash and makes a fresh one
    expect((await verifyLines(edited)).firstBad?.reason).toBe('record 18: prev does not match the hash of record 17 (a record was replaced, inserted or reordered)');
  });

  it('delete a line', async () => {
    const deleted = lines.filter((_, index) => index !== 16);
    expect((await verifyLines(deleted)).firstBad).toEqual({ line: 17, seq: 18, reason: 'record 18: seq 18 follows 16 (deleted or reordered)' });
  });

  it('insert a line (a copy of another record)', async () => {
    const inserted = [...lines.slice(0, 10), lines[3]!, ...lines.slice(10)];
    expect((await verifyLines(inserted)).firstBad).toEqual({ line: 11, seq: 4, reason: 'record 4: seq 4 follows 10 (inserted or reordered)' });
  });

  it('swap two lines', async () => {
    const swapped = [...lines];
    [swapped[7], swapped[8]] = [swapped[8]!, swapped[7]!];
    expect((await verifyLines(swapped)).firstBad).toEqual({ line: 8, seq: 9, reason: 'record 9: seq 9 follows 7 (deleted or reordered)' });
  });

  it('delete the first line', async () => {
    expect((await verifyLines(lines.slice(1))).firstBad?.reason).toBe('record 2: the first record has seq 2, expected 1 (head of the log deleted)');
  });

  it('cut the tail: caught only through the checkpoint', async () => {
    const checkpoint = signCheckpoint(key, headOf(lines[19]!));
    const cut = lines.slice(0, 15);
    expect((await verifyLines(cut)).ok).toBe(true);
    expect((await verifyLines(cut, { checkpoint, key })).firstBad).toEqual({ line: 16, seq: 20, reason: 'truncated: log ends at seq 15 but checkpoint says 20' });
  });

  it('a forged checkpoint fails its HMAC; a rewritten log fails the checkpoint hash', async () => {
    const forged = { ...headOf(lines[19]!), hmac: 'a'.repeat(64) };
    expect((await verifyLines(lines, { checkpoint: forged, key })).firstBad?.reason).toMatch(/^checkpoint HMAC does not match/);
    const other = signCheckpoint(key, { seq: 20, hash: 'b'.repeat(64) });
    expect((await verifyLines(lines, { checkpoint: other, key })).firstBad?.reason).toBe("record 20: hash differs from the checkpoint's (log rewritten)");
  });

  it('a first record that does not start from genesis', async () => {
    const { line } = sealRecord({ v: 1, seq: 1, ts: '2026-01-01T00:00:00.000Z', kind: 'gateway.start', prev: 'c'.repeat(64) });
    expect((await verifyLines([line])).firstBad?.reason).toBe("record 1: the first record's prev is not the genesis value (head of the log replaced)");
    expect(GENESIS_PREV).toMatch(/^0{64}$/);
  });
});

describe('property: any single-byte change before the last line is caught', () => {
  const lines = buildChain(6);
  const bytes = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
  const lastLineStart = bytes.length - Buffer.byteLength(lines[5]!) - 1;

  it('fails verification', async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 0, max: lastLineStart - 1 }),
      fc.integer({ min: 1, max: 255 }),
      async (index, delta) => {
        const changed = Buffer.from(bytes);
        changed[index] = (changed[index]! + delta) % 256;
        const text = changed.toString('utf8');
        const changedLines = text.split('\n');
        if (changedLines[changedLines.length - 1] === '') changedLines.pop();
        const result = await verifyLines(changedLines);
        expect(result.ok).toBe(false);
      },
    ), { numRuns: 2000 });
  });
});
