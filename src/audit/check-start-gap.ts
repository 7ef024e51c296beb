// At start, the log is held against the checkpoint the last run left: a hash chain alone
// cannot see a cut tail (a prefix of a valid chain is valid), and the next record would
// replace the checkpoint, so a truncation made while gw was stopped must be caught here,
// before anything is appended. Cases: the log ends before the checkpoint's seq, the record
// at that seq has another hash, or the checkpoint does not match audit.key (a replaced key).
// A missing checkpoint is not a start-time finding (a crash before the first one is
// legitimate); `gw audit verify` reports it.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import readline from 'node:readline';
import { isCheckpointAuthentic, parseCheckpoint, type ChainHead, type Checkpoint } from './checkpoint.js';

export interface StartGap {
  reason: string;
  checkpoint_seq: number;
  checkpoint_hash: string;
  log_seq: number;
  log_hash: string | null;
}

export class AuditGapError extends Error {
  constructor(readonly gap: StartGap, dir: string) {
    super(`the audit trail in ${dir} does not reach its checkpoint: ${gap.reason}. Records were removed or rewritten while gw was stopped. ` +
      'Keep the trail as it is for investigation (gw audit verify names the problem); to start anyway and record the gap, run gw serve --accept-audit-gap.');
    this.name = 'AuditGapError';
  }
}

export async function checkStartGap(checkpointFile: string, logFile: string, key: Uint8Array, head: ChainHead | null): Promise<StartGap | null> {
  const checkpoint = await readCheckpoint(checkpointFile);
  if (checkpoint === null) return null;
  const gap = (reason: string): StartGap => ({
    reason, checkpoint_seq: checkpoint.seq, checkpoint_hash: checkpoint.hash, log_seq: head?.seq ?? 0, log_hash: head?.hash ?? null,
  });
  if (!isCheckpointAuthentic(key, checkpoint)) return gap('the checkpoint does not match audit.key (the key was replaced, or the checkpoint forged)');
  const endSeq = head?.seq ?? 0;
  if (endSeq < checkpoint.seq) return gap(`the log ends at seq ${endSeq}, the checkpoint names seq ${checkpoint.seq}: records ${endSeq + 1}–${checkpoint.seq} are missing`);
  const hash = head!.seq === checkpoint.seq ? head!.hash : await hashAt(logFile, checkpoint.seq);
  if (checkpoint.seq > 0 && hash !== checkpoint.hash) return gap(`record ${checkpoint.seq} is not the one the checkpoint sealed (the log was rewritten)`);
  return null;
}

async function readCheckpoint(file: string): Promise<Checkpoint | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return parseCheckpoint(text);
  } catch {
    // An unreadable checkpoint seals nothing: compare against an impossible one so the start refuses.
    return { seq: Number.MAX_SAFE_INTEGER, hash: '0'.repeat(64), hmac: '0'.repeat(64) };
  }
}

/** The hash of the record with this seq; only read when the checkpoint lags the log (a crash between write and checkpoint). */
async function hashAt(logFile: string, seq: number): Promise<string | undefined> {
  const lines = readline.createInterface({ input: createReadStream(logFile), crlfDelay: Infinity });
  const marker = `"seq":${seq},`;
  for await (const line of lines) {
    if (!line.includes(marker)) continue;
    try {
      const record = JSON.parse(line) as { seq?: unknown; hash?: unknown };
      if (record.seq === seq && typeof record.hash === 'string') { lines.close(); return record.hash; }
    } catch { /* a damaged line is verify's to report */ }
  }
  return undefined;
}
