// The home's file trail as the sink's queue: the live chain (audit/audit.jsonl under
// checkpoint.json) and, after `gw audit rotate`, the closed chains of audit/chains/, which a
// sink that was behind finishes before it starts the chain that opens from them.
import { stat } from 'node:fs/promises';
import { isSignedCheckpoint } from '../checkpoint.js';
import { GENESIS_PREV } from '../record.js';
import { chainSegment, successorOf, type ChainSegment } from './chain-segment.js';
import type { FileTrailSource } from './file-trail-source.js';
import { endsAtRecord, locateRecord, readTrailSlice, TrailMismatchError } from './read-trail-slice.js';
import type { SinkPosition } from './sink-cursor.js';
import type { QueueHead, SinkQueue } from './sink-queue.js';

export function startOf(chain: string): SinkPosition {
  return { chain, seq: 0, hash: GENESIS_PREV, offset: 0 };
}

export class FileSinkQueue implements SinkQueue {
  private segment: ChainSegment | null = null;
  private liveSeq = 0;
  private liveTrail: string | undefined;
  private trailSize = 0;
  private segmentSize = 0;

  constructor(
    private readonly source: FileTrailSource,
    private readonly lastDelivered: (() => Promise<SinkPosition | null>) | undefined,
    private readonly log: (message: string) => void,
  ) {}

  async next(current: SinkPosition | null, saved: SinkPosition | null): Promise<QueueHead | null> {
    const live = await this.source.checkpoint();
    this.trailSize = await this.source.size();
    if (live === null || !isSignedCheckpoint(live)) return null; // a legacy checkpoint is replaced at the next commit
    this.liveSeq = live.seq;
    this.liveTrail = live.trail;
    let position = current ?? await this.initialPosition(live, saved);
    for (;;) {
      const segment = await chainSegment(this.source, position.chain, live);
      if (segment === null) {
        this.log(`the trail is a new chain; streaming it from record 1`);
        position = startOf(live.trail);
        continue;
      }
      this.segment = segment;
      this.segmentSize = segment.logFile === this.source.logFile ? this.trailSize : (await stat(segment.logFile).catch(() => ({ size: 0 }))).size;
      if (!segment.closed || position.seq !== segment.head.seq) return { position, head: segment.head };
      const next = await successorOf(this.source, position.chain, live);
      if (next === null) return null;
      this.log(`chain ${position.chain.slice(0, 12)}… closed by gw audit rotate is delivered to its end; streaming chain ${next.slice(0, 12)}… from record 1`);
      position = startOf(next);
    }
  }

  async read(from: SinkPosition, upTo: number, maxBytes: number): ReturnType<typeof readTrailSlice> {
    const logFile = this.segment?.logFile ?? this.source.logFile;
    try {
      return await readTrailSlice(logFile, from, upTo, maxBytes);
    } catch (error) {
      if (!(error instanceof TrailMismatchError) || from.seq === 0) throw error;
      // The saved offset may be stale (a cursor from another copy of the home): find the record by seq and hash.
      return readTrailSlice(logFile, await locateRecord(logFile, from.chain, from.seq, from.hash), upTo, maxBytes);
    }
  }

  backlog(position: SinkPosition | null): { events: number; bytes: number } {
    const seq = position?.seq ?? 0;
    const offset = position?.offset ?? 0;
    // Finishing a closed chain: its rest, then the whole live chain (chains closed in between are not counted).
    if (this.segment?.closed && this.segment.chain !== this.liveTrail) {
      return { events: Math.max(0, this.segment.head.seq - seq) + this.liveSeq, bytes: Math.max(0, this.segmentSize - offset) + this.trailSize };
    }
    return { events: Math.max(0, this.liveSeq - seq), bytes: Math.max(0, this.trailSize - offset) };
  }

  /** At start: the cursor (or record 1 of the live chain), moved on to what the target already holds. */
  private async initialPosition(live: QueueHead['head'], saved: SinkPosition | null): Promise<SinkPosition> {
    let position = saved ?? startOf(live.trail);
    const segment = await chainSegment(this.source, position.chain, live);
    if (segment === null) return startOf(live.trail); // next() says it is a new chain
    // Checked once at start, not per batch: the receiver holds up to here, so the trail must still hold it too.
    if (!(await endsAtRecord(segment.logFile, position))) position = await locateRecord(segment.logFile, position.chain, position.seq, position.hash);
    const held = await this.lastDelivered?.();
    // The target is written before the cursor, so what it holds is at or after the cursor (maybe in the next chain).
    if (held && (held.chain !== position.chain || held.seq > position.seq)) {
      const heldSegment = held.chain === position.chain ? segment : await chainSegment(this.source, held.chain, live);
      if (heldSegment) position = await locateRecord(heldSegment.logFile, held.chain, held.seq, held.hash);
    }
    return position;
  }
}
