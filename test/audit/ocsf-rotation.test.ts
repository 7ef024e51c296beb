// verify --ocsf across gw audit rotate, pure: one file holding chain A (ending with its
// audit.chain_closed record under a closed checkpoint of A's key) then chain B (record 1
// audit.chain_opened naming A's closing head) verifies with A's key alone, B's key trusted by the
// rotation; a B under another key, an A that was not closed, a B naming another head, and two
// chains with no rotation between them each fail and name the event.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GENESIS_PREV, sealRecord } from '../../src/audit/chain.js';
import { signCheckpointWithKey, trailIdOf } from '../../src/audit/checkpoint.js';
import { fingerprintOf } from '../../src/audit/key-fingerprint.js';
import { exportOcsf, type OcsfExportSummary } from '../../src/audit/ocsf/export-ocsf.js';
import { verifyOcsfLines } from '../../src/audit/ocsf/verify-ocsf.js';
import type { AuditFields } from '../../src/audit/record.js';
import { rawPublicKey } from '../../src/audit/signing-key.js';

const pair = () => { const key = generateKeyPairSync('ed25519').privateKey; return { key, text: rawPublicKey(key) }; };
const oldKey = pair();
const newKey = pair();
const otherKey = pair();

interface Chain { lines: string[]; trail: string; head: { seq: number; hash: string } }

function chainOf(first: AuditFields, last?: AuditFields): Chain {
  const fields: AuditFields[] = [first, ...Array.from({ length: 4 }, (): AuditFields => ({ kind: 'request', operation: 'chat.completions', model: 'gpt-4o', provider: 'openai', status: 200, origin: '127.0.0.1' })), ...(last ? [last] : [])];
  const lines: string[] = [];
  let prev = GENESIS_PREV;
  let head = { seq: 0, hash: GENESIS_PREV };
  fields.forEach((field, index) => {
    const sealed = sealRecord({ ...field, v: 1, seq: index + 1, ts: new Date(Date.parse('2026-11-27T10:00:00Z') + index * 1000).toISOString(), prev });
    prev = sealed.record.hash;
    head = { seq: sealed.record.seq, hash: sealed.record.hash };
    lines.push(sealed.line);
  });
  return { lines, trail: trailIdOf((JSON.parse(lines[0]!) as { hash: string }).hash), head };
}

async function eventsOf(chain: Chain, key: { key: KeyObject; text: string }, closed = false): Promise<string[]> {
  const summary: OcsfExportSummary = { events: 0, signed: 0, lastSigned: false, unsignedTail: 0 };
  const events: string[] = [];
  for await (const event of exportOcsf(chain.lines, { checkpoint: signCheckpointWithKey(key.key, key.text, chain.trail, chain.head, closed) }, summary)) events.push(event);
  return events;
}

const closing = (next: string): AuditFields => ({ kind: 'audit.chain_closed', data: { reason: 'rotate', next_public_key: next, next_key_fingerprint: fingerprintOf(next) } });
const opening = (previous: Chain, key: string, head = previous.head): AuditFields => ({
  kind: 'audit.chain_opened', data: { previous_trail: previous.trail, previous_seq: head.seq, previous_hash: head.hash, previous_public_key: key },
});
const start: AuditFields = { kind: 'gateway.start', data: { pid: 1 } };

describe('verify --ocsf across gw audit rotate', () => {
  const a = chainOf(start, closing(newKey.text));
  const b = chainOf(opening(a, oldKey.text));

  it('follows the rotation: B after A verifies with A\'s key alone, B\'s key trusted by the rotation', async () => {
    const lines = [...await eventsOf(a, oldKey, true), ...await eventsOf(b, newKey)];
    const verdict = await verifyOcsfLines(lines, { trustedKeys: [oldKey.text] });
    expect(verdict).toMatchObject({ ok: true, events: 11, chains: [a.trail, b.trail], chain: b.trail, head: b.head });
    expect(verdict.signers).toEqual([fingerprintOf(oldKey.text), fingerprintOf(newKey.text)]);
    expect(verdict.notes.join('\n')).toContain(`key ${fingerprintOf(newKey.text)} trusted by rotation from ${fingerprintOf(oldKey.text)}`);
    // A alone needs its own key: the new key does not vouch for the chain before it.
    expect((await verifyOcsfLines(lines, { trustedKeys: [newKey.text] })).firstBad?.reason).toContain('not trusted');
  });

  it('fails a B under another key (even a trusted one), an A not closed, a B naming another head, and two chains without a rotation', async () => {
    const aEvents = await eventsOf(a, oldKey, true);
    const swapped = await verifyOcsfLines([...aEvents, ...await eventsOf(b, otherKey)], { trustedKeys: [oldKey.text, otherKey.text] });
    expect(swapped.firstBad).toMatchObject({ line: 11, reason: expect.stringContaining('the key the closed chain before it introduced') });
    const notClosed = await verifyOcsfLines([...await eventsOf(a, oldKey, false), ...await eventsOf(b, newKey)], { trustedKeys: [oldKey.text] });
    expect(notClosed.firstBad).toMatchObject({ line: 7, reason: expect.stringContaining('carries no closed checkpoint\'s signature') });
    const elsewhere = chainOf(opening(a, oldKey.text, { seq: 3, hash: JSON.parse(a.lines[2]!).hash }));
    const wrongHead = await verifyOcsfLines([...aEvents, ...await eventsOf(elsewhere, newKey)], { trustedKeys: [oldKey.text] });
    expect(wrongHead.firstBad).toMatchObject({ line: 7, reason: expect.stringContaining('at its closing record') });
    const unrelated = chainOf(start);
    const twoChains = await verifyOcsfLines([...await eventsOf(unrelated, oldKey), ...await eventsOf(chainOf({ kind: 'gateway.start', data: { pid: 2 } }), oldKey)], { trustedKeys: [oldKey.text] });
    expect(twoChains.firstBad).toMatchObject({ line: 6, reason: expect.stringContaining('without a rotation between them') });
    const afterClose = await verifyOcsfLines([...aEvents.slice(0, 6)], { trustedKeys: [oldKey.text] });
    expect(afterClose.ok).toBe(true);
  });
});
