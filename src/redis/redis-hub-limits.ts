// The hub's device-login limits in Redis, so they hold across instances: new codes and
// wrong user codes per address (RFC 8628 §5.1), and when each device_code was last
// polled (§3.5 slow_down), whichever instance the poll reaches. If Redis cannot answer,
// each instance counts on its own for that call: the limits loosen N-fold, logins keep working.
import { createAttemptLimiter, createPollClock, type AttemptLimiter, type PollClock } from '../hub/attempt-limiter.js';
import { NEW_CODE_LIMIT, NEW_CODE_WINDOW_MS, WRONG_CODE_LIMIT, WRONG_CODE_WINDOW_MS, type HubLimits } from '../hub/hub-context.js';
import type { RedisConnection } from './redis-connection.js';

const POLL_MEMORY_MS = 15 * 60_000;

function sharedAttempts(connection: RedisConnection, name: string, max: number, windowMs: number, now: () => number): AttemptLimiter {
  const local = createAttemptLimiter({ max, windowMs, now });
  const key = (address: string) => `gw:hub:${name}:${address}`;
  return {
    async isBlocked(address) {
      try {
        const used = Number(await connection.run((client) => client.get(key(address))) ?? 0);
        return used >= max;
      } catch {
        return local.isBlocked(address);
      }
    },
    async count(address) {
      try {
        // The window starts at the first attempt: the expiry is set only when the key is new.
        await connection.run((client) => client.multi().incr(key(address)).pexpire(key(address), windowMs, 'NX').exec());
      } catch {
        local.count(address);
      }
    },
  };
}

function sharedPolls(connection: RedisConnection): PollClock {
  const local = createPollClock();
  return {
    async swap(hash, now) {
      try {
        const previous = await connection.run((client) => client.set(`gw:hub:poll:${hash}`, String(now), 'PX', POLL_MEMORY_MS, 'GET'));
        return previous === null ? undefined : Number(previous);
      } catch {
        return local.swap(hash, now);
      }
    },
    forget(hash) {
      local.forget(hash);
      connection.client.del(`gw:hub:poll:${hash}`).catch(() => undefined);
    },
  };
}

export function createRedisHubLimits(connection: RedisConnection, now: () => number): HubLimits {
  return {
    lastPoll: sharedPolls(connection),
    wrongCodes: sharedAttempts(connection, 'wrong-codes', WRONG_CODE_LIMIT, WRONG_CODE_WINDOW_MS, now),
    newCodes: sharedAttempts(connection, 'new-codes', NEW_CODE_LIMIT, NEW_CODE_WINDOW_MS, now),
  };
}
