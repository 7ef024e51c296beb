// The prompt cache at the record stage (docs/prompt-cache.md): the cache metrics of a call, and
// whether the call broke its session's cache. A provider caches a prompt prefix per account and
// model, so a session's call served by a target the session had not used yet (a fallback after
// a failed attempt, a route picking elsewhere) starts cold there: its record says `cache_break`
// in its outcome. The targets of each session are remembered per process (bounded, the least
// recently seen session forgotten first); a call that fell back counts even as a session's first.
import type { AuditCost, AuditTokens } from '../../audit/record.js';
import type { GatewayMetrics } from '../../metrics/gateway-metrics.js';
import { NANOS_PER_USD } from '../../spend/price-book.js';
import type { GatewayServices } from '../gateway-services.js';
import type { RequestTrace } from '../request-trace.js';

const CACHE_BREAK_OUTCOME = 'cache_break';

/** Sessions remembered per gateway (a busy hub's active sessions fit well within it), and targets per session. */
const SESSIONS_KEPT = 20_000;
const TARGETS_KEPT = 8;

const sessionTargets = new WeakMap<GatewayServices, Map<string, string[]>>();

/**
 * Notes `cache_break` on the trace when this answered call of `session` fell back from a failed
 * target, or went to a target the session had not used before (its first call excepted);
 * returns whether it did.
 */
export function noteCacheBreak(services: GatewayServices, session: string, trace: RequestTrace, status: number): boolean {
  if (trace.provider === null || status >= 400) return false;
  let sessions = sessionTargets.get(services);
  if (!sessions) { sessions = new Map(); sessionTargets.set(services, sessions); }
  const target = `${trace.provider}\u0000${trace.target?.model ?? ''}`;
  const used = sessions.get(session) ?? [];
  const known = used.includes(target);
  // Re-inserted so the map's order is least recently used first.
  sessions.delete(session);
  sessions.set(session, known ? used : [...used, target].slice(-TARGETS_KEPT));
  if (sessions.size > SESSIONS_KEPT) sessions.delete(sessions.keys().next().value!);
  const fellBack = trace.warnings.some((warning) => warning.startsWith('attempt_failed:'));
  if (!fellBack && (known || used.length === 0)) return false;
  trace.noteOutcome(CACHE_BREAK_OUTCOME);
  return true;
}

/** gw_input_tokens_total and gw_cache_* for one call: input, tokens read and written, the saving, a break. */
export function countCacheUse(metrics: GatewayMetrics, labels: { team: string; provider: string; model: string }, tokens: AuditTokens | null, cost: AuditCost | null, broke: boolean): void {
  if (tokens?.input) metrics.inputTokens.inc(labels, tokens.input);
  if (broke) metrics.cacheBreaks.inc({ team: labels.team, provider: labels.provider });
  const read = tokens?.cached_read ?? 0;
  const write = tokens?.cache_write ?? 0;
  if (read > 0) metrics.cacheReadTokens.inc(labels, read);
  if (write > 0) metrics.cacheWriteTokens.inc(labels, write);
  if (cost?.cache_saved_nano_usd !== undefined) metrics.cacheSaved.inc(labels, cost.cache_saved_nano_usd / NANOS_PER_USD);
}
