import { ScanReading } from '../../src/infrastructure/estimator/scan-estimator';
import { DEFAULT_STOREY_M, KnownTransmitter } from '../../src/infrastructure/estimator/transmitter';
import { seededRandom } from '../../src/infrastructure/tracker/seeded-random';

/**
 * Synthetic scans for tests and benchmarks: transmitters on a grid, a device at a known
 * position, RSSI from the log-distance model plus Gaussian shadowing, from a seeded generator.
 */

/** mulberry32: small, fast and reproducible (the tracker's own generator). */
export { seededRandom };

export function gaussian(random: () => number): number {
  const u = Math.max(1e-12, random());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export const beaconKey = (uuid: string, major: number, minor: number): string => `${uuid.toLowerCase()}:${major}:${minor}`;

export const GRID_UUID = 'f7826da6-4fa2-4e98-8024-bc5b71e0893e';

/** `columns × rows` beacons `spacing` metres apart from (spacing/2, spacing/2), on one floor. */
export function beaconGrid(columns: number, rows: number, spacing: number, floorId = 1, referenceRssi = -59): KnownTransmitter[] {
  const beacons: KnownTransmitter[] = [];
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      const id = row * columns + column + 1;
      beacons.push({ key: beaconKey(GRID_UUID, 1, id), kind: 'ble', id, floorId, x: spacing / 2 + column * spacing, y: spacing / 2 + row * spacing, referenceRssi });
    }
  }
  return beacons;
}

export interface SyntheticScanOptions {
  pathLossExponent: number;
  shadowingDb: number;
  /** Readings weaker than this are not heard (dBm). */
  sensitivity: number;
  /** The scanner reports at most this many, the strongest (a number drawn from the range). */
  readings: [number, number];
}

export const DEFAULT_SCAN_OPTIONS: SyntheticScanOptions = { pathLossExponent: 3, shadowingDb: 4, sensitivity: -105, readings: [10, 30] };

export function synthesizeScan(
  transmitters: readonly KnownTransmitter[],
  at: { x: number; y: number },
  random: () => number,
  options: SyntheticScanOptions = DEFAULT_SCAN_OPTIONS,
): ScanReading[] {
  const heard: ScanReading[] = [];
  for (const transmitter of transmitters) {
    const distance = Math.max(0.5, Math.hypot(at.x - transmitter.x, at.y - transmitter.y));
    const rssi = transmitter.referenceRssi - 10 * options.pathLossExponent * Math.log10(distance) + options.shadowingDb * gaussian(random);
    if (rssi >= options.sensitivity) heard.push({ key: transmitter.key, kind: transmitter.kind, rssi: Math.round(rssi) });
  }
  heard.sort((a, b) => b.rssi - a.rssi);
  const [low, high] = options.readings;
  return heard.slice(0, low + Math.floor(random() * (high - low + 1)));
}

/** A building of several floors as issue 31 describes it; every figure can be changed. */
export interface WorldOptions {
  floors: number;
  /** Floor size (metres) and beacon grid spacing. */
  width: number;
  length: number;
  spacing: number;
  /** The true path-loss exponent. */
  exponent: number;
  /** Total shadowing σ (dB). */
  shadowingDb: number;
  /**
   * Share of the shadowing variance that is static: the same at a place for every scan (walls,
   * shelves), varying smoothly over `correlationM` metres, one field per beacon and floor. The
   * rest is drawn anew for each scan (bodies, fading). 0: every scan independent.
   */
  staticShare: number;
  correlationM: number;
  /** Each beacon's true 1 m power is the registered one plus N(0, powerSpreadDb²). */
  registeredRssi: number;
  powerSpreadDb: number;
  /** Loss through each floor (dB) and the height of a storey (metres). */
  floorLossDb: number;
  storeyM: number;
  sensitivity: number;
  readings: [number, number];
  /** Walls of every floor: a reading whose straight path crosses one loses its `lossDb`. */
  walls?: Wall[];
}

/** A wall from one point of the floor to another. */
export interface Wall {
  from: { x: number; y: number };
  to: { x: number; y: number };
  lossDb: number;
}

export const ISSUE_31_WORLD: WorldOptions = {
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
  storeyM: 4,
  sensitivity: -105,
  readings: [10, 30],
};

/** Random Fourier features of a Gaussian-kernel field: smooth, stationary, cheap to evaluate anywhere. */
const FEATURES = 48;

interface StaticField {
  wx: Float64Array;
  wy: Float64Array;
  phase: Float64Array;
}

/** A seeded building: beacons (floor ids 1…floors, ids from 1), their true powers, and scans anywhere in it. */
export class SyntheticBuilding {
  readonly transmitters: KnownTransmitter[] = [];
  /** True 1 m power by transmitter id. */
  readonly truePower = new Map<number, number>();
  private readonly fields = new Map<string, StaticField>();

  constructor(
    readonly options: WorldOptions,
    seed: number,
  ) {
    const random = seededRandom(seed);
    const columns = Math.round(options.width / options.spacing);
    const rows = Math.round(options.length / options.spacing);
    for (let floor = 1; floor <= options.floors; floor += 1) {
      for (const beacon of beaconGrid(columns, rows, options.spacing, floor, options.registeredRssi)) {
        const id = (floor - 1) * columns * rows + beacon.id;
        // Level and height as a server knows them with no level_height set: the default storey.
        this.transmitters.push({ ...beacon, id, key: beaconKey(GRID_UUID, floor, beacon.id), level: floor - 1, z: (floor - 1) * DEFAULT_STOREY_M });
        this.truePower.set(id, options.registeredRssi + options.powerSpreadDb * gaussian(random));
      }
    }
    if (options.staticShare > 0) {
      for (const transmitter of this.transmitters) {
        for (let floor = 1; floor <= options.floors; floor += 1) {
          const field: StaticField = { wx: new Float64Array(FEATURES), wy: new Float64Array(FEATURES), phase: new Float64Array(FEATURES) };
          for (let i = 0; i < FEATURES; i += 1) {
            field.wx[i] = gaussian(random) / options.correlationM;
            field.wy[i] = gaussian(random) / options.correlationM;
            field.phase[i] = 2 * Math.PI * random();
          }
          this.fields.set(`${transmitter.id}/${floor}`, field);
        }
      }
    }
  }

  /** The beacons as the oracle sees them: registered at their true power. */
  trueTransmitters(): KnownTransmitter[] {
    return this.transmitters.map((transmitter) => ({ ...transmitter, referenceRssi: this.truePower.get(transmitter.id)! }));
  }

  /** A uniformly random position on a floor (1-based). */
  randomPosition(random: () => number, floor?: number): { floor: number; x: number; y: number } {
    return { floor: floor ?? 1 + Math.floor(random() * this.options.floors), x: random() * this.options.width, y: random() * this.options.length };
  }

  /** What a scanner at (x, y) on `floor` reports: the strongest 10 to 30 readings above the sensitivity, rounded to 1 dB. */
  scanAt(at: { floor: number; x: number; y: number }, random: () => number): ScanReading[] {
    const { options } = this;
    const staticSd = options.shadowingDb * Math.sqrt(options.staticShare);
    const fastSd = options.shadowingDb * Math.sqrt(1 - options.staticShare);
    const heard: ScanReading[] = [];
    for (const transmitter of this.transmitters) {
      const storeys = Math.abs(transmitter.floorId - at.floor);
      const distance = Math.max(0.5, Math.hypot(at.x - transmitter.x, at.y - transmitter.y, storeys * options.storeyM));
      let rssi =
        this.truePower.get(transmitter.id)! -
        10 * options.exponent * Math.log10(distance) -
        storeys * options.floorLossDb -
        this.wallLoss(transmitter, at) +
        fastSd * gaussian(random);
      if (staticSd > 0) rssi += staticSd * this.fieldAt(transmitter.id, at);
      if (rssi >= options.sensitivity) heard.push({ key: transmitter.key, kind: transmitter.kind, rssi: Math.round(rssi) });
    }
    heard.sort((a, b) => b.rssi - a.rssi);
    const [low, high] = options.readings;
    return heard.slice(0, low + Math.floor(random() * (high - low + 1)));
  }

  /**
   * What a scanner at (x, y) of a floor hears from a transmitter on average, before the part of the
   * shadowing drawn anew for each scan (and before rounding and the scanner's cut): the radio map
   * an oracle would know.
   */
  meanRssi(transmitterId: number, at: { floor: number; x: number; y: number }): number {
    const { options } = this;
    const transmitter = this.transmitters[transmitterId - 1];
    const storeys = Math.abs(transmitter.floorId - at.floor);
    const distance = Math.max(0.5, Math.hypot(at.x - transmitter.x, at.y - transmitter.y, storeys * options.storeyM));
    const rssi = this.truePower.get(transmitter.id)! - 10 * options.exponent * Math.log10(distance) - storeys * options.floorLossDb - this.wallLoss(transmitter, at);
    return options.staticShare > 0 ? rssi + options.shadowingDb * Math.sqrt(options.staticShare) * this.fieldAt(transmitter.id, at) : rssi;
  }

  /** What the walls the path from a transmitter to (x, y) crosses take (dB). */
  private wallLoss(transmitter: KnownTransmitter, at: { x: number; y: number }): number {
    let loss = 0;
    for (const wall of this.options.walls ?? []) if (segmentsCross(transmitter, at, wall.from, wall.to)) loss += wall.lossDb;
    return loss;
  }

  /** The static field of a transmitter at a place: unit variance. */
  private fieldAt(id: number, at: { floor: number; x: number; y: number }): number {
    const field = this.fields.get(`${id}/${at.floor}`)!;
    let sum = 0;
    for (let i = 0; i < FEATURES; i += 1) sum += Math.cos(field.wx[i] * at.x + field.wy[i] * at.y + field.phase[i]);
    return sum * Math.sqrt(2 / FEATURES);
  }
}

function segmentsCross(a: { x: number; y: number }, b: { x: number; y: number }, c: { x: number; y: number }, d: { x: number; y: number }): boolean {
  const side = (p: { x: number; y: number }, q: { x: number; y: number }, r: { x: number; y: number }) => Math.sign((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x));
  return side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0;
}
