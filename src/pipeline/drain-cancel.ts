// The upstream call's cancel signal for a streamed call, which the relay may hold open after the
// client's answer is complete so the provider's usage is still read (relay/drain-after-answer.ts).
// It lives beside request-trace.ts, which carries it from the attempt to the relay.
import type { CancelSignal } from '../upstream/cancel-signal.js';
import { ClientCancel } from '../upstream/cancel-signal.js';
import { copyWith } from '../copy-with.js';
import type { PipelineRequest } from './pipeline-types.js';

/** How long gw keeps reading a provider's stream after the client left with its answer complete. */
export const DRAIN_MAX_MS = 5_000;

/**
 * The upstream call's cancel signal: it follows the client's, except that once the relay saw the
 * answer end (holdOpen) a hang-up stops the provider only after DRAIN_MAX_MS, or when the drain
 * is over (finish), whichever comes first.
 */
export class DrainCancel implements CancelSignal {
  /** The client left while the stream was held open: what the drain reads is after the hang-up. */
  heldAtHangUp = false;
  private readonly own = new ClientCancel();
  private holding = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly client: CancelSignal) {
    if (client.aborted) this.own.abort(client.reason);
    else client.addEventListener('abort', () => this.onClientGone(), { once: true });
  }

  get aborted(): boolean { return this.own.aborted; }

  get reason(): unknown { return this.own.reason; }

  addEventListener(type: 'abort', listener: () => void): void { this.own.addEventListener(type, listener); }

  removeEventListener(type: 'abort', listener: () => void): void { this.own.removeEventListener(type, listener); }

  /** The answer is complete: a hang-up from now on lets the usage be read. */
  holdOpen(): void {
    if (!this.client.aborted) this.holding = true;
  }

  /** The drain is over: the provider's stream, if it still runs, is stopped. */
  finish(): void {
    clearTimeout(this.timer);
    this.own.abort(this.client.reason);
  }

  private onClientGone(): void {
    if (!this.holding) return this.own.abort(this.client.reason);
    this.heldAtHangUp = true;
    this.timer = setTimeout(() => this.own.abort(this.client.reason), DRAIN_MAX_MS);
    this.timer.unref();
  }
}

/** A streamed call's attempts get a drainable signal (noted on the trace for the relay); any other call, the client's. */
export function withDrainableSignal(request: PipelineRequest, stream: boolean, trace: { noteUpstreamDrain(drain: DrainCancel): void }): PipelineRequest {
  if (!stream) return request;
  const drain = new DrainCancel(request.signal);
  trace.noteUpstreamDrain(drain);
  return copyWith(request, { signal: drain });
}
