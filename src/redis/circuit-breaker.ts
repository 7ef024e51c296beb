// A circuit breaker in front of Redis (issue 26). A Redis that is down fails each command at once,
// but one that is frozen (SIGSTOP, a stalled host, a full pause) answers nothing: without a
// breaker every call waited on its own command timeout. Here the first command that fails, or that
// goes unanswered for `tripAfterMs` while nothing else is answered either, opens the breaker:
// every command in flight is given up at that moment and every new one fails at once, so the
// caller's fail mode (limits_when_redis_down) applies without waiting. While open, one probe at a
// time (PING) checks whether Redis answers again; its answer closes the breaker.
//
// "Nothing else answered either" keeps a slow but working Redis (a loaded machine) closed: answers
// still arrive, just late; a frozen one sends none. A single command unanswered for `giveUpAfterMs`
// while others are answered fails alone (as a command time-out would), without opening the breaker.

export class RedisUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedisUnavailableError';
  }
}

export interface BreakerOptions {
  /** A command unanswered this long, with no other answer meanwhile, opens the breaker. */
  tripAfterMs: number;
  /** While open: how often a probe is sent (one at a time). */
  probeEveryMs: number;
  /** A command unanswered this long fails alone, even while others are answered. */
  giveUpAfterMs: number;
  probe(): Promise<unknown>;
  now?: () => number;
}

export interface CircuitBreaker {
  /** Runs a command unless the breaker is open; fails it when the breaker opens while it runs. */
  run<T>(command: () => Promise<T>): Promise<T>;
  isOpen(): boolean;
  /** Why it is open (for /health), or null. */
  problem(): string | null;
  /** Opens the breaker from outside (a connection error reported by the client). */
  trip(reason: string): void;
  /** Closes it from outside: a new connection has just been answered (what a probe would find a moment later). */
  close(): void;
  onOpen(listener: () => void): void;
  onClose(listener: () => void): void;
  stop(): void;
}

interface InFlight { fail(error: Error): void }

export function createCircuitBreaker(options: BreakerOptions): CircuitBreaker {
  const now = options.now ?? Date.now;
  const inFlight = new Set<InFlight>();
  const openListeners: Array<() => void> = [];
  const closeListeners: Array<() => void> = [];
  let openReason: string | null = null;
  let lastAnswerAt = now();
  let probeTimer: NodeJS.Timeout | null = null;
  let probing = false;
  let stopped = false;

  const trip = (reason: string): void => {
    if (openReason !== null || stopped) return;
    openReason = reason;
    const error = new RedisUnavailableError(`redis: ${reason}`);
    for (const command of [...inFlight]) command.fail(error);
    for (const listener of openListeners) listener();
    scheduleProbe();
  };

  const close = (): void => {
    if (openReason === null) return;
    openReason = null;
    lastAnswerAt = now();
    for (const listener of closeListeners) listener();
  };

  function scheduleProbe(): void {
    if (probeTimer !== null || stopped) return;
    probeTimer = setTimeout(() => {
      probeTimer = null;
      if (openReason === null || probing) return;
      probing = true;
      options.probe().then(close, () => undefined).finally(() => {
        probing = false;
        if (openReason !== null) scheduleProbe();
      });
    }, options.probeEveryMs);
    probeTimer.unref();
  }

  const run = <T>(command: () => Promise<T>): Promise<T> => {
    if (openReason !== null) return Promise.reject(new RedisUnavailableError(`redis: ${openReason}`));
    return new Promise<T>((resolve, reject) => {
      const startedAt = now();
      let timer: NodeJS.Timeout | null = null;
      const entry: InFlight = { fail: (error) => finish(() => reject(error)) };
      function finish(settle: () => void): void {
        if (!inFlight.delete(entry)) return;
        if (timer !== null) clearTimeout(timer);
        settle();
      }
      // The timer fires in the timers phase; setImmediate runs after the poll phase, so an answer
      // already waiting in the socket is read before the verdict (a busy event loop is not a frozen Redis).
      const watch = (delay: number): void => {
        timer = setTimeout(() => setImmediate(() => {
          if (!inFlight.has(entry)) return;
          const waited = now() - startedAt;
          if (waited >= options.giveUpAfterMs) return entry.fail(new RedisUnavailableError(`redis: no answer within ${options.giveUpAfterMs} ms`));
          const silentFor = now() - lastAnswerAt;
          if (silentFor >= options.tripAfterMs) return trip(`no answer for ${options.tripAfterMs} ms`);
          watch(Math.min(options.tripAfterMs - silentFor, options.giveUpAfterMs - waited));
        }), delay);
        timer.unref();
      };
      inFlight.add(entry);
      watch(options.tripAfterMs);
      command().then(
        (value) => { lastAnswerAt = now(); finish(() => resolve(value)); },
        (error: unknown) => {
          const failure = error instanceof Error ? error : new Error(String(error));
          // An error reply (a script's) is an answer: Redis works; the caller handles it.
          if (failure.name === 'ReplyError') lastAnswerAt = now();
          else if (inFlight.has(entry)) trip(failure.message);
          finish(() => reject(failure));
        },
      );
    });
  };

  return {
    run,
    isOpen: () => openReason !== null,
    problem: () => openReason,
    trip,
    close,
    onOpen: (listener) => { openListeners.push(listener); },
    onClose: (listener) => { closeListeners.push(listener); },
    stop() {
      stopped = true;
      if (probeTimer !== null) clearTimeout(probeTimer);
    },
  };
}
