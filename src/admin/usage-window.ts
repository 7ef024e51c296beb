// The window and time zone of the admin usage reports (/admin/api/usage and /usage/cache): a
// date-only since/until is that day's midnight in the zone, as gw usage --tz reads it
// (src/spend/usage-day.ts), and an unknown zone is the catalog's 400.
import { GatewayError } from '../errors.js';
import { UnknownTimeZoneError, checkTimeZone, usageBound } from '../spend/usage-day.js';

export interface UsageWindow { since: string; until: string | undefined; tz: string }

/** Thrown for a bound that is no time; the route answers 400 with the message. */
export class UsageWindowError extends Error {}

export function usageWindow(query: URLSearchParams, now: Date): UsageWindow {
  let tz: string;
  try {
    tz = checkTimeZone(query.get('tz'));
  } catch (error) {
    if (error instanceof UnknownTimeZoneError) throw new GatewayError('GW_ERR_USAGE_UNKNOWN_TIME_ZONE', { message: `${error.message}.`, param: 'tz' });
    throw error;
  }
  // The last 30 days unless told, as `gw usage`: a sum over the window, so the window bounds its cost.
  const since = bound('since', query.get('since'), tz) ?? new Date(now.getTime() - 30 * 86_400_000).toISOString();
  return { since, until: bound('until', query.get('until'), tz), tz };
}

function bound(name: string, text: string | null, tz: string): string | undefined {
  if (text === null || text === '') return undefined;
  const at = Number.isNaN(Date.parse(text)) ? new Date(Number.NaN) : usageBound(text, tz);
  if (Number.isNaN(at.getTime())) throw new UsageWindowError(`${name} must be a time (ISO 8601, e.g. 2026-11-24 or 2026-11-24T09:00:00Z); got ${text}`);
  return at.toISOString();
}
