/**
 * What a scan says by what it does not contain, plain TypeScript.
 *
 * A scanner reports the readings at or above its sensitivity, and often only its strongest N
 * of them. A known transmitter of the floor that a scan does not report was therefore below
 * a threshold: below the scan's weakest reading (always true, whatever the scanner's
 * sensitivity and cap), and below the scanner's sensitivity when the scan was not cut. Such a
 * transmitter is a censored observation, not a missing one: with the log-distance model
 *
 *   P(not heard) = p + (1 − p) · Φ((t − μ) / σ)
 *
 * where μ is the RSSI the model expects, t the threshold and p the chance that a transmitter
 * loud enough was missed anyway (a lost advertisement, a beacon off). Ignoring those terms
 * is what biases a fit of the heard readings alone: far transmitters are heard only when
 * they happen to be loud, so the exponent comes out low and positions are pulled towards
 * transmitters that were not heard.
 *
 * Fits use each term as a pseudo-reading in Gauss–Newton form: the cost −2 log P, a weight
 * (the curvature in μ, never negative) and a residual whose weighted value is the slope.
 */

/** The chance that a transmitter well within range is still not reported. */
export const MISS_PROBABILITY = 0.02;
/** Readings are whole dB: a transmitter not reported was below the weakest one by at least half a dB. */
export const ROUNDING_DB = 0.5;
/** Beyond this many σ below the threshold a censored term is worth nothing: it is left out (λ(3) < 0.005). */
export const CENSORED_REACH_SIGMAS = 3;
/** Which transmitters not heard a live estimate takes: those the model expects less than this many σ below the threshold near the first fit. */
export const CENSORED_SELECT_SIGMAS = 2;

/** log Φ(z), stable far into both tails (Numerical Recipes' erfc, relative error < 1.2e-7). */
export function logPhi(z: number): number {
  const x = -z / Math.SQRT2;
  const ax = Math.abs(x);
  const t = 1 / (1 + 0.5 * ax);
  const poly =
    -ax * ax -
    1.26551223 +
    t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const logErfc = Math.log(t) + poly;
  return x >= 0 ? logErfc - Math.LN2 : Math.log1p(-0.5 * Math.exp(logErfc));
}

/** A censored term at z = (t − μ)/σ, in units of the fits' cost (Σ w r²). */
export interface CensoredTerm {
  /** −2 log P(not heard). */
  cost: number;
  /** λ = (1 − p) φ(z) / P: the slope of −log P in μ, times σ. */
  lambda: number;
  /** The curvature of −log P in μ, times σ² (≥ 0): λ (z + λ), 0 where the term is concave. */
  curvature: number;
}

/** Scratch result of `censoredTerm`: fits call it per reading and step, so it allocates nothing. */
const term: CensoredTerm = { cost: 0, lambda: 0, curvature: 0 };
const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/**
 * The censored term at z, with a miss probability p. Returns a shared object, overwritten by
 * the next call: read it at once. For the usual p, interpolated in a table (below); else, and
 * beyond the table, `exactTerm`. Where the model expects the transmitter far below the
 * threshold, nothing.
 */
export function censoredTerm(z: number, p = MISS_PROBABILITY): CensoredTerm {
  if (z > CENSORED_REACH_SIGMAS) {
    term.cost = 0;
    term.lambda = 0;
    term.curvature = 0;
    return term;
  }
  const position = (z - TABLE_FROM) * TABLE_SCALE;
  if (p !== MISS_PROBABILITY || !(position >= 0)) return exactTerm(z, p, term);
  // Cubic Hermite on each of cost, λ and the unclamped curvature, from their values and exact
  // derivatives at the two nodes around z: relative error below 1e-8, a lookup instead of two
  // exponentials and a logarithm (the live fit calls this some 200 times a scan).
  const node = Math.min(TABLE_NODES - 2, Math.floor(position));
  const s = position - node;
  const s2 = s * s;
  const s3 = s2 * s;
  const h00 = 2 * s3 - 3 * s2 + 1;
  const h10 = (s3 - 2 * s2 + s) * TABLE_STEP;
  const h01 = -2 * s3 + 3 * s2;
  const h11 = (s3 - s2) * TABLE_STEP;
  const a = node * 6;
  const b = a + 6;
  term.cost = h00 * table[a] + h10 * table[a + 1] + h01 * table[b] + h11 * table[b + 1];
  term.lambda = h00 * table[a + 2] + h10 * table[a + 3] + h01 * table[b + 2] + h11 * table[b + 3];
  term.curvature = Math.max(0, h00 * table[a + 4] + h10 * table[a + 5] + h01 * table[b + 4] + h11 * table[b + 5]);
  return term;
}

/**
 * The censored term computed outright: Φ from Numerical Recipes' erfc (relative error < 1.2e-7),
 * sharing its exponential with φ. Into `out` (the curvature unclamped when `clamp` is false).
 */
function exactTerm(z: number, p: number, out: CensoredTerm, clamp = true): CensoredTerm {
  const gauss = Math.exp(-0.5 * z * z);
  const pdf = gauss * INV_SQRT_2PI;
  const ax = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * ax);
  const poly =
    -1.26551223 +
    t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  // erfc(|z|/√2) = t·exp(−z²/2 + poly).
  const tail = 0.5 * t * Math.exp(poly) * gauss;
  const cdf = z <= 0 ? tail : 1 - tail;
  const probability = p + (1 - p) * cdf;
  const lambda = ((1 - p) * pdf) / probability;
  out.cost = -2 * Math.log(probability);
  out.lambda = lambda;
  const curvature = lambda * (z + lambda);
  out.curvature = clamp ? Math.max(0, curvature) : curvature;
  return out;
}

/**
 * The table of `censoredTerm` at p = MISS_PROBABILITY: from z = −8 (below, P is p to 1e-14)
 * to the reach, every 1/32 σ, six numbers a node: cost and its derivative −2λ, λ and its
 * derivative −κ, the curvature κ = λ(z + λ) (unclamped, so it interpolates smoothly through 0)
 * and its derivative λ(1 − κ) − κ(z + λ).
 */
const TABLE_FROM = -8;
const TABLE_STEP = 1 / 32;
const TABLE_SCALE = 1 / TABLE_STEP;
const TABLE_NODES = Math.round((CENSORED_REACH_SIGMAS - TABLE_FROM) * TABLE_SCALE) + 1;
const table = new Float64Array(TABLE_NODES * 6);
{
  const scratch: CensoredTerm = { cost: 0, lambda: 0, curvature: 0 };
  for (let node = 0; node < TABLE_NODES; node += 1) {
    const z = TABLE_FROM + node * TABLE_STEP;
    const { cost, lambda, curvature } = exactTerm(z, MISS_PROBABILITY, scratch, false);
    const at = node * 6;
    table[at] = cost;
    table[at + 1] = -2 * lambda;
    table[at + 2] = lambda;
    table[at + 3] = -curvature;
    table[at + 4] = curvature;
    table[at + 5] = lambda * (1 - curvature) - curvature * (z + lambda);
  }
}

/** The threshold below which a scan's unreported transmitters were: its weakest reading, less the rounding. */
export function censoringThreshold(readings: Iterable<{ rssi: number }>): number {
  let weakest = Infinity;
  for (const reading of readings) if (reading.rssi < weakest) weakest = reading.rssi;
  return weakest + ROUNDING_DB;
}
