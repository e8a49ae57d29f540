import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketStarts, Grouping, parseReportWindow, REPORT_GROUPINGS, ReportWindow } from '../report-window';
import { clippedSpan, fenceBucketStats, formatStay, percentile, staySlices, VisitSpan } from './visit-aggregates';

const names = { from: 'from', to: 'to', timeZone: 'time_zone' };
const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2026, 9, 24, 22); // 2026-10-25T00:00 in Madrid (CEST, UTC+2)

let nextId = 0;
function visit(fenceId: string, deviceId: string, enteredAt: number, exitedAt: number | null, userId: string | null = `u-${deviceId}`): VisitSpan {
  return { id: `vis_${nextId++}`, fenceId, deviceId, userId, enteredAt, exitedAt, exitReason: exitedAt === null ? null : 'position' };
}

describe('clippedSpan', () => {
  const window: ReportWindow = { fromMs: 1000, toMs: 5000, zone: 'UTC' };
  it('clips to the window and runs an open visit up to now, never past the window end', () => {
    expect(clippedSpan(visit('f', 'd', 0, 2000), window, 9999)).toEqual({ start: 1000, end: 2000 });
    expect(clippedSpan(visit('f', 'd', 2000, null), window, 3000)).toEqual({ start: 2000, end: 3000 });
    expect(clippedSpan(visit('f', 'd', 2000, null), window, 9000)).toEqual({ start: 2000, end: 5000 });
    expect(clippedSpan(visit('f', 'd', 0, 999), window, 9000)).toBeNull();
  });
});

describe('staySlices', () => {
  it('splits a visit at local midnight on the 25 h day in Madrid, a session in each day', () => {
    const window = parseReportWindow({ from: '2026-10-24', to: '2026-10-26', timeZone: 'Europe/Madrid' }, names);
    const starts = bucketStarts(window, 'day');
    // 23:30 on the 24th (local) to 01:15 on the 25th: 30 min the first day, 75 min the second.
    const crossing = visit('f1', 'd1', T0 - 30 * MIN, T0 + 75 * MIN);
    const slices = staySlices([crossing], starts, window, Date.now());
    expect(slices.map((slice) => [slice.bucket, slice.ms / MIN, slice.sessions])).toEqual([
      [0, 30, 1],
      [1, 75, 1],
    ]);
    // The whole 25 h day inside one fence: 25 hours in one bucket.
    const allDay = staySlices([visit('f1', 'd2', T0, T0 + 25 * HOUR)], starts, window, Date.now());
    expect(allDay.map((slice) => [slice.bucket, slice.ms / HOUR])).toEqual([[1, 25]]);
    expect(formatStay(allDay[0].ms)).toBe('25:00:00');
  });

  it('adds up the visits of one device in one bucket and counts them as sessions', () => {
    const day = Date.UTC(2026, 9, 25);
    const window: ReportWindow = { fromMs: day, toMs: day + 24 * HOUR, zone: 'UTC' };
    const starts = bucketStarts(window, 'day');
    const slices = staySlices([visit('f', 'd', day + HOUR, day + 2 * HOUR), visit('f', 'd', day + 3 * HOUR, day + 3 * HOUR + 90_500)], starts, window, Date.now());
    expect(slices).toEqual([{ bucket: 0, fenceId: 'f', deviceId: 'd', userId: 'u-d', ms: HOUR + 90_500, sessions: 2 }]);
  });
});

describe('fenceBucketStats', () => {
  it('counts entries, exits, uniques, stays and the peak of concurrent visits per hour', () => {
    const window: ReportWindow = { fromMs: T0, toMs: T0 + 3 * HOUR, zone: 'UTC' };
    const starts = bucketStarts(window, 'hour');
    const visits = [
      visit('f', 'a', T0 + 10 * MIN, T0 + 70 * MIN),
      visit('f', 'b', T0 + 20 * MIN, T0 + 30 * MIN),
      // Enters exactly when b leaves: never two counted for b's place.
      visit('f', 'c', T0 + 30 * MIN, T0 + 40 * MIN, null),
      visit('f', 'a', T0 + 150 * MIN, null),
    ];
    const stats = fenceBucketStats(visits, starts, window, T0 + 170 * MIN);
    expect(stats.map((s) => [s.entries, s.exits, s.uniqueDevices, s.uniqueUsers, s.visits, s.totalMs / MIN, s.maxOccupancy, s.endOccupancy])).toEqual([
      [3, 2, 3, 2, 3, 70, 2, 1],
      [0, 1, 1, 1, 1, 10, 1, 0],
      [1, 0, 1, 1, 1, 20, 1, 0],
    ]);
    expect(stats[0].p50Ms).toBe(10 * MIN);
    expect(stats[0].p90Ms).toBe(42 * MIN);
    expect(stats[0].avgOccupancy).toBeCloseTo(70 / 60, 10);
    // The open visit runs to now (170 min), so the last hour holds 20 min of one visit.
    expect(stats[2].avgOccupancy).toBeCloseTo(20 / 60, 10);
  });

  it('answers empty buckets with zeros and no stay statistics', () => {
    const window: ReportWindow = { fromMs: T0, toMs: T0 + 2 * HOUR, zone: 'UTC' };
    const [empty] = fenceBucketStats([], bucketStarts(window, 'hour'), window, T0);
    expect(empty).toMatchObject({ entries: 0, exits: 0, visits: 0, totalMs: 0, avgMs: null, p50Ms: null, p90Ms: null, maxOccupancy: 0, endOccupancy: 0 });
  });
});

describe('percentile and formatStay', () => {
  it('interpolates between ranks and writes HH:MM:SS', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([5], 0.9)).toBe(5);
    expect(percentile([], 0.5)).toBeNull();
    expect(formatStay(3_661_999)).toBe('01:01:01');
  });
});

describe('properties', () => {
  const zones = ['UTC', 'Europe/Madrid', 'Asia/Kathmandu', 'America/New_York'];
  const base = Date.UTC(2026, 2, 20);
  const span = 20 * 24 * HOUR;
  const visitArbitrary = fc
    .record({
      fence: fc.constantFrom('f1', 'f2'),
      device: fc.constantFrom('d1', 'd2', 'd3'),
      start: fc.integer({ min: 0, max: span }),
      length: fc.integer({ min: 0, max: 3 * 24 * HOUR }),
      open: fc.boolean(),
    })
    .map((v) => visit(v.fence, v.device, base + v.start, v.open ? null : base + v.start + v.length));

  it('the stay times of every grouping sum to the same total, the analytics total, and the clipped visits', () => {
    fc.assert(
      fc.property(
        fc.array(visitArbitrary, { maxLength: 40 }),
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: span }),
        fc.integer({ min: 1, max: 30 * 24 * HOUR }),
        fc.integer({ min: 0, max: span + 5 * 24 * HOUR }),
        (visits, zone, from, length, nowOffset) => {
          const window: ReportWindow = { fromMs: base + from, toMs: base + from + length, zone };
          const now = base + nowOffset;
          const expected = visits.reduce((sum, v) => {
            const clipped = clippedSpan(v, window, now);
            return sum + (clipped ? clipped.end - clipped.start : 0);
          }, 0);
          const overall = ['f1', 'f2'].reduce(
            (sum, fence) =>
              sum +
              fenceBucketStats(
                visits.filter((v) => v.fenceId === fence),
                [window.fromMs],
                window,
                now,
              )[0].totalMs,
            0,
          );
          expect(overall).toBe(expected);
          for (const grouping of REPORT_GROUPINGS as Grouping[]) {
            const starts = bucketStarts(window, grouping);
            expect(staySlices(visits, starts, window, now).reduce((sum, slice) => sum + slice.ms, 0)).toBe(expected);
            const perBucket = ['f1', 'f2'].flatMap((fence) =>
              fenceBucketStats(
                visits.filter((v) => v.fenceId === fence),
                starts,
                window,
                now,
              ),
            );
            expect(perBucket.reduce((sum, stats) => sum + stats.totalMs, 0)).toBe(expected);
            expect(perBucket.reduce((sum, stats) => sum + stats.entries, 0)).toBe(visits.filter((v) => v.enteredAt >= window.fromMs && v.enteredAt < window.toMs).length);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('the peak occupancy of a bucket is the most visits under way at one instant of it', () => {
    fc.assert(
      fc.property(fc.array(visitArbitrary, { maxLength: 25 }), (visits) => {
        const window: ReportWindow = { fromMs: base, toMs: base + span, zone: 'UTC' };
        const now = base + span;
        const starts = bucketStarts(window, 'day');
        const oneFence = visits.map((v) => ({ ...v, fenceId: 'f' }));
        const stats = fenceBucketStats(oneFence, starts, window, now);
        const spans = oneFence.map((v) => clippedSpan(v, window, now)).filter((s): s is { start: number; end: number } => s !== null && s.end > s.start);
        starts.forEach((start, index) => {
          const end = index + 1 < starts.length ? starts[index + 1] : window.toMs;
          // The count only rises at a start, so the peak is at the bucket start or at a visit start inside it.
          const instants = [Math.max(start, window.fromMs), ...spans.map((s) => s.start).filter((t) => t > start && t < end)];
          const brute = Math.max(...instants.map((t) => spans.filter((s) => s.start <= t && t < s.end).length));
          expect(stats[index].maxOccupancy).toBe(brute);
        });
      }),
      { numRuns: 100 },
    );
  });
});
