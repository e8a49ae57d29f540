/**
 * The worlds of issue 36's sweep and its maximum-likelihood oracle, shared by the radio sweep
 * (bench/radio-sweep.ts) and the tracking sweep (bench/tracking-sweep.ts).
 */
import { logPhi } from '../src/infrastructure/estimator/censoring';
import { ScanReading } from '../src/infrastructure/estimator/scan-estimator';
import { SyntheticBuilding, WorldOptions } from '../test/support/synthetic-scans';

export const BASE: WorldOptions = {
  floors: 3,
  width: 60,
  length: 40,
  spacing: 10,
  exponent: 2.5,
  shadowingDb: 4,
  staticShare: 0,
  correlationM: 4,
  registeredRssi: -59,
  powerSpreadDb: 3,
  floorLossDb: 15,
  storeyM: 3.5,
  sensitivity: -95,
  readings: [30, 30],
};

/** The sweep: the base, one factor moved at a time, and a few corners where several are. */
export const SWEEP: Array<{ name: string; options: Partial<WorldOptions> }> = [
  { name: 'base', options: {} },
  { name: 's-90', options: { sensitivity: -90 } },
  { name: 's-100', options: { sensitivity: -100 } },
  { name: 's-105', options: { sensitivity: -105 } },
  { name: 'cap10', options: { readings: [10, 10] } },
  { name: 'cap20', options: { readings: [20, 20] } },
  { name: 'cap-random', options: { readings: [10, 30] } },
  { name: 'no-cap-105', options: { sensitivity: -105, readings: [1000, 1000] } },
  { name: 'storey3', options: { storeyM: 3 } },
  { name: 'storey4.5', options: { storeyM: 4.5 } },
  { name: 'spacing7', options: { spacing: 7 } },
  { name: 'spacing15', options: { spacing: 15 } },
  { name: 'n1.8', options: { exponent: 1.8 } },
  { name: 'n2.0', options: { exponent: 2 } },
  { name: 'n3.0', options: { exponent: 3 } },
  { name: 'n3.5', options: { exponent: 3.5 } },
  { name: 'sd2', options: { shadowingDb: 2 } },
  { name: 'sd6', options: { shadowingDb: 6 } },
  { name: 'static', options: { staticShare: 0.5 } },
  { name: 'corner-far', options: { exponent: 3.5, sensitivity: -90, readings: [10, 10], spacing: 10 } },
  { name: 'corner-open', options: { exponent: 1.8, sensitivity: -105, readings: [1000, 1000], shadowingDb: 6, spacing: 7 } },
  { name: 'corner-mixed', options: { exponent: 2.2, sensitivity: -100, readings: [10, 30], shadowingDb: 5, storeyM: 4.5, staticShare: 0.5 } },
];

/**
 * The oracle: the maximum-likelihood position of one scan on its true floor under the true model,
 * every transmitter of the building counted (heard: its reading; not heard: below what the
 * scanner would have reported), found by a 1 m grid then Nelder–Mead from the three best cells.
 * `ownFloorOnly`: only the transmitters of the scan's floor.
 */
export function oracleFix(building: SyntheticBuilding, readings: readonly ScanReading[], floor: number, ownFloorOnly = false): { x: number; y: number } {
  const { options } = building;
  const sigma = Math.sqrt(options.shadowingDb ** 2 + 1 / 12);
  const heard = new Map(readings.map((reading) => [reading.key, reading.rssi]));
  const weakest = readings.reduce((low, reading) => Math.min(low, reading.rssi), Infinity);
  // The scanner keeps its strongest N (N drawn from readings[]): a scan that may have been cut says only "below the weakest kept".
  const mayBeCut = readings.length >= options.readings[0];
  const threshold = mayBeCut ? weakest + 0.5 : options.sensitivity - 0.5;
  const transmitters = building.transmitters
    .filter((transmitter) => !ownFloorOnly || transmitter.floorId === floor)
    .map((transmitter) => ({
      x: transmitter.x,
      y: transmitter.y,
      power: building.truePower.get(transmitter.id)! - Math.abs(transmitter.floorId - floor) * options.floorLossDb,
      dz2: (Math.abs(transmitter.floorId - floor) * options.storeyM) ** 2,
      rssi: heard.get(transmitter.key),
    }));
  const nll = (x: number, y: number): number => {
    let sum = 0;
    for (const transmitter of transmitters) {
      const d2 = Math.max(0.25, (x - transmitter.x) ** 2 + (y - transmitter.y) ** 2 + transmitter.dz2);
      const mean = transmitter.power - 5 * options.exponent * Math.log10(d2);
      if (transmitter.rssi !== undefined) sum += ((transmitter.rssi - mean) / sigma) ** 2 / 2;
      else sum -= logPhi((threshold - mean) / sigma);
    }
    return sum;
  };
  const cells: Array<{ x: number; y: number; cost: number }> = [];
  for (let x = 0.5; x < options.width; x += 1) for (let y = 0.5; y < options.length; y += 1) cells.push({ x, y, cost: nll(x, y) });
  cells.sort((a, b) => a.cost - b.cost);
  let best = cells[0];
  // Within the building: a scan that hears almost nothing has no maximum inside it, only a direction.
  const bounded = (x: number, y: number) => (x < 0 || y < 0 || x > options.width || y > options.length ? Infinity : nll(x, y));
  for (const start of cells.slice(0, 3)) {
    const found = nelderMead(bounded, start.x, start.y, 0.7);
    if (found.cost < best.cost) best = found;
  }
  return best;
}

export function nelderMead(f: (x: number, y: number) => number, x0: number, y0: number, step: number): { x: number; y: number; cost: number } {
  let simplex = [
    [x0, y0],
    [x0 + step, y0],
    [x0, y0 + step],
  ].map(([x, y]) => ({ x, y, cost: f(x, y) }));
  for (let iteration = 0; iteration < 80; iteration += 1) {
    simplex.sort((a, b) => a.cost - b.cost);
    const [b, g, w] = simplex;
    if (Math.hypot(w.x - b.x, w.y - b.y) < 1e-3) break;
    const cx = (b.x + g.x) / 2;
    const cy = (b.y + g.y) / 2;
    const at = (t: number) => {
      const x = cx + t * (w.x - cx);
      const y = cy + t * (w.y - cy);
      return { x, y, cost: f(x, y) };
    };
    const reflected = at(-1);
    if (reflected.cost < b.cost) {
      const expanded = at(-2);
      simplex = [b, g, expanded.cost < reflected.cost ? expanded : reflected];
    } else if (reflected.cost < g.cost) simplex = [b, g, reflected];
    else {
      const contracted = at(reflected.cost < w.cost ? -0.5 : 0.5);
      if (contracted.cost < Math.min(w.cost, reflected.cost)) simplex = [b, g, contracted];
      else simplex = [b, ...[g, w].map((p) => ({ x: b.x + (p.x - b.x) / 2, y: b.y + (p.y - b.y) / 2, cost: f(b.x + (p.x - b.x) / 2, b.y + (p.y - b.y) / 2) }))];
    }
  }
  simplex.sort((a, b) => a.cost - b.cost);
  return simplex[0];
}
