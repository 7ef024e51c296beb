// A witness that is a file on another volume (setting audit_witness = /path): each
// checkpoint is appended as one line, with the sender's instance id, so one file can
// witness several homes and still tell them apart. The file is only as independent as
// its volume (a network share, another disk, a mount the laptop's user cannot rewrite).
import type { SignedCheckpoint } from './checkpoint.js';
import type { WitnessTarget } from './witness-pusher.js';
import { appendWitnessed } from './witness-log.js';

export function createFileWitness(file: string, instance: string | undefined, now: () => Date = () => new Date()): WitnessTarget {
  const from = { team: null, person: null, key_id: null, ...(instance ? { instance } : {}) };
  return {
    name: `file ${file}`,
    async send(checkpoint: SignedCheckpoint) {
      await appendWitnessed(file, { ...checkpoint, received_at: now().toISOString(), from });
      return { ok: true };
    },
  };
}
