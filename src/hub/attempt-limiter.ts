// Counts attempts per key (an IP address) in a fixed window, with a bounded map:
// RFC 8628 §5.1 asks for user-code guesses to be rate-limited, and device-code
// creation is limited so a stranger cannot flood state.json.

export interface AttemptLimiter {
  /** Whether `key` has used up its attempts in the current window (does not count). */
  isBlocked(key: string): boolean;
  /** Counts one attempt. */
  count(key: string): void;
}

export function createAttemptLimiter(options: { max: number; windowMs: number; now: () => number; maxKeys?: number }): AttemptLimiter {
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
