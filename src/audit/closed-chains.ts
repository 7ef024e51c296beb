// Closed chains of a home's file trail, kept beside the live one (audit.jsonl + checkpoint.json):
// audit/chains/<trail>.jsonl and audit/chains/<trail>.checkpoint.json, the latter the closed
// checkpoint signed by the chain's own (old) key. Also the quick evidence a start reads from them
// to accept a key that a rotation introduced (src/audit/trust-at-start.ts).
import { mkdir, open, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { readOptionalFile } from './read-optional-file.js';
import { isSignatureValid, isSignedCheckpoint, parseCheckpoint, type SignedCheckpoint } from './checkpoint.js';
import { checkRecordLine, checkRotationRecord } from './verify.js';
import type { ChainToTrust } from './rotation-trust.js';
import { removeIfPresent, syncFolder, writeDurably } from './rotation-journal.js';
import { errorCode } from '../error-code.js';

const CLOSED_CHAINS_DIR = 'chains';

export interface ClosedChainFiles {
  trail: string;
  log: string;
  checkpoint: string;
}

export function closedChainFiles(auditDir: string, trail: string): ClosedChainFiles {
  const folder = path.join(auditDir, CLOSED_CHAINS_DIR);
  return { trail, log: path.join(folder, `${trail}.jsonl`), checkpoint: path.join(folder, `${trail}.checkpoint.json`) };
}

/** Every closed chain of the home (by its checkpoint file), in no particular order. */
export async function listClosedChains(auditDir: string): Promise<ClosedChainFiles[]> {
  let names: string[];
  try {
    names = await readdir(path.join(auditDir, CLOSED_CHAINS_DIR));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  const trails = new Set(names.map((name) => /^([0-9a-f]{64})\.(?:jsonl|checkpoint\.json)$/.exec(name)?.[1]).filter((trail): trail is string => trail !== undefined));
  return [...trails].sort().map((trail) => closedChainFiles(auditDir, trail));
}

/** The last complete line of a file (records are small: the last 64 KiB hold it), or undefined. */
export async function lastLineOf(file: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, 64 * 1024);
    const bytes = Buffer.alloc(length);
    await handle.read(bytes, 0, length, size - length);
    const text = bytes.toString('utf8');
    const end = text.lastIndexOf('\n');
    if (end < 0) return undefined;
    const start = text.lastIndexOf('\n', end - 1) + 1;
    return start === 0 && size > length ? undefined : text.slice(start, end);
  } finally {
    await handle.close();
  }
}

/**
 * Moves the closed live chain into chains/: its checkpoint copied first (durably), then the log
 * renamed, then checkpoint.json removed, so a crash between any two leaves every byte findable
 * and a repeat of the move (the next start) finishes it.
 */
export async function moveClosedChain(auditDir: string, trail: string, closed: SignedCheckpoint): Promise<void> {
  const files = closedChainFiles(auditDir, trail);
  await mkdir(path.dirname(files.log), { recursive: true, mode: 0o700 });
  await writeDurably(files.checkpoint, `${JSON.stringify(closed)}\n`);
  await rename(path.join(auditDir, 'audit.jsonl'), files.log);
  await removeIfPresent(path.join(auditDir, 'checkpoint.json'));
  await syncFolder(auditDir);
  await syncFolder(path.dirname(files.log));
}

export async function readSignedCheckpoint(file: string): Promise<SignedCheckpoint | undefined> {
  const bytes = await readOptionalFile(file);
  if (bytes === undefined) return undefined;
  try {
    const checkpoint = parseCheckpoint(bytes.toString('utf8'));
    return isSignedCheckpoint(checkpoint) ? checkpoint : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a closed chain proves about rotation, from its closed checkpoint and last line only (no
 * full verify: that is gw audit verify's job): the checkpoint's signature holds, it is closed, and
 * the line it seals is an audit.chain_closed record naming the next key. Null when it proves nothing.
 */
export function closedChainEvidence(name: string, checkpoint: SignedCheckpoint | undefined, lastLine: string | undefined): ChainToTrust | null {
  if (checkpoint === undefined || checkpoint.closed !== true || lastLine === undefined || !isSignatureValid(checkpoint)) return null;
  const verdict = checkRecordLine(lastLine, 0);
  if ('bad' in verdict || verdict.record.hash !== checkpoint.hash || verdict.record.seq !== checkpoint.seq) return null;
  const marks: Parameters<typeof checkRotationRecord>[1] = {};
  if (checkRotationRecord(verdict.record, marks) !== undefined || marks.closing === undefined) return null;
  const head = { seq: checkpoint.seq, hash: checkpoint.hash };
  return { name, result: { ok: true, records: checkpoint.seq, head, warnings: [], trail: checkpoint.trail, signedBy: checkpoint.public_key, closed: true, closing: marks.closing } };
}

/** The rotation evidence of every closed chain of a home. */
export async function closedChainsEvidence(auditDir: string): Promise<ChainToTrust[]> {
  const evidence: ChainToTrust[] = [];
  for (const files of await listClosedChains(auditDir)) {
    const found = closedChainEvidence(files.trail, await readSignedCheckpoint(files.checkpoint), await lastLineOf(files.log));
    if (found !== null) evidence.push(found);
  }
  return evidence;
}

/** Record 1 of the next chain names the closed one by its closed checkpoint. */
export function openingData(closed: SignedCheckpoint): Record<string, string | number> {
  return { previous_trail: closed.trail, previous_seq: closed.seq, previous_hash: closed.hash, previous_public_key: closed.public_key };
}
