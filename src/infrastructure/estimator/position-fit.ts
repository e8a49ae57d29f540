/**
 * The least-squares position of one scan under the log-distance model, plain TypeScript:
 *
 *   rssi_i = reference_i − 10 · n · log10(distance_i)   (+ Gaussian shadowing in dB)
 *
 * fitted in dB with weights 1/σ_i² by Levenberg–Marquardt over (x, y), together with the
 * transmitters the scan did not report, each censored below a threshold (censoring.ts): a
 * transmitter not heard is evidence of distance. Used for every live estimate and, inside the
 * calibration, for the positions of the scans it learns from.
 */
import { CENSORED_REACH_SIGMAS, censoredTerm } from './censoring';

/** A reading ready for the fit: where its transmitter is, what it sends at 1 m, what was heard. */
export interface RangedReading {
  x: number;
  y: number;
  /** Expected RSSI at 1 m (dBm), calibrated. */
  reference: number;
  /** What was heard (dBm), or for a censored reading the threshold it was below. */
  rssi: number;
  /** 1/σ² of the reading in dB. */
  weight: number;
  /** Not heard: the transmitter was below `rssi` (censoring.ts). */
  censored?: boolean;
  /** The squared vertical distance to the transmitter (m²): one on the floor above or below. */
  dz2?: number;
}

export interface PositionFit {
  ok: boolean;
  x: number;
  y: number;
  /** Weighted sum of squared residuals (χ² when the weights are right), plus −2 log P of each censored reading. */
  cost: number;
  /** The heard readings' share of the cost: their χ². */
  heardCost: number;
  /** [var x, cov xy, var y] of the estimate. */
  covariance: [number, number, number];
}

export const MIN_DISTANCE = 0.5;
/** A fit has converged when its step is under a centimetre or it gains less than this in χ²: nothing a position could show. */
const STEP_TOLERANCE_M = 0.01;
const COST_TOLERANCE = 1e-3;

/** When a position fit stops: a step under `stepM` metres, or a gain in cost under `cost`. */
export interface FitTolerance {
  stepM: number;
  cost: number;
}
const FINE: FitTolerance = { stepM: STEP_TOLERANCE_M, cost: COST_TOLERANCE };
/** For a fit that only starts another (the heard readings' before the censored terms): within a few centimetres. */
export const COARSE_FIT: FitTolerance = { stepM: 0.05, cost: 1e-2 };
const LN10 = Math.LN10;
/** 5 log10 d² as 5/ln 10 · ln d², and 10^x as e^(x ln 10): V8's log and exp cost a half and a quarter of its log10 and power. */
const FIVE_LOG10_E = 5 / LN10;

/**
 * Scratch space of the fit, reused by every call (the fit is synchronous, so calls never
 * overlap): per reading x, y, reference, RSSI, weight, censored, height², and for a censored
 * one its σ and the squared distance beyond which the model puts it more than the reach below
 * its threshold (its term is nothing there: no logarithm needed); then the normal equations at
 * the current point and at a candidate. Thousands of scans a second allocate nothing here.
 */
const STRIDE = 9;
let points = new Float64Array(64 * STRIDE);
const current = new Float64Array(11);
const candidate = new Float64Array(11);

/** Loads the readings; `n`, when the exponent is fixed for the fit, lets far censored terms be skipped by distance. */
function loadPoints(readings: readonly RangedReading[], n = NaN): number {
  if (points.length < readings.length * STRIDE) points = new Float64Array(readings.length * STRIDE);
  for (let i = 0; i < readings.length; i += 1) {
    const item = readings[i];
    const at = i * STRIDE;
    points[at] = item.x;
    points[at + 1] = item.y;
    points[at + 2] = item.reference;
    points[at + 3] = item.rssi;
    points[at + 4] = item.weight;
    points[at + 5] = item.censored ? 1 : 0;
    points[at + 6] = item.dz2 ?? 0;
    if (item.censored) {
      const sigma = 1 / Math.sqrt(item.weight);
      points[at + 7] = sigma;
      // z = (t − A + 5 n log10 d²)/σ exceeds the reach beyond this d² (never skipped when n is free).
      points[at + 8] = n > 0 ? Math.exp((LN10 * (CENSORED_REACH_SIGMAS * sigma - item.rssi + item.reference)) / (5 * n)) : Infinity;
    }
  }
  return readings.length;
}

/**
 * At (x, y), into `out`: JᵀWJ (a11, a12, a22), JᵀWr (g1, g2), the cost Σ w·r² and the heard
 * readings' share of it, for the residuals r_i = rssi_i − (A_i − 10 n log10 d_i); with
 * `exponent`, also the exponent's column (a13, a23, a33, g3). One pass, one logarithm per
 * reading: the equations of an accepted candidate are the next iteration's.
 */
function normalEquations(count: number, x: number, y: number, n: number, out: Float64Array, exponent = false): void {
  const k = (10 * n) / LN10;
  const minimum = MIN_DISTANCE * MIN_DISTANCE;
  let a11 = 0;
  let a12 = 0;
  let a22 = 0;
  let g1 = 0;
  let g2 = 0;
  let cost = 0;
  let heardCost = 0;
  let a13 = 0;
  let a23 = 0;
  let a33 = 0;
  let g3 = 0;
  for (let at = 0; at < count * STRIDE; at += STRIDE) {
    const dx = x - points[at];
    const dy = y - points[at + 1];
    const d2 = Math.max(minimum, dx * dx + dy * dy + points[at + 6]);
    const censored = points[at + 5] === 1;
    // Not heard, and far enough below its threshold to weigh nothing: no cost, no slope.
    if (censored && d2 > points[at + 8]) continue;
    // d(residual)/dn = 5 log10 d².
    const jn = FIVE_LOG10_E * Math.log(d2);
    const residual = points[at + 3] - (points[at + 2] - n * jn);
    let w = points[at + 4];
    // d(model)/dx = −k·dx/d², so d(residual)/dx = +k·dx/d².
    const inverse = 1 / d2;
    const jx = k * dx * inverse;
    const jy = k * dy * inverse;
    // w·r: what each reading adds to the gradient (per unit of its Jacobian).
    let slope: number;
    if (censored) {
      // Not heard: z = (t − μ)/σ is the residual in σ; the term's cost is −2 log P, its slope
      // −λ/σ (even where it is concave) and its weight the curvature, never negative (censoring.ts).
      const sigma = points[at + 7];
      const term = censoredTerm(residual / sigma);
      cost += term.cost;
      if (term.lambda === 0) continue;
      slope = -term.lambda / sigma;
      w *= term.curvature;
    } else {
      slope = w * residual;
      heardCost += slope * residual;
    }
    a11 += w * jx * jx;
    a12 += w * jx * jy;
    a22 += w * jy * jy;
    g1 += jx * slope;
    g2 += jy * slope;
    if (exponent) {
      a13 += w * jx * jn;
      a23 += w * jy * jn;
      a33 += w * jn * jn;
      g3 += jn * slope;
    }
  }
  cost += heardCost;
  out[0] = a11;
  out[1] = a12;
  out[2] = a22;
  out[3] = g1;
  out[4] = g2;
  out[5] = cost;
  out[6] = heardCost;
  out[7] = a13;
  out[8] = a23;
  out[9] = a33;
  out[10] = g3;
}

/** Distance the model predicts from the RSSI alone (metres). */
export function rangeOf(referenceRssi: number, rssi: number, pathLossExponent: number): number {
  return Math.max(MIN_DISTANCE, Math.exp((LN10 * (referenceRssi - rssi)) / (10 * pathLossExponent)));
}

/**
 * Levenberg–Marquardt on r_i = rssi_i − (A_i − 10 n log10 d_i), weights 1/σ_i², from `start`.
 * Two unknowns, so every step solves a 2×2 system in closed form. Not ok when singular or
 * when it runs far beyond every transmitter heard (a divergence, not a position).
 */
export function fitPosition(readings: readonly RangedReading[], start: { x: number; y: number }, n: number, tolerance: FitTolerance = FINE): PositionFit {
  const count = loadPoints(readings, n);
  let x = start.x;
  let y = start.y;
  let lambda = 1e-3;
  let raise = 2;
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
      // Nielsen's damping: by how well the quadratic model predicted the gain (−gᵀh + λ·hᵀDh).
      const predicted = -(g1 * stepX + g2 * stepY) + lambda * (a11 * stepX * stepX + a22 * stepY * stepY);
      // Converged where the next step, undamped, would move less than the tolerance: it is not
      // worth an evaluation of every reading (a fit's last step was such).
      if (lambda < 1e-2 && stepX * stepX + stepY * stepY < tolerance.stepM * tolerance.stepM) {
        converged = true;
        improved = true;
        break;
      }
      normalEquations(count, x + stepX, y + stepY, n, candidate);
      const gain = current[5] - candidate[5];
      if (gain > 0) {
        converged = stepX * stepX + stepY * stepY < tolerance.stepM * tolerance.stepM || gain < tolerance.cost;
        x += stepX;
        y += stepY;
        current.set(candidate);
        const ratio = predicted > 0 ? gain / predicted : 1;
        lambda = Math.max(1e-7, lambda * Math.max(1 / 3, 1 - (2 * ratio - 1) ** 3));
        raise = 2;
        improved = true;
        break;
      }
      lambda *= raise;
      raise *= 2;
    }
    if (!improved || converged) break;
  }
  const cost = current[5];
  const heardCost = current[6];
  const det = current[0] * current[2] - current[1] * current[1];
  if (!(det > 1e-12) || !Number.isFinite(x) || !Number.isFinite(y)) return { ok: false, x, y, cost, heardCost, covariance: [Infinity, 0, Infinity] };
  if (diverged(readings, x, y, n)) return { ok: false, x, y, cost, heardCost, covariance: [Infinity, 0, Infinity] };
  return { ok: true, x, y, cost, heardCost, covariance: [current[2] / det, -current[1] / det, current[0] / det] };
}

export interface PositionExponentFit extends PositionFit {
  /** The exponent that explains the readings best, within the bounds. */
  exponent: number;
  /** Its variance (with the position free), at the readings' weights. */
  exponentVariance: number;
}

/**
 * Levenberg–Marquardt over (x, y, n) together: for a floor with no model yet, the exponent
 * the scan itself shows (within `bounds`), so a building unlike the default is not placed
 * badly before it has calibrated. The covariance is the position's with n free (marginal).
 */
export function fitPositionAndExponent(
  readings: readonly RangedReading[],
  start: { x: number; y: number; exponent?: number },
  prior: { exponent: number; sd: number },
  bounds: readonly [number, number],
): PositionExponentFit {
  const count = loadPoints(readings);
  let x = start.x;
  let y = start.y;
  let n = start.exponent ?? prior.exponent;
  let lambda = 1e-3;
  const step = new Float64Array(3);
  // The prior on n as one more residual (n − n₀)/sd: a scan that cannot tell n keeps the default.
  const priorWeight = 1 / (prior.sd * prior.sd);
  const equations = (atX: number, atY: number, atN: number, out: Float64Array) => {
    normalEquations(count, atX, atY, atN, out, true);
    const offset = atN - prior.exponent;
    out[9] += priorWeight;
    out[10] += priorWeight * offset;
    out[5] += priorWeight * offset * offset;
  };
  equations(x, y, n, current);
  for (let iteration = 0; iteration < 60; iteration += 1) {
    let improved = false;
    let converged = false;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      if (!solve3(current, 1 + lambda, step)) {
        lambda *= 10;
        continue;
      }
      const nextN = Math.min(bounds[1], Math.max(bounds[0], n + step[2]));
      equations(x + step[0], y + step[1], nextN, candidate);
      if (candidate[5] < current[5]) {
        converged = (Math.hypot(step[0], step[1]) < STEP_TOLERANCE_M && Math.abs(nextN - n) < 1e-3) || current[5] - candidate[5] < COST_TOLERANCE;
        x += step[0];
        y += step[1];
        n = nextN;
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
  const heardCost = current[6];
  const covariance = marginalCovariance(current);
  const exponentVariance = covariance ? covariance[3] : Infinity;
  const ok = covariance !== null && Number.isFinite(x) && Number.isFinite(y) && !diverged(readings, x, y, n);
  return { ok, x, y, exponent: n, exponentVariance, cost, heardCost, covariance: covariance ? [covariance[0], covariance[1], covariance[2]] : [Infinity, 0, Infinity] };
}

/** The damped step −(A + (damping − 1)·diag A)⁻¹ g of the 3 × 3 normal equations in `e`, into `out`; false when singular. */
function solve3(e: Float64Array, damping: number, out: Float64Array): boolean {
  const a11 = e[0] * damping;
  const a22 = e[2] * damping;
  const a33 = e[9] * damping;
  const a12 = e[1];
  const a13 = e[7];
  const a23 = e[8];
  const c11 = a22 * a33 - a23 * a23;
  const c12 = a13 * a23 - a12 * a33;
  const c13 = a12 * a23 - a13 * a22;
  const det = a11 * c11 + a12 * c12 + a13 * c13;
  if (!(Math.abs(det) > 1e-18)) return false;
  const c22 = a11 * a33 - a13 * a13;
  const c23 = a12 * a13 - a11 * a23;
  const c33 = a11 * a22 - a12 * a12;
  const g1 = e[3];
  const g2 = e[4];
  const g3 = e[10];
  out[0] = -(c11 * g1 + c12 * g2 + c13 * g3) / det;
  out[1] = -(c12 * g1 + c22 * g2 + c23 * g3) / det;
  out[2] = -(c13 * g1 + c23 * g2 + c33 * g3) / det;
  return true;
}

/** The (x, y) block of the inverse of the 3 × 3 information (the position's covariance with n free), then n's variance. */
function marginalCovariance(e: Float64Array): [number, number, number, number] | null {
  const a11 = e[0];
  const a12 = e[1];
  const a22 = e[2];
  const a13 = e[7];
  const a23 = e[8];
  const a33 = e[9];
  const c11 = a22 * a33 - a23 * a23;
  const c12 = a13 * a23 - a12 * a33;
  const c13 = a12 * a23 - a13 * a22;
  const det = a11 * c11 + a12 * c12 + a13 * c13;
  if (!(det > 1e-12)) return null;
  return [c11 / det, c12 / det, (a11 * a33 - a13 * a13) / det, (a11 * a22 - a12 * a12) / det];
}

/** Far beyond every transmitter heard (censored ones aside): a divergence, not a position. */
function diverged(readings: readonly RangedReading[], x: number, y: number, n: number): boolean {
  let farthest = 0;
  let nearest = Infinity;
  for (const item of readings) {
    if (item.censored) continue;
    farthest = Math.max(farthest, rangeOf(item.reference, item.rssi, n));
    const dx = x - item.x;
    const dy = y - item.y;
    nearest = Math.min(nearest, Math.sqrt(dx * dx + dy * dy));
  }
  return nearest > 3 * farthest + 10;
}

/** Weights 1/range²: the nearest transmitters pull hardest. */
export function weightedCentroid(readings: readonly RangedReading[], n: number): { x: number; y: number } {
  let sum = 0;
  let x = 0;
  let y = 0;
  for (const item of readings) {
    const range = rangeOf(item.reference, item.rssi, n);
    const weight = 1 / (range * range);
    sum += weight;
    x += weight * item.x;
    y += weight * item.y;
  }
  return { x: x / sum, y: y / sum };
}

/** 0 inside the convex hull of the points, else the distance to it (metres). */
export function distanceOutsideHull(readings: readonly { x: number; y: number }[], x: number, y: number): number {
  if (insideExtremes(readings, x, y)) return 0;
  const order = [...readings].sort((a, b) => a.x - b.x || a.y - b.y);
  const cross = (o: { x: number; y: number }, a: { x: number; y: number }, bx: number, by: number) => (a.x - o.x) * (by - o.y) - (a.y - o.y) * (bx - o.x);
  // Andrew's monotone chain, counter-clockwise: the lower chain, then the upper one, in one array.
  const hull: Array<{ x: number; y: number }> = [];
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

/** Directions (cos, sin) of eight compass points, counter-clockwise. */
const COMPASS = Array.from({ length: 8 }, (_, i) => [Math.cos((i * Math.PI) / 4), Math.sin((i * Math.PI) / 4)]);
const extremes = new Int32Array(8);

/**
 * Whether (x, y) lies strictly inside the polygon of the points farthest along eight compass
 * directions: a polygon inside the hull (its corners are hull points, in hull order), so then it
 * is inside the hull too. One pass, no sort: most fits lie well inside what they heard.
 */
function insideExtremes(points: readonly { x: number; y: number }[], x: number, y: number): boolean {
  if (points.length < 3) return false;
  for (let d = 0; d < 8; d += 1) {
    const [cx, cy] = COMPASS[d];
    let best = 0;
    let bestValue = -Infinity;
    for (let i = 0; i < points.length; i += 1) {
      const value = points[i].x * cx + points[i].y * cy;
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    }
    extremes[d] = best;
  }
  let corners = 0;
  for (let d = 0; d < 8; d += 1) {
    const a = points[extremes[d]];
    const b = points[extremes[(d + 1) % 8]];
    if (a === b) continue;
    if ((b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x) <= 0) return false;
    corners += 1;
  }
  return corners >= 3;
}
