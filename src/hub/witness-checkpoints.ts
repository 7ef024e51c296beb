// The hub as a witness of its sidecars' audit trails: it keeps the signed checkpoints
// each sender pushes (POST /audit/checkpoints) in $GW_HOME/witness.jsonl, append-only,
// pins each trail to the first key and sender it saw, and answers a sender's
// `gw audit verify --witness` (GET) with what it holds of that sender's trails. A
// checkpoint signed by another key, naming another hash at a witnessed seq, or behind
// the newest witnessed seq is kept as evidence and refused (409): it is what a trail
// cut and re-chained on the laptop looks like.
import path from 'node:path';
import { isSignatureValid, type SignedCheckpoint } from '../audit/checkpoint.js';
import type { WitnessedCheckpoint, WitnessSender } from '../audit/compare-witness.js';
import { appendWitnessed, readWitnessLog } from '../audit/witness-log.js';
import { GatewayError } from '../errors.js';
import type { WitnessedTrailSummary } from '../admin/audit-page.js';
import type { Cosignature } from '../audit/cosignature.js';
import { WitnessCosigner } from './witness-cosigner.js';

const WITNESS_LOG_FILE = 'witness.jsonl';
/** Refused checkpoints kept per trail in memory (all stay in the file). */
const EVIDENCE_LIMIT = 16;

interface WitnessedTrail {
  first: WitnessedCheckpoint;
  /** The newest checkpoint under the pinned key. */
  latest: WitnessedCheckpoint;
  evidence: WitnessedCheckpoint[];
}

/** An accepted checkpoint is answered with the hub's cosignature (witness-cosigner.ts). */
export type WitnessVerdict = { accepted: true; duplicate: boolean; cosignature?: Cosignature } | { accepted: false; error: GatewayError };

export class HubWitness {
  private trails: Map<string, WitnessedTrail> | null = null;
  private loading: Promise<Map<string, WitnessedTrail>> | null = null;
  private writes: Promise<void> = Promise.resolve();
  private readonly file: string;
  private readonly cosigner: WitnessCosigner;

  constructor(home: string, private readonly now: () => Date) {
    this.file = path.join(home, WITNESS_LOG_FILE);
    this.cosigner = new WitnessCosigner(home);
  }

  /** Judges and keeps one pushed checkpoint; calls run one at a time so pinning is never raced. */
  receive(checkpoint: SignedCheckpoint, from: WitnessSender): Promise<WitnessVerdict> {
    const run = this.writes.then(() => this.judge(checkpoint, from));
    this.writes = run.then(() => undefined, () => undefined);
    return run.then((verdict) => this.cosigner.answer(verdict, checkpoint));
  }

  /** What the hub holds of this reader's trails: same team, and the same person when the reader is one. */
  async readFor(reader: WitnessSender): Promise<WitnessedCheckpoint[]> {
    const trails = await this.load();
    const entries: WitnessedCheckpoint[] = [];
    for (const trail of trails.values()) {
      const owner = trail.first.from;
      if (owner?.team !== reader.team || (reader.person !== null && owner.person !== reader.person)) continue;
      entries.push(trail.first, ...trail.evidence);
      if (trail.latest !== trail.first) entries.push(trail.latest);
    }
    return entries;
  }

  /** Every trail witnessed, for the console's Audit page: its sender, pinned key, newest checkpoint, refusals kept. */
  async overview(): Promise<WitnessedTrailSummary[]> {
    const trails = await this.load();
    return [...trails.values()].map((trail) => ({
      trail: trail.first.trail, from: trail.first.from ?? null, key: trail.first.public_key.slice(0, 12),
      first_received_at: trail.first.received_at, newest_seq: trail.latest.seq, newest_received_at: trail.latest.received_at, refused: trail.evidence.length,
    })).sort((a, b) => b.newest_received_at.localeCompare(a.newest_received_at));
  }

  private async judge(checkpoint: SignedCheckpoint, from: WitnessSender): Promise<WitnessVerdict> {
    if (!isSignatureValid(checkpoint)) {
      return { accepted: false, error: new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'The checkpoint\'s signature does not verify against its public_key.' }) };
    }
    const trails = await this.load();
    const entry: WitnessedCheckpoint = { ...checkpoint, received_at: this.now().toISOString(), from };
    const known = trails.get(checkpoint.trail);
    if (!known) {
      await appendWitnessed(this.file, entry);
      trails.set(checkpoint.trail, { first: entry, latest: entry, evidence: [] });
      return { accepted: true, duplicate: false };
    }
    const owner = known.first.from;
    if (owner?.team !== from.team || owner.person !== from.person) return { accepted: false, error: new GatewayError('GW_ERR_AUDIT_WITNESS_FORBIDDEN') };
    const conflict = conflictOf(known, checkpoint);
    if (conflict === 'duplicate') return { accepted: true, duplicate: true };
    await appendWitnessed(this.file, entry);
    if (conflict === null) {
      known.latest = entry;
      return { accepted: true, duplicate: false };
    }
    if (known.evidence.length < EVIDENCE_LIMIT) known.evidence.push(entry);
    return { accepted: false, error: new GatewayError('GW_ERR_AUDIT_WITNESS_CONFLICT', { message: `Audit trail ${checkpoint.trail.slice(0, 12)}…: ${conflict}; kept as evidence.` }) };
  }

  private load(): Promise<Map<string, WitnessedTrail>> {
    if (this.trails) return Promise.resolve(this.trails);
    this.loading ??= readWitnessLog(this.file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return { entries: [], damaged: 0 };
      throw error;
    }).then(({ entries }) => {
      const trails = new Map<string, WitnessedTrail>();
      for (const entry of entries) {
        const known = trails.get(entry.trail);
        if (!known) trails.set(entry.trail, { first: entry, latest: entry, evidence: [] });
        else if (conflictOf(known, entry) === null) known.latest = entry;
        else if (conflictOf(known, entry) !== 'duplicate' && known.evidence.length < EVIDENCE_LIMIT) known.evidence.push(entry);
      }
      this.trails = trails;
      return trails;
    }).finally(() => { this.loading = null; });
    return this.loading;
  }
}

/** null: the checkpoint extends the trail; 'duplicate': already held; otherwise why it conflicts. */
// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- 'duplicate' names the answer callers test for
function conflictOf(known: WitnessedTrail, checkpoint: SignedCheckpoint): string | 'duplicate' | null {
  if (checkpoint.public_key !== known.first.public_key) return `pinned to key ${known.first.public_key.slice(0, 12)}…, this checkpoint is signed by ${checkpoint.public_key.slice(0, 12)}… (re-chained under a new key)`;
  const latest = known.latest;
  // A closed chain ends there: nothing may follow; its closing checkpoint at an already witnessed head is news, not a duplicate.
  if (latest.closed === true && checkpoint.seq > latest.seq) return `the chain was closed at seq ${latest.seq} (gw audit rotate); seq ${checkpoint.seq} cannot follow`;
  if (checkpoint.seq === latest.seq && checkpoint.hash === latest.hash) return checkpoint.closed === true && latest.closed !== true ? null : 'duplicate';
  if (checkpoint.seq === latest.seq) return `seq ${checkpoint.seq} was witnessed with another hash (the trail was rewritten)`;
  if (checkpoint.seq < latest.seq) return `seq ${checkpoint.seq} is behind the witnessed seq ${latest.seq} (the trail was cut or rolled back)`;
  return null;
}
