// At start, the log is held against the checkpoint the last run left: a hash chain alone
// cannot see a cut tail (a prefix of a valid chain is valid), and the next record would
// replace the checkpoint, so a truncation made while gw was stopped must be caught here,
// before anything is appended. Cases: the log ends before the checkpoint's seq, the record
// at that seq has another hash, or the checkpoint is not signed by this home's key (a
// replaced key; for a legacy HMAC checkpoint, a replaced audit.key).
// A missing checkpoint while the log holds records is a finding too: deleting checkpoint.json
// along with the last records would otherwise hide the cut (gw audit verify refuses such a
// trail, so the start does as well). The one honest way to get there, a crash between the
// very first log write and its checkpoint, is rare enough to ask for --accept-audit-gap.
import { createReadStream } from 'node:fs';
import readline from 'node:readline';
import { readOptionalFile } from './read-optional-file.js';
import { isCheckpointAuthentic, isSignatureValid, isSignedCheckpoint, parseCheckpoint, trailIdOf, type ChainHead, type Checkpoint } from './checkpoint.js';
import { errorCode } from '../error-code.js';

export interface StartGap {
  reason: string;
  checkpoint_seq: number;
  checkpoint_hash: string;
  log_seq: number;
  log_hash: string | null;
}

export class AuditGapError extends Error {
  constructor(readonly gap: StartGap, dir: string) {
    super(`the audit trail in ${dir} cannot be vouched for: ${gap.reason}. Records, the checkpoint or the key were removed or rewritten while gw was stopped. ` +
      'Keep the trail as it is for investigation (gw audit verify names the problem); to start anyway and record the gap, run gw serve --accept-audit-gap.');
    this.name = 'AuditGapError';
  }
}

export interface StartKeys {
  /** This home's Ed25519 public key (base64url). */
  publicKey: string;
  /** The legacy audit.key, when the home still has one (trails from before signed checkpoints). */
  legacyKey?: Uint8Array;
}

/** Why the checkpoint cannot be trusted, or null. */
async function forgeryProblem(checkpoint: Checkpoint, keys: StartKeys, logFile: string): Promise<string | null> {
  if (!isSignedCheckpoint(checkpoint)) {
    if (keys.legacyKey === undefined) return 'the checkpoint is an HMAC one and audit.key is missing (the key was deleted)';
    return isCheckpointAuthentic(keys.legacyKey, checkpoint) ? null : 'the checkpoint does not match audit.key (the key was replaced, or the checkpoint forged)';
  }
  if (checkpoint.public_key !== keys.publicKey || !isSignatureValid(checkpoint)) {
    return 'the checkpoint is not signed by audit-signing.key (the key was replaced, or the checkpoint forged)';
  }
  const first = await hashAt(logFile, 1);
  if (first !== undefined && trailIdOf(first) !== checkpoint.trail) return 'the checkpoint belongs to another trail (record 1 was replaced)';
  return null;
}

export async function checkStartGap(checkpointFile: string, logFile: string, keys: StartKeys, head: ChainHead | null): Promise<StartGap | null> {
  const checkpoint = await readCheckpoint(checkpointFile);
  if (checkpoint === null) {
    if (head === null) return null;
    return { reason: `checkpoint.json is missing while the log holds ${head.seq} records (a cut tail cannot be ruled out)`, checkpoint_seq: 0, checkpoint_hash: '', log_seq: head.seq, log_hash: head.hash };
  }
  const gap = (reason: string): StartGap => ({
    reason, checkpoint_seq: checkpoint.seq, checkpoint_hash: checkpoint.hash, log_seq: head?.seq ?? 0, log_hash: head?.hash ?? null,
  });
  const forged = await forgeryProblem(checkpoint, keys, logFile);
  if (forged !== null) return gap(forged);
  const endSeq = head?.seq ?? 0;
  if (endSeq < checkpoint.seq) return gap(`the log ends at seq ${endSeq}, the checkpoint names seq ${checkpoint.seq}: records ${endSeq + 1}–${checkpoint.seq} are missing`);
  const hash = head!.seq === checkpoint.seq ? head!.hash : await hashAt(logFile, checkpoint.seq);
  if (checkpoint.seq > 0 && hash !== checkpoint.hash) return gap(`record ${checkpoint.seq} is not the one the checkpoint sealed (the log was rewritten)`);
  return null;
}

async function readCheckpoint(file: string): Promise<Checkpoint | null> {
  const bytes = await readOptionalFile(file);
  if (bytes === undefined) return null;
  try {
    return parseCheckpoint(bytes.toString('utf8'));
  } catch {
    // An unreadable checkpoint seals nothing: compare against an impossible one so the start refuses.
    return { seq: Number.MAX_SAFE_INTEGER, hash: '0'.repeat(64), hmac: '0'.repeat(64) };
  }
}

/** The hash of the record with this seq: record 1 (the trail's id), or the checkpoint's when it lags the log (a crash between write and checkpoint). */
export async function hashAt(logFile: string, seq: number): Promise<string | undefined> {
  const lines = readline.createInterface({ input: createReadStream(logFile), crlfDelay: Infinity });
  const marker = `"seq":${seq},`;
  try {
    for await (const line of lines) {
      if (!line.includes(marker)) continue;
      try {
        const record = JSON.parse(line) as { seq?: unknown; hash?: unknown };
        if (record.seq === seq && typeof record.hash === 'string') return record.hash;
      } catch { /* a damaged line is verify's to report */ }
    }
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  } finally {
    lines.close();
  }
  return undefined;
}
