// Record 1 of a chain that `gw audit rotate` opened (kind audit.chain_opened) names the chain
// it follows; the witness checks read it so a rotation whose closing checkpoint never reached
// the witness is not taken for a replacement. Only the first line is read.
import { createReadStream } from 'node:fs';
import readline from 'node:readline';
import type { ChainOpening } from './witness-inventory.js';

const HEX64 = /^[0-9a-f]{64}$/;

/** The opening named by a chain's first line, or undefined (another kind, unreadable, empty). */
export function chainOpeningOf(line: string): ChainOpening | undefined {
  try {
    const record = JSON.parse(line) as { seq?: unknown; kind?: unknown; data?: Record<string, unknown> };
    if (record.seq !== 1 || record.kind !== 'audit.chain_opened' || typeof record.data !== 'object' || record.data === null) return undefined;
    const { previous_trail: trail, previous_seq: seq, previous_hash: hash } = record.data;
    if (typeof trail !== 'string' || !HEX64.test(trail) || typeof seq !== 'number' || !Number.isSafeInteger(seq) || typeof hash !== 'string') return undefined;
    return { previous_trail: trail, previous_seq: seq, previous_hash: hash };
  } catch {
    return undefined;
  }
}

export async function readChainOpening(logFile: string): Promise<ChainOpening | undefined> {
  const lines = readline.createInterface({ input: createReadStream(logFile), crlfDelay: Infinity });
  try {
    for await (const line of lines) return chainOpeningOf(line);
    return undefined;
  } catch {
    return undefined; // a missing or unreadable log is verify's to report
  } finally {
    lines.close();
  }
}
