// The home's file trail as the sink's queue: its latest signed checkpoint (which records may
// leave: an event past it could not be verified yet) and the log they are read from.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { AUDIT_CHECKPOINT_FILE, AUDIT_LOG_FILE } from '../audit-trail.js';
import { parseCheckpoint, type Checkpoint } from '../checkpoint.js';
import { readOptionalFile } from '../read-optional-file.js';

export interface FileTrailSource {
  /** audit/: closed chains are in its chains/ folder (docs/audit-rotate.md). */
  readonly auditDir: string;
  readonly logFile: string;
  /** The checkpoint beside the log, or null before the first commit. */
  checkpoint(): Promise<Checkpoint | null>;
  /** The log's length in bytes (the backlog is this minus the cursor's offset). */
  size(): Promise<number>;
}

export function createFileTrailSource(auditDir: string): FileTrailSource {
  const logFile = path.join(auditDir, AUDIT_LOG_FILE);
  const checkpointFile = path.join(auditDir, AUDIT_CHECKPOINT_FILE);
  return {
    auditDir,
    logFile,
    async checkpoint() {
      const bytes = await readOptionalFile(checkpointFile);
      return bytes === undefined ? null : parseCheckpoint(bytes.toString('utf8'));
    },
    async size() {
      return (await stat(logFile).catch(() => ({ size: 0 }))).size;
    },
  };
}
