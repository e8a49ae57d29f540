import { describe, expect, it } from 'vitest';
import { ISSUE_31_WORLD, seededRandom, SyntheticBuilding, WorldOptions } from '../../../test/support/synthetic-scans';
import { fitReferences, MIN_REFERENCE_SCANS, ReferenceFit, ReferenceScan, vectorOf } from './cross-validation';
import { FingerprintIndex } from './fingerprints';
import { calibratedIndex, solveModel } from './radio-model';
import { CalibrationQueue, RUNNING_CALIBRATION } from './running-calibration';
import { estimatePosition, FloorEstimation } from './scan-estimator';

const ONE_FLOOR: WorldOptions = { ...ISSUE_31_WORLD, floors: 1 };

function survey(building: SyntheticBuilding, spacing: number, scansPerPoint: number, seed: number): ReferenceScan[] {
  const random = seededRandom(seed);
  const scans: ReferenceScan[] = [];
  for (let x = spacing / 2; x < building.options.width; x += spacing) {
    for (let y = spacing / 2; y < building.options.length; y += spacing) {
      for (let i = 0; i < scansPerPoint; i += 1) scans.push({ x, y, readings: building.scanAt({ floor: 1, x, y }, random) });
    }
  }
  return scans;
}

describe('k-NN fingerprints', () => {
  it('averages the scans of a point and places a scan taken there at that point', () => {
    const index = new FingerprintIndex([
      {
        x: 0,
        y: 0,
        readings: new Map([
          ['a', -50],
          ['b', -80],
        ]),
      },
      {
        x: 0,
        y: 0.1,
        readings: new Map([
          ['a', -54],
          ['b', -84],
        ]),
      },
      {
        x: 10,
        y: 0,
        readings: new Map([
          ['a', -80],
          ['b', -50],
        ]),
      },
      {
        x: 5,
        y: 0,
        readings: new Map([
          ['a', -65],
          ['b', -65],
        ]),
      },
    ]);
    expect(index.size).toBe(3);
    const fix = index.locate(
      new Map([
        ['a', -52],
        ['b', -82],
      ]),
      1,
    )!;
    expect(fix).toMatchObject({ x: 0, y: 0, spread: 0 });
    expect(fix.nearestDb).toBeCloseTo(0, 6);
    // Two neighbours: weighted towards the nearer in signal space; a point left out is never used.
    const between = index.locate(
      new Map([
        ['a', -60],
        ['b', -70],
      ]),
      2,
    )!;
    expect(between.x).toBeGreaterThan(2);
    expect(between.x).toBeLessThan(5);
    expect(
      index.locate(
        new Map([
          ['a', -65],
          ['b', -65],
        ]),
        1,
        index.pointAt(5, 0),
      )!.x,
    ).not.toBe(5);
  });

  it('takes a transmitter one side did not hear as weaker than its weakest reading, not as missing', () => {
    const index = new FingerprintIndex([
      {
        x: 0,
        y: 0,
        readings: new Map([
          ['a', -50],
          ['b', -70],
        ]),
      },
      {
        x: 20,
        y: 0,
        readings: new Map([
          ['c', -50],
          ['d', -70],
        ]),
      },
    ]);
    // Heard a and c at −50, nothing else: c weak at the first point would have been missed, so both fit; a's −50 decides.
    expect(index.locate(new Map([['a', -52]]), 1)!.x).toBe(0);
    expect(index.locate(new Map([['c', -52]]), 1)!.x).toBe(20);
  });
});

describe('choosing per floor by leave-one-out cross-validation', () => {
  it('with shadowing independent per scan, prefers the model the references fit (fingerprints cannot know more)', () => {
    const building = new SyntheticBuilding({ ...ONE_FLOOR, exponent: 2.5, shadowingDb: 4 }, 3);
    const fit = fitReferences(1, survey(building, 5, 3, 1), building.transmitters);
    expect(fit.points).toBe(96);
    expect(fit.estimation.method).toBe('model');
    expect(fit.model!.median).toBeLessThan(fit.fingerprint!.median);
    expect(fit.statistics.scans).toBe(288);
  });

  it('with static shadowing (walls, shelves), prefers the radio map, and places scans better with it than with the model', () => {
    const building = new SyntheticBuilding({ ...ONE_FLOOR, exponent: 2.5, shadowingDb: 4, staticShare: 0.5 }, 5);
    const fit = fitReferences(1, survey(building, 5, 3, 2), building.transmitters, { keepMap: true });
    expect(fit.estimation.method).toBe('map');
    expect(fit.map!.median).toBeLessThan(0.8 * fit.model!.median);
    expect(fit.map!.median).toBeLessThan(fit.fingerprint!.median);
    const errors = liveErrors(building, fit, ['model', 'map'], 300);
    expect(median(errors.map)).toBeLessThan(0.8 * median(errors.model));
  });

  it('with shadowing independent per scan keeps no radio map (nothing static to interpolate)', () => {
    const building = new SyntheticBuilding({ ...ONE_FLOOR, exponent: 2, shadowingDb: 4 }, 6);
    const fit = fitReferences(1, survey(building, 5, 3, 3), building.transmitters);
    expect(fit.estimation.method).toBe('model');
    expect(fit.map).toBeNull();
    expect(fit.estimation.radioMap).toBeUndefined();
  });

  it('prefers k-NN where most of what is heard is not registered (k-NN uses every transmitter, the model and the map only the registered)', () => {
    const building = new SyntheticBuilding({ ...ONE_FLOOR, exponent: 2.5, shadowingDb: 4, staticShare: 0.5 }, 7);
    // Three of the floor's 24 beacons registered, in a corner: the rest are heard but unknown to the model.
    const registered = building.transmitters.filter((transmitter) => [1, 2, 7].includes(transmitter.id));
    const fit = fitReferences(1, survey(building, 5, 3, 4), registered);
    expect(fit.estimation.method).toBe('fingerprint');
    expect(fit.fingerprint!.median).toBeLessThan(fit.model!.median);
    if (fit.map) expect(fit.fingerprint!.median).toBeLessThan(fit.map.median);
    const errors = liveErrors(building, fit, ['model', 'fingerprint'], 300, registered);
    expect(median(errors.fingerprint)).toBeLessThan(median(errors.model));
  });

  it('with too few reference scans fits nothing and keeps the model', () => {
    const building = new SyntheticBuilding(ONE_FLOOR, 3);
    const fit = fitReferences(1, survey(building, 20, 1, 1).slice(0, MIN_REFERENCE_SCANS - 1), building.transmitters);
    expect(fit).toMatchObject({ model: null, fingerprint: null, map: null, estimation: { method: 'model', accuracyScale: 1 } });
    expect(fit.statistics.scans).toBe(0);
  });

  it('calibrates the reported accuracy so that it holds for about two fixes in three of the held-out scans', () => {
    const building = new SyntheticBuilding({ ...ONE_FLOOR, exponent: 3, shadowingDb: 4 }, 8);
    const fit = fitReferences(1, survey(building, 5, 2, 4), building.transmitters);
    expect(fit.model!.coverage).toBeGreaterThanOrEqual(0.68);
    expect(fit.fingerprint!.coverage).toBeGreaterThanOrEqual(0.6);
    expect(
      vectorOf([
        { key: 'a', kind: 'ble', rssi: -70 },
        { key: 'a', kind: 'ble', rssi: -60 },
      ]).get('a'),
    ).toBe(-60);
  });
});

describe('the running calibration queue', () => {
  it('keeps every scan while learning, closes a batch on its size or its age, and samples once learnt', () => {
    const queue = new CalibrationQueue({ ...RUNNING_CALIBRATION, batchScans: 10, minBatchScans: 3, maxWaitMs: 1000, learningScans: 100, steadyScansPerMinute: 2 });
    const scan = { readings: [], x: 0, y: 0, known: false };
    for (let i = 0; i < 9; i += 1) {
      expect(queue.wants(1, 0, 0)).toBe(true);
      queue.add(1, scan, 0);
    }
    expect(queue.hasDue(0)).toBe(false);
    queue.add(1, scan, 0);
    expect(queue.due(0)).toEqual([{ floorId: 1, scans: Array(10).fill(scan) }]);
    queue.add(2, scan, 0);
    queue.add(2, scan, 0);
    queue.add(2, scan, 0);
    expect(queue.due(999)).toEqual([]);
    expect(queue.due(1000)).toHaveLength(1);
    // Learnt (the model rests on 100 scans): two a minute.
    expect(queue.wants(3, 100, 0)).toBe(true);
    queue.add(3, scan, 0);
    expect(queue.wants(3, 100, 1)).toBe(true);
    queue.add(3, scan, 1);
    expect(queue.wants(3, 100, 2)).toBe(false);
    expect(queue.wants(3, 100, 60_001)).toBe(true);
    expect(queue.due(60_001, true)).toEqual([{ floorId: 3, scans: [scan, scan] }]);
    expect(queue.waiting).toBe(0);
  });
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Errors of live scans at random places of floor 1, placed by each method with the fit's model. */
function liveErrors<M extends FloorEstimation['method']>(
  building: SyntheticBuilding,
  fit: ReferenceFit,
  methods: M[],
  scans: number,
  transmitters = building.transmitters,
): Record<M, number[]> {
  const random = seededRandom(9);
  const indices = methods.map((method) => [method, calibratedIndex(transmitters, new Map([[1, { model: modelOf(fit), estimation: { ...fit.estimation, method } }]]))] as const);
  const errors = Object.fromEntries(methods.map((method) => [method, [] as number[]])) as Record<M, number[]>;
  for (let i = 0; i < scans; i += 1) {
    const at = building.randomPosition(random, 1);
    const scan = building.scanAt(at, random);
    for (const [method, index] of indices) {
      const estimate = estimatePosition(scan, index);
      if (estimate.ok) errors[method].push(Math.hypot(estimate.x - at.x, estimate.y - at.y));
    }
  }
  return errors;
}

/** The model the references support: solved from their statistics. */
const modelOf = (fit: ReturnType<typeof fitReferences>) => solveModel(fit.statistics);
