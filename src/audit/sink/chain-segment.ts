// Which log the sink reads a chain from, across `gw audit rotate` (docs/audit-rotate.md): the
// live chain is audit/audit.jsonl under checkpoint.json; a closed one was moved byte for byte to
// audit/chains/<trail>.jsonl beside its closed checkpoint, so a cursor's byte offset stays valid
// after the move. A sink that was behind at a rotation finishes the closed chain from there, up to
// its closing record, then goes on with the chain whose record 1 names it.
import { access } from 'node:fs/promises';
import { trailIdOf, type SignedCheckpoint } from '../checkpoint.js';
import { closedChainFiles, listClosedChains, readSignedCheckpoint } from '../closed-chains.js';
import { readFirstLine } from './read-trail-slice.js';
import type { FileTrailSource } from './file-trail-source.js';

export interface ChainSegment {
  chain: string;
  logFile: string;
  /** The checkpoint records may leave up to: the live one, or the closed chain's closed checkpoint. */
  head: SignedCheckpoint;
  /** The chain ended (closed checkpoint at its audit.chain_closed record): nothing more will be added. */
  closed: boolean;
}

const exists = (file: string): Promise<boolean> => access(file).then(() => true, () => false);

/** The chain's log and head, or null when the home holds no such chain (another home's cursor, a deleted trail). */
export async function chainSegment(source: FileTrailSource, chain: string, live: SignedCheckpoint): Promise<ChainSegment | null> {
  if (live.trail === chain && live.closed !== true) return { chain, logFile: source.logFile, head: live, closed: false };
  const files = closedChainFiles(source.auditDir, chain);
  const closed = await readSignedCheckpoint(files.checkpoint);
  if (closed?.trail === chain && closed.closed === true && await exists(files.log)) return { chain, logFile: files.log, head: closed, closed: true };
  // Mid-rotation: closed in place (checkpoint.json is the closed one), not yet moved to chains/.
  if (live.trail === chain) return { chain, logFile: source.logFile, head: live, closed: live.closed === true };
  return null;
}

/** The trail id of a log whose record 1 is an audit.chain_opened naming `closed`, or undefined. */
async function opensFrom(logFile: string, closed: string): Promise<string | undefined> {
  const line = await readFirstLine(logFile);
  if (line === undefined) return undefined;
  try {
    const record = JSON.parse(line) as { seq?: unknown; kind?: unknown; hash?: unknown; data?: { previous_trail?: unknown } };
    if (record.seq !== 1 || record.kind !== 'audit.chain_opened' || record.data?.previous_trail !== closed || typeof record.hash !== 'string') return undefined;
    return trailIdOf(record.hash);
  } catch {
    return undefined;
  }
}

/**
 * The chain that follows the closed chain `closed`: the one (closed since, or live) whose record 1
 * names it; failing that the live chain when it is another one (a home whose next chain does not
 * name it: streamed from record 1, as any new chain). Null while the rotation is still opening it.
 */
export async function successorOf(source: FileTrailSource, closed: string, live: SignedCheckpoint): Promise<string | null> {
  for (const files of await listClosedChains(source.auditDir)) {
    if (files.trail === closed) continue;
    const next = await opensFrom(files.log, closed);
    if (next !== undefined) return next;
  }
  if (live.trail === closed) return null;
  return (await opensFrom(source.logFile, closed)) ?? live.trail;
}
