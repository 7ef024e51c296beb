// A client that hangs up once its answer is complete (after finish_reason, message_delta,
// messageStop…) but before the provider's usage came (OpenAI sends it last, in its own chunk;
// Bedrock in the metadata frame after messageStop) would leave gw with no bill for a call that
// ran whole, hidden reasoning included. So the provider's stream is not stopped at that hang-up:
// gw keeps reading it, relaying nothing, for the usage, until it ends or a bound passes
// (DRAIN_MAX_MS, DRAIN_MAX_BYTES), and the record is priced from the provider's own figures
// (cost.source "usage_after_hangup"). A hang-up before the answer is complete still stops the
// provider at once (docs/budgets-cut-calls.md).
import type { CancelSignal } from '../../upstream/cancel-signal.js';
import { ClientCancel } from '../../upstream/cancel-signal.js';
import type { PipelineRequest } from '../pipeline-types.js';

/** How long gw keeps reading a provider's stream after the client left with its answer complete. */
const DRAIN_MAX_MS = 5_000;
/** How much of it gw reads at most (a usage chunk and the stream's end are a few hundred bytes). */
export const DRAIN_MAX_BYTES = 16 * 1024;

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
  return { ...request, signal: drain };
}

/** The drain of one relay: where the answer ends, and how each item left unrelayed is read for usage. */
export interface AfterAnswer<T> {
  cancel: DrainCancel;
  /** Reads an item the client will not get (its usage); returns its size in bytes. */
  read(item: T): number;
}

/**
 * The provider's stream (its chunks, events or frames), whose early close (the client left)
 * first reads the rest for usage when the client left with its answer complete. Without a drain
 * (a JSON call, no drainable signal) the source itself.
 */
export function drainAfterAnswer<T>(source: AsyncIterable<T>, drain: AfterAnswer<T> | null): AsyncIterable<T> {
  if (drain === null) return source;
  return {
    [Symbol.asyncIterator]() {
      const inner = source[Symbol.asyncIterator]();
      return {
        next: () => inner.next(),
        async return(value?: unknown) {
          if (drain.cancel.heldAtHangUp && !drain.cancel.aborted) await readRest(inner, drain);
          drain.cancel.finish();
          try { await inner.return?.(); } catch { /* the stopped stream's own error */ }
          return { done: true, value: value as T };
        },
      };
    },
  };
}

async function readRest<T>(inner: AsyncIterator<T>, drain: AfterAnswer<T>): Promise<void> {
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), DRAIN_MAX_MS); });
  try {
    while (bytes <= DRAIN_MAX_BYTES) {
      const next = inner.next();
      const result = await Promise.race([next, timeUp]);
      if (result === null) {
        next.catch(() => undefined);
        return;
      }
      if (result.done) return;
      bytes += drain.read(result.value);
    }
  } catch {
    // The provider's stream failed or was stopped at the time bound: what was read stands.
  } finally {
    clearTimeout(timer);
  }
}

type AnswerEvent = { event?: string; data: string };

/**
 * Whether an event ends the answer the client reads (the usage may still follow): Chat's and
 * Completions' finish_reason, Anthropic's message_delta (with stop_reason), Responses' text or
 * arguments done, GenAI's finishReason, Bedrock's messageStop. A substring test: no parse.
 */
export function endsAnswer(event: AnswerEvent): boolean {
  return namedEnd(event) || event.data.includes('"finish_reason":"') || event.data.includes('"finishReason"') || event.data.startsWith('{"stopReason"');
}

/** The test for one provider dialect (by its codec's name): one substring search per event at most, run on every event until the end. */
export function answerEndTest(codecName: string): (event: AnswerEvent) => boolean {
  switch (codecName) {
    case 'openai-chat': case 'openai-completions': return (event) => event.data.includes('"finish_reason":"');
    case 'google-genai': return (event) => event.data.includes('"finishReason"');
    case 'anthropic-messages': case 'openai-responses': case 'bedrock-converse': return namedEnd;
    default: return endsAnswer;
  }
}

function namedEnd(event: AnswerEvent): boolean {
  const name = event.event;
  return name === 'message_delta' || name === 'messageStop' || name === 'response.output_text.done' || name === 'response.function_call_arguments.done'
    || (name === undefined && event.data.startsWith('{"stopReason"'));
}
