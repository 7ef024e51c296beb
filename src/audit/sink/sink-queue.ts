// What the audit sink reads from: the trail as a queue of chains (the home's files, or an
// instance's chains in a PostgreSQL store). The sink keeps the position and moves it only once
// a batch is acknowledged; the queue says which chain comes next and reads records after a position.
import type { SignedCheckpoint } from '../checkpoint.js';
import type { SinkPosition } from './sink-cursor.js';
import type { TrailSlice } from './read-trail-slice.js';

export interface QueueHead {
  /** Where to send from: the position given, or the start of the chain that follows it. */
  position: SinkPosition;
  /** The signed checkpoint records of that chain may be sent up to (a closed chain's closed checkpoint). */
  head: SignedCheckpoint;
}

export interface SinkQueue {
  /**
   * The chain to send from after `position`; at start (`position` null) from `saved`, the cursor.
   * Null while there is nothing to send yet (no signed checkpoint, a rotation still opening the next chain).
   */
  next(position: SinkPosition | null, saved: SinkPosition | null): Promise<QueueHead | null>;
  /** Records after `from` up to seq `upTo`, about `maxBytes` of trail (at least one record). */
  read(from: SinkPosition, upTo: number, maxBytes: number): Promise<TrailSlice>;
  /** What is not delivered yet after `position`, as of the last next(). */
  backlog(position: SinkPosition | null): { events: number; bytes: number };
  close?(): Promise<void>;
}
