import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ISSUE_31_WORLD, seededRandom, SyntheticBuilding, WorldOptions } from '../../../test/support/synthetic-scans';
import { BatchCalibration, calibrate, CalibrationScan, EVIDENCE_SLICE_SCANS } from './calibration';
import { addStatistics, emptyStatistics, mergeStatistics, RADIO_PRIOR, solveModel } from './radio-model';
import { estimatePosition, TransmitterIndex } from './scan-estimator';
import { transmitterKey } from './transmitter';

/** One floor, every beacon heard (no truncation), as in a survey. */
const ONE_FLOOR: WorldOptions = { ...ISSUE_31_WORLD, floors: 1, readings: [24, 24], sensitivity: -140 };

function scansOf(building: SyntheticBuilding, count: number, seed: number, known: boolean): CalibrationScan[] {
  const random = seededRandom(seed);
  const byKey = new Map(building.transmitters.map((transmitter) => [transmitter.key, transmitter]));
  const index = new TransmitterIndex(building.transmitters);
  return Array.from({ length: count }, () => {
    const at = building.randomPosition(random, 1);
    const readings = building.scanAt(at, random);
    // Unknown positions start where the uncalibrated estimator puts them, as on the server.
    const estimate = estimatePosition(readings, index);
    const start = known || !estimate.ok ? at : estimate;
    return { x: start.x, y: start.y, known, readings: readings.map((reading) => ({ transmitter: byKey.get(reading.key)!, rssi: reading.rssi })) };
  });
}

const offsetsError = (building: SyntheticBuilding, offsets: Map<string, number>) => {
  // The offsets relative to their mean (the exponent and a common offset trade off a little).
  const pairs = building.transmitters.map((transmitter) => [
    offsets.get(transmitterKey(transmitter)) ?? 0,
    building.truePower.get(transmitter.id)! - building.options.registeredRssi,
  ]);
  const meanFitted = pairs.reduce((sum, [fitted]) => sum + fitted, 0) / pairs.length;
  const meanTrue = pairs.reduce((sum, [, truth]) => sum + truth, 0) / pairs.length;
  return Math.sqrt(pairs.reduce((sum, [fitted, truth]) => sum + (fitted - meanFitted - (truth - meanTrue)) ** 2, 0) / pairs.length);
};

describe('calibration from reference scans (known positions)', () => {
  it.each([1.8, 2.5, 3.5])('recovers a true exponent of %s and every beacon offset within 1 dB from 200 scans', (exponent) => {
    const building = new SyntheticBuilding({ ...ONE_FLOOR, exponent, shadowingDb: 4 }, 7);
    const { model } = calibrate(scansOf(building, 200, 3, true), emptyStatistics());
    expect(model.exponent).toBeCloseTo(exponent, 1);
    expect(offsetsError(building, model.offsets)).toBeLessThan(1);
    expect(model.shadowingDb.ble).toBeGreaterThan(3.5);
    expect(model.shadowingDb.ble).toBeLessThan(4.5);
  });
});

describe('self-calibration from scans at unknown positions', () => {
  it('recovers the exponent and offsets exactly from noise-free scans, starting from the prior', () => {
    const building = new SyntheticBuilding({ ...ONE_FLOOR, exponent: 2, shadowingDb: 0 }, 9);
    const scans = scansOf(building, 300, 5, false).map((scan) => ({ ...scan, readings: scan.readings.map((reading) => ({ ...reading, rssi: reading.rssi })) }));
    let statistics = emptyStatistics();
    for (let start = 0; start < scans.length; start += 100) {
      statistics = mergeStatistics(statistics, calibrate(scans.slice(start, start + 100), statistics).contribution, 10_000);
    }
    const model = solveModel(statistics);
    // Rounded RSSI (1 dB steps) is the only noise.
    expect(model.exponent).toBeGreaterThan(1.9);
    expect(model.exponent).toBeLessThan(2.1);
    expect(offsetsError(building, model.offsets)).toBeLessThan(0.6);
  });

  it('moves from the prior to the truth with 4 dB shadowing', () => {
    const building = new SyntheticBuilding({ ...ONE_FLOOR, exponent: 1.8, shadowingDb: 4 }, 13);
    const { model } = calibrate(scansOf(building, 500, 8, false), emptyStatistics());
    expect(model.exponent).toBeGreaterThan(1.6);
    expect(model.exponent).toBeLessThan(2.0);
    expect(offsetsError(building, model.offsets)).toBeLessThan(1.5);
  });

  it('with a handful of scans stays near the prior: the exponent within its bounds, offsets small', () => {
    const building = new SyntheticBuilding({ ...ONE_FLOOR, exponent: 3.5, shadowingDb: 6 }, 21);
    const { model } = calibrate(scansOf(building, 3, 4, false), emptyStatistics());
    expect(model.exponent).toBeGreaterThanOrEqual(RADIO_PRIOR.exponentBounds[0]);
    expect(model.exponent).toBeLessThanOrEqual(RADIO_PRIOR.exponentBounds[1]);
    expect(Math.abs(model.exponent - RADIO_PRIOR.exponent)).toBeLessThan(0.8);
    for (const offset of model.offsets.values()) expect(Math.abs(offset)).toBeLessThan(2.5 * RADIO_PRIOR.offsetSd);
    expect(solveModel(emptyStatistics())).toMatchObject({ exponent: RADIO_PRIOR.exponent, shadowingDb: RADIO_PRIOR.shadowingDb });
  });

  it('keeps the exponent within its bounds whatever the scans say (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 6, noNaN: true }),
        fc.double({ min: 0, max: 12, noNaN: true }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 1000 }),
        (exponent, shadowingDb, count, seed) => {
          const building = new SyntheticBuilding({ ...ONE_FLOOR, exponent, shadowingDb }, seed);
          const { model } = calibrate(scansOf(building, count, seed, seed % 2 === 0), emptyStatistics());
          expect(model.exponent).toBeGreaterThanOrEqual(RADIO_PRIOR.exponentBounds[0]);
          expect(model.exponent).toBeLessThanOrEqual(RADIO_PRIOR.exponentBounds[1]);
          for (const offset of model.offsets.values()) expect(Math.abs(offset)).toBeLessThanOrEqual(RADIO_PRIOR.offsetBound);
          expect(model.shadowingDb.ble).toBeGreaterThanOrEqual(RADIO_PRIOR.minShadowingDb);
        },
      ),
      { seed: 31, numRuns: 40 },
    );
  });
});

describe('statistics', () => {
  it('add up: two halves merged give the model of the whole, in either order (two instances)', () => {
    const building = new SyntheticBuilding({ ...ONE_FLOOR, exponent: 2.5, shadowingDb: 4 }, 2);
    const scans = scansOf(building, 200, 6, true);
    const first = calibrate(scans.slice(0, 100), emptyStatistics()).contribution;
    const second = calibrate(scans.slice(100), emptyStatistics()).contribution;
    const ab = solveModel(mergeStatistics(mergeStatistics(emptyStatistics(), first, 10_000), second, 10_000));
    const ba = solveModel(mergeStatistics(mergeStatistics(emptyStatistics(), second, 10_000), first, 10_000));
    expect(ab.exponent).toBeCloseTo(ba.exponent, 10);
    const whole = calibrate(scans, emptyStatistics()).model;
    expect(ab.exponent).toBeCloseTo(whole.exponent, 1);
  });

  it('forget the oldest beyond the cap: the sum rests on at most that many scans', () => {
    const building = new SyntheticBuilding({ ...ONE_FLOOR, exponent: 2.5, shadowingDb: 4 }, 2);
    const contribution = calibrate(scansOf(building, 100, 6, true), emptyStatistics()).contribution;
    let statistics = emptyStatistics();
    for (let i = 0; i < 10; i += 1) statistics = mergeStatistics(statistics, contribution, 300);
    expect(statistics.scans).toBeCloseTo(300, 6);
    expect(addStatistics(statistics, statistics, 1, -1).hnn).toBeCloseTo(0, 6);
  });
});

describe('a batch fitted a slice at a time', () => {
  it('pauses after every 100 scans of a pass, and ends where calibrate ends', () => {
    const building = new SyntheticBuilding({ ...ONE_FLOOR, exponent: 2.5, shadowingDb: 4 }, 11);
    const scans = scansOf(building, 250, 13, false);
    const job = new BatchCalibration(scans, emptyStatistics());
    let calls = 1;
    while (!job.step()) calls += 1;
    // 250 scans: three slices a Gauss–Newton step (100, 100, 50), the last one updating the model.
    expect(calls % Math.ceil(250 / EVIDENCE_SLICE_SCANS)).toBe(0);
    expect(calls).toBeGreaterThanOrEqual(3);
    const whole = calibrate(scans, emptyStatistics());
    expect(job.result().model.exponent).toBe(whole.model.exponent);
    expect(job.result().contribution).toEqual(whole.contribution);
  });
});
