// Witness cosignatures, pure: the message a witness signs (with "closed" for a closing
// checkpoint), what the pusher keeps of an answer, and the OCSF export and offline verifier
// carrying them: each cosignature in its event's attestation (schema-checked), an edited or
// forged one failing and naming the event, --witness-key fail-closed, and the last event
// required to be cosigned by a trusted witness.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GENESIS_PREV, sealRecord } from '../../src/audit/chain.js';
import { signCheckpointWithKey, trailIdOf, type SignedCheckpoint } from '../../src/audit/checkpoint.js';
import {
  cosignatureInAnswer, cosignatureMessage, isCosignatureValid, readCosignature, signCosignature, storedCosignatureOf, type StoredCosignature,
} from '../../src/audit/cosignature.js';
import { exportOcsf, type OcsfExportSummary } from '../../src/audit/ocsf/export-ocsf.js';
import { verifyOcsfLines } from '../../src/audit/ocsf/verify-ocsf.js';
import type { AuditFields } from '../../src/audit/record.js';
import { rawPublicKey } from '../../src/audit/signing-key.js';
import { fingerprintOf } from '../../src/audit/key-fingerprint.js';
import { OcsfSchema } from '../support/ocsf-schema.js';
import type { WireJson } from '../support/wire-json.js';

const schema = new OcsfSchema();
const instance = generateKeyPairSync('ed25519').privateKey;
const instanceKey = rawPublicKey(instance);
const witness = generateKeyPairSync('ed25519').privateKey;
const witnessKey = rawPublicKey(witness);
const other = generateKeyPairSync('ed25519').privateKey;
const otherKey = rawPublicKey(other);

function chainOf(count: number): string[] {
  const lines: string[] = [];
  let prev = GENESIS_PREV;
  for (let index = 0; index < count; index += 1) {
    const fields: AuditFields = index === 0 ? { kind: 'gateway.start', data: { pid: 1 } } : { kind: 'request', operation: 'chat.completions', model: 'gpt-4o', provider: 'openai', status: 200, origin: '127.0.0.1' };
    const sealed = sealRecord({ ...fields, v: 1, seq: index + 1, ts: new Date(Date.parse('2026-11-27T10:00:00Z') + index * 1000).toISOString(), prev });
    prev = sealed.record.hash;
    lines.push(sealed.line);
  }
  return lines;
}

const trail = chainOf(8);
const chain = trailIdOf((JSON.parse(trail[0]!) as { hash: string }).hash);
const checkpointAt = (seq: number, closed = false): SignedCheckpoint => signCheckpointWithKey(instance, instanceKey, chain, JSON.parse(trail[seq - 1]!) as { seq: number; hash: string }, closed);

function storedAt(seq: number, key = witness, keyText = witnessKey, closed = false): StoredCosignature {
  const checkpoint = checkpointAt(seq, closed);
  const kept = storedCosignatureOf(checkpoint, signCosignature(key, keyText, checkpoint), 'hub http://127.0.0.1', '2026-11-27T10:01:00.000Z');
  if ('refused' in kept) throw new Error(kept.refused);
  return kept;
}

async function exported(options: { head?: SignedCheckpoint; cosignatures?: StoredCosignature[]; until?: number } = {}): Promise<{ events: string[]; summary: OcsfExportSummary }> {
  const summary: OcsfExportSummary = { events: 0, signed: 0, lastSigned: false, unsignedTail: 0 };
  const events: string[] = [];
  const { head = checkpointAt(8), ...rest } = options;
  for await (const event of exportOcsf(trail, { checkpoint: head, ...rest }, summary)) events.push(event);
  return { events, summary };
}

const edit = (events: string[], index: number, change: (event: WireJson) => void) => events.map((line, at) => {
  if (at !== index) return line;
  const event = JSON.parse(line) as WireJson;
  change(event);
  return JSON.stringify(event);
});

describe('a witness cosignature', () => {
  it('signs the chain, seq and hash, and "closed" for a closing checkpoint; an edited one does not verify', () => {
    expect(cosignatureMessage(chain, 3, 'ab')).toBe(`gw audit cosignature v1\n${chain}\n3\nab`);
    expect(cosignatureMessage(chain, 3, 'ab', true)).toBe(`gw audit cosignature v1\n${chain}\n3\nab\nclosed`);
    const cosignature = signCosignature(witness, witnessKey, checkpointAt(3));
    expect(isCosignatureValid(cosignature)).toBe(true);
    expect(isCosignatureValid({ ...cosignature, seq: 4 })).toBe(false);
    expect(isCosignatureValid({ ...cosignature, closed: true })).toBe(false);
    const closing = signCosignature(witness, witnessKey, checkpointAt(3, true));
    expect(closing.closed).toBe(true);
    expect(isCosignatureValid(closing)).toBe(true);
    expect(isCosignatureValid({ trail: closing.trail, seq: closing.seq, hash: closing.hash, witness_public_key: closing.witness_public_key, signature: closing.signature })).toBe(false);
  });

  it('is read from a witness answer, and the pusher keeps it only when it is of the checkpoint sent and verifies', () => {
    const cosignature = signCosignature(witness, witnessKey, checkpointAt(3));
    expect(cosignatureInAnswer(JSON.stringify({ accepted: true, cosignature }))).toEqual({ ok: true, cosignature });
    expect(cosignatureInAnswer('{"accepted":true}')).toEqual({ ok: true });
    expect(cosignatureInAnswer('not json')).toEqual({ ok: true });
    expect(() => readCosignature({ ...cosignature, signature: 'x' })).toThrow('signature');
    expect(storedCosignatureOf(checkpointAt(4), cosignature, 'hub', 't')).toMatchObject({ refused: expect.stringContaining('another checkpoint') });
    const forged = { ...cosignature, signature: signCosignature(witness, witnessKey, checkpointAt(4)).signature };
    expect(storedCosignatureOf(checkpointAt(3), forged, 'hub', 't')).toMatchObject({ refused: expect.stringContaining('does not verify') });
    expect(storedCosignatureOf(checkpointAt(3), cosignature, 'hub', 't')).toMatchObject({ seq: 3, public_key: instanceKey, checkpoint_signature: checkpointAt(3).signature, witness_public_key: witnessKey });
  });
});

describe('cosignatures in the OCSF export', () => {
  it('go in the attestation after the instance\'s signature, each naming its key, and every event stays valid against the schema', async () => {
    const { events, summary } = await exported({ cosignatures: [storedAt(4), storedAt(8), storedAt(8, other, otherKey)] });
    expect(summary).toMatchObject({ events: 8, signed: 2, cosigned: 2, lastCosigned: true });
    for (const line of events) expect(schema.check(JSON.parse(line)), line).toEqual([]);
    const last = JSON.parse(events[7]!) as WireJson;
    const signatures = last.attestation_list[0].signatures as WireJson[];
    expect(signatures).toHaveLength(3);
    expect(signatures[0]!.certificate).toBeUndefined();
    expect(signatures[1]).toMatchObject({ algorithm: 'Ed25519', serialization: expect.stringContaining('gw audit cosignature v1'), certificate: { uid: witnessKey, serial_number: fingerprintOf(witnessKey) }, created_time: Date.parse('2026-11-27T10:01:00.000Z') });
    expect(last.unmapped.gw_signatures.map((entry: { role?: string; public_key: string }) => [entry.role ?? 'instance', entry.public_key])).toEqual([['instance', instanceKey], ['witness', witnessKey], ['witness', otherKey]]);
    // The cosigned checkpoint at seq 4 signs its record with the instance's signature too, without a witness log.
    expect((JSON.parse(events[3]!) as WireJson).unmapped.gw_signatures).toHaveLength(2);
  });

  it('verify checks every cosignature: edited or forged fails and names the event; --witness-key is fail-closed and requires the last event cosigned', async () => {
    const { events } = await exported({ cosignatures: [storedAt(4), storedAt(8)] });
    const uid = (index: number) => (JSON.parse(events[index]!) as { metadata: { uid: string } }).metadata.uid;
    const verify = (lines: string[], witnessKeys?: string[]) => verifyOcsfLines(lines, { trustedKeys: [instanceKey], ...(witnessKeys ? { witnessKeys } : {}) });
    expect(await verify(events, [witnessKey])).toMatchObject({ ok: true, cosigners: [fingerprintOf(witnessKey)] });
    const alone = await verify(events);
    expect(alone.ok).toBe(true);
    expect(alone.notes.join('\n')).toContain(`${fingerprintOf(witnessKey)} verify over their events but were not checked`);
    const flipped = edit(events, 3, (event) => { const entry = event.unmapped.gw_signatures[1]; entry.signature = `${entry.signature.slice(0, 10)}${entry.signature[10] === 'A' ? 'B' : 'A'}${entry.signature.slice(11)}`; });
    expect((await verify(flipped)).firstBad).toMatchObject({ uid: uid(3), reason: expect.stringContaining(`cosignature by witness key ${fingerprintOf(witnessKey)} does not verify`) });
    // Re-signed by another key, key and signature both swapped: valid math, but not a key the auditor named.
    const resigned = edit(events, 7, (event) => {
      const entry = event.unmapped.gw_signatures[1];
      entry.public_key = otherKey;
      entry.key_fingerprint = fingerprintOf(otherKey);
      entry.signature = signCosignature(other, otherKey, checkpointAt(8)).signature;
      event.attestation_list[0].signatures[1].certificate = { ...event.attestation_list[0].signatures[1].certificate, uid: otherKey, serial_number: fingerprintOf(otherKey), subject: `gw audit witness ${fingerprintOf(otherKey)}` };
    });
    expect((await verify(resigned)).ok).toBe(true);
    expect((await verify(resigned, [witnessKey])).firstBad).toMatchObject({ uid: uid(7), reason: expect.stringContaining('not trusted (not given with --witness-key)') });
    const timed = edit(events, 7, (event) => { event.attestation_list[0].signatures[1].created_time = 1; });
    expect((await verify(timed)).firstBad).toMatchObject({ uid: uid(7), reason: expect.stringContaining('created_time differs') });
    const stripped = edit(events, 7, (event) => { event.unmapped.gw_signatures.pop(); event.attestation_list[0].signatures.pop(); });
    expect((await verify(stripped)).ok).toBe(true);
    expect((await verify(stripped, [witnessKey])).firstBad).toMatchObject({ uid: uid(7), reason: expect.stringContaining('last event is not cosigned by a --witness-key (the last event cosigned by one is seq 4)') });
    const misplaced = edit(events, 7, (event) => { event.unmapped.gw_signatures.reverse(); });
    expect((await verify(misplaced)).firstBad).toMatchObject({ uid: uid(7), reason: 'unmapped.gw_signatures is malformed' });
  });

  it('a window that ends on a cosigned checkpoint verifies with --witness-key; a closing checkpoint\'s signature and cosignature verify with "closed"', async () => {
    const window = await exported({ cosignatures: [storedAt(4)], until: Date.parse('2026-11-27T10:00:03Z') });
    expect(window.events).toHaveLength(4);
    expect((await verifyOcsfLines(window.events, { trustedKeys: [instanceKey], witnessKeys: [witnessKey] })).ok).toBe(true);
    const closed = await exported({ head: checkpointAt(8, true), cosignatures: [storedAt(8, witness, witnessKey, true)] });
    const last = JSON.parse(closed.events[7]!) as WireJson;
    expect(last.unmapped.gw_signatures.map((entry: { closed?: boolean }) => entry.closed)).toEqual([true, true]);
    expect(last.attestation_list[0].signatures[0].serialization).toContain('closed');
    expect(await verifyOcsfLines(closed.events, { trustedKeys: [instanceKey], witnessKeys: [witnessKey] })).toMatchObject({ ok: true });
    const reopened = edit(closed.events, 7, (event) => { for (const entry of event.unmapped.gw_signatures) delete entry.closed; });
    expect((await verifyOcsfLines(reopened, { trustedKeys: [instanceKey] })).firstBad?.reason).toContain('signature does not verify');
  });
});
