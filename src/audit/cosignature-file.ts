// $GW_HOME/audit/cosignatures.jsonl: the witnesses' cosignatures of this trail's checkpoints,
// one JSON line each, appended (O_APPEND, one small write per line, so lines never interleave).
// Beside the trail, not in it: a cosignature arrives after the records it covers were sealed,
// and it needs no protection of its own (an edited one no longer verifies under the witness key).
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { readStoredCosignature, type StoredCosignature } from './cosignature.js';
import { readOptionalFile } from './read-optional-file.js';

const COSIGNATURES_FILE = 'cosignatures.jsonl';

export function cosignatureFileOf(home: string): string {
  return path.join(home, 'audit', COSIGNATURES_FILE);
}

export async function appendCosignature(file: string, stored: StoredCosignature): Promise<void> {
  await appendFile(file, `${JSON.stringify(stored)}\n`, { mode: 0o600 });
}

/** The cosignatures of one trail (all when trail is undefined); a damaged line is skipped and counted; no file is none. */
export async function readCosignatureFile(file: string, trail?: string): Promise<{ cosignatures: StoredCosignature[]; damaged: number }> {
  const bytes = await readOptionalFile(file);
  const cosignatures: StoredCosignature[] = [];
  let damaged = 0;
  for (const line of bytes?.toString('utf8').split('\n') ?? []) {
    if (line === '') continue;
    let value: unknown;
    try { value = JSON.parse(line); } catch { value = undefined; }
    const stored = readStoredCosignature(value);
    if (!stored) damaged += 1;
    else if (trail === undefined || stored.trail === trail) cosignatures.push(stored);
  }
  return { cosignatures, damaged };
}
