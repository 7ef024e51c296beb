// At start, under the audit lock: a rotation a crash interrupted is finished or undone before the
// trail is opened, from the journal (src/audit/rotation-journal.ts) and what is on disk.
// - The live log is still the old chain and does not end with its closing record: the rotation
//   never happened; journal and next key are removed (roll back).
// - The live log ends with the closing record: the closed checkpoint is written (with the old key,
//   still audit-signing.key) if missing, the chain moved to chains/, the next key installed (roll forward).
// - The live log is gone (moved) or already the new chain: the next key is installed if still
//   waiting, and the caller writes the opening record if the new chain is empty.
import path from 'node:path';
import { checkRecordLine, checkRotationRecord } from './verify.js';
import { signCheckpointWithKey, trailIdOf, type SignedCheckpoint } from './checkpoint.js';
import { hashAt } from './check-start-gap.js';
import { closedChainFiles, lastLineOf, moveClosedChain, openingData, readSignedCheckpoint } from './closed-chains.js';
import { endRotation, installNextKey, readRotationJournal, removeIfPresent, NEXT_SIGNING_KEY_FILE, type RotationJournal } from './rotation-journal.js';
import { loadOrCreateSigningKey } from './signing-key.js';
import type { AuditFields } from './record.js';

export interface RecoveredRotation {
  journal: RotationJournal;
  /** The opening record to write first when the new chain is still empty. */
  opening: AuditFields;
  note: string;
}

/** The closing record at the end of the log, when it names the journal's next key. */
async function closingAtEnd(logFile: string, journal: RotationJournal): Promise<{ seq: number; hash: string } | null> {
  const line = await lastLineOf(logFile);
  if (line === undefined) return null;
  const verdict = checkRecordLine(line, 0);
  if ('bad' in verdict) return null;
  const marks: Parameters<typeof checkRotationRecord>[1] = {};
  if (checkRotationRecord(verdict.record, marks) !== undefined || marks.closing?.next_public_key !== journal.next_public_key) return null;
  return { seq: verdict.record.seq, hash: verdict.record.hash };
}

/** Finishes the move of the closed chain: its closed checkpoint (made now if the crash came first), then the files. */
async function moveForward(home: string, dir: string, journal: RotationJournal, closing: { seq: number; hash: string }): Promise<void> {
  const current = await readSignedCheckpoint(path.join(dir, 'checkpoint.json'));
  let closed: SignedCheckpoint;
  if (current?.closed === true && current.seq === closing.seq && current.trail === journal.chain) closed = current;
  else {
    const old = await loadOrCreateSigningKey(home);
    closed = signCheckpointWithKey(old.privateKey, old.publicKey, journal.chain, closing, true);
  }
  await moveClosedChain(dir, journal.chain, closed);
}

/** Null when no rotation was under way or it was rolled back; otherwise what the start must still do. */
export async function recoverRotation(home: string, dir: string): Promise<RecoveredRotation | { rolledBack: string } | null> {
  const journal = await readRotationJournal(home);
  if (journal === null) {
    await removeIfPresent(path.join(home, NEXT_SIGNING_KEY_FILE)); // written before a journal that never came
    return null;
  }
  const logFile = path.join(dir, 'audit.jsonl');
  const first = await hashAt(logFile, 1);
  if (first !== undefined && trailIdOf(first) === journal.chain) {
    const closing = await closingAtEnd(logFile, journal);
    if (closing === null) {
      await endRotation(home);
      return { rolledBack: 'an audit rotation interrupted before its closing record was written was undone (the chain goes on under the same key)' };
    }
    await moveForward(home, dir, journal, closing);
  }
  // A crash between the log's move and checkpoint.json's removal leaves the closed chain's checkpoint as the live one.
  const stale = await readSignedCheckpoint(path.join(dir, 'checkpoint.json'));
  if (stale?.trail === journal.chain) await removeIfPresent(path.join(dir, 'checkpoint.json'));
  await installNextKey(home);
  const closed = await readSignedCheckpoint(closedChainFiles(dir, journal.chain).checkpoint);
  if (closed?.closed !== true) throw new Error(`the audit rotation journal names chain ${journal.chain}, whose closed checkpoint is not in ${path.join(dir, 'chains')}: gw audit verify says what is wrong`);
  return {
    journal, opening: { kind: 'audit.chain_opened', data: openingData(closed) },
    note: `an interrupted audit rotation was completed: chain ${journal.chain.slice(0, 12)}… is closed, the new key is in place`,
  };
}
