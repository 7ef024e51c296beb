// Counts attempts per key (an IP address) in a fixed window, with a bounded map:
// RFC 8628 §5.1 asks for user-code guesses to be rate-limited, and device-code
// creation is limited so a stranger cannot flood state.json.

export interface AttemptLimiter {
  /** Whether `key` has used up its attempts in the current window (does not count). */
  isBlocked(key: string): boolean | Promise<boolean>;
  /** Counts one attempt. */
  count(key: string): void | Promise<void>;
}

/** When each device_code was last polled (RFC 8628 §3.5 slow_down): in memory, or shared in Redis. */
export interface PollClock {
  /** Records `now` as the last poll of `hash` and returns the previous one. */
  swap(hash: string, now: number): number | undefined | Promise<number | undefined>;
  forget(hash: string): void;
}

export function createPollClock(maxKeys = 10_000): PollClock {
  const polls = new Map<string, number>();
  return {
    swap(hash, now) {
      const last = polls.get(hash);
      polls.delete(hash);
      polls.set(hash, now);
      if (polls.size > maxKeys) polls.delete(polls.keys().next().value!);
      return last;
    },
    forget: (hash) => void polls.delete(hash),
  };
}

/** The in-process limiter answers at once: callers (the Redis one falls back to it) need not await it. */
interface LocalAttemptLimiter extends AttemptLimiter {
  isBlocked(key: string): boolean;
  count(key: string): void;
}

export function createAttemptLimiter(options: { max: number; windowMs: number; now: () => number; maxKeys?: number }): LocalAttemptLimiter {
  const windows = new Map<string, { start: number; used: number }>();
  const maxKeys = options.maxKeys ?? 10_000;
  const current = (key: string) => {
    const window = windows.get(key);
    if (window && options.now() - window.start < options.windowMs) return window;
    windows.delete(key);
    return null;
  };
  return {
    isBlocked: (key) => (current(key)?.used ?? 0) >= options.max,
    count(key) {
      const window = current(key);
      if (window) {
        window.used += 1;
        return;
      }
      // Full: drop the oldest window; an attacker cycling addresses only resets the oldest entries.
      if (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
      windows.set(key, { start: options.now(), used: 1 });
    },
  };
}
