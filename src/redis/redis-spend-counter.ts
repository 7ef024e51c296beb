// Budget counters in Redis/Valkey (gw serve --redis), shared by every instance: the same
// reserve-then-settle as in process (src/spend/spend-counter.ts), each step one Lua script
// (redis-spend-scripts.ts) so a check and its add are atomic across instances. N instances
// therefore hold a hard budget as one does.
//
// A reservation carries its call's id and a deadline on Redis's clock. One whose answer never came
// (Redis froze; the breaker gave up on it) is settled by id all the same (replaced by its call's
// cost, or released), and does nothing if Redis only reaches it after its deadline or after its
// call settled. Settles that could not be sent are kept and sent again once Redis answers (settling
// by id is idempotent). After every outage, and at
// start, each counter is reconciled with the trail both ways (src/gateway/budget-counters.ts).
//
// Redis unreachable or frozen: limits_when_redis_down decides, as for rate limits. `closed`
// refuses calls that a hard budget applies to (GW_ERR_LIMITS_UNAVAILABLE); `open` counts in this
// process for the outage (each instance on its own: the budget loosens N-fold, calls keep working).
import { GatewayError } from '../errors.js';
import { createMemorySpendCounter, type SpendCounter, type SpendReconciler } from '../spend/spend-counter.js';
import { RedisUnavailableError } from './circuit-breaker.js';
import type { RedisConnection } from './redis-connection.js';
import { keysOf, RECONCILE, RESERVE, SEED, SETTLE, SWEEP } from './redis-spend-scripts.js';

type Commands = {
  gwSpendReserve(...args: Array<string | number>): Promise<number>;
  gwSpendSettle(...args: Array<string | number>): Promise<number>;
  gwSpendSeed(...args: Array<string | number>): Promise<number>;
  gwSpendSweep(...args: Array<string | number>): Promise<string>;
  gwSpendReconcile(...args: Array<string | number>): Promise<[string, string]>;
};

/** The longest reservations wait for the counts to be reconciled after a reconnection (Redis may have come back empty). */
const RECONCILE_WAIT_MS = 5_000;
/** Settles kept for sending again at most (beyond: reconciliation and hold expiry put the count right). */
const MAX_PENDING = 100_000;
/** Expired holds (their instance died mid-call) are swept this often. */
const SWEEP_EVERY_MS = 60_000;
/** A settled call's trail record is readable within this (the trail's group commit takes ms). */
const RECENT_MS = 60_000;

/** `failMode` is read per call: the setting limits_when_redis_down. */
export function createRedisSpendCounter(connection: RedisConnection, failMode: () => 'open' | 'closed'): SpendCounter & { close(): void } {
  const commands = defineCommands(connection);
  const local = createMemorySpendCounter();
  // `key\ncall id` of calls held in this process during an outage: settled here too.
  const heldLocally = new Set<string>();
  // Settles (and releases of reserves whose answer never came) to send once Redis answers.
  const pending = new Map<string, { key: string; callId: string; actual: number }>();
  const sweeper = sweepExpiredHolds(connection, commands);
  const recovery = createRecovery(connection, async () => flushPending(connection, commands, pending));

  const unavailable = (error: unknown): void => {
    connection.noteFailure(error);
    if (failMode() === 'closed') {
      throw new GatewayError('GW_ERR_LIMITS_UNAVAILABLE', { message: 'Spend budgets are kept in Redis, which does not answer (limits_when_redis_down=closed); retry shortly.', headers: { 'retry-after': '1' } });
    }
  };
  const keep = (key: string, callId: string, actual: number): void => {
    if (pending.size < MAX_PENDING) pending.set(`${key}\n${callId}`, { key, callId, actual });
  };
  return {
    async reserve(key, callId, nanos, limit) {
      // No await unless a reconciliation after a reconnection is under way (the common path stays one await).
      const reconciling = recovery.reconciling();
      if (reconciling) await reconciling;
      try {
        const held = await connection.run(() => commands.gwSpendReserve(...keysOf(key), callId, nanos, limit ?? -1, connection.deadline()));
        if (held === 1 || held === 0) {
          sweeper.touch(key);
          return held === 1;
        }
        // Redis reached it too late (or after its call settled): it held nothing.
        throw new RedisUnavailableError('redis: the reservation reached Redis after its deadline');
      } catch (error) {
        // It may still run (queued behind a freeze): released by id once Redis answers (or
        // replaced by the call's cost when it settles).
        keep(key, callId, 0);
        unavailable(error);
        heldLocally.add(`${key}\n${callId}`);
        return local.reserve(key, callId, nanos, limit);
      }
    },
    async settle(key, callId, actual) {
      // Held in this process (Redis did not answer its reserve): settled here, and in Redis by id
      // too, so the shared count gets the cost and a reserve that ran late there is replaced.
      if (heldLocally.delete(`${key}\n${callId}`)) await local.settle(key, callId, actual);
      try {
        await connection.run(() => commands.gwSpendSettle(...keysOf(key), callId, actual));
        pending.delete(`${key}\n${callId}`);
      } catch {
        // Sent again when Redis answers; until then the hold errs towards refusing.
        keep(key, callId, actual);
      }
    },
    async spent(key) {
      try {
        return Number(await connection.run((client) => client.get(`gw:spend:${key}`)) ?? 0);
      } catch (error) {
        unavailable(error);
        return local.spent(key);
      }
    },
    async seed(key, nanos) {
      try {
        await connection.run(() => commands.gwSpendSeed(...keysOf(key), nanos));
      } catch {
        await local.seed(key, nanos);
      }
    },
    reconciler: reconcilerOf(connection, commands, recovery),
    close: sweeper.stop,
  };
}

function defineCommands(connection: RedisConnection): Commands {
  for (const [name, lua] of [['gwSpendReserve', RESERVE], ['gwSpendSettle', SETTLE], ['gwSpendSeed', SEED], ['gwSpendSweep', SWEEP], ['gwSpendReconcile', RECONCILE]] as const) {
    connection.client.defineCommand(name, { numberOfKeys: 4, lua });
  }
  return connection.client as unknown as Commands;
}

/** Every SWEEP_EVERY_MS, the counters this instance used since lose their expired holds. */
function sweepExpiredHolds(connection: RedisConnection, commands: Commands): { touch: (key: string) => void; stop: () => void } {
  const touched = new Set<string>();
  const timer = setInterval(() => {
    for (const key of touched) void connection.run(() => commands.gwSpendSweep(...keysOf(key))).catch(() => undefined);
    touched.clear();
  }, SWEEP_EVERY_MS);
  timer.unref();
  return { touch: (key) => { touched.add(key); }, stop: () => clearInterval(timer) };
}

function reconcilerOf(connection: RedisConnection, commands: Commands, recovery: Recovery): SpendReconciler {
  return {
    onRecovered: recovery.onRecovered,
    recentMs: RECENT_MS,
    async mark() {
      const [seconds, micros] = await connection.run((client) => client.time());
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    },
    async reconcile(key, recordedNanos, recordedIds, since) {
      const [before, after] = await connection.run(() => commands.gwSpendReconcile(...keysOf(key), recordedNanos, since, ...recordedIds));
      return { before: Number(before), after: Number(after) };
    },
  };
}

/** Sends the kept settles; those that fail again stay. */
async function flushPending(connection: RedisConnection, commands: Commands, pending: Map<string, { key: string; callId: string; actual: number }>): Promise<boolean> {
  for (const [id, entry] of [...pending]) {
    try {
      await connection.run(() => commands.gwSpendSettle(...keysOf(entry.key), entry.callId, entry.actual));
      pending.delete(id);
    } catch {
      return false;
    }
  }
  return true;
}

interface Recovery {
  onRecovered: (listener: () => Promise<void>) => void;
  /** After a reconnection (Redis may have come back empty), reservations wait (bounded) for the reconciliation: this, or null. */
  reconciling(): Promise<unknown> | null;
}

/**
 * When the breaker closes after an outage: kept settles first, then the listeners (the trail
 * reconciliation), one run at a time; an outage during a run runs it again afterwards.
 */
function createRecovery(connection: RedisConnection, flush: () => Promise<boolean>): Recovery {
  const listeners: Array<() => Promise<void>> = [];
  let readiesSeen = 1;
  let running: Promise<void> | null = null;
  let again = false;
  let waiting: Promise<unknown> | null = null;
  const runOnce = async (): Promise<void> => {
    do {
      again = false;
      if (!(await flush())) return;
      await Promise.allSettled(listeners.map(async (listener) => listener()));
    } while (again);
  };
  const start = (): void => {
    if (running) again = true;
    else running = runOnce().finally(() => { running = null; });
    const readies = connection.readies();
    if (readies > readiesSeen) {
      readiesSeen = readies;
      const bounded = Promise.race([running, new Promise((resolve) => setTimeout(resolve, RECONCILE_WAIT_MS).unref())]).finally(() => { if (waiting === bounded) waiting = null; });
      waiting = bounded;
    }
  };
  connection.breaker.onClose(start);
  return {
    onRecovered: (listener) => { listeners.push(listener); },
    reconciling: () => waiting,
  };
}
