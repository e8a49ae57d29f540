/**
 * Estimates where a device is from what it hears: plain TypeScript, no framework, no I/O.
 *
 * 1. Readings are matched to known transmitters (unknown ones are ignored, and counted).
 * 2. Floor: the majority of the strongest known transmitters (ties go to the floor whose
 *    transmitters are heard louder in total).
 * 3. Position: the log-distance path-loss model
 *      rssi = reference − 10 · n · log10(distance)   (+ Gaussian shadowing in dB)
 *    fitted by weighted least squares in dB (Levenberg–Marquardt over x, y), started from
 *    the weighted centroid, which is also the fallback when the fit fails.
 * 4. Accuracy: the 68 % radius of the fit's covariance, inflated by the residuals when
 *    they are larger than the model expects, and never smaller than the geometry allows
 *    (one transmitter: the distance to it; collinear transmitters: the mirror ambiguity).
 */

export type TransmitterKind = 'ble' | 'wifi';

export interface KnownTransmitter {
  /** The identifier readings carry: `uuid:major:minor` (lower case) or the BSSID. */
  key: string;
  kind: TransmitterKind;
  /** Database id, echoed in the transmitters used. */
  id: number;
  floorId: number;
  /** Floor metres. */
  x: number;
  y: number;
  /** Expected RSSI at 1 m (dBm). */
  referenceRssi: number;
}

export interface ScanReading {
  key: string;
  kind: TransmitterKind;
  rssi: number;
}

export interface EstimatorOptions {
  /** Path-loss exponent n (2 in free space, 2 to 3 indoors). */
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

export type RejectionReason = 'no_readings' | 'no_known_transmitters';

export interface TransmitterUsed {
  id: number;
  kind: TransmitterKind;
  rssi: number;
}

export type Estimate =
  | {
      ok: true;
      floorId: number;
      x: number;
      y: number;
      /** Metres: the true position lies within this radius with about 68 % probability. */
      accuracy: number;
      /** `fit`: least squares; `centroid`: the weighted centroid (fallback or too few readings). */
      method: 'fit' | 'centroid' | 'single';
      used: TransmitterUsed[];
      /** Readings that matched no known transmitter. */
      unknown: number;
    }
  | { ok: false; reason: RejectionReason; message: string; unknown: number };

/** The transmitters of one building, indexed for lookups by reading key. */
export class TransmitterIndex {
  private readonly byKey = new Map<string, KnownTransmitter>();

  constructor(transmitters: Iterable<KnownTransmitter>) {
    for (const transmitter of transmitters) this.byKey.set(transmitter.key, transmitter);
  }

  get(key: string): KnownTransmitter | undefined {
    return this.byKey.get(key);
  }

  get size(): number {
    return this.byKey.size;
  }
}

interface Heard {
  transmitter: KnownTransmitter;
  rssi: number;
  /** Distance the model predicts from the RSSI alone (metres). */
  range: number;
  /** 1/σ² of the reading in dB. */
  weight: number;
}

const LN10 = Math.LN10;
/** 68 % radius of a 2-D Gaussian from the square root of its covariance trace: 1.07 is exact when circular (conservative otherwise); the rest is a margin for the model's nonlinearity at high noise. */
const RADIUS_68_FACTOR = 1.12;
const MIN_DISTANCE = 0.5;
const OUTSIDE_HULL_FACTOR = 1.5;

export function estimatePosition(readings: readonly ScanReading[], index: TransmitterIndex, options: EstimatorOptions = DEFAULT_ESTIMATOR_OPTIONS): Estimate {
  if (readings.length === 0) return { ok: false, reason: 'no_readings', message: 'The scan has no readings', unknown: 0 };
  const n = options.pathLossExponent;
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
    const sigma = options.shadowingDb[transmitter.kind];
    heard.push({ transmitter, rssi, range: rangeOf(transmitter.referenceRssi, rssi, n), weight: 1 / (sigma * sigma) });
  }
  // Loudest relative to what the transmitter would give at 1 m = nearest.
  heard.sort((a, b) => a.range - b.range);

  const floorId = voteFloor(heard, options.floorVoters);
  const onFloor = heard.filter((item) => item.transmitter.floorId === floorId).slice(0, options.maxReadings);
  const used = onFloor.map((item) => ({ id: item.transmitter.id, kind: item.transmitter.kind, rssi: item.rssi }));

  if (onFloor.length === 1) {
    const [only] = onFloor;
    // Anywhere on a ring around the transmitter: the ring's radius (at one sigma longer) bounds the error.
    const sigma = options.shadowingDb[only.transmitter.kind];
    const accuracy = Math.max(options.minAccuracy, only.range * 10 ** (sigma / (10 * n)));
    return { ok: true, floorId, x: only.transmitter.x, y: only.transmitter.y, accuracy, method: 'single', used, unknown };
  }

  const centroid = weightedCentroid(onFloor);
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
    const accuracy = Math.max(options.minAccuracy, RADIUS_68_FACTOR * Math.sqrt(variance));
    if (Number.isFinite(accuracy)) return { ok: true, floorId, x, y, accuracy, method: 'fit', used, unknown };
  }
  return { ok: true, floorId, x: centroid.x, y: centroid.y, accuracy: Math.max(options.minAccuracy, centroidAccuracy(onFloor, centroid, geometry)), method: 'centroid', used, unknown };
}

export function rangeOf(referenceRssi: number, rssi: number, pathLossExponent: number): number {
  return Math.max(MIN_DISTANCE, 10 ** ((referenceRssi - rssi) / (10 * pathLossExponent)));
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

/** Weights 1/range²: the nearest transmitters pull hardest. */
function weightedCentroid(heard: readonly Heard[]): { x: number; y: number } {
  let sum = 0;
  let x = 0;
  let y = 0;
  for (const item of heard) {
    const weight = 1 / (item.range * item.range);
    sum += weight;
    x += weight * item.transmitter.x;
    y += weight * item.transmitter.y;
  }
  return { x: x / sum, y: y / sum };
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

interface Fit {
  ok: boolean;
  x: number;
  y: number;
  /** Weighted sum of squared residuals (χ² when the weights are right). */
  cost: number;
  /** [var x, cov xy, var y] of the estimate. */
  covariance: [number, number, number];
}

/**
 * Levenberg–Marquardt on r_i = rssi_i − (A_i − 10 n log10 d_i), weights 1/σ_i². Two
 * unknowns, so every step solves a 2×2 system in closed form.
 */
function fitPosition(heard: readonly Heard[], start: { x: number; y: number }, n: number): Fit {
  const k = (10 * n) / LN10;
  let x = start.x;
  let y = start.y;
  let lambda = 1e-3;
  let cost = costAt(heard, x, y, n);
  let a11 = 0;
  let a12 = 0;
  let a22 = 0;
  for (let iteration = 0; iteration < 50; iteration += 1) {
    a11 = 0;
    a12 = 0;
    a22 = 0;
    let g1 = 0;
    let g2 = 0;
    for (const item of heard) {
      const dx = x - item.transmitter.x;
      const dy = y - item.transmitter.y;
      const d2 = Math.max(MIN_DISTANCE * MIN_DISTANCE, dx * dx + dy * dy);
      const residual = item.rssi - (item.transmitter.referenceRssi - 5 * n * Math.log10(d2));
      // d(model)/dx = −k·dx/d², so d(residual)/dx = +k·dx/d².
      const jx = (k * dx) / d2;
      const jy = (k * dy) / d2;
      const w = item.weight;
      a11 += w * jx * jx;
      a12 += w * jx * jy;
      a22 += w * jy * jy;
      g1 += w * jx * residual;
      g2 += w * jy * residual;
    }
    let improved = false;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const b11 = a11 * (1 + lambda);
      const b22 = a22 * (1 + lambda);
      const det = b11 * b22 - a12 * a12;
      if (!(Math.abs(det) > 1e-18)) {
        lambda *= 10;
        continue;
      }
      const stepX = -(b22 * g1 - a12 * g2) / det;
      const stepY = -(b11 * g2 - a12 * g1) / det;
      const candidate = costAt(heard, x + stepX, y + stepY, n);
      if (candidate < cost) {
        const converged = Math.hypot(stepX, stepY) < 1e-3;
        x += stepX;
        y += stepY;
        cost = candidate;
        lambda = Math.max(1e-7, lambda / 10);
        improved = true;
        if (converged) iteration = Infinity;
        break;
      }
      lambda *= 10;
    }
    if (!improved) break;
  }
  const det = a11 * a22 - a12 * a12;
  if (!(det > 1e-12) || !Number.isFinite(x) || !Number.isFinite(y)) return { ok: false, x, y, cost, covariance: [Infinity, 0, Infinity] };
  // A fit that runs far beyond every transmitter heard is a divergence, not a position.
  const farthest = heard.reduce((max, item) => Math.max(max, item.range), 0);
  const nearest = Math.min(...heard.map((item) => Math.hypot(x - item.transmitter.x, y - item.transmitter.y)));
  if (nearest > 3 * farthest + 10) return { ok: false, x, y, cost, covariance: [Infinity, 0, Infinity] };
  return { ok: true, x, y, cost, covariance: [a22 / det, -a12 / det, a11 / det] };
}

function costAt(heard: readonly Heard[], x: number, y: number, n: number): number {
  let cost = 0;
  for (const item of heard) {
    const dx = x - item.transmitter.x;
    const dy = y - item.transmitter.y;
    const d2 = Math.max(MIN_DISTANCE * MIN_DISTANCE, dx * dx + dy * dy);
    const residual = item.rssi - (item.transmitter.referenceRssi - 5 * n * Math.log10(d2));
    cost += item.weight * residual * residual;
  }
  return cost;
}

/** 0 inside the convex hull of the transmitters, else the distance to it (metres). */
function distanceOutsideHull(heard: readonly Heard[], x: number, y: number): number {
  const points = heard.map((item) => [item.transmitter.x, item.transmitter.y] as [number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: [number, number], a: [number, number], b: [number, number]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  // Andrew's monotone chain, counter-clockwise.
  const lower: Array<[number, number]> = [];
  for (const point of points) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], point) <= 0) lower.pop();
    lower.push(point);
  }
  const upper: Array<[number, number]> = [];
  for (let i = points.length - 1; i >= 0; i -= 1) {
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], points[i]) <= 0) upper.pop();
    upper.push(points[i]);
  }
  const hull = [...lower.slice(0, -1), ...upper.slice(0, -1)];
  if (hull.length < 3) return 0;
  let inside = true;
  let nearest = Infinity;
  for (let i = 0; i < hull.length; i += 1) {
    const a = hull[i];
    const b = hull[(i + 1) % hull.length];
    if (cross(a, b, [x, y]) < 0) inside = false;
    const ex = b[0] - a[0];
    const ey = b[1] - a[1];
    const t = Math.max(0, Math.min(1, ((x - a[0]) * ex + (y - a[1]) * ey) / (ex * ex + ey * ey)));
    nearest = Math.min(nearest, Math.hypot(x - a[0] - t * ex, y - a[1] - t * ey));
  }
  return inside ? 0 : nearest;
}
