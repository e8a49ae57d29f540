import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../common/errors/api-error';
import { bucketIndex, bucketStarts, formatReportTime, parseGrouping, parseReportWindow, parseTimeZone, REPORT_GROUPINGS } from './report-window';

const names = { from: 'from_date', to: 'to_date', timeZone: 'time_zone' };
const HOUR = 3_600_000;

function failure(run: () => unknown): { status: number; fields: string; code: string } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, fields: error.errors[0]?.fields, code: error.errors[0]?.code };
  }
  throw new Error('expected a failure');
}

describe('parseReportWindow', () => {
  it('reads date-only bounds as local midnights, the end inclusive', () => {
    expect(parseReportWindow({ from: '2026-03-01', to: '2026-03-02' }, names)).toEqual({
      fromMs: Date.UTC(2026, 2, 1),
      toMs: Date.UTC(2026, 2, 3),
      zone: 'UTC',
    });
    const madrid = parseReportWindow({ from: '2026-03-29', to: '2026-03-29', timeZone: 'Europe/Madrid' }, names);
    expect(madrid.fromMs).toBe(Date.UTC(2026, 2, 28, 23));
    expect(madrid.toMs).toBe(Date.UTC(2026, 2, 29, 22));
    expect(madrid.toMs - madrid.fromMs).toBe(23 * HOUR);
  });

  it('reads a date-time without offset as local to the zone, with an offset as that instant', () => {
    const local = parseReportWindow({ from: '2026-10-25T01:30:00', to: '2026-10-25T12:00', timeZone: 'Europe/Madrid' }, names);
    expect(local.fromMs).toBe(Date.UTC(2026, 9, 24, 23, 30));
    expect(local.toMs).toBe(Date.UTC(2026, 9, 25, 11));
    const absolute = parseReportWindow({ from: '2026-10-25T01:30:00Z', to: '2026-10-25T12:00:00+05:45', timeZone: 'Europe/Madrid' }, names);
    expect(absolute.fromMs).toBe(Date.UTC(2026, 9, 25, 1, 30));
    expect(absolute.toMs).toBe(Date.UTC(2026, 9, 25, 6, 15));
    // A date-time end is exclusive, as given (not widened to the day).
    expect(parseReportWindow({ from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:00:01Z' }, names).toMs).toBe(Date.UTC(2026, 0, 1, 0, 0, 1));
  });

  it('answers 400 naming the parameter when missing, unparseable, inverted, too long or in an unknown zone', () => {
    expect(failure(() => parseReportWindow({ to: '2026-01-01' }, names))).toEqual({ status: 400, fields: 'from_date', code: 'required' });
    expect(failure(() => parseReportWindow({ from: '2026-01-01' }, names))).toEqual({ status: 400, fields: 'to_date', code: 'required' });
    expect(failure(() => parseReportWindow({ from: 'yesterday', to: '2026-01-01' }, names))).toMatchObject({ fields: 'from_date', code: 'invalid' });
    expect(failure(() => parseReportWindow({ from: '2026-02-30', to: '2026-03-01' }, names))).toMatchObject({ fields: 'from_date' });
    expect(failure(() => parseReportWindow({ from: '2026-01-01', to: '2026-13-01' }, names))).toMatchObject({ fields: 'to_date' });
    expect(failure(() => parseReportWindow({ from: '2026-01-02', to: '2026-01-01' }, names))).toMatchObject({ fields: 'to_date' });
    expect(failure(() => parseReportWindow({ from: '2026-01-01T10:00:00Z', to: '2026-01-01T10:00:00Z' }, names))).toMatchObject({ fields: 'to_date' });
    expect(failure(() => parseReportWindow({ from: '2026-01-01', to: '2027-01-02' }, names))).toMatchObject({ fields: 'to_date' });
    expect(failure(() => parseReportWindow({ from: '2026-01-01', to: '2026-01-02', timeZone: 'Mars/Olympus' }, names))).toMatchObject({ fields: 'time_zone' });
    expect(failure(() => parseReportWindow({ from: '2026-01-01', to: '2026-01-02', timeZone: '+01:00' }, names))).toMatchObject({ fields: 'time_zone' });
    expect(failure(() => parseReportWindow({ from: '2026-01-01', to: '2026-01-11' }, names, { maxDays: 7 }))).toMatchObject({ fields: 'to_date' });
  });

  it('allows exactly the maximum range in local days, across a DST change', () => {
    // 366 local days from 2026-01-01 in Madrid: both DST changes inside, so 366 × 24 h exactly.
    const window = parseReportWindow({ from: '2026-01-01', to: '2027-01-01', timeZone: 'Europe/Madrid' }, names);
    expect(window.toMs - window.fromMs).toBe(366 * 24 * HOUR);
    // 7 local days across spring forward are 7 × 24 − 1 h long, and still allowed with maxDays 7.
    const week = parseReportWindow({ from: '2026-03-23', to: '2026-03-29', timeZone: 'Europe/Madrid' }, names, { maxDays: 7 });
    expect(week.toMs - week.fromMs).toBe(7 * 24 * HOUR - HOUR);
  });

  it('defaults an optional window to the last days before now', () => {
    const now = Date.UTC(2026, 5, 15, 12);
    expect(parseReportWindow({}, names, { required: false, now, defaultDays: 7 })).toEqual({ fromMs: now - 7 * 24 * HOUR, toMs: now, zone: 'UTC' });
    expect(parseReportWindow({ from: '2026-06-01' }, names, { required: false, now }).toMs).toBe(now);
  });
});

describe('parseTimeZone and parseGrouping', () => {
  it('takes IANA names, UTC aliases as UTC', () => {
    expect(parseTimeZone(undefined, 'time_zone')).toBe('UTC');
    expect(parseTimeZone('Etc/UTC', 'time_zone')).toBe('UTC');
    expect(parseTimeZone('Asia/Kathmandu', 'time_zone')).toBe('Asia/Kathmandu');
    expect(parseTimeZone('America/Argentina/Buenos_Aires', 'time_zone')).toBe('America/Argentina/Buenos_Aires');
  });

  it('takes an allowed grouping in any case, the fallback when absent, 400 otherwise', () => {
    expect(parseGrouping(undefined, 'grouping', REPORT_GROUPINGS, 'day')).toBe('day');
    expect(parseGrouping('Week', 'grouping', REPORT_GROUPINGS, 'day')).toBe('week');
    expect(failure(() => parseGrouping('none', 'grouping', REPORT_GROUPINGS, 'day'))).toEqual({ status: 400, fields: 'grouping', code: 'invalid' });
  });
});

describe('bucketStarts', () => {
  it('has a 23 h day on 2026-03-29 and a 25 h day on 2026-10-25 in Europe/Madrid', () => {
    const spring = bucketStarts(parseReportWindow({ from: '2026-03-28', to: '2026-03-30', timeZone: 'Europe/Madrid' }, names), 'day');
    expect(spring.map((ms) => formatReportTime(ms, 'Europe/Madrid'))).toEqual(['2026-03-28T00:00:00.000', '2026-03-29T00:00:00.000', '2026-03-30T00:00:00.000']);
    expect(spring[2] - spring[1]).toBe(23 * HOUR);
    expect(spring[1] - spring[0]).toBe(24 * HOUR);
    const autumn = bucketStarts(parseReportWindow({ from: '2026-10-25', to: '2026-10-26', timeZone: 'Europe/Madrid' }, names), 'day');
    expect(autumn[1] - autumn[0]).toBe(25 * HOUR);
    const hours = bucketStarts(parseReportWindow({ from: '2026-10-25', to: '2026-10-25', timeZone: 'Europe/Madrid' }, names), 'hour');
    expect(hours).toHaveLength(25);
    expect(bucketStarts(parseReportWindow({ from: '2026-03-29', to: '2026-03-29', timeZone: 'Europe/Madrid' }, names), 'hour')).toHaveLength(23);
  });

  it('starts the first bucket at or before the window, weeks on Monday, months on the 1st', () => {
    const window = parseReportWindow({ from: '2026-01-15T10:20:00Z', to: '2026-03-02T00:00:00Z' }, names);
    const weeks = bucketStarts(window, 'week');
    expect(new Date(weeks[0]).toISOString()).toBe('2026-01-12T00:00:00.000Z');
    expect(weeks.every((ms) => new Date(ms).getUTCDay() === 1)).toBe(true);
    expect(weeks.at(-1)! < window.toMs && weeks.at(-1)! + 7 * 24 * HOUR >= window.toMs).toBe(true);
    expect(bucketStarts(window, 'month').map((ms) => formatReportTime(ms, 'UTC'))).toEqual(['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
    expect(bucketStarts(window, 'hour')[0]).toBe(Date.UTC(2026, 0, 15, 10));
  });

  it('keeps month ends from drifting and follows a 45-minute offset (Asia/Kathmandu, UTC+5:45)', () => {
    const months = bucketStarts(parseReportWindow({ from: '2026-01-31', to: '2026-04-30' }, names), 'month');
    expect(months.map((ms) => new Date(ms).toISOString().slice(0, 10))).toEqual(['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01']);
    const window = parseReportWindow({ from: '2026-05-01', to: '2026-05-02', timeZone: 'Asia/Kathmandu' }, names);
    expect(window.fromMs).toBe(Date.UTC(2026, 3, 30, 18, 15));
    const days = bucketStarts(window, 'day');
    expect(days).toEqual([Date.UTC(2026, 3, 30, 18, 15), Date.UTC(2026, 4, 1, 18, 15)]);
    const hours = bucketStarts(window, 'hour');
    expect(hours).toHaveLength(48);
    expect(formatReportTime(hours[1], 'Asia/Kathmandu')).toBe('2026-05-01T01:00:00.000');
    expect(new Date(hours[1]).toISOString()).toBe('2026-04-30T19:15:00.000Z');
  });

  it('covers every instant of the window with exactly one bucket', () => {
    for (const grouping of REPORT_GROUPINGS) {
      const window = parseReportWindow({ from: '2026-03-20T13:00:00', to: '2026-11-02T07:00:00', timeZone: 'Europe/Madrid' }, names);
      const starts = bucketStarts(window, grouping);
      expect(starts[0]).toBeLessThanOrEqual(window.fromMs);
      expect(starts.at(-1)!).toBeLessThan(window.toMs);
      for (let i = 1; i < starts.length; i++) expect(starts[i]).toBeGreaterThan(starts[i - 1]);
    }
  });
});

describe('bucketIndex', () => {
  it('finds the last start at or before a time, -1 before the first', () => {
    const starts = [10, 20, 30];
    expect([5, 10, 19, 20, 29, 30, 1000].map((ms) => bucketIndex(starts, ms))).toEqual([-1, 0, 0, 1, 1, 2, 2]);
    expect(bucketIndex([], 5)).toBe(-1);
  });
});

describe('formatReportTime', () => {
  it('writes UTC with Z and other zones as local wall time without offset, around DST changes too', () => {
    expect(formatReportTime(Date.UTC(2026, 9, 25, 0, 30), 'UTC')).toBe('2026-10-25T00:30:00.000Z');
    expect(formatReportTime(Date.UTC(2026, 9, 25, 0, 59, 59, 999), 'Europe/Madrid')).toBe('2026-10-25T02:59:59.999');
    expect(formatReportTime(Date.UTC(2026, 9, 25, 1), 'Europe/Madrid')).toBe('2026-10-25T02:00:00.000');
    expect(formatReportTime(Date.UTC(2026, 2, 29, 1), 'Europe/Madrid')).toBe('2026-03-29T03:00:00.000');
    expect(formatReportTime(Date.UTC(2026, 4, 1), 'Asia/Kathmandu')).toBe('2026-05-01T05:45:00.000');
  });

  it('agrees with luxon at any instant in any zone (the offset cache never answers wrong)', () => {
    const zones = ['Europe/Madrid', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/Santiago', 'Africa/Casablanca'];
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 0, 1) }), (zone, ms) => {
        const expected = DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS");
        expect(formatReportTime(ms, zone)).toBe(expected);
        // The same slot again, now from the cache.
        expect(formatReportTime(ms + 1, zone)).toBe(DateTime.fromMillis(ms + 1, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS"));
      }),
      { numRuns: 2000 },
    );
    // Minute by minute across transitions: Madrid's hour, Lord Howe's half hour.
    for (const [zone, transition] of [
      ['Europe/Madrid', Date.UTC(2026, 9, 25, 1)],
      ['Europe/Madrid', Date.UTC(2026, 2, 29, 1)],
      ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 15)],
    ] as const) {
      for (let ms = transition - 2 * HOUR; ms < transition + 2 * HOUR; ms += 60_007) {
        expect(formatReportTime(ms, zone), `${zone} ${ms}`).toBe(DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS"));
      }
    }
  });
});
