// The order in which a rule's targets are tried. The first is a weighted pick;
// with a session id (x-claude-code-session-id…) the pick is a hash of it instead
// of a random draw, so a session keeps hitting one target and its prompt cache
// stays warm. The rest follow by weight as fallbacks. Retries of one target back
// off exponentially with full jitter, and a provider's retry-after is honoured
// up to a bound (AWS Architecture Blog, "Exponential Backoff And Jitter").
import type { RouteRule, RouteTarget } from './route-rule.js';

export interface PlannedAttempt {
  target: RouteTarget;
  /** 0 for the first try of a target, then 1, 2… */
  retry: number;
}

/** FNV-1a: a stable, well-spread 32-bit hash; no cryptography needed to pick a target. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** `point` in [0, 1): where on the cumulative weights it falls. */
function pickByWeight(targets: readonly RouteTarget[], point: number): number {
  const total = targets.reduce((sum, target) => sum + Math.max(0, target.weight), 0);
  if (total <= 0) return 0;
  let cursor = point * total;
  for (let index = 0; index < targets.length; index += 1) {
    cursor -= Math.max(0, targets[index]!.weight);
    if (cursor < 0) return index;
  }
  return targets.length - 1;
}

export function planAttempts(rule: RouteRule, options: { random: () => number; sessionId: string | null }): PlannedAttempt[] {
  const eligible = rule.targets.filter((target) => target.weight > 0);
  if (eligible.length === 0) return [];
  const point = options.sessionId !== null ? hashText(options.sessionId) / 2 ** 32 : options.random();
  const first = pickByWeight(eligible, point);
  const rest = eligible.filter((_target, index) => index !== first).sort((left, right) => right.weight - left.weight);
  const order = rule.fallback === false ? [eligible[first]!] : [eligible[first]!, ...rest];
  const retries = Math.max(0, Math.min(rule.retries ?? 0, 5));
  return order.flatMap((target) => Array.from({ length: retries + 1 }, (_unused, retry) => ({ target, retry })));
}

const BACKOFF_BASE_MS = 250;
const BACKOFF_MAX_MS = 5_000;

/** Wait before a retry of the same target; a provider's retry-after wins, held to the bound (a client is waiting). */
export function backoffMs(retry: number, retryAfterSeconds: number | null, random: () => number): number {
  if (retryAfterSeconds !== null) return Math.min(retryAfterSeconds * 1000, BACKOFF_MAX_MS);
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/** Whether a failure may be tried elsewhere: rate limits, server errors, time-outs and connection failures, never a 4xx the request caused. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/** retry-after as seconds (delta or HTTP date), or null. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (value === undefined || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - nowMs) / 1000));
}
