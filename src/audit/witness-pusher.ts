// Sends each new signed checkpoint to the trail's witnesses, off the request path: the
// writer hands a checkpoint over and returns at once; each witness gets the newest one
// (a newer checkpoint vouches for every record before it), at most every few seconds,
// retried with backoff while the witness is down, and reported in /health. A witness
// that refuses a checkpoint (another key already pinned for the trail) is not retried.
import { isSignedCheckpoint, type Checkpoint, type SignedCheckpoint } from './checkpoint.js';
import type { Cosignature } from './cosignature.js';

/** A witness with a key of its own answers an accepted checkpoint with its cosignature. */
export type WitnessAnswer = { ok: true; cosignature?: Cosignature } | { ok: false; refused: string };

export interface WitnessTarget {
  /** For /health and logs: `hub https://…`, `file /mnt/…`, `http https://…`. Never a credential. */
  name: string;
  /** Resolves with the witness's answer; throws when it could not be reached (retried). */
  send(checkpoint: SignedCheckpoint): Promise<WitnessAnswer>;
}

export interface WitnessHealth {
  status: 'ok' | 'degraded';
  witnesses: Array<{ name: string; witnessed_seq: number | null; pending_seq: number | null; error?: string }>;
}

export interface WitnessPusherOptions {
  /** Shortest wait between two sends to one witness (default 5 s). */
  intervalMs?: number;
  log?: (message: string) => void;
  /** A witness's cosignature of a checkpoint it accepted, to keep beside the trail (cosignature-keeper.ts). */
  onCosignature?: (checkpoint: SignedCheckpoint, cosignature: Cosignature, witness: string) => void;
}

const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 60_000;

interface TargetState {
  target: WitnessTarget;
  pending: SignedCheckpoint | null;
  witnessedSeq: number | null;
  error: string | null;
  sending: Promise<void> | null;
  timer: NodeJS.Timeout | undefined;
  retryMs: number;
  lastSentAt: number;
}

export class WitnessPusher {
  private readonly targets: TargetState[] = [];
  private latest: SignedCheckpoint | null = null;
  private stopped = false;
  private readonly intervalMs: number;

  constructor(private readonly options: WitnessPusherOptions = {}) {
    this.intervalMs = options.intervalMs ?? 5_000;
  }

  /** The writer's onCheckpoint: never throws, never waits. Legacy HMAC checkpoints are nothing a witness can check. */
  offer(checkpoint: Checkpoint): void {
    if (!isSignedCheckpoint(checkpoint) || this.stopped) return;
    this.latest = checkpoint;
    for (const state of this.targets) this.queue(state, checkpoint, false);
  }

  /** Targets are added once the gateway knows them (the hub client exists after the trail opens); the newest checkpoint goes out at once. */
  addTarget(target: WitnessTarget): void {
    const state: TargetState = { target, pending: null, witnessedSeq: null, error: null, sending: null, timer: undefined, retryMs: RETRY_MIN_MS, lastSentAt: -Infinity };
    this.targets.push(state);
    if (this.latest) this.queue(state, this.latest, true);
  }

  health(): WitnessHealth | null {
    if (this.targets.length === 0) return null;
    const witnesses = this.targets.map((state) => ({
      name: state.target.name, witnessed_seq: state.witnessedSeq, pending_seq: state.pending?.seq ?? null,
      ...(state.error ? { error: state.error } : {}),
    }));
    return { status: this.targets.some((state) => state.error !== null) ? 'degraded' : 'ok', witnesses };
  }

  /** At stop: sends what is pending now (gateway.stop's checkpoint) once, within `timeoutMs`, then stops. */
  async drain(timeoutMs: number): Promise<void> {
    const flushOne = async (state: TargetState): Promise<void> => {
      if (state.sending) await state.sending;
      clearTimeout(state.timer);
      state.timer = undefined;
      if (state.pending === null || this.stopped) return;
      this.sendNow(state);
      await state.sending;
    };
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.targets.map(flushOne)), new Promise((resolve) => { timer = setTimeout(resolve, timeoutMs); })]);
    clearTimeout(timer);
    this.stop();
  }

  stop(): void {
    this.stopped = true;
    for (const state of this.targets) clearTimeout(state.timer);
  }

  private queue(state: TargetState, checkpoint: SignedCheckpoint, now: boolean): void {
    // A closing checkpoint (gw audit rotate) goes out even at a seq already sent: the witness must learn the chain ended on purpose.
    const behind = (seq: number) => seq > checkpoint.seq || (seq === checkpoint.seq && checkpoint.closed !== true);
    if (state.pending !== null && behind(state.pending.seq)) return;
    if (state.witnessedSeq !== null && behind(state.witnessedSeq)) return;
    state.pending = checkpoint;
    if (state.sending || state.timer) return;
    const wait = now ? 0 : state.lastSentAt + this.intervalMs - performance.now();
    if (wait <= 0) this.sendNow(state);
    else this.schedule(state, wait);
  }

  private schedule(state: TargetState, wait: number): void {
    if (this.stopped) return;
    state.timer = setTimeout(() => { state.timer = undefined; this.sendNow(state); }, wait);
    state.timer.unref();
  }

  private sendNow(state: TargetState): void {
    const checkpoint = state.pending;
    if (checkpoint === null) return;
    state.lastSentAt = performance.now();
    state.sending = this.deliver(state, checkpoint).finally(() => {
      state.sending = null;
      if (state.pending && !state.timer && !this.stopped) this.schedule(state, state.error ? state.retryMs : this.intervalMs);
    });
  }

  private async deliver(state: TargetState, checkpoint: SignedCheckpoint): Promise<void> {
    try {
      const answer = await state.target.send(checkpoint);
      if (state.pending === checkpoint) state.pending = null;
      state.retryMs = RETRY_MIN_MS;
      if (answer.ok) {
        state.witnessedSeq = Math.max(state.witnessedSeq ?? 0, checkpoint.seq);
        state.error = null;
        if (answer.cosignature) this.options.onCosignature?.(checkpoint, answer.cosignature, state.target.name);
      } else {
        state.error = `refused checkpoint ${checkpoint.seq}: ${answer.refused}`;
        this.options.log?.(`audit witness ${state.target.name} ${state.error}`);
      }
    } catch (error) {
      const first = state.error === null;
      state.error = `unreachable: ${error instanceof Error ? error.message : String(error)}`;
      if (first) this.options.log?.(`audit witness ${state.target.name} ${state.error}; retrying`);
      state.retryMs = Math.min(state.retryMs * 2, RETRY_MAX_MS);
    }
  }
}
