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
 * Scratch space of the fit, reused by every call (the estimator is synchronous, so calls never
 * overlap): per reading x, y, reference RSSI, RSSI and weight, then the normal equations at
 * the current point and at a candidate. Thousands of scans a second allocate nothing here.
 */
const STRIDE = 5;
let points = new Float64Array(16 * STRIDE);
const current = new Float64Array(6);
const candidate = new Float64Array(6);

function loadPoints(heard: readonly Heard[]): number {
  if (points.length < heard.length * STRIDE) points = new Float64Array(heard.length * STRIDE);
  for (let i = 0; i < heard.length; i += 1) {
    const item = heard[i];
    const at = i * STRIDE;
    points[at] = item.transmitter.x;
    points[at + 1] = item.transmitter.y;
    points[at + 2] = item.transmitter.referenceRssi;
    points[at + 3] = item.rssi;
    points[at + 4] = item.weight;
  }
  return heard.length;
}

/**
 * At (x, y), into `out`: JᵀWJ (a11, a12, a22), JᵀWr (g1, g2) and the cost Σ w·r², for the
 * residuals r_i = rssi_i − (A_i − 10 n log10 d_i). One pass, one logarithm per reading: the
 * equations of an accepted candidate are the next iteration's.
 */
function normalEquations(count: number, x: number, y: number, n: number, out: Float64Array): void {
  const k = (10 * n) / LN10;
  const minimum = MIN_DISTANCE * MIN_DISTANCE;
  let a11 = 0;
  let a12 = 0;
  let a22 = 0;
  let g1 = 0;
  let g2 = 0;
  let cost = 0;
  for (let at = 0; at < count * STRIDE; at += STRIDE) {
    const dx = x - points[at];
    const dy = y - points[at + 1];
    const d2 = Math.max(minimum, dx * dx + dy * dy);
    const residual = points[at + 3] - (points[at + 2] - 5 * n * Math.log10(d2));
    const w = points[at + 4];
    // d(model)/dx = −k·dx/d², so d(residual)/dx = +k·dx/d².
    const jx = (k * dx) / d2;
    const jy = (k * dy) / d2;
    a11 += w * jx * jx;
    a12 += w * jx * jy;
    a22 += w * jy * jy;
    g1 += w * jx * residual;
    g2 += w * jy * residual;
    cost += w * residual * residual;
  }
  out[0] = a11;
  out[1] = a12;
  out[2] = a22;
  out[3] = g1;
  out[4] = g2;
  out[5] = cost;
}

/**
 * Levenberg–Marquardt on r_i = rssi_i − (A_i − 10 n log10 d_i), weights 1/σ_i². Two
 * unknowns, so every step solves a 2×2 system in closed form.
 */
function fitPosition(heard: readonly Heard[], start: { x: number; y: number }, n: number): Fit {
  const count = loadPoints(heard);
  let x = start.x;
  let y = start.y;
  let lambda = 1e-3;
  normalEquations(count, x, y, n, current);
  for (let iteration = 0; iteration < 50; iteration += 1) {
    const a11 = current[0];
    const a12 = current[1];
    const a22 = current[2];
    const g1 = current[3];
    const g2 = current[4];
    let improved = false;
    let converged = false;
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
      normalEquations(count, x + stepX, y + stepY, n, candidate);
      if (candidate[5] < current[5]) {
        converged = Math.hypot(stepX, stepY) < 1e-3;
        x += stepX;
        y += stepY;
        current.set(candidate);
        lambda = Math.max(1e-7, lambda / 10);
        improved = true;
        break;
      }
      lambda *= 10;
    }
    if (!improved || converged) break;
  }
  const cost = current[5];
  const det = current[0] * current[2] - current[1] * current[1];
  if (!(det > 1e-12) || !Number.isFinite(x) || !Number.isFinite(y)) return { ok: false, x, y, cost, covariance: [Infinity, 0, Infinity] };
  // A fit that runs far beyond every transmitter heard is a divergence, not a position.
  let farthest = 0;
  let nearest = Infinity;
  for (const item of heard) {
    farthest = Math.max(farthest, item.range);
    nearest = Math.min(nearest, Math.hypot(x - item.transmitter.x, y - item.transmitter.y));
  }
  if (nearest > 3 * farthest + 10) return { ok: false, x, y, cost, covariance: [Infinity, 0, Infinity] };
  return { ok: true, x, y, cost, covariance: [current[2] / det, -current[1] / det, current[0] / det] };
}

/** 0 inside the convex hull of the transmitters, else the distance to it (metres). */
function distanceOutsideHull(heard: readonly Heard[], x: number, y: number): number {
  const order = heard.map((item) => item.transmitter).sort((a, b) => a.x - b.x || a.y - b.y);
  const cross = (o: KnownTransmitter, a: KnownTransmitter, bx: number, by: number) => (a.x - o.x) * (by - o.y) - (a.y - o.y) * (bx - o.x);
  // Andrew's monotone chain, counter-clockwise: the lower chain, then the upper one, in one array.
  const hull: KnownTransmitter[] = [];
  for (const point of order) {
    while (hull.length >= 2 && cross(hull[hull.length - 2], hull[hull.length - 1], point.x, point.y) <= 0) hull.pop();
    hull.push(point);
  }
  const lowerLength = hull.length + 1;
  for (let i = order.length - 2; i >= 0; i -= 1) {
    const point = order[i];
    while (hull.length >= lowerLength && cross(hull[hull.length - 2], hull[hull.length - 1], point.x, point.y) <= 0) hull.pop();
    hull.push(point);
  }
  hull.pop(); // the first point, closing the ring
  if (hull.length < 3) return 0;
  let inside = true;
  let nearest = Infinity;
  for (let i = 0; i < hull.length; i += 1) {
    const a = hull[i];
    const b = hull[(i + 1) % hull.length];
    if (cross(a, b, x, y) < 0) inside = false;
    const ex = b.x - a.x;
    const ey = b.y - a.y;
    const t = Math.max(0, Math.min(1, ((x - a.x) * ex + (y - a.y) * ey) / (ex * ex + ey * ey)));
    nearest = Math.min(nearest, Math.hypot(x - a.x - t * ex, y - a.y - t * ey));
  }
  return inside ? 0 : nearest;
}
