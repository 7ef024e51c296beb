// Verifies a trail line by line, pure (the caller supplies lines, checkpoint and key).
// Edits show as a hash mismatch; inserts, deletes and reorders as a seq or prev
// break; a cut tail only through the checkpoint (security-reliability.md §A4).
import { AuditRecordError, GENESIS_PREV, sealRecord, type UnsealedRecord } from './chain.js';
import { fingerprintOf } from './key-fingerprint.js';
import { isCheckpointAuthentic, isSignatureValid, isSignedCheckpoint, trailIdOf, type ChainHead, type Checkpoint, type HmacCheckpoint, type SignedCheckpoint } from './checkpoint.js';

export interface VerifyOptions {
  checkpoint?: Checkpoint;
  /** The legacy audit.key bytes, for an HMAC checkpoint; without it that HMAC is not checked (a warning says so). */
  key?: Uint8Array;
  /** The pinned Ed25519 public key (audit.pub); without it a signed checkpoint is checked against its own key (a warning says so). */
  publicKey?: string;
  /** Seqs whose record hashes the caller wants back (a witness's checkpoints), in `hashesAt`. */
  collectSeqs?: ReadonlySet<number>;
  /** The source's last line had no trailing "\n" (a write in flight, or a torn tail the next start repairs). */
  lastLineIncomplete?: boolean;
  /**
   * The trail in its own home, where gw keeps the checkpoint and the key beside it: a missing one
   * is a finding, not a warning (deleting either would otherwise hide a cut tail).
   */
  requireSeal?: boolean;
  /**
   * The keys this verifier trusts (--key, the trust file): a signed checkpoint under any other
   * key fails the trail (fail closed). Absent: no trust decision here (the caller makes it).
   */
  trustedKeys?: readonly string[];
  /** With `trustedKeys`: an untrusted signer is reported (`untrusted`) instead of failing (--allow-untrusted). */
  allowUntrusted?: boolean;
}

export interface BadRecord {
  /** 1-based line number; for checkpoint findings, the line after the last one read. */
  line: number;
  seq?: number;
  reason: string;
}

export interface VerifyResult {
  ok: boolean;
  /** Records that verified, in order, before the first bad one. */
  records: number;
  head: ChainHead | null;
  firstBad?: BadRecord;
  warnings: string[];
  /** The trail's id (the hash of record 1, hashed), when record 1 verified. */
  trail?: string;
  /** The hashes at the seqs asked for with `collectSeqs` that the verified records reach. */
  hashesAt?: Map<number, string>;
  /** The key that signed the checkpoint, when it is a signed one. */
  signedBy?: string;
  /** The signer is not among `trustedKeys` and `allowUntrusted` let the trail through. */
  untrusted?: boolean;
  /** The chain's last record is `audit.chain_closed` (gw audit rotate): the key it introduces. */
  closing?: ChainClosing;
  /** The checkpoint is a closed one, at the closing record (the chain ended on purpose). */
  closed?: boolean;
  /** Record 1 is `audit.chain_opened`: the closed chain it names. */
  opening?: ChainOpening;
  /** The signer is trusted because a rotation from this trusted key's chain introduced it (its fingerprint). */
  trustedByRotationFrom?: string;
}

export interface ChainClosing {
  seq: number;
  next_public_key: string;
}

export interface ChainOpening {
  previous_trail: string;
  previous_seq: number;
  previous_hash: string;
  previous_public_key: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

export type LineVerdict = { record: UnsealedRecord & { hash: string } } | { bad: Omit<BadRecord, 'line'> };

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function shapeProblem(value: Record<string, unknown>): string | undefined {
  if (value.v !== 1) return 'v is not 1';
  if (typeof value.seq !== 'number' || !Number.isSafeInteger(value.seq) || value.seq < 1) return 'seq is not a positive integer';
  if (typeof value.prev !== 'string' || !HEX64.test(value.prev)) return 'prev is not 64 hex digits';
  if (typeof value.hash !== 'string' || !HEX64.test(value.hash)) return 'hash is not 64 hex digits';
  if (typeof value.ts !== 'string') return 'ts is missing';
  if (typeof value.kind !== 'string') return 'kind is missing';
  return undefined;
}

/** Checks one line on its own: it parses, has the v1 shape, and its hash and bytes match the recomputed ones. */
export function checkRecordLine(line: string, lineNumber: number): LineVerdict {
  if (line === '') return { bad: { reason: `line ${lineNumber}: empty line (inserted or torn)` } };
  const value = parseLine(line);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { bad: { reason: `line ${lineNumber}: not a JSON object (edited or torn)` } };
  }
  const fields = value as Record<string, unknown>;
  const seq = typeof fields.seq === 'number' ? fields.seq : undefined;
  const name = seq === undefined ? `line ${lineNumber}` : `record ${seq}`;
  const problem = shapeProblem(fields);
  if (problem) return { bad: { seq, reason: `${name}: ${problem} (edited)` } };
  const record = fields as unknown as UnsealedRecord & { hash: string };
  let sealed;
  try {
    sealed = sealRecord(record);
  } catch (error) {
    if (!(error instanceof AuditRecordError)) throw error;
    return { bad: { seq, reason: `${name}: ${error.message} (edited)` } };
  }
  if (sealed.record.hash !== record.hash) return { bad: { seq, reason: `${name}: hash mismatch (edited)` } };
  if (sealed.line !== line) return { bad: { seq, reason: `${name}: line is not in canonical form (edited)` } };
  return { record };
}

const BASE64URL_KEY = /^[A-Za-z0-9_-]{43}$/;

/** The closing record's key, or a reason it is malformed. */
function readClosing(record: UnsealedRecord): ChainClosing | string {
  const next = record.data?.next_public_key;
  if (typeof next !== 'string' || !BASE64URL_KEY.test(next)) return `record ${record.seq}: audit.chain_closed names no next_public_key`;
  if (record.data?.next_key_fingerprint !== fingerprintOf(next)) return `record ${record.seq}: audit.chain_closed's next_key_fingerprint is not its key's`;
  return { seq: record.seq, next_public_key: next };
}

/** The closed chain an opening record names, or a reason it is malformed. */
function readOpening(record: UnsealedRecord): ChainOpening | string {
  if (record.seq !== 1) return `record ${record.seq}: audit.chain_opened is not record 1 (inserted)`;
  const data = record.data ?? {};
  const { previous_trail: trail, previous_seq: seq, previous_hash: hash, previous_public_key: key } = data;
  if (typeof trail !== 'string' || !HEX64.test(trail) || typeof hash !== 'string' || !HEX64.test(hash)
    || typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1 || typeof key !== 'string' || !BASE64URL_KEY.test(key)) {
    return 'record 1: audit.chain_opened does not name a closed chain (previous_trail, previous_seq, previous_hash, previous_public_key)';
  }
  return { previous_trail: trail, previous_seq: seq, previous_hash: hash, previous_public_key: key };
}

interface RotationMarks {
  closing?: ChainClosing;
  opening?: ChainOpening;
}

/** Reads a chain_closed / chain_opened record into `marks`; a record after the closing one is a finding. */
export function checkRotationRecord(record: UnsealedRecord, marks: RotationMarks): string | undefined {
  if (marks.closing) return `record ${record.seq}: written after the chain was closed at record ${marks.closing.seq} (gw audit rotate)`;
  if (record.kind === 'audit.chain_closed') {
    const closing = readClosing(record);
    if (typeof closing === 'string') return closing;
    marks.closing = closing;
  } else if (record.kind === 'audit.chain_opened') {
    const opening = readOpening(record);
    if (typeof opening === 'string') return opening;
    marks.opening = opening;
  }
  return undefined;
}

/** Checks that a record follows the previous one (null: it is the first): seq + 1 and prev = previous hash. */
export function checkRecordLink(record: UnsealedRecord, previous: ChainHead | null): string | undefined {
  const name = `record ${record.seq}`;
  if (previous === null) {
    if (record.seq !== 1) return `${name}: the first record has seq ${record.seq}, expected 1 (head of the log deleted)`;
    if (record.prev !== GENESIS_PREV) return `${name}: the first record's prev is not the genesis value (head of the log replaced)`;
    return undefined;
  }
  if (record.seq !== previous.seq + 1) {
    const how = record.seq <= previous.seq ? 'inserted or reordered' : 'deleted or reordered';
    return `${name}: seq ${record.seq} follows ${previous.seq} (${how})`;
  }
  if (record.prev !== previous.hash) {
    return `${name}: prev does not match the hash of record ${previous.seq} (a record was replaced, inserted or reordered)`;
  }
  return undefined;
}

function hmacProblem(checkpoint: HmacCheckpoint, options: VerifyOptions, warnings: string[]): Omit<BadRecord, 'line'> | undefined {
  const { key } = options;
  if (!key && options.requireSeal) return { seq: checkpoint.seq, reason: 'audit.key is missing: the checkpoint cannot be checked (was it deleted?)' };
  if (!key) warnings.push('no audit key: the checkpoint HMAC was not verified');
  else if (!isCheckpointAuthentic(key, checkpoint)) {
    return { seq: checkpoint.seq, reason: 'checkpoint HMAC does not match (checkpoint forged, or a different audit.key)' };
  }
  return undefined;
}

function signatureProblem(checkpoint: SignedCheckpoint, trail: string | undefined, options: VerifyOptions, warnings: string[]): Omit<BadRecord, 'line'> | undefined {
  const { publicKey } = options;
  if (!publicKey && options.requireSeal) return { seq: checkpoint.seq, reason: 'audit.pub is missing: the checkpoint cannot be checked (was it deleted?)' };
  if (!publicKey) warnings.push('no pinned public key (audit.pub): the checkpoint was checked against the key it names');
  else if (checkpoint.public_key !== publicKey) {
    return { seq: checkpoint.seq, reason: 'checkpoint is signed by another key than audit.pub (checkpoint forged, or the key replaced)' };
  }
  if (!isSignatureValid(checkpoint)) return { seq: checkpoint.seq, reason: 'checkpoint signature does not verify (checkpoint forged or edited)' };
  if (trail !== undefined && checkpoint.trail !== trail) return { seq: checkpoint.seq, reason: 'checkpoint names another trail (record 1 replaced)' };
  return trustProblem(checkpoint, options, warnings);
}

/** Fail closed: a valid signature proves only that someone holds the key; the key must be one the operator trusts. */
function trustProblem(checkpoint: SignedCheckpoint, options: VerifyOptions, warnings: string[]): Omit<BadRecord, 'line'> | undefined {
  if (options.trustedKeys === undefined || options.trustedKeys.includes(checkpoint.public_key)) return undefined;
  const reason = `signed by key ${fingerprintOf(checkpoint.public_key)}, which is not trusted (not in the audit trust file nor given with --key): re-signed by someone else, or a key to add with gw audit trust add`;
  if (!options.allowUntrusted) return { seq: checkpoint.seq, reason };
  warnings.push(`UNTRUSTED: ${reason}`);
  return undefined;
}

/** Compares the verified log with the checkpoint: authentic, same hash at its seq, and the log reaches it. */
function checkpointProblem(head: ChainHead | null, hashAtCheckpoint: string | undefined, trail: string | undefined, options: VerifyOptions, warnings: string[]): Omit<BadRecord, 'line'> | undefined {
  const { checkpoint } = options;
  if (!checkpoint) {
    if (options.requireSeal && head !== null) return { reason: 'checkpoint.json is missing: a cut tail cannot be ruled out (was it deleted?)' };
    warnings.push('no checkpoint: a cut tail cannot be detected');
    return undefined;
  }
  const forged = isSignedCheckpoint(checkpoint) ? signatureProblem(checkpoint, trail, options, warnings) : hmacProblem(checkpoint, options, warnings);
  if (forged) return forged;
  const endSeq = head?.seq ?? 0;
  if (endSeq < checkpoint.seq) {
    return { seq: checkpoint.seq, reason: `truncated: log ends at seq ${endSeq} but checkpoint says ${checkpoint.seq}` };
  }
  if (checkpoint.seq > 0 && hashAtCheckpoint !== checkpoint.hash) {
    return { seq: checkpoint.seq, reason: `record ${checkpoint.seq}: hash differs from the checkpoint's (log rewritten)` };
  }
  return undefined;
}

/**
 * A closed checkpoint seals the closing record and nothing after it; a closing record without
 * one is a rotation that stopped before its checkpoint (gw serve completes it): a warning.
 */
function closedProblem(head: ChainHead | null, marks: RotationMarks, checkpoint: Checkpoint | undefined, warnings: string[]): Omit<BadRecord, 'line'> | undefined {
  const closed = checkpoint !== undefined && isSignedCheckpoint(checkpoint) && checkpoint.closed === true;
  if (closed && (marks.closing === undefined || marks.closing.seq !== checkpoint.seq || head?.seq !== checkpoint.seq)) {
    return { seq: checkpoint.seq, reason: `the closed checkpoint (seq ${checkpoint.seq}) is not at the chain's closing record and end (records added or the close forged)` };
  }
  if (!closed && marks.closing !== undefined) warnings.push(`record ${marks.closing.seq} closes the chain but no closed checkpoint seals it yet (a rotation interrupted: gw serve completes it)`);
  return undefined;
}

/** Verifies the lines of a trail (without their "\n"), stopping at the first bad one. */
export async function verifyLines(lines: Iterable<string> | AsyncIterable<string>, options: VerifyOptions = {}): Promise<VerifyResult> {
  const warnings: string[] = [];
  let head: ChainHead | null = null;
  let records = 0;
  let lineNumber = 0;
  let hashAtCheckpoint: string | undefined;
  let trail: string | undefined;
  const hashesAt = new Map<number, string>();
  const marks: RotationMarks = {};
  // Held back one step so the last line can be told apart when it is incomplete.
  let pending: string | undefined;
  const checkPending = (line: string): BadRecord | undefined => {
    lineNumber += 1;
    const verdict = checkRecordLine(line, lineNumber);
    if ('bad' in verdict) return { line: lineNumber, ...verdict.bad };
    const problem = checkRecordLink(verdict.record, head) ?? checkRotationRecord(verdict.record, marks);
    if (problem) return { line: lineNumber, seq: verdict.record.seq, reason: problem };
    head = { seq: verdict.record.seq, hash: verdict.record.hash };
    if (head.seq === options.checkpoint?.seq) hashAtCheckpoint = head.hash;
    if (head.seq === 1) trail = trailIdOf(head.hash);
    if (options.collectSeqs?.has(head.seq)) hashesAt.set(head.seq, head.hash);
    records += 1;
    return undefined;
  };
  for await (const line of lines) {
    if (pending !== undefined) {
      const bad = checkPending(pending);
      if (bad) return { ok: false, records, head, firstBad: bad, warnings, trail, hashesAt, ...marks };
    }
    pending = line;
  }
  if (pending !== undefined) {
    if (options.lastLineIncomplete) {
      warnings.push(`line ${lineNumber + 1}: the last line has no trailing newline (a write in progress or a torn tail); not checked`);
    } else {
      const bad = checkPending(pending);
      if (bad) return { ok: false, records, head, firstBad: bad, warnings, trail, hashesAt, ...marks };
    }
  }
  const problem = checkpointProblem(head, hashAtCheckpoint, trail, options, warnings) ?? closedProblem(head, marks, options.checkpoint, warnings);
  const signedBy = options.checkpoint && isSignedCheckpoint(options.checkpoint) ? options.checkpoint.public_key : undefined;
  const signer = signedBy === undefined ? {} : { signedBy };
  if (problem) return { ok: false, records, head, firstBad: { line: lineNumber + 1, ...problem }, warnings, trail, hashesAt, ...signer, ...marks };
  const untrusted = signedBy !== undefined && options.trustedKeys !== undefined && !options.trustedKeys.includes(signedBy);
  const closed = options.checkpoint !== undefined && isSignedCheckpoint(options.checkpoint) && options.checkpoint.closed === true;
  return { ok: true, records, head, warnings, trail, hashesAt, ...signer, ...(untrusted ? { untrusted: true } : {}), ...marks, ...(closed ? { closed } : {}) };
}
