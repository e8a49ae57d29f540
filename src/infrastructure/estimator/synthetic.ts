import { KnownTransmitter, ScanReading } from './scan-estimator';

/**
 * Synthetic scans for tests and benchmarks: transmitters on a grid, a device at a known
 * position, RSSI from the log-distance model plus Gaussian shadowing, from a seeded generator.
 */

/** mulberry32: small, fast and reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function gaussian(random: () => number): number {
  const u = Math.max(1e-12, random());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export const beaconKey = (uuid: string, major: number, minor: number): string => `${uuid.toLowerCase()}:${major}:${minor}`;

const GRID_UUID = 'f7826da6-4fa2-4e98-8024-bc5b71e0893e';

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

export function synthesizeScan(transmitters: readonly KnownTransmitter[], at: { x: number; y: number }, random: () => number, options: SyntheticScanOptions = DEFAULT_SCAN_OPTIONS): ScanReading[] {
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
