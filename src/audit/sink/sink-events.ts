// A slice of the trail as OCSF event lines, pure: the same mapping as `gw audit export
// --format ocsf` (record-to-ocsf.ts), so what a receiver keeps, in order and without
// repeats, verifies with `gw audit verify --ocsf`. The record the checkpoint is at carries
// the instance's signature; every slice the sink sends ends there, save a catch-up split
// into several batches, whose last batch does. A closed chain's last record carries its closed
// checkpoint's signature (marked closed: it signs the chain's end).
import type { SignedCheckpoint } from '../checkpoint.js';
import { recordToOcsf, type EventLink } from '../ocsf/record-to-ocsf.js';
import type { TrailEntry } from './read-trail-slice.js';

export function sinkEventsOf(entries: readonly TrailEntry[], head: SignedCheckpoint): string[] {
  return entries.map(({ line, record }) => {
    const signed = record.seq === head.seq && record.hash === head.hash;
    const link: EventLink = { chain: head.trail, ...(signed ? { signature: { public_key: head.public_key, signature: head.signature, ...(head.closed ? { closed: true as const } : {}) } } : {}) };
    return JSON.stringify(recordToOcsf(record, line, link));
  });
}
