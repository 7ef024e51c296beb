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

/** What one witness has acknowledged of one trail (a chain: rotation starts a new trail at seq 1). */
interface Witnessed {
  seq: number;
  closed: boolean;
}

interface TargetState {
  target: WitnessTarget;
  /** At most one checkpoint per trail, oldest trail first: a closed chain's last checkpoint is never replaced by the next chain's. */
  pending: SignedCheckpoint[];
  witnessed: Map<string, Witnessed>;
  /** The trail of the newest checkpoint this witness acknowledged, for health. */
  lastTrail: string | null;
  error: string | null;
  sending: Promise<void> | null;
  timer: NodeJS.Timeout | undefined;
  retryMs: number;
  lastSentAt: number;
}

/** Whether `checkpoint` adds nothing to what `held` (same trail) already says; a closing checkpoint adds even at the same seq. */
function isCovered(held: { seq: number; closed: boolean }, checkpoint: SignedCheckpoint): boolean {
  if (held.closed) return true;
  return held.seq > checkpoint.seq || (held.seq === checkpoint.seq && checkpoint.closed !== true);
}

export class WitnessPusher {
  private readonly targets: TargetState[] = [];
  /** The newest checkpoint of each trail offered, oldest trail first, for a witness added later. */
  private readonly latest = new Map<string, SignedCheckpoint>();
  private stopped = false;
  private readonly intervalMs: number;

  constructor(private readonly options: WitnessPusherOptions = {}) {
    this.intervalMs = options.intervalMs ?? 5_000;
  }

  /** The writer's onCheckpoint: never throws, never waits. Legacy HMAC checkpoints are nothing a witness can check. */
  offer(checkpoint: Checkpoint): void {
    if (!isSignedCheckpoint(checkpoint) || this.stopped) return;
    this.remember(checkpoint);
    for (const state of this.targets) this.queue(state, checkpoint, false);
  }

  /**
   * Targets are added once the gateway knows them (the hub client exists after the trail opens); the newest checkpoints go out at once.
   * `lacking`: closed chains' checkpoints the start found this witness without (a `gw audit rotate` with no gw running that could
   * not deliver), sent before the live chain's, so the witness learns the old chain ended before it hears of the next.
   */
  addTarget(target: WitnessTarget, lacking: readonly SignedCheckpoint[] = []): void {
    const state: TargetState = {
      target, pending: [], witnessed: new Map(), lastTrail: null, error: null, sending: null, timer: undefined, retryMs: RETRY_MIN_MS, lastSentAt: -Infinity,
    };
    this.targets.push(state);
    for (const checkpoint of [...lacking, ...this.latest.values()]) this.queue(state, checkpoint, true);
  }

  health(): WitnessHealth | null {
    if (this.targets.length === 0) return null;
    const witnesses = this.targets.map((state) => ({
      name: state.target.name,
      witnessed_seq: state.lastTrail === null ? null : state.witnessed.get(state.lastTrail)?.seq ?? null,
      pending_seq: state.pending.at(-1)?.seq ?? null,
      ...(state.error ? { error: state.error } : {}),
    }));
    return { status: this.targets.some((state) => state.error !== null) ? 'degraded' : 'ok', witnesses };
  }

  /** At stop: sends what is pending now (gateway.stop's checkpoint, a closed chain's) within `timeoutMs`, then stops. */
  async drain(timeoutMs: number): Promise<void> {
    let expired = false;
    const flushOne = async (state: TargetState): Promise<void> => {
      // Each pending checkpoint is tried once: a witness that is down is not retried here.
      for (let tries = state.pending.length; tries > 0 && !expired; tries -= 1) {
        if (state.sending) await state.sending;
        clearTimeout(state.timer);
        state.timer = undefined;
        if (state.pending.length === 0 || this.stopped || expired) return;
        this.sendNow(state);
        await state.sending;
      }
    };
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.targets.map(flushOne)), new Promise((resolve) => { timer = setTimeout(resolve, timeoutMs); })]);
    expired = true;
    clearTimeout(timer);
    this.stop();
  }

  stop(): void {
    this.stopped = true;
    for (const state of this.targets) clearTimeout(state.timer);
  }

  private remember(checkpoint: SignedCheckpoint): void {
    const held = this.latest.get(checkpoint.trail);
    if (held !== undefined && isCovered({ seq: held.seq, closed: held.closed === true }, checkpoint)) return;
    this.latest.set(checkpoint.trail, checkpoint);
    // Only the open chain and the chains closed since start are kept: rotations are rare, and a witness added late needs only these.
    if (this.latest.size > 16) this.latest.delete(this.latest.keys().next().value as string);
  }

  private queue(state: TargetState, checkpoint: SignedCheckpoint, now: boolean): void {
    const witnessed = state.witnessed.get(checkpoint.trail);
    if (witnessed !== undefined && isCovered(witnessed, checkpoint)) return;
    const at = state.pending.findIndex((pending) => pending.trail === checkpoint.trail);
    if (at >= 0) {
      const pending = state.pending[at]!;
      if (isCovered({ seq: pending.seq, closed: pending.closed === true }, checkpoint)) return;
      state.pending[at] = checkpoint;
    } else state.pending.push(checkpoint);
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
    const checkpoint = state.pending[0];
    if (checkpoint === undefined) return;
    state.lastSentAt = performance.now();
    state.sending = this.deliver(state, checkpoint).finally(() => {
      state.sending = null;
      if (state.pending.length === 0 || state.timer || this.stopped) return;
      // The next trail's checkpoint follows a delivered one at once; the same trail's newer head waits out the interval.
      const next = state.error ? state.retryMs : state.pending[0]!.trail !== checkpoint.trail ? 0 : this.intervalMs;
      this.schedule(state, next);
    });
  }

  private settle(state: TargetState, checkpoint: SignedCheckpoint): void {
    const at = state.pending.indexOf(checkpoint);
    if (at >= 0) state.pending.splice(at, 1);
  }

  private async deliver(state: TargetState, checkpoint: SignedCheckpoint): Promise<void> {
    try {
      const answer = await state.target.send(checkpoint);
      this.settle(state, checkpoint);
      state.retryMs = RETRY_MIN_MS;
      if (answer.ok) {
        const held = state.witnessed.get(checkpoint.trail);
        state.witnessed.set(checkpoint.trail, { seq: Math.max(held?.seq ?? 0, checkpoint.seq), closed: (held?.closed ?? false) || checkpoint.closed === true });
        state.lastTrail = checkpoint.trail;
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
