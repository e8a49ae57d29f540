import { describe, expect, it } from 'vitest';
import { decodeReportedState, RADIUS_68_PER_SD, ReportedFixFilter, ReportedObservation } from './reported-fix-filter';

/** A seeded normal deviate (Park–Miller and Box–Muller): the walks are the same on every run. */
function normals(seed: number): () => number {
  let s = seed;
  const uniform = () => {
    s = (s * 48271) % 2147483647;
    return s / 2147483647;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A walk round a 40 × 20 m loop at 1.2 m/s with pauses, one fix a second, each off the truth by the stated accuracy's noise. */
function noisyWalk(seed: number, seconds: number, accuracy: number) {
  const normal = normals(seed);
  const sd = accuracy / RADIUS_68_PER_SD;
  const perimeter = 120;
  const steps: Array<{ truth: { x: number; y: number }; fix: ReportedObservation }> = [];
  let along = 0;
  for (let t = 0; t < seconds; t++) {
    // 20 s walking, 10 s at rest.
    if (t % 30 < 20) along = (along + 1.2) % perimeter;
    const truth = along < 40 ? { x: along, y: 0 } : along < 60 ? { x: 40, y: along - 40 } : along < 100 ? { x: 100 - along, y: 20 } : { x: 0, y: 120 - along };
    steps.push({ truth, fix: { time: 1_000_000 + t * 1000, buildingId: 7, floorId: 3, x: truth.x + sd * normal(), y: truth.y + sd * normal(), accuracy } });
  }
  return steps;
}

function run(filter: ReportedFixFilter, fixes: readonly ReportedObservation[]) {
  let state: string | null = null;
  return fixes.map((fix) => {
    const step = filter.step(state, fix)!;
    state = step.state;
    return step;
  });
}

describe('the filter of reported positions', () => {
  it('brings a noisy walk closer to the truth than its fixes, with an accuracy that holds the truth about 68 % of the time', () => {
    const raw: number[] = [];
    const filtered: number[] = [];
    let within = 0;
    for (const seed of [1, 2, 3, 4]) {
      const walk = noisyWalk(seed, 300, 4);
      const steps = run(
        new ReportedFixFilter(),
        walk.map((s) => s.fix),
      );
      walk.forEach((s, i) => {
        if (i < 5) return;
        raw.push(Math.hypot(s.fix.x - s.truth.x, s.fix.y - s.truth.y));
        const error = Math.hypot(steps[i].x - s.truth.x, steps[i].y - s.truth.y);
        filtered.push(error);
        if (error <= steps[i].accuracy) within++;
      });
    }
    expect(median(filtered)).toBeLessThan(0.75 * median(raw));
    const coverage = within / filtered.length;
    expect(coverage).toBeGreaterThan(0.6);
    expect(coverage).toBeLessThan(0.9);
  });

  it('leaves the track where it is for a fix not newer than it (late), and starts afresh after silence or in another building', () => {
    const filter = new ReportedFixFilter({ resetAfterMs: 10_000 });
    const first = filter.step(null, { time: 10_000, buildingId: 1, floorId: 1, x: 5, y: 5, accuracy: 2 })!;
    expect(first.started).toBe('first');
    expect(first).toMatchObject({ x: 5, y: 5 });
    expect(filter.step(first.state, { time: 10_000, buildingId: 1, floorId: 1, x: 6, y: 5, accuracy: 2 })).toBeNull();
    expect(filter.step(first.state, { time: 9_000, buildingId: 1, floorId: 1, x: 6, y: 5, accuracy: 2 })).toBeNull();
    expect(filter.step(first.state, { time: 11_000, buildingId: 1, floorId: 1, x: 6, y: 5, accuracy: 2 })!.started).toBeNull();
    expect(filter.step(first.state, { time: 21_000, buildingId: 1, floorId: 1, x: 6, y: 5, accuracy: 2 })!.started).toBe('silence');
    expect(filter.step(first.state, { time: 11_000, buildingId: 2, floorId: 9, x: 6, y: 5, accuracy: 2 })!.started).toBe('building');
    // A state this filter did not write (the scan tracker's, a damaged one) starts a track.
    expect(filter.step('[1,2,3]', { time: 11_000, buildingId: 1, floorId: 1, x: 6, y: 5, accuracy: 2 })!.started).toBe('first');
    expect(filter.step('R1;1;1;x', { time: 11_000, buildingId: 1, floorId: 1, x: 6, y: 5, accuracy: 2 })!.started).toBe('first');
  });

  it('holds back one fix far outside the prediction, and moves there when the next agrees with it', () => {
    const filter = new ReportedFixFilter();
    const still = Array.from({ length: 10 }, (_, i) => ({ time: 1000 * (i + 1), buildingId: 1, floorId: 1, x: 10, y: 10, accuracy: 1 }));
    const steps = run(filter, still);
    const settled = steps[steps.length - 1];
    const jump = filter.step(settled.state, { time: 11_000, buildingId: 1, floorId: 1, x: 40, y: 10, accuracy: 1 })!;
    expect(jump.held).toBe(true);
    expect(Math.hypot(jump.x - 10, jump.y - 10)).toBeLessThan(0.5);
    // Back where it was: the outlier is forgotten.
    const back = filter.step(jump.state, { time: 12_000, buildingId: 1, floorId: 1, x: 10, y: 10, accuracy: 1 })!;
    expect(back).toMatchObject({ held: false, started: null });
    expect(decodeReportedState(back.state)!.outliers).toBe(0);
    // Two in a row: the device is there.
    const again = filter.step(jump.state, { time: 12_000, buildingId: 1, floorId: 1, x: 40.5, y: 10, accuracy: 1 })!;
    expect(again).toMatchObject({ started: 'contradiction', x: 40.5, y: 10 });
  });

  it('takes the floor a fix names at once and goes on with the horizontal track', () => {
    const filter = new ReportedFixFilter();
    const first = filter.step(null, { time: 1000, buildingId: 1, floorId: 1, x: 5, y: 5, accuracy: 2 })!;
    const up = filter.step(first.state, { time: 2000, buildingId: 1, floorId: 2, x: 5.5, y: 5, accuracy: 2 })!;
    expect(up.started).toBeNull();
    expect(decodeReportedState(up.state)!.floorId).toBe(2);
    const building = filter.step(up.state, { time: 3000, buildingId: 1, floorId: null, x: 6, y: 5, accuracy: 2 })!;
    expect(decodeReportedState(building.state)!.floorId).toBeNull();
  });

  it('is a function of its state and the fix: a state passed between instances gives the same track, and stays small', () => {
    const walk = noisyWalk(9, 60, 3).map((s) => s.fix);
    const once = run(new ReportedFixFilter(), walk);
    // Every other fix on a second instance, from the stored state alone.
    const instances = [new ReportedFixFilter(), new ReportedFixFilter()];
    let state: string | null = null;
    const alternating = walk.map((fix, i) => {
      const step = instances[i % 2].step(state, fix)!;
      state = step.state;
      return step;
    });
    expect(alternating).toEqual(once);
    for (const step of once) expect(step.state.length).toBeLessThan(100);
  });
});
