import { describe, expect, it } from 'vitest';
import { estimatePosition, ScanReading, TransmitterIndex } from '../estimator/scan-estimator';
import { beaconGrid, seededRandom, SyntheticBuilding, synthesizeScan, WorldOptions } from '../../../test/support/synthetic-scans';
import { Tracker } from './tracker';
import type { TrackerObservation, TrackerSpace, TrackStep } from './tracker-contract';

/** Two floors of 60 m × 40 m, beacons every 10 m, n = 2.5 and 4 dB of shadowing, the scanner cutting at −95 dBm. */
const WORLD: WorldOptions = {
  floors: 2,
  width: 60,
  length: 40,
  spacing: 10,
  exponent: 2.5,
  shadowingDb: 4,
  staticShare: 0,
  correlationM: 4,
  registeredRssi: -59,
  powerSpreadDb: 0,
  floorLossDb: 15,
  storeyM: 3.5,
  sensitivity: -95,
  readings: [10, 30],
};
const BUILDING = new SyntheticBuilding(WORLD, 11);
/** The radio model as calibrated: the true one. */
const INDEX = new TransmitterIndex(BUILDING.trueTransmitters().map((transmitter) => ({ ...transmitter, exponent: WORLD.exponent, shadowingDb: WORLD.shadowingDb })));
const FLOORS = new Map([
  [1, { level: 0 }],
  [2, { level: 1 }],
]);
const OPEN: TrackerSpace = { width: WORLD.width, length: WORLD.length, floors: FLOORS, paths: null, buildingId: 7 };
/** A corridor along y = 20 on both floors, joined by stairs at its east end. */
const CORRIDORS: TrackerSpace = {
  ...OPEN,
  paths: {
    nodes: [
      { id: 1, floorId: 1, x: 5, y: 20 },
      { id: 2, floorId: 1, x: 55, y: 20 },
      { id: 3, floorId: 2, x: 55, y: 20 },
      { id: 4, floorId: 2, x: 5, y: 20 },
    ],
    links: [
      { source: 1, target: 2, tags: [] },
      { source: 2, target: 3, tags: ['stairs'] },
      { source: 3, target: 4, tags: [] },
    ],
  },
};

interface Truth {
  floor: number;
  x: number;
  y: number;
  time: number;
}

/** One scan a second along a polyline at a constant speed. */
function walk(points: Array<{ floor: number; x: number; y: number }>, speed: number, start = 1_700_000_000_000): Truth[] {
  const out: Truth[] = [];
  let time = start;
  for (let i = 0; i + 1 < points.length; i += 1) {
    const a = points[i];
    const b = points[i + 1];
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    const steps = Math.max(1, Math.round(length / speed));
    for (let s = 0; s < steps; s += 1) {
      const t = s / steps;
      out.push({ floor: s === 0 ? a.floor : b.floor, x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y), time });
      time += 1000;
    }
  }
  const last = points[points.length - 1];
  out.push({ ...last, time });
  return out;
}

function observe(truth: Truth, random: () => number, index = INDEX, building = BUILDING): TrackerObservation {
  const readings = building.scanAt({ floor: truth.floor, x: truth.x, y: truth.y }, random);
  const raw = estimatePosition(readings, index);
  if (!raw.ok) throw new Error('no estimate');
  return { time: truth.time, readings, raw };
}

interface Run {
  steps: TrackStep[];
  observations: TrackerObservation[];
}

function track(tracker: Tracker, truths: Truth[], seed: number, device = 'device-1'): Run {
  const random = seededRandom(seed);
  const steps: TrackStep[] = [];
  const observations: TrackerObservation[] = [];
  let state: string | null = null;
  for (const truth of truths) {
    const observation = observe(truth, random);
    const step = tracker.step(state, observation, `${device}/${truth.time}`);
    if (!step) throw new Error('late');
    state = step.state;
    steps.push(step);
    observations.push(observation);
  }
  return { steps, observations };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const CORRIDOR_WALK = walk(
  [
    { floor: 1, x: 3, y: 20 },
    { floor: 1, x: 57, y: 20 },
    { floor: 1, x: 57, y: 20 },
    { floor: 1, x: 3, y: 20 },
  ],
  1.2,
);

describe('tracker on a simulated corridor walk (seeded)', () => {
  it('halves the single-scan error or nearly, and its accuracy holds for at least 68 % of fixes', () => {
    for (const [name, space] of [
      ['open floor', OPEN],
      ['paths graph', CORRIDORS],
    ] as const) {
      const tracker = new Tracker(INDEX, space);
      const raw: number[] = [];
      const tracked: number[] = [];
      let within = 0;
      let floors = 0;
      for (let run = 0; run < 8; run += 1) {
        const { steps, observations } = track(tracker, CORRIDOR_WALK, 100 + run);
        CORRIDOR_WALK.forEach((truth, i) => {
          // The first few seconds are the track's start.
          if (i < 3) return;
          const step = steps[i];
          const error = Math.hypot(step.x - truth.x, step.y - truth.y);
          tracked.push(error);
          raw.push(Math.hypot(observations[i].raw.x - truth.x, observations[i].raw.y - truth.y));
          if (error <= step.accuracy) within += 1;
          if (step.floorId === truth.floor) floors += 1;
          expect(step.started).toBeNull();
        });
      }
      const coverage = within / tracked.length;
      console.log(
        `${name}: raw median ${median(raw).toFixed(2)} m, tracked ${median(tracked).toFixed(2)} m, coverage ${(coverage * 100).toFixed(1)} %, floor ${((floors / tracked.length) * 100).toFixed(1)} %`,
      );
      expect(median(tracked)).toBeLessThan(0.75 * median(raw));
      expect(coverage).toBeGreaterThanOrEqual(0.68);
      expect(floors / tracked.length).toBeGreaterThanOrEqual(0.99);
    }
  });
});

describe('tracker at a junction (seeded)', () => {
  /** A corridor along y = 20 with a branch north at x = 30. */
  const JUNCTION: TrackerSpace = {
    ...OPEN,
    paths: {
      nodes: [
        { id: 1, floorId: 1, x: 5, y: 20 },
        { id: 2, floorId: 1, x: 30, y: 20 },
        { id: 3, floorId: 1, x: 55, y: 20 },
        { id: 4, floorId: 1, x: 30, y: 37 },
      ],
      links: [
        { source: 1, target: 2, tags: [] },
        { source: 2, target: 3, tags: [] },
        { source: 2, target: 4, tags: [] },
      ],
    },
  };
  const TURNS = walk(
    [
      { floor: 1, x: 5, y: 20 },
      { floor: 1, x: 30, y: 20 },
      { floor: 1, x: 30, y: 37 },
      { floor: 1, x: 30, y: 20 },
      { floor: 1, x: 55, y: 20 },
    ],
    1.2,
  );

  it('follows a walker through turns better with its draws weighed by the likelihood and the velocity freed at the junction', () => {
    const errors = (tracker: Tracker) => {
      const out: number[] = [];
      for (let run = 0; run < 16; run += 1) {
        const { steps } = track(tracker, TURNS, 300 + run);
        TURNS.forEach((truth, i) => {
          if (i >= 3) out.push(Math.hypot(steps[i].x - truth.x, steps[i].y - truth.y));
        });
      }
      return out;
    };
    const plain = errors(new Tracker(INDEX, JUNCTION, { likelihoodDraws: 0, junctionSpeedSd: 0 }));
    const weighed = errors(new Tracker(INDEX, JUNCTION));
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    console.log(
      `junction walk: mean error ${mean(plain).toFixed(2)} m without, ${mean(weighed).toFixed(2)} m with; median ${median(plain).toFixed(2)} / ${median(weighed).toFixed(2)} m`,
    );
    expect(mean(weighed)).toBeLessThan(mean(plain));
  });
});

describe('tracker state and steps', () => {
  const tracker = new Tracker(INDEX, CORRIDORS);
  const truths = CORRIDOR_WALK.slice(0, 20);

  it('is deterministic: the same (state, observation, seed) gives the same step, in another instance too', () => {
    const first = track(tracker, truths, 5);
    const again = track(new Tracker(INDEX, CORRIDORS), truths, 5);
    expect(again.steps.map((step) => step.state)).toEqual(first.steps.map((step) => step.state));
    // Continued from a stored state by another instance: the same next step.
    const state = first.steps[9].state;
    expect(new Tracker(INDEX, CORRIDORS).step(state, first.observations[10], 'device-1/x')).toEqual(tracker.step(state, first.observations[10], 'device-1/x'));
  });

  it('keeps a state well under 1 KB that round-trips exactly', () => {
    const { steps } = track(tracker, truths, 6);
    const longest = Math.max(...steps.map((step) => new TextEncoder().encode(step.state).length));
    console.log(`state: at most ${longest} bytes`);
    expect(longest).toBeLessThan(400);
    for (const step of steps) expect(JSON.stringify(JSON.parse(step.state))).toBe(step.state);
  });

  it('starts on the first scan, ignores a late or repeated one (null) and starts afresh after a silence', () => {
    const random = seededRandom(8);
    const first = tracker.step(null, observe(truths[0], random), 'a');
    expect(first?.started).toBe('first');
    const second = tracker.step(first!.state, observe(truths[1], random), 'b')!;
    expect(second.started).toBeNull();
    expect(tracker.step(second.state, observe(truths[0], random), 'c')).toBeNull();
    expect(tracker.step(second.state, observe(truths[1], random), 'c')).toBeNull();
    const later = { ...truths[2], time: truths[1].time + 30_001 };
    expect(tracker.step(second.state, observe(later, random), 'd')?.started).toBe('silence');
    const soon = { ...truths[2], time: truths[1].time + 29_000 };
    expect(tracker.step(second.state, observe(soon, random), 'd')?.started).toBeNull();
    expect(new Tracker(INDEX, CORRIDORS, { resetAfterMs: 10_000 }).step(second.state, observe(soon, random), 'd')?.started).toBe('silence');
  });

  it('starts afresh in another building, and where a state cannot be read', () => {
    const random = seededRandom(9);
    const first = tracker.step(null, observe(truths[0], random), 'a')!;
    const elsewhere = new Tracker(INDEX, { ...CORRIDORS, buildingId: 8 });
    expect(elsewhere.step(first.state, observe(truths[1], random), 'b')?.started).toBe('building');
    expect(tracker.step('not a state', observe(truths[1], random), 'b')?.started).toBe('first');
  });

  it('starts afresh when the scans contradict the track: the device is suddenly 35 m away', () => {
    const random = seededRandom(10);
    let state = tracker.step(null, observe(truths[0], random), 'a')!.state;
    for (const truth of truths.slice(1, 10)) state = tracker.step(state, observe(truth, random), 'b')!.state;
    const away = { floor: 1, x: truths[9].x, y: 2 };
    let started: TrackStep['started'] = null;
    for (let i = 1; i <= 2 && !started; i += 1) {
      const step = tracker.step(state, observe({ ...away, time: truths[9].time + 1000 * i }, random), 'c')!;
      started = step.started;
      state = step.state;
    }
    expect(started).toBe('contradiction');
  });
});

describe('tracker in space', () => {
  it('never reports a position outside the floor, where the walk hugs its edge', () => {
    const tracker = new Tracker(INDEX, OPEN);
    const edge = walk(
      [
        { floor: 1, x: 0.2, y: 0.2 },
        { floor: 1, x: 59.8, y: 0.2 },
        { floor: 1, x: 59.8, y: 39.8 },
      ],
      1.2,
    );
    let outsideRaw = 0;
    for (let run = 0; run < 4; run += 1) {
      const { steps, observations } = track(tracker, edge, 40 + run);
      for (const step of steps) {
        expect(step.x).toBeGreaterThanOrEqual(0);
        expect(step.x).toBeLessThanOrEqual(WORLD.width);
        expect(step.y).toBeGreaterThanOrEqual(0);
        expect(step.y).toBeLessThanOrEqual(WORLD.length);
      }
      outsideRaw += observations.filter((o) => o.raw.x < 0 || o.raw.y < 0 || o.raw.x > WORLD.width || o.raw.y > WORLD.length).length;
    }
    // The single-scan estimates do leave the floor there: the test means something.
    expect(outsideRaw).toBeGreaterThan(10);
  });

  it('changes floor at the stairs within 5 s, and only there', () => {
    const tracker = new Tracker(INDEX, CORRIDORS);
    const route = walk(
      [
        { floor: 1, x: 30, y: 20 },
        { floor: 1, x: 55, y: 20 },
        { floor: 2, x: 55, y: 20 },
        { floor: 2, x: 30, y: 20 },
      ],
      1.2,
    );
    const changedAt = route.findIndex((truth) => truth.floor === 2);
    let right = 0;
    for (let run = 0; run < 8; run += 1) {
      const { steps } = track(tracker, route, 60 + run);
      const reflected = steps.findIndex((step, i) => i >= changedAt && step.floorId === 2);
      expect(reflected).toBeGreaterThanOrEqual(changedAt);
      expect(route[reflected].time - route[changedAt].time).toBeLessThanOrEqual(5000);
      expect(steps.slice(reflected).every((step) => step.floorId === 2)).toBe(true);
      expect(steps.slice(0, changedAt).every((step) => step.floorId === 1)).toBe(true);
      right += steps.filter((step, i) => step.floorId === route[i].floor).length;
    }
    expect(right / (route.length * 8)).toBeGreaterThanOrEqual(0.9);
  });

  it('with no graph, follows a change of floor on the evidence within 5 s', () => {
    const tracker = new Tracker(INDEX, OPEN);
    const route = walk(
      [
        { floor: 1, x: 10, y: 20 },
        { floor: 1, x: 30, y: 20 },
        { floor: 2, x: 30, y: 20 },
        { floor: 2, x: 50, y: 20 },
      ],
      1.2,
    );
    const changedAt = route.findIndex((truth) => truth.floor === 2);
    for (let run = 0; run < 8; run += 1) {
      const { steps } = track(tracker, route, 80 + run);
      const reflected = steps.findIndex((step, i) => i >= changedAt && step.floorId === 2);
      expect(route[reflected].time - route[changedAt].time).toBeLessThanOrEqual(5000);
      expect(steps.slice(0, changedAt).every((step) => step.floorId === 1)).toBe(true);
    }
  });
});

describe('tracker cost', () => {
  it('costs well under what the single-scan estimate of the same scan costs (200 beacons, about 30 readings)', () => {
    const grid = beaconGrid(20, 10, 10).map((beacon) => ({ ...beacon, exponent: 2.2, shadowingDb: 4 }));
    const index = new TransmitterIndex(grid);
    const space: TrackerSpace = { width: 200, length: 100, floors: new Map([[1, { level: 0 }]]), paths: null };
    const tracker = new Tracker(index, space);
    const random = seededRandom(12);
    const options = { pathLossExponent: 2.2, shadowingDb: 4, sensitivity: -95, readings: [30, 30] as [number, number] };
    const truths = walk(
      [
        { floor: 1, x: 10, y: 50 },
        { floor: 1, x: 190, y: 50 },
        { floor: 1, x: 190, y: 90 },
        { floor: 1, x: 10, y: 90 },
      ],
      1.2,
    );
    const scans: ScanReading[][] = truths.map((truth) => synthesizeScan(grid, truth, random, options));
    const observations: TrackerObservation[] = scans.map((readings, i) => {
      const raw = estimatePosition(readings, index);
      if (!raw.ok) throw new Error('no estimate');
      return { time: truths[i].time, readings, raw };
    });
    const states: Array<string | null> = [null];
    for (let i = 0; i < observations.length; i += 1) states.push(tracker.step(states[i], observations[i], `d/${i}`)!.state);
    const readings = scans.reduce((sum, scan) => sum + scan.length, 0) / scans.length;
    // The best of several rounds of each, interleaved: the machine may be shared.
    let estimating = Infinity;
    let tracking = Infinity;
    for (let round = 0; round < 12; round += 1) {
      let started = performance.now();
      for (const scan of scans) estimatePosition(scan, index);
      estimating = Math.min(estimating, performance.now() - started);
      started = performance.now();
      for (let i = 0; i < observations.length; i += 1) tracker.step(states[i], observations[i], `d/${i}`);
      tracking = Math.min(tracking, performance.now() - started);
    }
    const perScan = (ms: number) => ((ms * 1000) / scans.length).toFixed(1);
    console.log(
      `${readings.toFixed(1)} readings a scan: estimatePosition ${perScan(estimating)} µs, tracker.step ${perScan(tracking)} µs (${(tracking / estimating).toFixed(2)}x)`,
    );
    expect(tracking).toBeLessThan(estimating);
  });
});
