// Requests- and tokens-per-minute as sliding windows over the last 60 s, in
// memory, one per policy scope (a `team:` scope is shared by the team's keys).
// Check and take happen in one synchronous call, so on Node's one thread N
// concurrent requests against a limit of M let exactly M through. Tokens are
// taken at the request's estimate and corrected by the actual usage later.

const WINDOW_MS = 60_000;

interface Entry {
  at: number;
  tokens: number;
}

interface Window {
  entries: Entry[];
  /** Sum of `tokens` over entries. */
  tokens: number;
}

export interface LimitSpec {
  scope: string;
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  shadow: boolean;
}

export interface LimitRefusal {
  scope: string;
  shadow: boolean;
  /** The shared counters could not be reached (src/redis/): not a limit reached. */
  unavailable?: boolean;
  reason: string;
  retryAfterSeconds: number;
}

export interface Admission {
  /** Refusals; when any is enforced, nothing was taken. */
  refusals: LimitRefusal[];
  /** Replaces the estimate with the tokens really used (no-op after a refusal). */
  settle(actualTokens: number | undefined): void;
}

/** In process (RateLimiter) or shared by every instance (src/redis/redis-limiter.ts). */
export interface Limiter {
  admit(specs: readonly LimitSpec[], estimatedTokens: number): Admission | Promise<Admission>;
}

export class RateLimiter implements Limiter {
  readonly #windows = new Map<string, Window>();

  constructor(private readonly now: () => number) {}

  admit(specs: readonly LimitSpec[], estimatedTokens: number): Admission {
    const now = this.now();
    const refusals: LimitRefusal[] = [];
    for (const spec of specs) {
      const refusal = this.#check(spec, estimatedTokens, now);
      if (refusal) refusals.push(refusal);
    }
    if (refusals.some((refusal) => !refusal.shadow)) return { refusals, settle: () => {} };
    const taken = specs.filter((spec) => spec.requestsPerMinute !== undefined || spec.tokensPerMinute !== undefined)
      .map((spec) => this.#take(spec.scope, now, estimatedTokens));
    let settled = false;
    return {
      refusals,
      settle: (actual) => {
        if (settled || actual === undefined) return;
        settled = true;
        for (const { window, entry } of taken) {
          window.tokens += actual - entry.tokens;
          entry.tokens = actual;
        }
      },
    };
  }

  #window(scope: string, now: number): Window {
    let window = this.#windows.get(scope);
    if (!window) {
      window = { entries: [], tokens: 0 };
      this.#windows.set(scope, window);
    }
    let expired = 0;
    while (expired < window.entries.length && window.entries[expired]!.at <= now - WINDOW_MS) {
      window.tokens -= window.entries[expired]!.tokens;
      expired += 1;
    }
    if (expired > 0) window.entries.splice(0, expired);
    return window;
  }

  #check(spec: LimitSpec, estimatedTokens: number, now: number): LimitRefusal | null {
    const window = this.#window(spec.scope, now);
    if (spec.requestsPerMinute !== undefined && window.entries.length >= spec.requestsPerMinute) {
      const oldest = window.entries[window.entries.length - spec.requestsPerMinute] ?? window.entries[0];
      return this.#refusal(spec, `${spec.requestsPerMinute} requests per minute reached`, oldest, now);
    }
    if (spec.tokensPerMinute !== undefined && window.tokens + estimatedTokens > spec.tokensPerMinute && window.entries.length > 0) {
      return this.#refusal(spec, `${spec.tokensPerMinute} tokens per minute reached (${window.tokens} used, about ${estimatedTokens} asked)`, window.entries[0], now);
    }
    return null;
  }

  #refusal(spec: LimitSpec, what: string, oldest: Entry | undefined, now: number): LimitRefusal {
    // The window frees room when its oldest entry leaves it.
    const waitMs = oldest ? Math.max(0, oldest.at + WINDOW_MS - now) : WINDOW_MS;
    return { scope: spec.scope, shadow: spec.shadow, reason: `policy ${spec.scope}: ${what}`, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  #take(scope: string, now: number, tokens: number): { window: Window; entry: Entry } {
    const window = this.#window(scope, now);
    const entry = { at: now, tokens };
    window.entries.push(entry);
    window.tokens += tokens;
    return { window, entry };
  }
}
