import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addPositionedTime, positionedStatistics, rollupDelta, SLOT_MS, SlotTotals, TrackPoint } from './position-rollup-math';

const T0 = Date.UTC(2026, 9, 25, 0, 0, 0);
const at = (seconds: number, buildingId: number | null = 1): TrackPoint => ({ time: T0 + seconds * 1000, buildingId });

/** The rollups as a map slot key → [fixes, positioned ms], zero rows dropped. */
function summary(rows: Iterable<SlotTotals>): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const row of rows) {
    const key = `${row.buildingId}@${(row.slot - T0) / SLOT_MS}`;
    const [fixes, ms] = out[key] ?? [0, 0];
    out[key] = [fixes + row.fixes, ms + row.positionedMs];
  }
  for (const key of Object.keys(out)) if (out[key][0] === 0 && out[key][1] === 0) delete out[key];
  return out;
}

describe('position rollups', () => {
  it('credits pairs at most 60 s apart in one building, split at the 15-minute edge', () => {
    // 890 s → 910 s crosses the 900 s edge: 10 s to slot 0, 10 s to slot 1; 910 → 971 is 61 s, not positioned.
    const rows = rollupDelta([], [at(0), at(30), at(890), at(910), at(971), at(1000)]);
    expect(summary(rows)).toEqual({ '1@0': [3, 30_000 + 10_000], '1@1': [3, 10_000 + 29_000] });
    expect(rows.find((row) => row.slot === T0)).toMatchObject({ firstMs: T0, lastMs: T0 + 890_000 });
  });

  it('a fix in another building or none ends the session; exactly 60 s still counts', () => {
    const rows = rollupDelta([], [at(0), at(60), at(70, 2), at(80), at(90, null), at(100)]);
    expect(summary(rows)).toEqual({ '1@0': [4, 60_000], '2@0': [1, 0] });
  });

  it('counts a replayed batch once and re-splits a session when a late fix lands inside it', () => {
    const stored = [at(0), at(100)];
    expect(summary(rollupDelta(stored, [at(0), at(100)]))).toEqual({});
    // 0 → 100 was not a session; with 50 in between both halves are.
    expect(summary(rollupDelta(stored, [at(50)]))).toEqual({ '1@0': [1, 100_000] });
    // A late fix inside a session that was already counted adds nothing but the fix.
    expect(summary(rollupDelta([at(0), at(40)], [at(20)]))).toEqual({ '1@0': [1, 0] });
  });

  it('batches in any order and split sum to the rollups of the whole track', () => {
    const track = fc
      .uniqueArray(fc.integer({ min: 0, max: 4000 }), { minLength: 1, maxLength: 40 })
      .chain((times) => fc.tuple(fc.constant(times.sort((a, b) => a - b)), fc.array(fc.constantFrom(1, 2, null), { minLength: times.length, maxLength: times.length })))
      .map(([times, buildings]) => times.map((seconds, i) => at(seconds, buildings[i])));
    const scenario = track.chain((points) =>
      fc.tuple(
        fc.constant(points),
        fc.shuffledSubarray(
          points.map((_, i) => i),
          { minLength: points.length, maxLength: points.length },
        ),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
      ),
    );
    fc.assert(
      fc.property(scenario, ([points, order, batchSize, replay]) => {
        const stored: TrackPoint[] = [];
        const total = new Map<string, SlotTotals>();
        const add = (rows: SlotTotals[]) => {
          for (const row of rows) {
            const key = `${row.buildingId}:${row.slot}`;
            const current = total.get(key) ?? { ...row, fixes: 0, positionedMs: 0 };
            current.fixes += row.fixes;
            current.positionedMs += row.positionedMs;
            total.set(key, current);
          }
        };
        for (let start = 0; start < order.length; start += batchSize) {
          const batch = order
            .slice(start, start + batchSize)
            .map((i) => points[i])
            .sort((a, b) => a.time - b.time);
          const lo = batch[0].time - 60_000;
          const hi = batch[batch.length - 1].time + 60_000;
          const window = stored.filter((point) => point.time >= lo && point.time <= hi).sort((a, b) => a.time - b.time);
          add(rollupDelta(window, batch));
          if (replay)
            add(
              rollupDelta(
                [...window, ...batch].sort((a, b) => a.time - b.time),
                batch,
              ),
            );
          stored.push(...batch);
        }
        const expected = new Map<string, SlotTotals>();
        addPositionedTime(points, expected);
        const fixes = points
          .filter((point) => point.buildingId !== null)
          .map((point) => ({ buildingId: point.buildingId!, slot: Math.floor(point.time / SLOT_MS) * SLOT_MS, fixes: 1, positionedMs: 0, firstMs: null, lastMs: null }));
        expect(summary(total.values())).toEqual(summary([...expected.values(), ...fixes]));
      }),
      { numRuns: 300 },
    );
  });

  it('positioning_time statistics: total, mean and population standard deviation of the devices', () => {
    expect(positionedStatistics([])).toEqual({ total: 0, avg: 0, std: 0 });
    expect(positionedStatistics([60, 120, 180])).toEqual({ total: 360, avg: 120, std: 48.99 });
    expect(positionedStatistics([10])).toEqual({ total: 10, avg: 10, std: 0 });
  });
});
