import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ISSUE_31_WORLD, seededRandom, SyntheticBuilding, WorldOptions } from '../../../test/support/synthetic-scans';
import { buildRadioMap, DEFAULT_MAP_OPTIONS, FieldHyper, invertSymmetric, MapSample, RadioMap } from './radio-map';
import { KnownTransmitter, transmitterKey } from './transmitter';
import { estimatePosition, TransmitterIndex } from './scan-estimator';

/**
 * One floor of 40 × 30 m with a 12 dB wall across part of it (x = 20, from y = 0 to 20), every
 * transmitter heard (no scanner cut), 1.5 dB of shadowing: a residual field the log-distance model
 * cannot know.
 */
const WALL = { x: 20, toY: 20 };
const WALLED: WorldOptions = {
  ...ISSUE_31_WORLD,
  floors: 1,
  width: 40,
  length: 30,
  exponent: 2.5,
  shadowingDb: 1.5,
  readings: [1000, 1000],
  sensitivity: -200,
  walls: [{ from: { x: WALL.x, y: 0 }, to: { x: WALL.x, y: WALL.toY }, lossDb: 12 }],
};

interface Survey {
  points: Array<{ x: number; y: number }>;
  samples: MapSample[];
}

/** Reference points every `spacing` metres, `scans` each, readings keyed as the map keys them (`kind:id`). */
function survey(building: SyntheticBuilding, spacing: number, scans: number, seed: number): Survey {
  const random = seededRandom(seed);
  const byKey = new Map(building.transmitters.map((transmitter) => [transmitter.key, transmitter]));
  const points: Survey['points'] = [];
  const samples: MapSample[] = [];
  for (let x = spacing / 2; x < building.options.width; x += spacing) {
    for (let y = spacing / 2; y < building.options.length; y += spacing) {
      points.push({ x, y });
      for (let i = 0; i < scans; i += 1) {
        const readings = new Map(building.scanAt({ floor: 1, x, y }, random).map((reading) => [transmitterKey(byKey.get(reading.key)!), reading.rssi]));
        samples.push({ point: points.length - 1, readings });
      }
    }
  }
  return { points, samples };
}

/** The beacons at their true powers and exponent: the model is right but for the walls. */
const trueModel = (building: SyntheticBuilding): KnownTransmitter[] => building.trueTransmitters().map((transmitter) => ({ ...transmitter, exponent: building.options.exponent }));

function cellOf(map: RadioMap, x: number, y: number): number {
  return Math.floor((y - map.grid.y0) / map.grid.cell) * map.grid.columns + Math.floor((x - map.grid.x0) / map.grid.cell);
}

const centre = (map: RadioMap, index: number) => ({
  x: map.grid.x0 + ((index % map.grid.columns) + 0.5) * map.grid.cell,
  y: map.grid.y0 + (Math.floor(index / map.grid.columns) + 0.5) * map.grid.cell,
});

describe('the radio map', () => {
  const building = new SyntheticBuilding(WALLED, 4);
  const transmitters = trueModel(building);
  const { points, samples } = survey(building, 2.5, 2, 1);
  const built = buildRadioMap(points, samples, transmitters, WALLED.exponent)!;

  it('recovers a wall the log-distance model cannot know from the residuals at the reference points', () => {
    expect(built).not.toBeNull();
    const { map } = built;
    expect(map.hyper.signalVar).toBeGreaterThan(0);
    expect(map.hyper.noiseVar).toBeGreaterThan(1.5);
    expect(map.hyper.noiseVar).toBeLessThan(3.5);
    const random = seededRandom(7);
    let mapSquares = 0;
    let modelSquares = 0;
    let count = 0;
    while (count < 3000) {
      const at = { floor: 1, x: random() * WALLED.width, y: random() * WALLED.length };
      // Beside the wall the field steps within a cell: the map is judged a metre and a half away from it.
      if (Math.abs(at.x - WALL.x) < 1.5 && at.y < WALL.toY + 1.5) continue;
      const index = cellOf(map, at.x, at.y);
      const place = { floor: 1, ...centre(map, index) };
      for (const transmitter of transmitters) {
        const truth = building.meanRssi(transmitter.id, place);
        const model = transmitter.referenceRssi - 10 * WALLED.exponent * Math.log10(Math.max(0.5, Math.hypot(place.x - transmitter.x, place.y - transmitter.y)));
        mapSquares += (map.fields.get(transmitterKey(transmitter))![index] - truth) ** 2;
        modelSquares += (model - truth) ** 2;
        count += 1;
      }
    }
    expect(Math.sqrt(modelSquares / count)).toBeGreaterThan(5);
    expect(Math.sqrt(mapSquares / count)).toBeLessThan(0.25 * Math.sqrt(modelSquares / count));
  });

  it('places scans beyond the wall better than the model does', () => {
    const random = seededRandom(11);
    const byModel = new TransmitterIndex(transmitters);
    const byMap = new TransmitterIndex(transmitters, new Map([[1, { method: 'map' as const, accuracyScale: 1, radioMap: built.map, mapScale: 1 }]]));
    const errors = { model: [] as number[], map: [] as number[] };
    for (let i = 0; i < 200; i += 1) {
      const at = { floor: 1, x: WALL.x + random() * (WALLED.width - WALL.x), y: random() * WALL.toY };
      const scan = building.scanAt(at, random);
      const model = estimatePosition(scan, byModel);
      const map = estimatePosition(scan, byMap);
      if (!model.ok || !map.ok) throw new Error('not placed');
      expect(model.method).toBe('fit');
      expect(map.method).toBe('radio_map');
      errors.model.push(Math.hypot(model.x - at.x, model.y - at.y));
      errors.map.push(Math.hypot(map.x - at.x, map.y - at.y));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[values.length / 2];
    expect(median(errors.map)).toBeLessThan(0.25 * median(errors.model));
  });

  it('leaves a point out exactly as if it had not been surveyed, and one of its scans as if only the others had been', () => {
    const hyper: FieldHyper = built.map.hyper;
    const snapshot = (map: RadioMap) => new Map([...map.fields].map(([key, values]) => [key, Float32Array.from(values)]));
    const largestDifference = (a: ReadonlyMap<string, Float32Array>, b: ReadonlyMap<string, Float32Array>) => {
      let largest = 0;
      for (const [key, values] of a) {
        const other = b.get(key)!;
        for (let i = 0; i < values.length; i += 1) largest = Math.max(largest, Math.abs(values[i] - other[i]));
      }
      return largest;
    };
    const before = snapshot(built.map);
    // An inner point, so that the surveyed area (the grid) is the same without it.
    const point = points.findIndex((p) => p.x === 16.25 && p.y === 11.25);
    const held = built.heldOut(point);
    const without = buildRadioMap(
      points,
      samples.filter((sample) => sample.point !== point),
      transmitters,
      WALLED.exponent,
      { ...DEFAULT_MAP_OPTIONS, hyper },
    )!;
    const far = held.far(() => snapshot(built.map));
    expect(largestDifference(far, without.map.fields)).toBeLessThan(0.15);
    expect(largestDifference(far, before)).toBeGreaterThan(0.1);

    const own = samples.findIndex((sample) => sample.point === point);
    const withoutScan = buildRadioMap(
      points,
      samples.filter((_, index) => index !== own),
      transmitters,
      WALLED.exponent,
      { ...DEFAULT_MAP_OPTIONS, hyper },
    )!;
    const near = held.near(samples[own].readings, () => snapshot(built.map));
    expect(largestDifference(near, withoutScan.map.fields)).toBeLessThan(0.15);
    // And the map is whole again afterwards.
    expect(largestDifference(snapshot(built.map), before)).toBe(0);
  });

  it('is not built where the residuals have no spatial structure (the model alone explains the references)', () => {
    const plain = new SyntheticBuilding({ ...WALLED, walls: [], shadowingDb: 4 }, 5);
    const references = survey(plain, 5, 3, 2);
    expect(buildRadioMap(references.points, references.samples, trueModel(plain), WALLED.exponent)).toBeNull();
  });

  it('places a scan that hears exactly what the map expects at a cell at that cell (property)', () => {
    const { map } = built;
    const keys = [...map.fields.keys()];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: map.grid.columns * map.grid.rows - 1 }), fc.integer({ min: 4, max: 16 }), (index, count) => {
        const at = centre(map, index);
        // The nearest transmitters, as a scanner hears them first.
        const heard = transmitters
          .map((transmitter) => ({ transmitter, distance: Math.hypot(transmitter.x - at.x, transmitter.y - at.y) }))
          .sort((a, b) => a.distance - b.distance)
          .slice(0, count)
          .map(({ transmitter }) => ({ key: transmitterKey(transmitter), rssi: map.fields.get(transmitterKey(transmitter))![index], x: transmitter.x, y: transmitter.y }));
        expect(keys).toEqual(expect.arrayContaining(heard.map((reading) => reading.key)));
        const fix = map.locate(heard)!;
        // The posterior's mean: near the edge of the surveyed area it lies inwards, by no more than its spread.
        expect(fix.spread).toBeGreaterThan(0);
        expect(Math.hypot(fix.x - at.x, fix.y - at.y)).toBeLessThan(0.5 + 1.5 * fix.spread);
        const sharp = map.tempered(0.05).locate(heard)!;
        expect(Math.hypot(sharp.x - at.x, sharp.y - at.y)).toBeLessThan(0.75);
      }),
      { numRuns: 60, seed: 31 },
    );
  });

  it('needs three readings it knows to place a scan', () => {
    const [a, b] = [...built.map.fields.keys()];
    expect(
      built.map.locate([
        { key: a, rssi: -60, x: 5, y: 5 },
        { key: b, rssi: -70, x: 15, y: 5 },
        { key: 'ble:99999', rssi: -65, x: 5, y: 15 },
      ]),
    ).toBeNull();
  });
});

describe('inverting symmetric positive definite matrices', () => {
  it('gives A⁻¹ with A·A⁻¹ = I, and null for a matrix that is not positive definite (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 144, maxLength: 144 }), (m, entries) => {
        // A = BᵀB + I: symmetric positive definite.
        const a = new Float64Array(m * m);
        for (let i = 0; i < m; i += 1) {
          for (let j = 0; j < m; j += 1) {
            let sum = i === j ? 1 : 0;
            for (let k = 0; k < m; k += 1) sum += entries[k * 12 + i] * entries[k * 12 + j];
            a[i * m + j] = sum;
          }
        }
        const inverse = invertSymmetric(a, m)!;
        for (let i = 0; i < m; i += 1) {
          for (let j = 0; j < m; j += 1) {
            let sum = 0;
            for (let k = 0; k < m; k += 1) sum += a[i * m + k] * inverse[k * m + j];
            expect(sum).toBeCloseTo(i === j ? 1 : 0, 6);
          }
        }
      }),
      { numRuns: 100, seed: 5 },
    );
    expect(invertSymmetric(Float64Array.from([1, 2, 2, 1]), 2)).toBeNull();
  });
});
