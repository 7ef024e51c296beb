// Whether a witnessed head was accepted as a gap already: an `audit.gap` record (written by
// `gw serve --accept-audit-gap` or `gw audit rotate --accept-audit-gap`) in the live log or a
// closed chain that names the witnessed chain at that seq or later. Read only when the witness
// check found something (rare), so a scan of the home's logs is fine: without it, a gap
// accepted once would be refused again at every start.
import { createReadStream } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { listClosedChains } from './closed-chains.js';
import { errorCode } from '../error-code.js';

const GAP_MARKER = '"kind":"audit.gap"';

function acceptsHead(line: string, trail: string, seq: number): boolean {
  try {
    const data = (JSON.parse(line) as { data?: { witnessed_trail?: unknown; witnessed_seq?: unknown } }).data;
    return data?.witnessed_trail === trail && typeof data.witnessed_seq === 'number' && data.witnessed_seq >= seq;
  } catch {
    return false; // a damaged line is verify's to report
  }
}

async function logAccepts(file: string, trail: string, seq: number): Promise<boolean> {
  const lines = readline.createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (line.includes(GAP_MARKER) && line.includes(trail) && acceptsHead(line, trail, seq)) return true;
    }
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  } finally {
    lines.close();
  }
  return false;
}

export async function isGapAccepted(auditDir: string, witnessedTrail: string, witnessedSeq: number): Promise<boolean> {
  const logs = [path.join(auditDir, 'audit.jsonl'), ...(await listClosedChains(auditDir)).map((files) => files.log)];
  for (const log of logs) if (await logAccepts(log, witnessedTrail, witnessedSeq)) return true;
  return false;
}
