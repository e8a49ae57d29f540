import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { staySlices, VisitSpan } from './analytics/visit-aggregates';
import { mergeByBucket } from './geofencing-reports';
import { bucketStarts, Grouping, REPORT_GROUPINGS, ReportWindow } from './report-window';

const HOUR = 3_600_000;
const base = Date.UTC(2026, 2, 20);
const fences = ['0a', '1b', '1c', 'ff'];

describe('mergeByBucket', () => {
  it('the slices computed fence by fence, merged, are exactly the slices of all the visits at once', () => {
    const visitArbitrary = fc.record({
      fence: fc.constantFrom(...fences),
      device: fc.constantFrom('d1', 'd2', 'd3'),
      user: fc.constantFrom(null, 'u1', 'u2'),
      start: fc.integer({ min: 0, max: 10 * 24 * HOUR }),
      length: fc.integer({ min: 0, max: 2 * 24 * HOUR }),
      open: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(visitArbitrary, { maxLength: 40 }),
        fc.constantFrom(...(REPORT_GROUPINGS as Grouping[])),
        fc.constantFrom('UTC', 'Europe/Madrid', 'America/New_York'),
        (drawn, grouping, zone) => {
          const visits: VisitSpan[] = drawn.map((v, index) => ({
            id: `v${index}`,
            fenceId: v.fence,
            deviceId: v.device,
            userId: v.user,
            enteredAt: base + v.start,
            exitedAt: v.open ? null : base + v.start + v.length,
            exitReason: null,
          }));
          const window: ReportWindow = { fromMs: base + 24 * HOUR, toMs: base + 9 * 24 * HOUR, zone };
          const starts = bucketStarts(window, grouping);
          const now = base + 8 * 24 * HOUR;
          const perFence = fences
            .map((fence) =>
              staySlices(
                visits.filter((visit) => visit.fenceId === fence),
                starts,
                window,
                now,
              ),
            )
            .filter((slices) => slices.length > 0);
          expect(mergeByBucket(perFence)).toEqual(staySlices(visits, starts, window, now));
        },
      ),
      { numRuns: 200 },
    );
  });
});
