// Verifies a trail file as a stream, with the checkpoint beside it and the public key
// at $GW_HOME/audit.pub (the legacy $GW_HOME/audit.key for an HMAC checkpoint) when they
// exist. File errors are thrown (the CLI's exit 2).
import { open } from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { readOptionalFile } from './read-optional-file.js';
import { parseCheckpoint, type Checkpoint } from './checkpoint.js';
import { PUBLIC_KEY_FILE } from './signing-key.js';
import { verifyLines, type VerifyOptions, type VerifyResult } from './verify.js';
import { errorMessage } from '../error-message.js';

export interface VerifyFileOptions {
  /** Default: checkpoint.json in the log's folder. */
  checkpointPath?: string;
  /** Default: audit.key in the folder above the log's ($GW_HOME/audit.key). */
  keyPath?: string;
  /** Default: audit.pub in the folder above the log's. */
  publicKeyPath?: string;
  /** The key to pin instead of reading publicKeyPath (a closed chain: its closed checkpoint's own key, trust decided by rotation). */
  publicKey?: string;
  /** The trail in its home: a missing checkpoint or key is a finding (verify.ts). */
  requireSeal?: boolean;
  /** Seqs whose hashes to return (a witness's checkpoints). */
  collectSeqs?: ReadonlySet<number>;
  /** Keys the verifier trusts; a checkpoint signed by another fails (verify.ts). */
  trustedKeys?: readonly string[];
  allowUntrusted?: boolean;
}

function defaultKeyPath(logFile: string): string {
  return path.join(path.dirname(path.dirname(path.resolve(logFile))), 'audit.key');
}

export function defaultPublicKeyPath(logFile: string): string {
  return path.join(path.dirname(path.dirname(path.resolve(logFile))), PUBLIC_KEY_FILE);
}

export async function verifyFile(file: string, options: VerifyFileOptions = {}): Promise<VerifyResult> {
  // The checkpoint is read before the log: a running writer replaces it only
  // after the log write, so the log read afterwards always reaches it.
  const checkpointText = await readOptionalFile(options.checkpointPath ?? path.join(path.dirname(file), 'checkpoint.json'));
  const key = await readOptionalFile(options.keyPath ?? defaultKeyPath(file));
  const publicKey = options.publicKey ?? (await readOptionalFile(options.publicKeyPath ?? defaultPublicKeyPath(file)))?.toString('utf8').trim();
  let checkpoint: Checkpoint | undefined;
  if (checkpointText !== undefined) {
    try {
      checkpoint = parseCheckpoint(checkpointText.toString('utf8'));
    } catch (error) {
      return { ok: false, records: 0, head: null, firstBad: { line: 0, reason: errorMessage(error) }, warnings: [] };
    }
  }
  const handle = await open(file, 'r');
  try {
    // Only the bytes present now are read, so a line being appended meanwhile is not half-read.
    const { size } = await handle.stat();
    const base: VerifyOptions = {
      requireSeal: options.requireSeal === true,
      ...(options.trustedKeys ? { trustedKeys: options.trustedKeys, allowUntrusted: options.allowUntrusted === true } : {}),
      ...(checkpoint ? { checkpoint } : {}), ...(key ? { key } : {}), ...(publicKey ? { publicKey } : {}),
      ...(options.collectSeqs ? { collectSeqs: options.collectSeqs } : {}),
    };
    if (size === 0) return await verifyLines([], base);
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    const input = handle.createReadStream({ start: 0, end: size - 1, autoClose: false });
    const lines = readline.createInterface({ input, crlfDelay: Infinity });
    return await verifyLines(lines, { ...base, lastLineIncomplete: last[0] !== 0x0a });
  } finally {
    await handle.close();
  }
}
