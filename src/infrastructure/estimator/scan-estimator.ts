import { FingerprintIndex } from './fingerprints';
import type { RadioMap } from './radio-map';
import { KnownTransmitter, transmitterKey, TransmitterKind } from './transmitter';
import { distanceOutsideHull, fitPosition, rangeOf, RangedReading, weightedCentroid } from './position-fit';

/**
 * Estimates where a device is from what it hears: plain TypeScript, no framework, no I/O.
 *
 * 1. Readings are matched to known transmitters (unknown ones are ignored by the model, and counted).
 * 2. Floor: the majority of the strongest known transmitters (ties go to the floor whose
 *    transmitters are heard louder in total).
 * 3. Position, by the floor's method: the log-distance path-loss model
 *      rssi = reference − 10 · n · log10(distance)   (+ Gaussian shadowing in dB)
 *    with the floor's exponent n, shadowing σ and each transmitter's calibrated reference
 *    (position-fit.ts, started from the weighted centroid, which is also the fallback), or
 *    weighted k-nearest-neighbour fingerprinting over the floor's reference points
 *    (fingerprints.ts), or the radio map (the model plus the reference points' residuals
 *    interpolated in space, radio-map.ts), where cross-validation chose it.
 * 4. Accuracy: the 68 % radius of the fit's covariance, inflated by the residuals when
 *    they are larger than the model expects, never smaller than the geometry allows (one
 *    transmitter: the distance to it; collinear transmitters: the mirror ambiguity), and
 *    scaled by what the floor's reference points showed (1 without them).
 */

export interface ScanReading {
  key: string;
  kind: TransmitterKind;
  rssi: number;
}

export interface EstimatorOptions {
  /** Path-loss exponent n (2 in free space, 2 to 3.5 indoors) where no floor model says otherwise. */
  pathLossExponent: number;
  /** Expected shadowing standard deviation in dB, per kind: the weights of the least squares. */
  shadowingDb: Record<TransmitterKind, number>;
  /** How many of the strongest known readings vote for the floor. */
  floorVoters: number;
  /** At most this many readings (the strongest on the floor) enter the fit. */
  maxReadings: number;
  /** Readings outside this range are discarded as corrupt (dBm). */
  rssiRange: [number, number];
  /** No accuracy below this (metres): model error the residuals cannot reveal. */
  minAccuracy: number;
}

export const DEFAULT_ESTIMATOR_OPTIONS: EstimatorOptions = {
  pathLossExponent: 3,
  shadowingDb: { ble: 4, wifi: 6 },
  floorVoters: 5,
  maxReadings: 16,
  rssiRange: [-120, 0],
  minAccuracy: 1,
};

/** How a floor places scans, once its model and reference points are known. */
export interface FloorEstimation {
  /** `fingerprint`: k-NN over `fingerprints`; `map`: the posterior over `radioMap`; `model`: the path-loss fit. */
  method: 'model' | 'fingerprint' | 'map';
  /** Multiplies the model's accuracy (what the floor's reference points showed; 1 without them). */
  accuracyScale: number;
  fingerprints?: FingerprintIndex;
  /** Neighbours of the k-NN. */
  k?: number;
  /** Fingerprint accuracy = this × the neighbours' spread (at least the minimum accuracy). */
  fingerprintScale?: number;
  /** Fingerprint accuracy never below this (metres): half the reference points' spacing. */
  fingerprintFloor?: number;
  radioMap?: RadioMap;
  /** Radio map accuracy = this × the posterior's radius (what the reference points showed). */
  mapScale?: number;
}

export type RejectionReason = 'no_readings' | 'no_known_transmitters';

export interface TransmitterUsed {
  id: number;
  kind: TransmitterKind;
  rssi: number;
}

export type EstimateMethod = 'fit' | 'centroid' | 'single' | 'fingerprint' | 'radio_map';

export type Estimate =
  | {
      ok: true;
      floorId: number;
      x: number;
      y: number;
      /** Metres: the true position lies within this radius with about 68 % probability. */
      accuracy: number;
      /** `fit`: least squares; `centroid`: the weighted centroid (fallback or too few readings); `fingerprint`: k-NN; `radio_map`: the radio map. */
      method: EstimateMethod;
      used: TransmitterUsed[];
      /** Readings that matched no known transmitter. */
      unknown: number;
    }
  | { ok: false; reason: RejectionReason; message: string; unknown: number };

/** The transmitters of one building, indexed for lookups by reading key, and how each floor places scans. */
export class TransmitterIndex {
  private readonly byKey = new Map<string, KnownTransmitter>();

  constructor(
    transmitters: Iterable<KnownTransmitter>,
    private readonly floors: ReadonlyMap<number, FloorEstimation> = new Map(),
  ) {
    for (const transmitter of transmitters) this.byKey.set(transmitter.key, transmitter);
  }

  get(key: string): KnownTransmitter | undefined {
    return this.byKey.get(key);
  }

  floor(floorId: number): FloorEstimation | undefined {
    return this.floors.get(floorId);
  }

  all(): IterableIterator<KnownTransmitter> {
    return this.byKey.values();
  }

  get size(): number {
    return this.byKey.size;
  }
}

interface Heard extends RangedReading {
  transmitter: KnownTransmitter;
  /** Distance the model predicts from the RSSI alone (metres). */
  range: number;
}

/** 68 % radius of a 2-D Gaussian from the square root of its covariance trace: 1.07 is exact when circular (conservative otherwise); the rest is a margin for the model's nonlinearity at high noise and long ranges. */
const RADIUS_68_FACTOR = 1.2;
const OUTSIDE_HULL_FACTOR = 1.5;

export function estimatePosition(readings: readonly ScanReading[], index: TransmitterIndex, options: EstimatorOptions = DEFAULT_ESTIMATOR_OPTIONS): Estimate {
  if (readings.length === 0) return { ok: false, reason: 'no_readings', message: 'The scan has no readings', unknown: 0 };
  // The strongest reading per transmitter (a scan may repeat one).
  const strongest = new Map<KnownTransmitter, number>();
  let unknown = 0;
  for (const reading of readings) {
    if (!(reading.rssi >= options.rssiRange[0] && reading.rssi <= options.rssiRange[1])) continue;
    const transmitter = index.get(reading.key);
    if (!transmitter || transmitter.kind !== reading.kind) {
      unknown += 1;
      continue;
    }
    const previous = strongest.get(transmitter);
    if (previous === undefined || reading.rssi > previous) strongest.set(transmitter, reading.rssi);
  }
  if (strongest.size === 0) {
    return { ok: false, reason: 'no_known_transmitters', message: 'None of the transmitters heard is known in this building', unknown };
  }
  const heard: Heard[] = [];
  for (const [transmitter, rssi] of strongest) {
    const n = transmitter.exponent ?? options.pathLossExponent;
    const sigma = transmitter.shadowingDb ?? options.shadowingDb[transmitter.kind];
    heard.push({ transmitter, x: transmitter.x, y: transmitter.y, reference: transmitter.referenceRssi, rssi, range: rangeOf(transmitter.referenceRssi, rssi, n), weight: 1 / (sigma * sigma) });
  }
  // Loudest relative to what the transmitter would give at 1 m = nearest.
  heard.sort((a, b) => a.range - b.range);

  const floorId = voteFloor(heard, options.floorVoters);
  const onFloor = heard.filter((item) => item.transmitter.floorId === floorId).slice(0, options.maxReadings);
  const used = onFloor.map((item) => ({ id: item.transmitter.id, kind: item.transmitter.kind, rssi: item.rssi }));
  const floor = index.floor(floorId);

  if (floor?.method === 'fingerprint' && floor.fingerprints) {
    const fix = floor.fingerprints.locate(scanVector(readings, options), floor.k ?? 4);
    if (fix) {
      const accuracy = Math.max(options.minAccuracy, floor.fingerprintFloor ?? 0, (floor.fingerprintScale ?? 1.5) * fix.spread);
      return { ok: true, floorId, x: fix.x, y: fix.y, accuracy, method: 'fingerprint', used, unknown };
    }
  }
  if (floor?.method === 'map' && floor.radioMap) {
    const fix = floor.radioMap.locate(onFloor.map((item) => ({ key: transmitterKey(item.transmitter), rssi: item.rssi, x: item.x, y: item.y })));
    if (fix) return { ok: true, floorId, x: fix.x, y: fix.y, accuracy: Math.max(options.minAccuracy, (floor.mapScale ?? 1) * RADIUS_68_FACTOR * fix.spread), method: 'radio_map', used, unknown };
  }
  const placed = placeByModel(onFloor, options);
  const scale = floor?.accuracyScale ?? 1;
  return { ok: true, floorId, x: placed.x, y: placed.y, accuracy: Math.max(options.minAccuracy, placed.accuracy * scale), method: placed.method, used, unknown };
}

/** Every reading in range, the strongest per transmitter, by key: what fingerprints compare. */
function scanVector(readings: readonly ScanReading[], options: EstimatorOptions): Map<string, number> {
  const vector = new Map<string, number>();
  for (const reading of readings) {
    if (!(reading.rssi >= options.rssiRange[0] && reading.rssi <= options.rssiRange[1])) continue;
    const previous = vector.get(reading.key);
    if (previous === undefined || reading.rssi > previous) vector.set(reading.key, reading.rssi);
  }
  return vector;
}

/** The path-loss model's position of the readings of one floor (nearest first), with its unscaled accuracy. */
function placeByModel(onFloor: readonly Heard[], options: EstimatorOptions): { x: number; y: number; accuracy: number; method: 'fit' | 'centroid' | 'single' } {
  const n = onFloor[0].transmitter.exponent ?? options.pathLossExponent;
  if (onFloor.length === 1) {
    const [only] = onFloor;
    // Anywhere on a ring around the transmitter: the ring's radius (at one sigma longer) bounds the error.
    const sigma = only.transmitter.shadowingDb ?? options.shadowingDb[only.transmitter.kind];
    return { x: only.transmitter.x, y: only.transmitter.y, accuracy: only.range * 10 ** (sigma / (10 * n)), method: 'single' };
  }
  const centroid = weightedCentroid(onFloor, n);
  const fit = onFloor.length >= 3 ? fitPosition(onFloor, centroid, n) : null;
  const geometry = spreadOf(onFloor);
  if (fit && fit.ok) {
    const inflation = Math.max(1, fit.cost / Math.max(1, onFloor.length - 2));
    let variance = (fit.covariance[0] + fit.covariance[2]) * inflation;
    let { x, y } = fit;
    if (geometry.collinear) {
      // Mirror images across the line explain the readings equally well: report the point
      // on the line and an accuracy that covers both images.
      const offset = (x - geometry.cx) * geometry.normal[0] + (y - geometry.cy) * geometry.normal[1];
      x -= offset * geometry.normal[0];
      y -= offset * geometry.normal[1];
      variance += offset * offset;
    } else {
      // Beyond the transmitters' hull only the ranges place the device, and they are biased
      // short and skewed there: the covariance alone understates the error.
      const outside = distanceOutsideHull(onFloor, x, y);
      variance += (OUTSIDE_HULL_FACTOR * outside) ** 2;
    }
    const accuracy = RADIUS_68_FACTOR * Math.sqrt(variance);
    if (Number.isFinite(accuracy)) return { x, y, accuracy, method: 'fit' };
  }
  return { x: centroid.x, y: centroid.y, accuracy: centroidAccuracy(onFloor, centroid, geometry), method: 'centroid' };
}

/** Majority of the `voters` nearest transmitters; a tie goes to the floor heard louder (summed linear power). */
function voteFloor(heard: readonly Heard[], voters: number): number {
  const votes = new Map<number, { count: number; power: number }>();
  for (const item of heard.slice(0, voters)) {
    const entry = votes.get(item.transmitter.floorId) ?? { count: 0, power: 0 };
    entry.count += 1;
    entry.power += 10 ** (item.rssi / 10);
    votes.set(item.transmitter.floorId, entry);
  }
  let best = heard[0].transmitter.floorId;
  let bestEntry = votes.get(best)!;
  for (const [floorId, entry] of votes) {
    if (entry.count > bestEntry.count || (entry.count === bestEntry.count && entry.power > bestEntry.power)) {
      best = floorId;
      bestEntry = entry;
    }
  }
  return best;
}

/** The centroid is honest only as far as the transmitters are spread and the device from them. */
function centroidAccuracy(heard: readonly Heard[], centroid: { x: number; y: number }, geometry: Spread): number {
  let sum = 0;
  let squared = 0;
  for (const item of heard) {
    const weight = 1 / (item.range * item.range);
    const dx = item.transmitter.x - centroid.x;
    const dy = item.transmitter.y - centroid.y;
    sum += weight;
    squared += weight * (dx * dx + dy * dy + item.range * item.range);
  }
  const radius = Math.sqrt(squared / sum);
  return geometry.collinear ? radius + heard[0].range : radius;
}

interface Spread {
  cx: number;
  cy: number;
  /** Unit vector across the transmitters' main axis. */
  normal: [number, number];
  collinear: boolean;
}

/** Principal axes of the transmitter positions: collinear when they spread less than a metre across. */
function spreadOf(heard: readonly Heard[]): Spread {
  let cx = 0;
  let cy = 0;
  for (const item of heard) {
    cx += item.transmitter.x;
    cy += item.transmitter.y;
  }
  cx /= heard.length;
  cy /= heard.length;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const item of heard) {
    const dx = item.transmitter.x - cx;
    const dy = item.transmitter.y - cy;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  sxx /= heard.length;
  sxy /= heard.length;
  syy /= heard.length;
  const half = (sxx + syy) / 2;
  const root = Math.sqrt(((sxx - syy) / 2) ** 2 + sxy * sxy);
  const minor = half - root;
  // Eigenvector of the smaller eigenvalue.
  let nx = sxy;
  let ny = minor - sxx;
  if (Math.abs(nx) < 1e-12 && Math.abs(ny) < 1e-12) {
    nx = sxx <= syy ? 1 : 0;
    ny = sxx <= syy ? 0 : 1;
  }
  const length = Math.hypot(nx, ny);
  return { cx, cy, normal: [nx / length, ny / length], collinear: Math.sqrt(Math.max(0, minor)) < 0.5 };
}

