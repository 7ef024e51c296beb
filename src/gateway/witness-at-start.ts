// The start check's I/O (src/audit/check-witness-at-start.ts holds the rule): the local
// trail's state is read before the trail opens (opening appends gateway.start), the
// witnesses are read once the mode can reach them (a sidecar's hub needs its login), and
// a rollback refuses the start unless --accept-audit-gap, which records audit.gap naming
// the witnessed head. A witness that cannot be read does not stop the start: a warning,
// and /health's audit_witness says the check was skipped (see docs/audit-witness.md).
import path from 'node:path';
import { checkWitnessAtStart, type LocalClosedChain, type StartTrail, type WitnessRollback } from '../audit/check-witness-at-start.js';
import { hashAt } from '../audit/check-start-gap.js';
import { isGapAccepted } from '../audit/accepted-gaps.js';
import { listClosedChains, readSignedCheckpoint } from '../audit/closed-chains.js';
import { isSignedCheckpoint, parseCheckpoint } from '../audit/checkpoint.js';
import type { WitnessedCheckpoint } from '../audit/compare-witness.js';
import { readOptionalFile } from '../audit/read-optional-file.js';
import { readChainOpening } from '../audit/read-chain-opening.js';
import { readWitnessed, readWitnessLog } from '../audit/witness-log.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { ERROR_CATALOG } from '../errors.js';
import { HUB_WITNESS_PATH } from '../sidecar/hub-witness.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { isHttpWitness, type WitnessTargetInput } from './witness-targets.js';
import { ensureInstanceId } from '../audit/instance-id.js';

const READ_TIMEOUT_MS = 5_000;
const ANSWER_LIMIT_BYTES = 8 * 1024 * 1024;

export interface WitnessReader {
  name: string;
  read(): Promise<WitnessedCheckpoint[]>;
}

/** The home's closed chains, each at its closed checkpoint. */
async function readClosedChains(dir: string): Promise<LocalClosedChain[]> {
  const closed: LocalClosedChain[] = [];
  for (const files of await listClosedChains(dir)) {
    const checkpoint = await readSignedCheckpoint(files.checkpoint);
    if (checkpoint?.closed !== true) continue;
    closed.push({ trail: checkpoint.trail, seq: checkpoint.seq, hash: checkpoint.hash, hashAt: (seq) => hashAt(files.log, seq) });
  }
  return closed;
}

/** The local trail as the last run left it: its checkpoint (trail id and head), record 1 and the closed chains. */
export async function readLocalTrail(home: string): Promise<StartTrail> {
  const dir = path.join(home, 'audit');
  const logFile = path.join(dir, 'audit.jsonl');
  const text = await readOptionalFile(path.join(dir, 'checkpoint.json'));
  // An unreadable checkpoint is the trail's own start check to refuse; here it reads as no head.
  let checkpoint;
  try { checkpoint = text === undefined ? undefined : parseCheckpoint(text.toString('utf8')); } catch { checkpoint = undefined; }
  const opening = await readChainOpening(logFile);
  return {
    head: checkpoint ? { seq: checkpoint.seq, hash: checkpoint.hash } : null,
    ...(checkpoint && isSignedCheckpoint(checkpoint) ? { trail: checkpoint.trail } : {}),
    ...(opening ? { opening } : {}),
    hashAt: (seq) => hashAt(logFile, seq),
    closed: await readClosedChains(dir),
    acceptedGap: (trail, seq) => isGapAccepted(dir, trail, seq),
  };
}

async function readOverHttp(client: UpstreamClient, url: string): Promise<WitnessedCheckpoint[]> {
  const response = await client.send({ url, method: 'GET', headers: { accept: 'application/json' }, body: null, signal: AbortSignal.timeout(READ_TIMEOUT_MS) });
  let text = '';
  for await (const chunk of response.body) {
    text += String(chunk);
    if (text.length > ANSWER_LIMIT_BYTES) throw new Error('the answer is too large');
  }
  if (response.status !== 200) throw new Error(`answered ${response.status}`);
  const items = (JSON.parse(text) as { checkpoints?: unknown }).checkpoints;
  if (!Array.isArray(items)) throw new Error('answered without a checkpoints list');
  return items.map(readWitnessed).filter((entry): entry is WitnessedCheckpoint => entry !== null);
}

export function readersOf(input: WitnessTargetInput): WitnessReader[] {
  const readers: WitnessReader[] = [];
  if (input.hub !== null) {
    const base = input.hub.replace(/\/+$/, '');
    readers.push({ name: `hub ${base}`, read: () => readOverHttp(input.upstream, `${base}${HUB_WITNESS_PATH}`) });
  }
  const setting = input.setting;
  if (setting === null) return readers;
  if (isHttpWitness(setting)) readers.push({ name: `http ${setting}`, read: () => readOverHttp(input.upstream, setting) });
  else {
    readers.push({
      name: `file ${setting}`,
      // A witness file not made yet holds nothing: the first push makes it.
      read: () => readWitnessLog(setting).then(({ entries }) => entries, (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      }),
    });
  }
  return readers;
}

class WitnessRollbackError extends Error {
  constructor(readonly rollback: WitnessRollback, home: string) {
    super(`GW_ERR_AUDIT_WITNESS_ROLLBACK: the audit trail in ${path.join(home, 'audit')} is behind its witness (${rollback.witness}): ${rollback.reason}. ${ERROR_CATALOG.GW_ERR_AUDIT_WITNESS_ROLLBACK.message}`);
    this.name = 'WitnessRollbackError';
  }
}

/** A rotation refused: the chain to close is behind or forked from what a witness holds. Nothing was changed. */
export class RotateBehindWitnessError extends Error {
  readonly code = 'GW_ERR_AUDIT_ROTATE_BEHIND_WITNESS';

  constructor(readonly rollback: WitnessRollback, home: string) {
    super(`GW_ERR_AUDIT_ROTATE_BEHIND_WITNESS: the audit trail in ${path.join(home, 'audit')} is behind its witness (${rollback.witness}): ${rollback.reason}. ${ERROR_CATALOG.GW_ERR_AUDIT_ROTATE_BEHIND_WITNESS.message}`);
    this.name = 'RotateBehindWitnessError';
  }
}

export interface WitnessStartCheck {
  home: string;
  instance: string;
  local: StartTrail;
  acceptGap: boolean;
  audit: Pick<AuditTrail, 'append'>;
  warn(message: string): void;
  /** What each witness that could be read holds (the start then sends it the closed chains it lacks). */
  onRead?(witness: string, entries: WitnessedCheckpoint[]): Promise<void>;
  /** Who accepts a gap (the audit.gap's accepted_by) and the error a refusal throws; gw serve's by default. */
  acceptedBy?: string;
  refuse?(rollback: WitnessRollback): Error;
  describeSkip?(witness: string, why: string): string;
}

/** Reads one witness, bounded as a whole (a sidecar's first hub exchange included): a witness that hangs delays by at most this. */
async function readBounded(reader: WitnessReader): Promise<WitnessedCheckpoint[]> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer in ${READ_TIMEOUT_MS} ms`)), READ_TIMEOUT_MS); });
    return await Promise.race([reader.read(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Holds the local trail against each reader's witness; resolves with what could not be checked, throws on a refused rollback. */
export async function holdTrailToReaders(readers: readonly WitnessReader[], check: WitnessStartCheck): Promise<string[]> {
  const skipped: string[] = [];
  for (const reader of readers) {
    let entries: WitnessedCheckpoint[];
    try {
      entries = await readBounded(reader);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      const message = check.describeSkip?.(reader.name, why) ?? `${reader.name} could not be read at start (${why}): started without comparing the trail with it`;
      check.warn(message);
      skipped.push(message);
      continue;
    }
    await check.onRead?.(reader.name, entries);
    const rollback = await checkWitnessAtStart(check.local, entries, check.instance, reader.name);
    if (rollback === null) continue;
    if (!check.acceptGap) throw check.refuse?.(rollback) ?? new WitnessRollbackError(rollback, check.home);
    await check.audit.append({ kind: 'audit.gap', data: { ...rollback, accepted_by: check.acceptedBy ?? 'gw serve --accept-audit-gap' } });
  }
  return skipped;
}

/** Holds the local trail against each witness; resolves with what could not be checked (for /health), throws on a refused rollback. */
export async function holdTrailToWitnesses(input: WitnessTargetInput, check: WitnessStartCheck): Promise<string[]> {
  return holdTrailToReaders(readersOf(input), check);
}

/** Before the trail opens: this home's instance id (made once, when a witness is configured) and, for a file trail, its state. */
export async function prepareWitnessStart(home: string, options: { witnessed: boolean; fileTrail: boolean }): Promise<{ instance?: string; local: StartTrail | null }> {
  if (!options.witnessed) return { local: null };
  const instance = await ensureInstanceId(home);
  return { instance, local: options.fileTrail ? await readLocalTrail(home) : null };
}
