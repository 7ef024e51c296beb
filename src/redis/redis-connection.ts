// The one Redis/Valkey connection an instance holds (gw serve --redis), shared by the
// rate limiter, the spend counters and the hub's login limits. While Redis is away every command
// fails at once (no offline queue, no retries per command), and a Redis that stops answering
// (frozen, not down) is found out by a circuit breaker (circuit-breaker.ts) rather than by each
// command's time-out: the callers decide what failing means (limits_when_redis_down for rate
// limits and budgets; per-instance counting for login limits).
import { Redis } from 'ioredis';
import { createCircuitBreaker, type CircuitBreaker } from './circuit-breaker.js';

export interface RedisTimings {
  /** A command unanswered this long while Redis answers nothing else opens the breaker. */
  tripAfterMs: number;
  probeEveryMs: number;
  /** A command unanswered this long fails alone even while others are answered. */
  giveUpAfterMs: number;
}

const REDIS_TIMINGS: RedisTimings = { tripAfterMs: 300, probeEveryMs: 200, giveUpAfterMs: 1_000 };

export interface RedisConnection {
  client: Redis;
  breaker: CircuitBreaker;
  /** Runs one command through the breaker, noting its outcome for /health. */
  run<T>(command: (client: Redis) => Promise<T>): Promise<T>;
  /**
   * The latest moment, on Redis's own clock (ms), at which a script sent now may still act: later,
   * its sender has given up on it (it was queued behind a freeze). -1 until Redis's clock is known.
   */
  deadline(): number;
  /** How many times the connection became ready: more than once means Redis may have come back empty. */
  readies(): number;
  /** Whether the last command (or the connection) worked; for /health. */
  health(): { reachable: boolean; problem?: string };
  /** A command that was answered but failed all the same (a script past its deadline): for /health. */
  noteFailure(error: unknown): void;
  close(): Promise<void>;
}

export function connectRedis(url: string, onError: (error: Error) => void, timings: RedisTimings = REDIS_TIMINGS): RedisConnection {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    // Commands issued in the same tick go out in one write: fewer syscalls per call under load.
    enableAutoPipelining: true,
    maxRetriesPerRequest: 0,
    // A backstop only (the breaker gives up first): frees commands stuck behind a long freeze.
    commandTimeout: timings.giveUpAfterMs * 2,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(100 * attempt, 2_000),
  });
  const breaker = createCircuitBreaker({ ...timings, probe: () => client.ping() });
  let problem: string | null = null;
  // Redis's clock minus ours (ms), measured with TIME when the connection is ready and whenever
  // the breaker closes; null until then.
  let offset: number | null = null;
  const measureClock = async (): Promise<void> => {
    const before = Date.now();
    const [seconds, micros] = await client.time();
    const after = Date.now();
    offset = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - (before + after) / 2;
  };
  client.on('error', (error: Error) => { problem = error.message; onError(error); });
  client.on('close', () => breaker.trip('connection closed'));
  let readies = 0;
  // 'ready' follows ioredis's ready check (INFO answered): Redis answers on the new connection.
  client.on('ready', () => {
    readies += 1;
    problem = null;
    if (breaker.isOpen()) breaker.close(); else measureClock().catch(() => undefined);
  });
  breaker.onClose(() => { problem = null; measureClock().catch(() => undefined); });
  const noteFailure = (error: unknown): void => { problem = error instanceof Error ? error.message : String(error); };
  return {
    client,
    breaker,
    async run(command) {
      try {
        const result = await breaker.run(() => command(client));
        problem = null;
        return result;
      } catch (error) {
        noteFailure(error);
        throw error;
      }
    },
    // giveUpAfterMs: past it the breaker has given the command up whatever else Redis answers (or sooner, if it opened).
    readies: () => readies,
    deadline: () => (offset === null ? -1 : Math.round(Date.now() + offset + timings.giveUpAfterMs)),
    health: () => {
      const open = breaker.problem();
      if (open !== null) return { reachable: false, problem: open };
      return problem === null ? { reachable: true } : { reachable: false, problem };
    },
    noteFailure,
    close: async () => { breaker.stop(); client.disconnect(); },
  };
}
