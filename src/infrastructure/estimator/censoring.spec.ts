import { describe, expect, it } from 'vitest';
import { beaconGrid, ISSUE_31_WORLD, seededRandom, SyntheticBuilding, WorldOptions } from '../../../test/support/synthetic-scans';
import { calibrate, CalibrationScan, calibrationScan } from './calibration';
import { censoredTerm, censoringThreshold, logPhi, MISS_PROBABILITY } from './censoring';
import { calibratedIndex, emptyStatistics, FloorRadio, FloorStatistics, mergeStatistics, RADIO_PRIOR, solveModel } from './radio-model';
import { DEFAULT_ESTIMATOR_OPTIONS, estimatePosition, TransmitterIndex } from './scan-estimator';
import { KnownTransmitter, transmitterKey } from './transmitter';

/** Issue 36's building: 10 m grid, true powers −59 ± 3 dB, 15 dB a floor, 3.5 m storeys, a scanner that cuts at −95 dBm and keeps its strongest 30. */
const ISSUE_36_WORLD: WorldOptions = { ...ISSUE_31_WORLD, floors: 2, storeyM: 3.5, sensitivity: -95, readings: [30, 30] };

const phi = (z: number) => 0.5 * (1 + erf(z / Math.SQRT2));
/** erf by its Taylor series (exact enough for |x| < 3). */
function erf(x: number): number {
  let sum = 0;
  let term = x;
  for (let n = 0; n < 80; n += 1) {
    sum += term / (2 * n + 1);
    term *= (-x * x) / (n + 1);
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}

describe('the censored term', () => {
  it('log Φ agrees with Φ in the body and stays finite far in the lower tail', () => {
    for (const z of [-3, -1.5, -0.3, 0, 0.7, 2, 3]) expect(logPhi(z)).toBeCloseTo(Math.log(phi(z)), 6);
    // log Φ(−10) = −53.2312 (Mills ratio): no underflow to −∞.
    expect(logPhi(-10)).toBeCloseTo(-53.2312, 3);
    expect(logPhi(8)).toBeCloseTo(0, 12);
  });

  it('costs −2 log P(not heard), with the slope and curvature of −log P in μ', () => {
    const p = MISS_PROBABILITY;
    const sigma = 4;
    const threshold = -90;
    const negLog = (mu: number) => -Math.log(p + (1 - p) * phi((threshold - mu) / sigma));
    for (const mu of [-100, -95, -91, -88, -80]) {
      const z = (threshold - mu) / sigma;
      const term = { ...censoredTerm(z) };
      expect(term.cost).toBeCloseTo(2 * negLog(mu), 5);
      const h = 1e-3;
      const slope = (negLog(mu + h) - negLog(mu - h)) / (2 * h);
      expect(term.lambda / sigma).toBeCloseTo(slope, 5);
      const curvature = (negLog(mu + h) - 2 * negLog(mu) + negLog(mu - h)) / (h * h);
      // The fits' weight is the curvature where it is convex, never a negative one.
      expect(term.curvature / sigma ** 2).toBeCloseTo(Math.max(0, curvature), 3);
      expect(term.curvature).toBeGreaterThanOrEqual(0);
    }
    // A transmitter the model expects far below the threshold says nothing.
    expect({ ...censoredTerm(3.5) }).toEqual({ cost: 0, lambda: 0, curvature: 0 });
    // One expected far above it and not heard costs at most a miss: −2 log p.
    expect(censoredTerm(-30).cost).toBeCloseTo(-2 * Math.log(p), 6);
  });

  it('puts the threshold at the weakest reading less the rounding', () => {
    expect(censoringThreshold([{ rssi: -70 }, { rssi: -93 }, { rssi: -81 }])).toBe(-92.5);
  });
});

describe('a position that knows what was not heard', () => {
  it('places scans of a scanner that keeps its strongest 10 closer to the truth than the heard readings alone', () => {
    // The true model known (as after calibration): what is left is what the censored terms add.
    const building = new SyntheticBuilding({ ...ISSUE_36_WORLD, floors: 1, readings: [10, 10] }, 21);
    const sigma = Math.sqrt(16 + 1 / 12);
    const index = new TransmitterIndex(building.trueTransmitters().map((transmitter) => ({ ...transmitter, exponent: 2.5, shadowingDb: sigma })));
    const random = seededRandom(8);
    const errors = { censored: [] as number[], heardOnly: [] as number[] };
    for (let trial = 0; trial < 400; trial += 1) {
      const at = building.randomPosition(random, 1);
      const scan = building.scanAt(at, random);
      if (scan.length < 3) continue;
      for (const [name, options] of [
        ['censored', DEFAULT_ESTIMATOR_OPTIONS],
        ['heardOnly', { ...DEFAULT_ESTIMATOR_OPTIONS, censoring: false }],
      ] as const) {
        const estimate = estimatePosition(scan, index, options);
        if (estimate.ok) errors[name].push(Math.hypot(estimate.x - at.x, estimate.y - at.y));
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    expect(errors.censored.length).toBeGreaterThan(350);
    expect(median(errors.censored)).toBeLessThan(0.9 * median(errors.heardOnly));
  });

  it('places a scan that heard one or two transmitters by those it did not hear, with an accuracy that holds', () => {
    // n = 3.5 and a −95 dBm cut: about 10 m of range on a 10 m grid, so many scans hear one or two beacons.
    const building = new SyntheticBuilding({ ...ISSUE_36_WORLD, floors: 1, exponent: 3.5 }, 23);
    const sigma = Math.sqrt(16 + 1 / 12);
    const index = new TransmitterIndex(building.trueTransmitters().map((transmitter) => ({ ...transmitter, exponent: 3.5, shadowingDb: sigma })));
    const random = seededRandom(4);
    const errors = { censored: [] as number[], heardOnly: [] as number[] };
    let within = 0;
    while (errors.censored.length < 200) {
      const at = building.randomPosition(random, 1);
      const scan = building.scanAt(at, random);
      if (scan.length === 0 || scan.length > 2) continue;
      const censored = estimatePosition(scan, index);
      const heardOnly = estimatePosition(scan, index, { ...DEFAULT_ESTIMATOR_OPTIONS, censoring: false });
      if (!censored.ok || !heardOnly.ok) throw new Error('rejected');
      const error = Math.hypot(censored.x - at.x, censored.y - at.y);
      errors.censored.push(error);
      errors.heardOnly.push(Math.hypot(heardOnly.x - at.x, heardOnly.y - at.y));
      if (error <= censored.accuracy) within += 1;
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    expect(median(errors.censored)).toBeLessThan(0.8 * median(errors.heardOnly));
    expect(within / errors.censored.length).toBeGreaterThanOrEqual(0.68);
  });

  it.each([-95, -105])('on a fresh floor, places noise-free scans (cut at %s dBm, strongest 30) within 1 m for any exponent from 1.8 to 3.5, edges included', (sensitivity) => {
    const beacons = beaconGrid(6, 4, 10);
    const index = new TransmitterIndex(beacons);
    const random = seededRandom(3);
    for (const exponent of [1.8, 2, 2.5, 3, 3.5]) {
      let worst = 0;
      let placed = 0;
      for (let trial = 0; trial < 150; trial += 1) {
        // Anywhere in the grid's 60 × 40 m, its outer half-cells (beyond the beacons) included.
        const at = { x: random() * 60, y: random() * 40 };
        const scan = beacons
          .map((beacon) => ({
            key: beacon.key,
            kind: 'ble' as const,
            rssi: beacon.referenceRssi - 10 * exponent * Math.log10(Math.max(0.5, Math.hypot(at.x - beacon.x, at.y - beacon.y))),
          }))
          .filter((reading) => reading.rssi >= sensitivity)
          .sort((a, b) => b.rssi - a.rssi)
          .slice(0, 30);
        if (scan.length < 6) continue;
        const estimate = estimatePosition(scan, index);
        if (!estimate.ok) throw new Error('rejected');
        worst = Math.max(worst, Math.hypot(estimate.x - at.x, estimate.y - at.y));
        placed += 1;
      }
      if (sensitivity === -105) expect(placed, `n = ${exponent}`).toBeGreaterThan(100);
      expect(worst, `n = ${exponent}`).toBeLessThan(1);
    }
  });
});

/** The server's running calibration on one floor of `building`: batches of 250 scans, each placed first by the estimator of the model so far. */
function runCalibration(building: SyntheticBuilding, floor: number, batches: number, seed: number, censoring = true): number[] {
  const random = seededRandom(seed);
  const registered = new TransmitterIndex(building.transmitters);
  let statistics: FloorStatistics = emptyStatistics();
  const exponents: number[] = [];
  for (let batch = 0; batch < batches; batch += 1) {
    const radios = new Map<number, FloorRadio>([[floor, { model: solveModel(statistics), estimation: { method: 'model', accuracyScale: 1 } }]]);
    const index = statistics.scans > 0 ? calibratedIndex(building.transmitters, radios) : registered;
    const scans: CalibrationScan[] = [];
    while (scans.length < 250) {
      const readings = building.scanAt(building.randomPosition(random, floor), random);
      const estimate = estimatePosition(readings, index);
      if (!estimate.ok || estimate.floorId !== floor || estimate.method === 'single') continue;
      const scan = calibrationScan(readings, registered, floor, { x: estimate.x, y: estimate.y, known: false });
      if (scan.readings.length < 3) continue;
      // Without censoring: the heard readings of the floor alone, as before issue 36.
      scans.push(censoring ? scan : { ...scan, readings: scan.readings.filter((reading) => reading.lossDb === undefined), censored: [] });
    }
    statistics = mergeStatistics(statistics, calibrate(scans, statistics).contribution, 20_000);
    exponents.push(solveModel(statistics).exponent);
  }
  return exponents;
}

describe('self-calibration with a scanner that cuts at −95 dBm and keeps its strongest 30', () => {
  it.each([1.8, 2.5, 3.5])('fits a true exponent of %s within 0.2 from 1,000 scans, never drifting away as scans accumulate', (exponent) => {
    const building = new SyntheticBuilding({ ...ISSUE_36_WORLD, exponent }, 11);
    const exponents = runCalibration(building, 1, 4, 5);
    expect(Math.abs(exponents.at(-1)! - exponent)).toBeLessThan(0.2);
    // Each batch leaves the fit no further from the truth than the one before (up to its noise).
    for (let i = 1; i < exponents.length; i += 1) expect(Math.abs(exponents[i] - exponent)).toBeLessThan(Math.abs(exponents[i - 1] - exponent) + 0.05);
  });

  it('is biased low without the censored terms (what the self-calibration review measured)', () => {
    const building = new SyntheticBuilding({ ...ISSUE_36_WORLD, exponent: 2.5 }, 11);
    const heardOnly = runCalibration(building, 1, 4, 5, false);
    expect(heardOnly.at(-1)!).toBeLessThan(2.5 - 0.25);
  });
});

describe('whether the scans tell the exponent', () => {
  const prior = RADIO_PRIOR;
  it('keeps the prior and says so with no scans, or with scans that cannot tell it', () => {
    expect(solveModel(emptyStatistics()).exponentFit).toEqual({ state: 'prior', reason: 'no scans yet', sd: prior.exponentSd });
    // A few scans all at one distance: n and the offset trade off exactly.
    const weak: FloorStatistics = { ...emptyStatistics(), scans: 5, hnn: 5, bn: 5 * 3.2, transmitters: { 'ble:1': { h: 5, hn: -5, b: -5 * 3.2 + 5 * 0.4, readings: 5 } } };
    const model = solveModel(weak);
    expect(model.exponentFit?.state).toBe('prior');
    expect(model.exponent).toBe(prior.exponent);
  });

  it('keeps the prior, not a bound, when the evidence points outside the plausible range', () => {
    // Evidence for n = 6: far beyond 4.5.
    const statistics: FloorStatistics = { ...emptyStatistics(), scans: 400, hnn: 4000, bn: 4000 * 6 };
    const model = solveModel(statistics);
    expect(model.exponentFit).toMatchObject({ state: 'unidentified', reason: expect.stringContaining('6.00') });
    expect(model.exponent).toBe(prior.exponent);
  });

  it('reports the fitted exponent with its standard deviation', () => {
    const statistics: FloorStatistics = { ...emptyStatistics(), scans: 400, hnn: 4000, bn: 4000 * 2.2 };
    const model = solveModel(statistics);
    expect(model.exponentFit?.state).toBe('fitted');
    expect(model.exponent).toBeCloseTo(2.2, 1);
    expect(model.exponentFit!.sd).toBeLessThan(0.02);
  });
});

describe('the floors above and below', () => {
  it("enter a floor's fit through the offsets its model learnt, with the height between the floors", () => {
    const below = beaconGrid(3, 3, 10, 1).map((beacon) => ({ ...beacon, level: 0, z: 0 }));
    const above: KnownTransmitter[] = beaconGrid(3, 3, 10, 2).map((beacon) => ({ ...beacon, id: beacon.id + 100, key: `${beacon.key}:up`, level: 1, z: 3.5 }));
    const all = [...below, ...above];
    // Floor 1's model has learnt what floor 2's beacon 105 (above the middle, 15, 15) sends through the floor: registered − 15 dB + 2 dB.
    const offsets = new Map<string, number>([...below.map((beacon) => [transmitterKey(beacon), 0] as [string, number]), [transmitterKey(above[4]), 2]]);
    const model = { exponent: 2.5, offsets, shadowingDb: { ble: 4, wifi: 6 } };
    const index = calibratedIndex(all, new Map([[1, { model, estimation: { method: 'model' as const, accuracyScale: 1 } }]]));
    const adjacent = index.floor(1)?.adjacent;
    expect(adjacent?.get(transmitterKey(above[4]))).toMatchObject({ reference: -59 - 15 + 2, dz2: 3.5 ** 2, x: 15, y: 15 });
    // Only what the model has learnt: the other beacons upstairs have no offset on floor 1.
    expect(adjacent?.size).toBe(1);
    // Floor 1's beacons heard are on one line (y = 5): alone, they cannot tell which side of it the device is.
    const at = { x: 12, y: 11 };
    const rssi = (reference: number, x: number, y: number, dz = 0) => reference - 10 * 2.5 * Math.log10(Math.hypot(at.x - x, at.y - y, dz));
    const scan = [
      ...[below[0], below[1], below[2]].map((beacon) => ({ key: beacon.key, kind: 'ble' as const, rssi: rssi(-59, beacon.x, beacon.y) })),
      { key: above[4].key, kind: 'ble' as const, rssi: rssi(-59 - 15 + 2, above[4].x, above[4].y, 3.5) },
    ];
    const withAbove = estimatePosition(scan, index, { ...DEFAULT_ESTIMATOR_OPTIONS, censoring: false });
    const withoutAbove = estimatePosition(scan.slice(0, 3), index, { ...DEFAULT_ESTIMATOR_OPTIONS, censoring: false });
    expect(withAbove.ok && withoutAbove.ok && withAbove.floorId).toBe(1);
    if (!withAbove.ok || !withoutAbove.ok) return;
    expect(Math.hypot(withAbove.x - at.x, withAbove.y - at.y)).toBeLessThan(1);
    expect(Math.hypot(withoutAbove.x - at.x, withoutAbove.y - at.y)).toBeGreaterThan(4);
    expect(withAbove.used.map((used) => used.id)).toContain(above[4].id);
  });
});
