// An instance's chains in a PostgreSQL store (gw serve --store) as the audit sink's queue. The
// store holds one chain per boot (and one more per gw audit rotate), of every instance; this
// instance streams its own: from the cursor's chain on, each later chain signed by a key of its
// (the home's key, or one a rotation of its chains introduced) or written under one of its
// instance names. A chain is finished once a later one of its own exists (the boot that wrote it
// is gone, or a rotation closed it): the sink sends it up to its checkpoint, then goes on.
// The records and the checkpoint that covers them are committed in one statement, so a chain's
// checkpoint row always covers every record it holds. The store itself is handed in by the
// gateway (src/gateway/start-audit-sink.ts over src/postgres/): the trail imports no store.
import { isSignedCheckpoint, type SignedCheckpoint } from '../checkpoint.js';
import { startOf } from './file-sink-queue.js';
import { parseLine, type TrailEntry, type TrailSlice } from './read-trail-slice.js';
import type { SinkPosition } from './sink-cursor.js';
import type { QueueHead, SinkQueue } from './sink-queue.js';

/** One chain of the store as the queue reads it. */
interface StoredChain {
  chainId: string;
  instance: string;
  checkpoint: SignedCheckpoint | null;
}

/** The store's side of the queue. */
interface ChainStore {
  /** Every chain of every instance, in the order they were started. */
  listChains(): Promise<StoredChain[]>;
  /** The record lines of one chain after seq `after`, up to seq `upTo`, in seq order: at most `limit`. */
  readLines(chainId: string, after: number, upTo: number, limit: number): Promise<string[]>;
  close(): Promise<void>;
}

interface StoreChain extends StoredChain {
  checkpoint: SignedCheckpoint;
}

// Until a batch was read: a model call's record line is about this long.
const TYPICAL_LINE_BYTES = 600;

/** The chains from `first` on that are this instance's, in the order they were started. */
function ownChainsFrom(start: StoreChain, later: readonly StoreChain[], key: string): StoreChain[] {
  const keys = new Set([key, start.checkpoint.public_key]);
  const instances = new Set([start.instance]);
  const own = [start];
  for (const chain of later) {
    if (!keys.has(chain.checkpoint.public_key) && !instances.has(chain.instance)) continue;
    keys.add(chain.checkpoint.public_key);
    instances.add(chain.instance);
    own.push(chain);
  }
  return own;
}

export class StoreSinkQueue implements SinkQueue {
  private chainId: string | undefined;
  private pending = 0;
  private lineBytes = TYPICAL_LINE_BYTES;

  constructor(
    private readonly store: ChainStore,
    /** The instance's public key now (audit.pub in its home: replaced by gw audit rotate). */
    private readonly ownKey: () => Promise<string>,
    private readonly lastDelivered: (() => Promise<SinkPosition | null>) | undefined,
    private readonly log: (message: string) => void,
  ) {}

  async next(current: SinkPosition | null, saved: SinkPosition | null): Promise<QueueHead | null> {
    const chains = (await this.store.listChains()).filter((chain): chain is StoreChain => chain.checkpoint !== null && isSignedCheckpoint(chain.checkpoint));
    const key = await this.ownKey();
    const cursor = current ?? saved;
    let index = cursor === null ? -1 : chains.findIndex((chain) => chain.checkpoint.trail === cursor.chain);
    let position = cursor;
    if (index === -1) {
      // No cursor, or its chain is not in this store: this boot's chain (the latest under this key), from record 1.
      index = chains.findLastIndex((chain) => chain.checkpoint.public_key === key);
      if (index === -1) return null;
      if (cursor !== null) this.log(`chain ${cursor.chain.slice(0, 12)}… of the cursor is not in the store; streaming this instance's chain from record 1`);
    }
    const [start, ...later] = chains.slice(index);
    if (start === undefined) return null;
    if (position === null || position.chain !== start.checkpoint.trail) position = startOf(start.checkpoint.trail);
    const own = ownChainsFrom(start, later, key);
    if (current === null) position = await this.skipHeld(position, own);
    return this.headFrom(position, own);
  }

  async read(from: SinkPosition, upTo: number, maxBytes: number): Promise<TrailSlice> {
    const rows = Math.max(1, Math.ceil(maxBytes / this.lineBytes));
    const lines = this.chainId === undefined ? [] : await this.store.readLines(this.chainId, from.seq, upTo, rows);
    const entries: TrailEntry[] = [];
    let end = from;
    let bytes = 0;
    for (const line of lines) {
      const record = parseLine(line, end); // a record that does not follow the last one delivered: the chain was edited
      entries.push({ line, record });
      bytes += Buffer.byteLength(line) + 1;
      end = { chain: from.chain, seq: record.seq, hash: record.hash, offset: 0 };
      if (bytes >= maxBytes) break;
    }
    if (entries.length > 0) this.lineBytes = Math.max(64, Math.round(bytes / entries.length));
    if (entries.length === 0 && upTo > from.seq) throw new Error(`the store holds no record after seq ${from.seq} of chain ${from.chain.slice(0, 12)}…, which its checkpoint covers`);
    return { entries, end };
  }

  backlog(position: SinkPosition | null): { events: number; bytes: number } {
    void position;
    // Estimated from the records' mean size: summing the lines in SQL at every poll would read the whole backlog.
    return { events: this.pending, bytes: this.pending * this.lineBytes };
  }

  async close(): Promise<void> {
    await this.store.close();
  }

  /** Where to send from along `own`: the chain of `position` until its checkpoint, then each later one from record 1. */
  private headFrom(position: SinkPosition, own: readonly StoreChain[]): QueueHead {
    let at = own.findIndex((chain) => chain.checkpoint.trail === position.chain);
    let chain = own[at];
    if (chain === undefined) throw new Error(`chain ${position.chain.slice(0, 12)}… is not one of this instance's chains`);
    for (let next = own[at + 1]; next !== undefined && position.seq === chain.checkpoint.seq; next = own[at + 1]) {
      at += 1;
      this.log(`chain ${position.chain.slice(0, 12)}… is delivered to its end; streaming chain ${next.checkpoint.trail.slice(0, 12)}… from record 1`);
      position = startOf(next.checkpoint.trail);
      chain = next;
    }
    this.chainId = chain.chainId;
    this.pending = Math.max(0, chain.checkpoint.seq - position.seq) + own.slice(at + 1).reduce((sum, later) => sum + later.checkpoint.seq, 0);
    return { position, head: chain.checkpoint };
  }

  /** A file target is written before the cursor: what it holds may be after the cursor (so not sent twice). */
  private async skipHeld(position: SinkPosition, own: readonly StoreChain[]): Promise<SinkPosition> {
    const held = await this.lastDelivered?.();
    if (!held) return position;
    const heldAt = own.findIndex((chain) => chain.checkpoint.trail === held.chain);
    const at = own.findIndex((chain) => chain.checkpoint.trail === position.chain);
    if (heldAt > at || (heldAt === at && held.seq > position.seq)) return { ...held, offset: 0 };
    return position;
  }
}
