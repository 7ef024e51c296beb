// Budget counters in Redis/Valkey (gw serve --redis), shared by every instance: the same
// reserve-then-settle as in process (src/spend/spend-counter.ts), each step one Lua script so a
// check and its add are atomic across instances. N instances therefore hold a hard budget as one
// does. Keys are `gw:spend:<budget>|<period start>`, integers of nano-USD, kept 40 days (longer
// than any period) from their last change. At start, and when Redis comes back after an outage
// (perhaps empty), each period's count is raised to at least what the audit trail recorded; never
// added to, so instances starting one after another do not count the trail twice.
//
// Redis unreachable: limits_when_redis_down decides, as for rate limits. `closed` refuses calls
// that a hard budget applies to (GW_ERR_LIMITS_UNAVAILABLE); `open` counts in this process for
// the outage (each instance on its own: the budget loosens N-fold, calls keep working).
import { GatewayError } from '../errors.js';
import { createMemorySpendCounter, type SpendCounter } from '../spend/spend-counter.js';
import type { RedisConnection } from './redis-connection.js';

const KEEP_MS = 40 * 24 * 3600 * 1000;

// KEYS[1]; ARGV: nanos, limit (-1: none), keep ms. 1 added, 0 refused.
const RESERVE = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local nanos = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
if limit >= 0 and current + nanos > limit then return 0 end
redis.call('SET', KEYS[1], string.format('%.0f', current + nanos), 'PX', ARGV[3])
return 1
`;

// KEYS[1]; ARGV: reserved, actual, keep ms. Never below 0.
const SETTLE = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local next = math.max(0, current - tonumber(ARGV[1]) + tonumber(ARGV[2]))
redis.call('SET', KEYS[1], string.format('%.0f', next), 'PX', ARGV[3])
return 1
`;

// KEYS[1]; ARGV: nanos, keep ms. The count becomes at least what the trail recorded: a count
// that holds it already (other instances, calls since) is left alone; one that lost it is raised.
const SEED = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local nanos = tonumber(ARGV[1])
if current < nanos then redis.call('SET', KEYS[1], string.format('%.0f', nanos), 'PX', ARGV[2]) end
return 1
`;

type Commands = {
  gwSpendSeed(key: string, nanos: number, keepMs: number): Promise<number>;
  gwSpendReserve(key: string, nanos: number, limit: number, keepMs: number): Promise<number>;
  gwSpendSettle(key: string, reserved: number, actual: number, keepMs: number): Promise<number>;
};

/** The longest a reservation waits for the counts to be seeded again after Redis comes back. */
const SEED_WAIT_MS = 5_000;

/** `failMode` is read per call: the setting limits_when_redis_down. */
export function createRedisSpendCounter(connection: RedisConnection, failMode: () => 'open' | 'closed'): SpendCounter {
  const redis = connection.client;
  redis.defineCommand('gwSpendReserve', { numberOfKeys: 1, lua: RESERVE });
  redis.defineCommand('gwSpendSettle', { numberOfKeys: 1, lua: SETTLE });
  redis.defineCommand('gwSpendSeed', { numberOfKeys: 1, lua: SEED });
  // A Redis that comes back may have come back empty (no persistence): counts are seeded again.
  const lostListeners: Array<() => Promise<void> | void> = [];
  let readies = 0;
  // While the counts are seeded again, reservations wait for it (seeding reads the trail: ms).
  let seeding: Promise<unknown> | null = null;
  redis.on('ready', () => {
    readies += 1;
    if (readies <= 1 || lostListeners.length === 0) return;
    // Bounded: a trail that cannot be read within SEED_WAIT_MS lets calls through (it was logged).
    const run: Promise<unknown> = Promise.race([
      Promise.allSettled(lostListeners.map(async (listener) => listener())),
      new Promise((resolve) => setTimeout(resolve, SEED_WAIT_MS).unref()),
    ]).finally(() => { if (seeding === run) seeding = null; });
    seeding = run;
  });
  const commands = redis as unknown as Commands;
  const local = createMemorySpendCounter();
  const redisKey = (key: string) => `gw:spend:${key}`;
  // Reservations made locally during an outage are settled locally too. Counted per key, not per
  // call: a Redis hold settled after the outage began may be settled locally instead (off by the
  // difference between two calls' holds, for calls that straddle the outage).
  const heldLocally = new Map<string, number>();

  const fallBack = (error: unknown): void => {
    connection.noteFailure(error);
    if (failMode() === 'closed') {
      throw new GatewayError('GW_ERR_LIMITS_UNAVAILABLE', { message: 'Spend budgets are kept in Redis, which does not answer (limits_when_redis_down=closed); retry shortly.', headers: { 'retry-after': '1' } });
    }
  };

  return {
    async reserve(key, nanos, limit) {
      if (seeding) await seeding;
      try {
        const added = await commands.gwSpendReserve(redisKey(key), nanos, limit ?? -1, KEEP_MS);
        connection.noteSuccess();
        return added === 1;
      } catch (error) {
        fallBack(error);
        heldLocally.set(key, (heldLocally.get(key) ?? 0) + 1);
        return local.reserve(key, nanos, limit);
      }
    },
    async settle(key, reserved, actual) {
      const outstanding = heldLocally.get(key) ?? 0;
      if (outstanding > 0) {
        if (outstanding === 1) heldLocally.delete(key); else heldLocally.set(key, outstanding - 1);
        return local.settle(key, reserved, actual);
      }
      try {
        await commands.gwSpendSettle(redisKey(key), reserved, actual, KEEP_MS);
        connection.noteSuccess();
      } catch (error) {
        // The hold stays in Redis until the key expires: a budget errs towards refusing.
        connection.noteFailure(error);
      }
    },
    async spent(key) {
      try {
        const value = await redis.get(redisKey(key));
        connection.noteSuccess();
        return Number(value ?? 0);
      } catch (error) {
        fallBack(error);
        return local.spent(key);
      }
    },
    async seed(key, nanos) {
      try {
        // Instances starting one after another, or seeding again after a reconnection, add
        // nothing to a count that already holds the trail.
        await commands.gwSpendSeed(redisKey(key), nanos, KEEP_MS);
        connection.noteSuccess();
      } catch (error) {
        connection.noteFailure(error);
        await local.seed(key, nanos);
      }
    },
    onLost(listener) {
      lostListeners.push(listener);
    },
  };
}
