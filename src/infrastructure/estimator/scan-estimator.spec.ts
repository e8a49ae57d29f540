import { describe, expect, it } from 'vitest';
import { DEFAULT_ESTIMATOR_OPTIONS, estimatePosition, ScanReading, TransmitterIndex } from './scan-estimator';
import { beaconGrid, beaconKey, DEFAULT_SCAN_OPTIONS, gaussian, seededRandom, synthesizeScan } from '../../../test/support/synthetic-scans';
import { KnownTransmitter } from './transmitter';

/** 20 × 10 beacons on a 10 m grid: a 200 m × 100 m floor. */
const GRID = beaconGrid(20, 10, 10);
const INDEX = new TransmitterIndex(GRID);

interface Figures {
  median: number;
  p90: number;
  /** Share of fixes whose true position lies within the reported accuracy. */
  calibration: number;
  rejected: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** Fixes at uniform random positions inside the grid (seeded): error and calibration figures. */
export function evaluate(shadowingDb: number, scans = 2000, seed = 42, transmitters: KnownTransmitter[] = GRID, area = { width: 200, height: 100 }): Figures {
  const random = seededRandom(seed);
  const index = transmitters === GRID ? INDEX : new TransmitterIndex(transmitters);
  const errors: number[] = [];
  let within = 0;
  let rejected = 0;
  for (let scan = 0; scan < scans; scan += 1) {
    const at = { x: random() * area.width, y: random() * area.height };
    const estimate = estimatePosition(synthesizeScan(transmitters, at, random, { ...DEFAULT_SCAN_OPTIONS, shadowingDb }), index);
    if (!estimate.ok) {
      rejected += 1;
      continue;
    }
    const error = Math.hypot(estimate.x - at.x, estimate.y - at.y);
    errors.push(error);
    if (error <= estimate.accuracy) within += 1;
  }
  errors.sort((a, b) => a - b);
  return { median: quantile(errors, 0.5), p90: quantile(errors, 0.9), calibration: within / errors.length, rejected };
}

const ble = (transmitter: KnownTransmitter, rssi: number): ScanReading => ({ key: transmitter.key, kind: 'ble', rssi });

describe('scan estimator on synthetic scans (seeded)', () => {
  it('with 4 dB shadowing: median error under 2 m, 90th percentile under 4 m, accuracy holds for at least 68 % of fixes', () => {
    const figures = evaluate(4);
    expect(figures.rejected).toBe(0);
    expect(figures.median).toBeLessThan(2);
    expect(figures.p90).toBeLessThan(4);
    expect(figures.calibration).toBeGreaterThanOrEqual(0.68);
  });

  it.each([2, 6])('with %d dB shadowing the accuracy stays honest (at least 68 percent of fixes within it)', (shadowingDb) => {
    const figures = evaluate(shadowingDb);
    expect(figures.calibration).toBeGreaterThanOrEqual(0.68);
    // More noise, more error: 2 dB must beat the 4 dB bounds, 6 dB may not.
    if (shadowingDb === 2) expect(figures.median).toBeLessThan(1.5);
  });

  it('prints the figures of the README table', () => {
    const rows = [2, 4, 6].map((db) => ({ db, ...evaluate(db) }));
    console.log(rows.map((row) => `| ${row.db} dB | ${row.median.toFixed(2)} m | ${row.p90.toFixed(2)} m | ${(row.calibration * 100).toFixed(1)} % |`).join('\n'));
    expect(rows[0].median).toBeLessThan(rows[2].median);
  });

  it('estimates well over 5,000 scans per second (scans of 10 to 30 readings, 200 beacons)', () => {
    const random = seededRandom(7);
    const scans = Array.from({ length: 2000 }, () => synthesizeScan(GRID, { x: random() * 200, y: random() * 100 }, random));
    // The best of several rounds: the machine may be shared, and the question is what the code can do.
    let best = Infinity;
    for (let round = 0; round < 10; round += 1) {
      const started = performance.now();
      for (const scan of scans) estimatePosition(scan, INDEX);
      best = Math.min(best, performance.now() - started);
    }
    const perSecond = scans.length / (best / 1000);
    console.log(`estimator: ${Math.round(perSecond)} scans/s`);
    // Measured on an idle core: about 60,000 scans/s. The bound is the target for the whole pipeline.
    expect(perSecond).toBeGreaterThan(5_000);
  });
});

describe('floor', () => {
  it('goes to the majority of the strongest known transmitters, and only that floor is used for the position', () => {
    const upstairs = beaconGrid(3, 3, 10, 2).map((beacon) => ({ ...beacon, key: `${beacon.key}:up`, id: beacon.id + 100 }));
    const index = new TransmitterIndex([...GRID.slice(0, 40), ...upstairs]);
    // Device upstairs near (15, 15): three loud upstairs beacons, one loud one through the floor.
    const scan = [ble(upstairs[4], -62), ble(upstairs[0], -70), ble(upstairs[1], -68), ble(upstairs[3], -69), ble(GRID[21], -60), ble(GRID[0], -75)];
    const estimate = estimatePosition(scan, index);
    expect(estimate.ok && estimate.floorId).toBe(2);
    if (!estimate.ok) return;
    expect(estimate.used.map((used) => used.id).sort()).toEqual([101, 102, 104, 105]);
  });
});

describe('degenerate cases', () => {
  it('rejects a scan that hears only unknown transmitters, with a reason', () => {
    const scan = [
      { key: beaconKey('00000000-0000-0000-0000-000000000000', 1, 1), kind: 'ble' as const, rssi: -60 },
      { key: 'aa:bb:cc:dd:ee:ff', kind: 'wifi' as const, rssi: -50 },
    ];
    expect(estimatePosition(scan, INDEX)).toEqual({ ok: false, reason: 'no_known_transmitters', message: expect.any(String), unknown: 2 });
    expect(estimatePosition([], INDEX)).toMatchObject({ ok: false, reason: 'no_readings' });
  });

  it('with one transmitter: its position, and an accuracy that covers the whole ring the device may be on', () => {
    const random = seededRandom(3);
    const beacon = GRID[55];
    let within = 0;
    for (let scan = 0; scan < 500; scan += 1) {
      const angle = random() * 2 * Math.PI;
      const distance = 1 + random() * 12;
      const rssi = beacon.referenceRssi - 30 * Math.log10(distance) + 4 * gaussian(random);
      const estimate = estimatePosition([ble(beacon, rssi)], INDEX);
      if (!estimate.ok) throw new Error('rejected');
      expect(estimate).toMatchObject({ method: 'single', x: beacon.x, y: beacon.y });
      if (Math.hypot(Math.cos(angle) * distance, Math.sin(angle) * distance) <= estimate.accuracy) within += 1;
    }
    expect(within / 500).toBeGreaterThanOrEqual(0.68);
  });

  it('with collinear transmitters: a point on their line and an accuracy that covers the mirror image', () => {
    const line = [GRID[40], GRID[41], GRID[42], GRID[43], GRID[44]];
    const index = new TransmitterIndex(line);
    const random = seededRandom(5);
    let within = 0;
    const trials = 400;
    for (let trial = 0; trial < trials; trial += 1) {
      const at = { x: 5 + random() * 40, y: line[0].y + (random() < 0.5 ? -1 : 1) * (2 + random() * 8) };
      const estimate = estimatePosition(synthesizeScan(line, at, random), index);
      if (!estimate.ok) throw new Error('rejected');
      expect(estimate.y).toBeCloseTo(line[0].y, 6);
      const offLine = Math.abs(at.y - line[0].y);
      if (Math.hypot(estimate.x - at.x, estimate.y - at.y) <= estimate.accuracy) within += 1;
      // Never better than the side it cannot tell.
      expect(estimate.accuracy).toBeGreaterThan(Math.min(offLine, 2) * 0.5);
    }
    expect(within / trials).toBeGreaterThanOrEqual(0.68);
  });

  it('with every transmitter on one side of the device: a larger accuracy that still holds for 68 % of fixes', () => {
    // A 5 × 3 block of beacons (x 5..45 m); the device walks 3 to 15 m beyond its right edge.
    const block = beaconGrid(5, 3, 10);
    const index = new TransmitterIndex(block);
    const random = seededRandom(11);
    let within = 0;
    let accuracySum = 0;
    const trials = 400;
    for (let trial = 0; trial < trials; trial += 1) {
      const at = { x: 45 + 3 + random() * 12, y: random() * 30 };
      const estimate = estimatePosition(synthesizeScan(block, at, random), index);
      if (!estimate.ok) throw new Error('rejected');
      accuracySum += estimate.accuracy;
      if (Math.hypot(estimate.x - at.x, estimate.y - at.y) <= estimate.accuracy) within += 1;
    }
    expect(within / trials).toBeGreaterThanOrEqual(0.68);
    const inside = evaluate(4, 400, 11, block, { width: 50, height: 30 });
    expect(accuracySum / trials).toBeGreaterThan(inside.median * 1.5);
  });

  it('ignores readings out of range and keeps the strongest of repeated ones', () => {
    const beacon = GRID[0];
    const estimate = estimatePosition([ble(beacon, 12), ble(beacon, Number.NaN), ble(beacon, -80), ble(beacon, -70)], INDEX);
    expect(estimate).toMatchObject({ ok: true, used: [{ id: beacon.id, kind: 'ble', rssi: -70 }], unknown: 0 });
  });

  it('uses the default options unless told otherwise', () => {
    expect(DEFAULT_ESTIMATOR_OPTIONS.pathLossExponent).toBe(3);
  });
});
