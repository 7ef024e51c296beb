// What a witness keeps of one checkpoint: the checkpoint, when it came and who sent it. Its own
// file so the comparison (compare-witness.ts) and the inventory (witness-inventory.ts) share it
// without importing each other.
import type { SignedCheckpoint } from './checkpoint.js';

export interface WitnessSender {
  team: string | null;
  person: string | null;
  key_id: string | null;
  /** A sidecar's device login (its personal token's id), as the hub's door saw it. */
  device?: string;
  /** The sender's stable instance id ($GW_HOME/instance-id), as the pusher sent it. */
  instance?: string;
}

export interface WitnessedCheckpoint extends SignedCheckpoint {
  received_at: string;
  /** Who sent it: the hub's door identity and the instance id the pusher sent; absent in entries from before senders were kept. */
  from?: WitnessSender;
}
