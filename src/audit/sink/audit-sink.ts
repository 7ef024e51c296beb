// The live audit sink (docs/audit-sink.md): streams the trail to a SIEM as OCSF event lines,
// off the request path. The trail is the queue: a loop reads what the latest signed checkpoint
// covers after the cursor, sends it as one batch, and advances the cursor only once the
// receiver acknowledged it. A receiver that is down costs nothing but a growing backlog (in the
// trail, never dropped); a crash costs at most a repeat of the unacknowledged batch, with the
// same event uids (gw:<chain>:<seq>), which the receiver drops. Across `gw audit rotate` the
// sink finishes the closed chain (moved to audit/chains/) before it starts the next one.
import { TrailMismatchError } from './read-trail-slice.js';
import { readSinkCursor, writeSinkCursor, type SinkPosition } from './sink-cursor.js';
import { sinkEventsOf } from './sink-events.js';
import type { FileTrailSource } from './file-trail-source.js';
import { FileSinkQueue } from './file-sink-queue.js';
import type { SinkQueue } from './sink-queue.js';

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
  /** The home's file trail, or another queue of chains (a PostgreSQL store's). */
  source: FileTrailSource | SinkQueue;
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
  private readonly queue: SinkQueue;
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

  constructor(private readonly options: AuditSinkOptions) {
    const { source, target } = options;
    const log = (message: string) => options.log(`audit sink ${target.name}: ${message}`);
    this.queue = 'logFile' in source ? new FileSinkQueue(source, target.lastDelivered?.bind(target), log) : source;
  }

  start(): void {
    this.running = this.run();
  }

  backlog(): { events: number; bytes: number } {
    return this.queue.backlog(this.position);
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
    await this.queue.close?.().catch(() => undefined);
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
    const next = await this.queue.next(this.position, this.position === null ? await this.savedPosition() : null);
    if (next === null) {
      this.checkBound();
      return 'idle';
    }
    const from = next.position;
    this.position = from;
    this.checkBound();
    const upTo = next.head.seq;
    if (from.seq > upTo) throw new TrailMismatchError(`the chain ends at seq ${upTo}, before record ${from.seq}, which was delivered: the trail was cut`);
    if (from.seq === upTo) return 'idle';
    const slice = await this.queue.read(from, upTo, this.options.batchBytes ?? 256 * 1024);
    const lines = sinkEventsOf(slice.entries, next.head);
    try {
      await this.options.target.deliver(lines, this.stopping.signal);
    } catch (error) {
      return this.failDelivery(error);
    }
    await this.advance(slice.end, lines);
    return 'sent';
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

  private async savedPosition(): Promise<SinkPosition | null> {
    const cursor = await readSinkCursor(this.options.cursorFile).catch((error: unknown) => {
      this.options.log(`audit sink: ${describe(error)}; streaming the chain from record 1 (the receiver drops repeats by uid)`);
      return null;
    });
    if (cursor === null || cursor.target !== this.options.target.name) return null;
    return { chain: cursor.chain, seq: cursor.seq, hash: cursor.hash, offset: cursor.offset };
  }
}

