import { describe, expect, it } from 'vitest';
import { estimatePosition, TransmitterIndex } from './scan-estimator';
import { scanLikelihood, scanRadio } from './scan-likelihood';
import { beaconGrid, seededRandom, synthesizeScan } from '../../../test/support/synthetic-scans';

/** 10 × 6 beacons 10 m apart with a model (n = 2.5, σ = 4 dB): censored terms apply. */
const GRID = beaconGrid(10, 6, 10).map((beacon) => ({ ...beacon, exponent: 2.5, shadowingDb: 4 }));
const INDEX = new TransmitterIndex(GRID);
const SCAN = { pathLossExponent: 2.5, shadowingDb: 4, sensitivity: -95, readings: [10, 30] as [number, number] };

describe('scan likelihood', () => {
  it('peaks where the single-scan estimate places the scan (the same model)', () => {
    const random = seededRandom(3);
    for (let scan = 0; scan < 20; scan += 1) {
      const at = { x: 10 + random() * 80, y: 10 + random() * 40 };
      const readings = synthesizeScan(GRID, at, random, SCAN);
      const estimate = estimatePosition(readings, INDEX);
      if (!estimate.ok) throw new Error('no estimate');
      const logL = scanLikelihood(INDEX, 1, readings);
      // The best point of a 0.25 m grid around the estimate lies within half a metre of it.
      let best = { x: 0, y: 0, value: -Infinity };
      for (let dx = -3; dx <= 3; dx += 0.25) {
        for (let dy = -3; dy <= 3; dy += 0.25) {
          const value = logL(estimate.x + dx, estimate.y + dy);
          if (value > best.value) best = { x: estimate.x + dx, y: estimate.y + dy, value };
        }
      }
      expect(Math.hypot(best.x - estimate.x, best.y - estimate.y)).toBeLessThan(0.75);
    }
  });

  it('counts the transmitters not heard: next to one that was not reported is unlikely', () => {
    // The four beacons 10 m around (35, 25) heard as from 10 m away; the one at (35, 25) not reported.
    const silent = GRID[23];
    const around = [GRID[22], GRID[24], GRID[13], GRID[33]];
    const heard = around.map((transmitter) => ({ key: transmitter.key, kind: 'ble' as const, rssi: Math.round(-59 - 25) }));
    const logL = scanLikelihood(INDEX, 1, heard);
    // −2 log L of the heard readings alone (the same σ and model).
    const heardCost = (x: number, y: number) => around.reduce((sum, t) => sum + ((-84 - (-59 - 25 * Math.log10(Math.max(0.5, Math.hypot(x - t.x, y - t.y))))) / 4) ** 2, 0);
    const censored = (x: number, y: number) => -2 * logL(x, y) - heardCost(x, y);
    expect(silent).toMatchObject({ x: 35, y: 25 });
    // What was not heard weighs next to the silent beacon (about −2 log p: missed though loud), more than anywhere near a heard one.
    expect(censored(silent.x + 1, silent.y)).toBeGreaterThan(-2 * Math.log(0.02));
    for (const transmitter of around) expect(censored(silent.x + 1, silent.y)).toBeGreaterThan(censored(transmitter.x + 1, transmitter.y) + 3);
  });

  it('sums the far transmitters not heard as one quadratic that matches them closely within its region', () => {
    const random = seededRandom(5);
    const radio = scanRadio(INDEX);
    for (let scan = 0; scan < 10; scan += 1) {
      const at = { x: 20 + random() * 60, y: 15 + random() * 30 };
      const prepared = radio.prepare(synthesizeScan(GRID, at, random, SCAN));
      const exact = radio.terms(prepared, 1);
      const region = radio.terms(prepared, 1, { x: at.x, y: at.y, radius: 3 });
      expect(region.far).toBeGreaterThan(0);
      // Differences of cost (what a fit sees) within the region agree to a fraction of one unit of −2 log L.
      const base = exact.cost(at.x, at.y) - region.cost(at.x, at.y);
      for (const [dx, dy] of [
        [2, 0],
        [0, -2],
        [-1.5, 1.5],
      ]) {
        expect(Math.abs(exact.cost(at.x + dx, at.y + dy) - region.cost(at.x + dx, at.y + dy) - base)).toBeLessThan(0.5);
      }
    }
  });
});
