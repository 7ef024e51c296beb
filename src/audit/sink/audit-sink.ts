// The live audit sink (docs/audit-sink.md): streams the trail to a SIEM as OCSF event lines,
// off the request path. The trail is the queue: a loop reads what the latest signed checkpoint
// covers after the cursor, sends it as one batch, and advances the cursor only once the
// receiver acknowledged it. A receiver that is down costs nothing but a growing backlog (in the
// trail, never dropped); a crash costs at most a repeat of the unacknowledged batch, with the
// same event uids (gw:<chain>:<seq>), which the receiver drops. Across `gw audit rotate` the
// sink finishes the closed chain (moved to audit/chains/) before it starts the next one.
import { stat } from 'node:fs/promises';
import { isSignedCheckpoint, type SignedCheckpoint } from '../checkpoint.js';
import { GENESIS_PREV } from '../record.js';
import { endsAtRecord, locateRecord, readTrailSlice, TrailMismatchError } from './read-trail-slice.js';
import { readSinkCursor, writeSinkCursor, type SinkPosition } from './sink-cursor.js';
import { sinkEventsOf } from './sink-events.js';
import { chainSegment, successorOf, type ChainSegment } from './chain-segment.js';
import type { FileTrailSource } from './file-trail-source.js';

export interface SinkTarget {
  /** The URL or path, for /health and logs: never a token. */
  readonly name: string;
  /**
   * Sends one batch of event lines; resolves once the receiver acknowledged it (2xx, or appended
   * and synced), throws otherwise. `signal` aborts it when a stopping gateway's drain runs out.
   */
  deliver(lines: readonly string[], signal: AbortSignal): Promise<void>;
  /** A target that can read what it holds (a file): its last event, so a restart does not repeat it. */
  lastDelivered?(): Promise<SinkPosition | null>;
}

export interface AuditSinkHooks {
  delivered(events: number, bytes: number): void;
  failed(): void;
  /** The backlog just went past the bound. */
  overBound(): void;
}

export interface AuditSinkOptions {
  source: FileTrailSource;
  target: SinkTarget;
  cursorFile: string;
  maxBacklogBytes: number;
  log: (message: string) => void;
  hooks?: AuditSinkHooks;
  now?: () => number;
  /** How often the checkpoint is looked at when there is nothing to send. */
  pollMs?: number;
  retry?: { minMs: number; maxMs: number };
  /** Trail bytes per batch (the events are about four times as large). */
  batchBytes?: number;
}

export type SinkState = 'ok' | 'behind' | 'failing';

export interface AuditSinkHealth {
  [detail: string]: unknown;
  status: 'ok' | 'degraded';
  state: SinkState;
  target: string;
  backlog_events: number;
  backlog_bytes: number;
  delivered_seq: number;
  failures: number;
}

type Outcome = 'idle' | 'sent' | 'failed';

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 300);

export class AuditSink {
  private position: SinkPosition | null = null;
  private head: SignedCheckpoint | null = null;
  private trailSize = 0;
  /** The chain being sent (a closed one while the sink finishes it after a rotation), and its log's size. */
  private segment: ChainSegment | null = null;
  private segmentSize = 0;
  private consecutiveFailures = 0;
  private failures = 0;
  private lastError: string | undefined;
  private lastDeliveredAt: number | undefined;
  private mismatch: string | undefined;
  private overBound = false;
  private stopped = false;
  private draining = false;
  private wakeUp: (() => void) | undefined;
  private running: Promise<void> = Promise.resolve();
  private readonly stopping = new AbortController();

  constructor(private readonly options: AuditSinkOptions) {}

  start(): void {
    this.running = this.run();
  }

  backlog(): { events: number; bytes: number } {
    const seq = this.position?.seq ?? 0;
    const offset = this.position?.offset ?? 0;
    const live = { events: this.head?.seq ?? 0, bytes: this.trailSize };
    // Finishing a closed chain: its rest, then the whole live chain (chains closed in between are not counted).
    if (this.segment?.closed && this.segment.chain !== this.head?.trail) {
      return { events: Math.max(0, this.segment.head.seq - seq) + live.events, bytes: Math.max(0, this.segmentSize - offset) + live.bytes };
    }
    return { events: Math.max(0, live.events - seq), bytes: Math.max(0, live.bytes - offset) };
  }

  health(): AuditSinkHealth {
    const backlog = this.backlog();
    const state: SinkState = this.mismatch !== undefined || this.overBound ? 'failing' : this.consecutiveFailures > 0 ? 'behind' : 'ok';
    const lastError = this.mismatch ?? this.lastError;
    return {
      status: state === 'ok' ? 'ok' : 'degraded', state, target: this.options.target.name,
      backlog_events: backlog.events, backlog_bytes: backlog.bytes, max_backlog_bytes: this.options.maxBacklogBytes,
      delivered_seq: this.position?.seq ?? 0, failures: this.failures,
      ...(this.position ? { chain: this.position.chain } : {}),
      ...(lastError !== undefined && state !== 'ok' ? { last_error: lastError } : {}),
      ...(this.lastDeliveredAt !== undefined ? { last_delivered_at: new Date(this.lastDeliveredAt).toISOString() } : {}),
    };
  }

  /** Delivers what the last checkpoint covers (gateway.stop's), for at most `ms`, then stops. */
  async drain(ms: number): Promise<void> {
    this.draining = true;
    this.wakeUp?.();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise<void>((resolve) => { timer = setTimeout(resolve, ms); })]);
    clearTimeout(timer);
    this.stopped = true;
    this.wakeUp?.();
    // A receiver that holds a batch without answering must not hold up the stop (nor undici's close after it).
    this.stopping.abort(new Error('gw is stopping'));
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const outcome = await this.step().catch((error: unknown) => this.noteProblem(error));
      if (this.draining && outcome !== 'sent') return;
      if (!this.stopped) await this.pause(outcome === 'sent' ? 0 : outcome === 'failed' ? this.retryDelay() : this.options.pollMs ?? 500);
    }
  }

  private pause(ms: number): Promise<void> {
    if (ms === 0) return new Promise((resolve) => setImmediate(resolve));
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.wakeUp = undefined; resolve(); }, ms);
      timer.unref();
      this.wakeUp = () => { clearTimeout(timer); this.wakeUp = undefined; resolve(); };
    });
  }

  private retryDelay(): number {
    const { minMs, maxMs } = this.options.retry ?? { minMs: 500, maxMs: 10_000 };
    return Math.min(maxMs, minMs * 2 ** Math.min(20, this.consecutiveFailures - 1));
  }

  private async step(): Promise<Outcome> {
    if (this.mismatch !== undefined) return 'idle';
    const checkpoint = await this.options.source.checkpoint();
    this.trailSize = await this.options.source.size();
    if (checkpoint === null || !isSignedCheckpoint(checkpoint)) return 'idle'; // a legacy checkpoint is replaced at the next commit
    this.head = checkpoint;
    const segment = await this.segmentFor(checkpoint);
    if (segment === null) return 'idle';
    const from = this.position!;
    this.segmentSize = segment.logFile === this.options.source.logFile ? this.trailSize : (await stat(segment.logFile).catch(() => ({ size: 0 }))).size;
    this.checkBound();
    const upTo = segment.head.seq;
    if (from.seq > upTo) throw new TrailMismatchError(`the chain ends at seq ${upTo}, before record ${from.seq}, which was delivered: the trail was cut`);
    if (from.seq === upTo) return 'idle';
    const slice = await this.readAfter(segment.logFile, from, upTo);
    const lines = sinkEventsOf(slice.entries, segment.head);
    try {
      await this.options.target.deliver(lines, this.stopping.signal);
    } catch (error) {
      return this.failDelivery(error);
    }
    await this.advance(slice.end, lines);
    return 'sent';
  }

  private async readAfter(logFile: string, from: SinkPosition, upTo: number): ReturnType<typeof readTrailSlice> {
    const batchBytes = this.options.batchBytes ?? 256 * 1024;
    try {
      return await readTrailSlice(logFile, from, upTo, batchBytes);
    } catch (error) {
      if (!(error instanceof TrailMismatchError) || from.seq === 0) throw error;
      // The saved offset may be stale (a cursor from another copy of the home): find the record by seq and hash.
      this.position = await locateRecord(logFile, from.chain, from.seq, from.hash);
      return readTrailSlice(logFile, this.position, upTo, batchBytes);
    }
  }

  private async advance(end: SinkPosition, lines: readonly string[]): Promise<void> {
    this.position = end;
    if (this.consecutiveFailures > 0) this.options.log(`audit sink ${this.options.target.name}: delivering again after ${this.consecutiveFailures} failed attempt(s)`);
    this.consecutiveFailures = 0;
    this.lastError = undefined;
    this.lastDeliveredAt = (this.options.now ?? Date.now)();
    this.options.hooks?.delivered(lines.length, lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0));
    this.checkBound();
    try {
      await writeSinkCursor(this.options.cursorFile, { v: 1, target: this.options.target.name, ...end });
    } catch (error) {
      // Delivery goes on; after a restart the batches since the last saved cursor are sent again (same uids).
      this.lastError = `cannot save the sink cursor: ${describe(error)}`;
      this.options.log(`audit sink: ${this.lastError}`);
    }
  }

  private failDelivery(error: unknown): Outcome {
    this.failures += 1;
    this.consecutiveFailures += 1;
    this.lastError = describe(error);
    this.options.hooks?.failed();
    if (this.consecutiveFailures === 1) this.options.log(`audit sink ${this.options.target.name}: delivery failed (${this.lastError}); retrying with backoff, the events wait in the trail`);
    return 'failed';
  }

  private noteProblem(error: unknown): Outcome {
    if (error instanceof TrailMismatchError) {
      this.mismatch = `${error.message}; delivery stopped (docs/audit-sink.md: a rewritten trail)`;
      this.options.log(`audit sink ${this.options.target.name}: ${this.mismatch}`);
      return 'idle';
    }
    return this.failDelivery(error);
  }

  private checkBound(): void {
    const over = this.backlog().bytes > this.options.maxBacklogBytes;
    if (over && !this.overBound) {
      this.options.hooks?.overBound();
      this.options.log(`audit sink ${this.options.target.name}: ${this.backlog().bytes} bytes of the trail are not delivered, beyond the bound of ${this.options.maxBacklogBytes} (audit_sink_max_backlog_bytes); nothing is dropped`);
    }
    this.overBound = over;
  }

  /**
   * The chain to send from and where in it (this.position): the cursor's chain until its last
   * record is delivered; a closed chain, once finished, hands over to the chain that opens from it.
   * Null while there is nothing to send yet (a rotation still opening the next chain).
   */
  private async segmentFor(live: SignedCheckpoint): Promise<ChainSegment | null> {
    let position = this.position ?? await this.initialPosition(live);
    for (;;) {
      const segment = await chainSegment(this.options.source, position.chain, live);
      if (segment === null) {
        this.options.log(`audit sink ${this.options.target.name}: the trail is a new chain; streaming it from record 1`);
        position = startOf(live.trail);
        continue;
      }
      this.position = position;
      this.segment = segment;
      if (!segment.closed || position.seq !== segment.head.seq) return segment;
      const next = await successorOf(this.options.source, position.chain, live);
      if (next === null) return null;
      this.options.log(`audit sink ${this.options.target.name}: chain ${position.chain.slice(0, 12)}… closed by gw audit rotate is delivered to its end; streaming chain ${next.slice(0, 12)}… from record 1`);
      position = startOf(next);
    }
  }

  /** At start: the cursor (or record 1 of the live chain), moved on to what the target already holds. */
  private async initialPosition(live: SignedCheckpoint): Promise<SinkPosition> {
    let position = (await this.savedPosition()) ?? startOf(live.trail);
    const segment = await chainSegment(this.options.source, position.chain, live);
    if (segment === null) return startOf(live.trail); // segmentFor says it is a new chain
    // Checked once at start, not per batch: the receiver holds up to here, so the trail must still hold it too.
    if (!(await endsAtRecord(segment.logFile, position))) position = await locateRecord(segment.logFile, position.chain, position.seq, position.hash);
    const held = await this.options.target.lastDelivered?.();
    // The target is written before the cursor, so what it holds is at or after the cursor (maybe in the next chain).
    if (held && (held.chain !== position.chain || held.seq > position.seq)) {
      const heldSegment = held.chain === position.chain ? segment : await chainSegment(this.options.source, held.chain, live);
      if (heldSegment) position = await locateRecord(heldSegment.logFile, held.chain, held.seq, held.hash);
    }
    return position;
  }

  private async savedPosition(): Promise<SinkPosition | null> {
    const cursor = await readSinkCursor(this.options.cursorFile).catch((error: unknown) => {
      this.options.log(`audit sink: ${describe(error)}; streaming the chain from record 1 (the receiver drops repeats by uid)`);
      return null;
    });
    if (cursor === null || cursor.target !== this.options.target.name) return null;
    return { chain: cursor.chain, seq: cursor.seq, hash: cursor.hash, offset: cursor.offset };
  }
}

function startOf(chain: string): SinkPosition {
  return { chain, seq: 0, hash: GENESIS_PREV, offset: 0 };
}
