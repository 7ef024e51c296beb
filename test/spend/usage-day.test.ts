// The usage report's day in a time zone (src/spend/usage-day.ts): the rule every surface uses.
import { describe, expect, it } from 'vitest';
import { UnknownTimeZoneError, checkTimeZone, dayIn, startOfDayIn, usageBound } from '../../src/spend/usage-day.js';
import { summariseUsage } from '../../src/spend/usage-report.js';

describe('dayIn', () => {
  it('a UTC morning is the day before in San Francisco, the same day in UTC', () => {
    expect(dayIn('2026-03-01T06:30:00.000Z', 'America/Los_Angeles')).toBe('2026-02-28');
    expect(dayIn('2026-03-01T06:30:00.000Z', 'UTC')).toBe('2026-03-01');
    expect(dayIn('2026-03-01T08:00:00.000Z', 'America/Los_Angeles')).toBe('2026-03-01');
  });

  it('east of UTC an evening is the next day (half-hour offsets too)', () => {
    expect(dayIn('2026-03-01T18:30:00.000Z', 'Asia/Kolkata')).toBe('2026-03-02');
    expect(dayIn('2026-03-01T18:29:59.999Z', 'Asia/Kolkata')).toBe('2026-03-01');
    expect(dayIn('2026-12-31T23:30:00.000Z', 'Europe/Berlin')).toBe('2027-01-01');
  });

  it('follows daylight saving time: the day ends at 07:00Z in summer and 08:00Z in winter in Los Angeles', () => {
    // 2026-03-08: clocks go forward at 02:00 PST (10:00Z); the day after ends at 07:00Z.
    expect(dayIn('2026-03-08T07:59:00.000Z', 'America/Los_Angeles')).toBe('2026-03-07');
    expect(dayIn('2026-03-08T08:00:00.000Z', 'America/Los_Angeles')).toBe('2026-03-08');
    expect(dayIn('2026-03-09T06:59:00.000Z', 'America/Los_Angeles')).toBe('2026-03-08');
    expect(dayIn('2026-03-09T07:00:00.000Z', 'America/Los_Angeles')).toBe('2026-03-09');
  });
});

describe('startOfDayIn', () => {
  it('is the zone\'s midnight, whatever the offset that day', () => {
    expect(startOfDayIn('2026-03-01', 'America/Los_Angeles').toISOString()).toBe('2026-03-01T08:00:00.000Z');
    expect(startOfDayIn('2026-07-01', 'America/Los_Angeles').toISOString()).toBe('2026-07-01T07:00:00.000Z');
    // The days around the changes: 23 and 25 hours long.
    expect(startOfDayIn('2026-03-08', 'America/Los_Angeles').toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(startOfDayIn('2026-03-09', 'America/Los_Angeles').toISOString()).toBe('2026-03-09T07:00:00.000Z');
    expect(startOfDayIn('2026-11-01', 'America/Los_Angeles').toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(startOfDayIn('2026-11-02', 'America/Los_Angeles').toISOString()).toBe('2026-11-02T08:00:00.000Z');
    expect(startOfDayIn('2026-03-02', 'Asia/Kolkata').toISOString()).toBe('2026-03-01T18:30:00.000Z');
    expect(startOfDayIn('2026-03-01', 'UTC').toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });

  it('where midnight does not exist (a DST gap at 00:00), the day starts at the first instant it has', () => {
    // Santiago moves its clocks from 00:00 to 01:00 on 2026-09-06.
    const start = startOfDayIn('2026-09-06', 'America/Santiago');
    expect(dayIn(start.toISOString(), 'America/Santiago')).toBe('2026-09-06');
    expect(dayIn(new Date(start.getTime() - 1).toISOString(), 'America/Santiago')).toBe('2026-09-05');
  });

  it('usageBound reads a date-only bound in the zone and a full time as itself', () => {
    expect(usageBound('2026-03-01', 'America/Los_Angeles').toISOString()).toBe('2026-03-01T08:00:00.000Z');
    expect(usageBound('2026-03-01T06:30:00Z', 'America/Los_Angeles').toISOString()).toBe('2026-03-01T06:30:00.000Z');
  });
});

describe('checkTimeZone', () => {
  it('takes IANA names and UTC; absent or empty is UTC', () => {
    expect(checkTimeZone('America/Los_Angeles')).toBe('America/Los_Angeles');
    expect(checkTimeZone('america/los_angeles')).toBe('America/Los_Angeles');
    expect(checkTimeZone('UTC')).toBe('UTC');
    expect(checkTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(checkTimeZone(undefined)).toBe('UTC');
    expect(checkTimeZone('')).toBe('UTC');
  });

  it.each(['Mars/Olympus_Mons', 'PST8PDT/x', '+01:00', "UTC'; DROP TABLE x; --", 'Europe/Berlin '.repeat(3)])('refuses %j', (zone) => {
    expect(() => checkTimeZone(zone)).toThrow(UnknownTimeZoneError);
  });
});

describe('summariseUsage by day in a zone', () => {
  const records = ['2026-02-28T20:00:00.000Z', '2026-03-01T06:30:00.000Z', '2026-03-01T08:30:00.000Z'].map((ts) => ({ ts, cost: { nano_usd: 5, price: 'dataset' as const } }));
  it('counts the zone\'s days', async () => {
    const rows = await summariseUsage(records, 'day', { tz: 'America/Los_Angeles' });
    expect(rows.map((row) => [row.group, row.calls]).sort()).toEqual([['2026-02-28', 2], ['2026-03-01', 1]]);
    const utc = await summariseUsage(records, 'day');
    expect(utc.map((row) => [row.group, row.calls]).sort()).toEqual([['2026-02-28', 1], ['2026-03-01', 2]]);
  });
});
