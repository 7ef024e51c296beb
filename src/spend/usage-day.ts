// The calendar day a usage record belongs to, in a time zone (IANA name such as
// America/Los_Angeles, or UTC). One rule for every surface: the file trail readers call dayIn,
// the PostgreSQL reader puts daySql in its query, and a date-only since/until is that day's
// midnight in the same zone (startOfDayIn). UTC is the default, as gw usage always counted.

const DEFAULT_USAGE_ZONE = 'UTC';

/** Thrown for a zone Intl does not know; each surface turns it into its own error. */
export class UnknownTimeZoneError extends Error {
  constructor(readonly zone: string) {
    super(`unknown time zone "${zone}": an IANA zone name such as America/Los_Angeles or Europe/Berlin, or UTC`);
    this.name = 'UnknownTimeZoneError';
  }
}

// One formatter per zone: building one is far dearer than formatting with it.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    } catch {
      throw new UnknownTimeZoneError(zone);
    }
    formatters.set(zone, formatter);
  }
  return formatter;
}

/**
 * The zone as named (its case as Intl spells it), or UnknownTimeZoneError. Empty or absent is UTC.
 * An alias keeps the name given (Asia/Kolkata, not ICU's Asia/Calcutta): the report says what was asked.
 */
export function checkTimeZone(zone: string | undefined | null): string {
  const wanted = zone?.trim() || DEFAULT_USAGE_ZONE;
  // Intl accepts offsets such as +01:00 too; a day's zone here is a named one (PostgreSQL reads "+01:00" the other way round).
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(wanted)) throw new UnknownTimeZoneError(wanted);
  const resolved = formatterFor(wanted).resolvedOptions().timeZone;
  return resolved.toLowerCase() === wanted.toLowerCase() ? resolved : wanted;
}

function partsIn(instant: Date, zone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number> {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(instant)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return parts;
}

/** `2026-03-01T06:30:00Z` in America/Los_Angeles → `2026-02-28`. `ts` is an ISO time in UTC (the trail's). */
export function dayIn(ts: string, zone: string): string {
  if (zone === 'UTC') return ts.slice(0, 10);
  const parts = partsIn(new Date(ts), zone);
  return `${parts.year}-${String(parts.month).padStart(2, '0')}-${String(parts.day).padStart(2, '0')}`;
}

/** The zone's offset from UTC at an instant, in milliseconds (Los Angeles in winter: −8 h). */
function offsetAt(instant: number, zone: string): number {
  const parts = partsIn(new Date(instant), zone);
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - Math.floor(instant / 1000) * 1000;
}

/** The first instant of a day (YYYY-MM-DD) in the zone: midnight, or the first hour after a DST gap. */
export function startOfDayIn(day: string, zone: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) throw new RangeError(`not a date (YYYY-MM-DD): ${day}`);
  const wall = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // Two passes settle the offset, also on a day whose offset changes; then step over a gap at midnight.
  let guess = wall - offsetAt(wall, zone);
  guess = wall - offsetAt(guess, zone);
  while (dayIn(new Date(guess).toISOString(), zone) < day) guess += 3_600_000;
  return new Date(guess);
}

/** The same day as dayIn, in PostgreSQL: `zonePlaceholder` is the query parameter holding the zone. */
export function daySql(zonePlaceholder: string): string {
  return `to_char(ts AT TIME ZONE ${zonePlaceholder}, 'YYYY-MM-DD')`;
}

/** A usage bound: a date-only YYYY-MM-DD is that day's start in the zone; any other ISO time is its own instant. */
export function usageBound(text: string, zone: string): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text.trim())) return startOfDayIn(text.trim(), zone);
  return new Date(text);
}
