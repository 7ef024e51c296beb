// A chain's record lines as OCSF event lines, pure: the caller reads the lines (a file, a
// PostgreSQL chain) and the checkpoint, and writes what is yielded. The whole chain is read
// from record 1 (its hash names the chain); --since/--until only choose what is written.
import { isSignedCheckpoint, trailIdOf, type Checkpoint, type SignedCheckpoint } from '../checkpoint.js';
import { checkpointOfStored, type StoredCosignature } from '../cosignature.js';
import type { AuditRecord } from '../record.js';
import { recordToOcsf, type EventCosignature, type EventLink } from './record-to-ocsf.js';

export interface OcsfExportOptions {
  checkpoint?: Checkpoint | null;
  /**
   * Earlier checkpoints of the chain a witness kept (each signed by the instance): the records
   * they are at are signed too, so a window that ends on one verifies offline.
   */
  witnessed?: readonly SignedCheckpoint[];
  /**
   * The witnesses' cosignatures kept beside the chain (audit/cosignatures.jsonl or the store's
   * table): each goes in the attestation of the record its checkpoint is at, after the
   * instance's signature, which it carries too (so a cosigned record is signed without --witness).
   */
  cosignatures?: readonly StoredCosignature[];
  /** Epoch ms, inclusive: records stamped before are left out. */
  since?: number;
  /** Epoch ms, inclusive: records stamped after are left out. */
  until?: number;
}

export interface OcsfExportSummary {
  chain?: string;
  events: number;
  /** Events that carry a signature. */
  signed: number;
  /** Events that carry at least one witness cosignature. */
  cosigned?: number;
  /** Whether the last event written carries a witness cosignature. */
  lastCosigned?: boolean;
  /** The seq of the last event written and whether the instance's signature covers it. */
  lastSeq?: number;
  lastSigned: boolean;
  /** Records the trail holds beyond its checkpoint: not signed yet, so left for the next export. */
  unsignedTail: number;
}

function parseRecord(line: string, index: number): AuditRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`line ${index}: not JSON: the trail is damaged (gw audit verify names where)`);
  }
  const record = value as AuditRecord;
  if (typeof record !== 'object' || record === null || typeof record.seq !== 'number' || typeof record.hash !== 'string' || typeof record.ts !== 'string') {
    throw new Error(`line ${index}: not an audit record: the trail is damaged (gw audit verify names where)`);
  }
  return record;
}

function inWindow(record: AuditRecord, options: OcsfExportOptions): boolean {
  const time = Date.parse(record.ts);
  return (options.since === undefined || time >= options.since) && (options.until === undefined || time <= options.until);
}

/**
 * Yields one OCSF event (JSON text) per record. With a signed checkpoint, records past it are
 * held back: they are not signed yet (a running gw signs them at its next commit), and an
 * export that ends on an unsigned event cannot be verified offline.
 */
/** The checkpoints by seq: the head's first, then the witnessed ones. */
function checkpointsBySeq(head: SignedCheckpoint | undefined, witnessed: readonly SignedCheckpoint[]): Map<number, SignedCheckpoint[]> {
  const bySeq = new Map<number, SignedCheckpoint[]>();
  for (const checkpoint of head ? [head, ...witnessed] : witnessed) bySeq.set(checkpoint.seq, [...bySeq.get(checkpoint.seq) ?? [], checkpoint]);
  return bySeq;
}

/** The cosignatures of `checkpoint`, one per witness key (a witness answering a repeated push twice is kept once). */
function cosignaturesOf(checkpoint: SignedCheckpoint, stored: readonly StoredCosignature[] | undefined): EventCosignature[] {
  const byKey = new Map<string, EventCosignature>();
  for (const entry of stored ?? []) {
    if (entry.trail !== checkpoint.trail || entry.hash !== checkpoint.hash || entry.public_key !== checkpoint.public_key || (entry.closed === true) !== (checkpoint.closed === true)) continue;
    if (!byKey.has(entry.witness_public_key)) {
      byKey.set(entry.witness_public_key, { witness_public_key: entry.witness_public_key, signature: entry.signature, received_at: entry.received_at, ...(entry.closed ? { closed: true as const } : {}) });
    }
  }
  return [...byKey.values()];
}

function linkOf(chain: string, covering: SignedCheckpoint | undefined, options: OcsfExportOptions): EventLink {
  if (!covering) return { chain };
  const cosignatures = cosignaturesOf(covering, options.cosignatures);
  const signature = { public_key: covering.public_key, signature: covering.signature, ...(covering.closed ? { closed: true as const } : {}) };
  return { chain, signature, ...(cosignatures.length > 0 ? { cosignatures } : {}) };
}

export async function* exportOcsf(lines: Iterable<string> | AsyncIterable<string>, options: OcsfExportOptions, summary: OcsfExportSummary): AsyncGenerator<string> {
  const signed = options.checkpoint && isSignedCheckpoint(options.checkpoint) ? options.checkpoint : undefined;
  const checkpoints = checkpointsBySeq(signed, [...options.witnessed ?? [], ...(options.cosignatures ?? []).map(checkpointOfStored)]);
  let index = 0;
  for await (const line of lines) {
    index += 1;
    if (line === '') continue;
    const record = parseRecord(line, index);
    if (summary.chain === undefined) {
      if (record.seq !== 1) throw new Error(`the trail starts at seq ${record.seq}, not 1: its chain id cannot be named (gw audit verify says why)`);
      summary.chain = trailIdOf(record.hash);
    }
    if (signed && record.seq > signed.seq) {
      summary.unsignedTail += 1;
      continue;
    }
    if (!inWindow(record, options)) continue;
    const chain = summary.chain;
    const covering = checkpoints.get(record.seq)?.find((checkpoint) => checkpoint.trail === chain && checkpoint.hash === record.hash);
    const link = linkOf(chain, covering, options);
    summary.events += 1;
    summary.signed += covering ? 1 : 0;
    summary.cosigned = (summary.cosigned ?? 0) + (link.cosignatures ? 1 : 0);
    summary.lastSeq = record.seq;
    summary.lastSigned = covering !== undefined;
    summary.lastCosigned = link.cosignatures !== undefined;
    yield JSON.stringify(recordToOcsf(record, line, link));
  }
}
