// A witness that is a file on another volume (setting audit_witness = /path): each
// checkpoint is appended as one line. The file is only as independent as its volume
// (a network share, another disk, a mount the laptop's user cannot rewrite).
import type { SignedCheckpoint } from './checkpoint.js';
import type { WitnessTarget } from './witness-pusher.js';
import { appendWitnessed } from './witness-log.js';

export function createFileWitness(file: string, now: () => Date = () => new Date()): WitnessTarget {
  return {
    name: `file ${file}`,
    async send(checkpoint: SignedCheckpoint) {
      await appendWitnessed(file, { ...checkpoint, received_at: now().toISOString() });
      return { ok: true };
    },
  };
}
