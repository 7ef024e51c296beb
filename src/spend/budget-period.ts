// A budget's period, calendar-aligned in its time zone (UTC unless configured): a day from
// local midnight, an ISO week from Monday, a month from the 1st. Pure: `now` is passed in;
// time-zone offsets come from Intl, so daylight-saving days are 23 or 25 hours long.

export type BudgetPeriodName = 'day' | 'week' | 'month';

export interface PeriodWindow {
  start: Date;
  /** The next period's start: when the budget resets. */
  end: Date;
}

export function periodOf(period: BudgetPeriodName, now: Date, timeZone = 'UTC'): PeriodWindow {
  const local = localParts(now, timeZone);
  let startDay: { year: number; month: number; day: number };
  let endDay: { year: number; month: number; day: number };
  if (period === 'month') {
    startDay = { year: local.year, month: local.month, day: 1 };
    endDay = { year: local.month === 12 ? local.year + 1 : local.year, month: local.month === 12 ? 1 : local.month + 1, day: 1 };
  } else {
    // Days since Monday (ISO 8601 weeks start on Monday).
    const back = period === 'week' ? (local.weekday + 6) % 7 : 0;
    const length = period === 'week' ? 7 : 1;
    startDay = shiftDays(local, -back);
    endDay = shiftDays(startDay, length);
  }
  return { start: midnightIn(startDay, timeZone), end: midnightIn(endDay, timeZone) };
}

/**
 * periodOf for every call against a budget: the window found last for this period and zone while
 * `now` is still inside it (a window is fixed once found; working one out takes ~5 Intl
 * formatToParts, ≈20 µs, which is most of a budget's cost per call otherwise).
 */
export function currentPeriodOf(period: BudgetPeriodName, now: Date, timeZone = 'UTC'): PeriodWindow {
  const key = `${period}\u0000${timeZone}`;
  const last = lastWindows.get(key);
  const at = now.getTime();
  if (last && at >= last.start.getTime() && at < last.end.getTime()) return last;
  const window = periodOf(period, now, timeZone);
  lastWindows.set(key, window);
  return window;
}

const lastWindows = new Map<string, PeriodWindow>();

/** Whether a time zone name is one Intl knows (`gw budgets set --time-zone`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

interface LocalParts { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number }

const formatters = new Map<string, Intl.DateTimeFormat>();

function localParts(at: Date, timeZone: string): LocalParts {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short' });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(at)) parts[part.type] = part.value;
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday ?? '');
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second), weekday };
}

function shiftDays(day: { year: number; month: number; day: number }, days: number): { year: number; month: number; day: number } {
  const shifted = new Date(Date.UTC(day.year, day.month - 1, day.day + days));
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** The instant local midnight of `day` happens in `timeZone` (the zone's offset at that instant). */
function midnightIn(day: { year: number; month: number; day: number }, timeZone: string): Date {
  const asUtc = Date.UTC(day.year, day.month - 1, day.day);
  let guess = asUtc - offsetAt(new Date(asUtc), timeZone);
  // Once more at the guess: the offset may differ across a daylight-saving change.
  guess = asUtc - offsetAt(new Date(guess), timeZone);
  return new Date(guess);
}

/** Milliseconds the zone's wall clock is ahead of UTC at `at`. */
function offsetAt(at: Date, timeZone: string): number {
  const local = localParts(at, timeZone);
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}
