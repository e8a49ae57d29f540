import { describe, expect, it } from 'vitest';
import { rangeOf } from './position-fit';
import { emptyStatistics, solveModel } from './radio-model';
import { DEFAULT_ESTIMATOR_OPTIONS } from './scan-estimator';
import { GatewayHearing, LocatorFloor, locateTag } from './tag-locator';
import { FLOOR_LOSS_PRIOR_DB } from './transmitter';
import { gaussian, seededRandom } from '../../../test/support/synthetic-scans';

const N = DEFAULT_ESTIMATOR_OPTIONS.pathLossExponent;
const POWER = -59;
const STOREY = 3.5;

interface Gateway {
  id: number;
  floorId: number;
  x: number;
  y: number;
}

const FLOORS = new Map<number, LocatorFloor>([
  [1, { level: 0, z: 0 }],
  [2, { level: 1, z: STOREY }],
]);
const floorZ = (floorId: number) => FLOORS.get(floorId)!.z!;

/** The model's noise-free reading of a tag at `at` on `floorId` by `gateway`: the floor's loss and the storey's height between floors. */
function hearing(gateway: Gateway, at: { x: number; y: number; floorId: number }, txPower: number | null = POWER, exponent = N): GatewayHearing {
  const dz = floorZ(gateway.floorId) - floorZ(at.floorId);
  const distance = Math.max(0.5, Math.hypot(gateway.x - at.x, gateway.y - at.y, dz));
  const loss = dz === 0 ? 0 : FLOOR_LOSS_PRIOR_DB;
  return {
    gatewayId: gateway.id,
    hardwareId: `gw-${gateway.id}`,
    floorId: gateway.floorId,
    x: gateway.x,
    y: gateway.y,
    rssi: POWER - loss - 10 * exponent * Math.log10(distance),
    txPower,
  };
}

const SQUARE: Gateway[] = [
  { id: 1, floorId: 1, x: 0, y: 0 },
  { id: 2, floorId: 1, x: 12, y: 0 },
  { id: 3, floorId: 1, x: 12, y: 12 },
  { id: 4, floorId: 1, x: 0, y: 12 },
];

describe('locateTag', () => {
  it('places a tag heard by three or four gateways within 1.5 m of the truth', () => {
    for (const at of [
      { x: 4, y: 7, floorId: 1 },
      { x: 9, y: 2.5, floorId: 1 },
      { x: 6, y: 6, floorId: 1 },
    ]) {
      for (const gateways of [SQUARE, SQUARE.slice(0, 3)]) {
        const estimate = locateTag(
          gateways.map((gateway) => hearing(gateway, at)),
          FLOORS,
        )!;
        expect(estimate.floorId).toBe(1);
        expect(Math.hypot(estimate.x - at.x, estimate.y - at.y)).toBeLessThan(1.5);
        expect(estimate.gatewaysUsed.sort()).toEqual(gateways.map((gateway) => `gw-${gateway.id}`).sort());
        expect(estimate.accuracy).toBeGreaterThan(0);
      }
    }
  });

  it("uses the floor model's exponent", () => {
    const model = { ...solveModel(emptyStatistics()), exponent: 2.2, evidence: true };
    const floors = new Map<number, LocatorFloor>([[1, { level: 0, z: 0, model }]]);
    const at = { x: 3, y: 8, floorId: 1 };
    const estimate = locateTag(
      SQUARE.map((gateway) => hearing(gateway, at, POWER, 2.2)),
      floors,
    )!;
    expect(Math.hypot(estimate.x - at.x, estimate.y - at.y)).toBeLessThan(1.5);
  });

  it('combines several readings of one gateway by their mean in dB', () => {
    const at = { x: 5, y: 4, floorId: 1 };
    const hearings = SQUARE.flatMap((gateway) => {
      const exact = hearing(gateway, at);
      return [
        { ...exact, rssi: exact.rssi + 3 },
        { ...exact, rssi: exact.rssi - 3 },
      ];
    });
    const estimate = locateTag(hearings, FLOORS)!;
    expect(Math.hypot(estimate.x - at.x, estimate.y - at.y)).toBeLessThan(1.5);
    expect(estimate.gatewaysUsed).toHaveLength(4);
  });

  it("one gateway: the gateway's place, with an accuracy of at least the distance its reading implies", () => {
    const gateway = { id: 7, floorId: 1, x: 20, y: 30 };
    for (const distance of [1, 4, 9]) {
      const only = hearing(gateway, { x: 20 + distance, y: 30, floorId: 1 });
      const estimate = locateTag([only], FLOORS)!;
      expect(estimate).toMatchObject({ floorId: 1, x: 20, y: 30, gatewaysUsed: ['gw-7'], method: 'single' });
      expect(estimate.accuracy).toBeGreaterThanOrEqual(rangeOf(POWER, only.rssi, N));
      expect(estimate.accuracy).toBeGreaterThanOrEqual(distance);
      expect(estimate.accuracy).toBeGreaterThanOrEqual(3);
    }
  });

  it('finds the floor when gateways on two floors hear the tag', () => {
    const upstairs = SQUARE.map((gateway) => ({ ...gateway, id: gateway.id + 10, floorId: 2 }));
    for (const floorId of [1, 2]) {
      const at = { x: 7, y: 5, floorId };
      const estimate = locateTag(
        [...SQUARE, ...upstairs].map((gateway) => hearing(gateway, at)),
        FLOORS,
      )!;
      expect(estimate.floorId).toBe(floorId);
      expect(Math.hypot(estimate.x - at.x, estimate.y - at.y)).toBeLessThan(1.5);
    }
  });

  it("takes the tag's advertised power, else the default, moved by its offset", () => {
    const at = { x: 8, y: 8, floorId: 1 };
    // A louder tag (-50 dBm at 1 m) that says so is placed as well as a default one.
    const loud = SQUARE.map((gateway) => ({ ...hearing(gateway, at), rssi: hearing(gateway, at).rssi + 9, txPower: -50 }));
    const placed = locateTag(loud, FLOORS)!;
    expect(Math.hypot(placed.x - at.x, placed.y - at.y)).toBeLessThan(1.5);
    const silent = loud.map((item) => ({ ...item, txPower: null }));
    const offset = locateTag(silent, FLOORS, 9)!;
    expect(Math.hypot(offset.x - at.x, offset.y - at.y)).toBeLessThan(1.5);
  });

  it('answers null with no usable reading', () => {
    expect(locateTag([], FLOORS)).toBeNull();
    expect(locateTag([{ ...hearing(SQUARE[0], { x: 1, y: 1, floorId: 1 }), rssi: 40 }], FLOORS)).toBeNull();
  });

  it('with 4 dB shadowing on a 10 m grid of gateways: metre-level, and the accuracy covers about two thirds', () => {
    const random = seededRandom(39);
    const grid: Gateway[] = [];
    for (let column = 0; column < 5; column += 1) for (let row = 0; row < 4; row += 1) grid.push({ id: grid.length + 1, floorId: 1, x: column * 10, y: row * 10 });
    const errors: number[] = [];
    let within = 0;
    for (let tag = 0; tag < 400; tag += 1) {
      const at = { x: 2 + random() * 36, y: 2 + random() * 26, floorId: 1 };
      // Three advertisements in the window, each gateway hearing those above -95 dBm.
      const hearings = grid.flatMap((gateway) =>
        [0, 1, 2].map(() => {
          const exact = hearing(gateway, at);
          return { ...exact, rssi: exact.rssi + 4 * gaussian(random) };
        }),
      );
      const estimate = locateTag(
        hearings.filter((item) => item.rssi > -95),
        FLOORS,
      )!;
      const error = Math.hypot(estimate.x - at.x, estimate.y - at.y);
      errors.push(error);
      if (error <= estimate.accuracy) within += 1;
    }
    errors.sort((a, b) => a - b);
    const median = errors[Math.floor(errors.length / 2)];
    const p90 = errors[Math.floor(errors.length * 0.9)];
    const coverage = within / errors.length;
    console.info(`tag locator, 4 dB: median ${median.toFixed(2)} m, p90 ${p90.toFixed(2)} m, accuracy coverage ${(coverage * 100).toFixed(0)} %`);
    expect(median).toBeLessThan(3);
    expect(p90).toBeLessThan(6);
    expect(coverage).toBeGreaterThanOrEqual(0.68);
  });
});
