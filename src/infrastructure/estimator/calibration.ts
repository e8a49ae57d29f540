import { CENSORED_REACH_SIGMAS, censoredTerm, censoringThreshold } from './censoring';
import { fitPosition, RangedReading } from './position-fit';
import { addScan, addStatistics, emptyStatistics, FloorStatistics, RADIO_PRIOR, RadioPrior, solveModel, SolvedModel } from './radio-model';
import { KnownTransmitter, transmitterKey, TransmitterKind } from './transmitter';

/**
 * Calibration of a floor's radio model from scans, plain TypeScript.
 *
 * A scan says what it heard and, by omission, what it did not: each known transmitter of the
 * floor it did not report was below its weakest reading of that kind (censoring.ts). Both
 * enter the fit (a censored, Tobit-style likelihood), so far transmitters that were heard
 * only because they happened to be loud do not pull the exponent low.
 *
 * Scans at unknown positions (what the server sees) are fitted jointly with their positions:
 * robust Gauss–Newton on θ = (n, δ) where each scan's position is re-estimated at every step
 * and eliminated from the normal equations (its Schur complement), so the model does not
 * inherit the pull of the positions estimated with a wrong one. Scans at known positions
 * (reference points) need no position: the model is then linear in θ.
 *
 * A batch gives a contribution: the quadratic approximation of its evidence about θ at the
 * batch's own optimum (given everything stored before as the prior), which later batches,
 * other instances and the reference points add to (radio-model.ts).
 */

export interface CalibrationReading {
  /** The transmitter with its registered reference RSSI (no offset applied). */
  transmitter: KnownTransmitter;
  rssi: number;
  /** A transmitter of the floor above or below: the floor's loss its offset starts from (dB), and the squared height between (m²). */
  lossDb?: number;
  dz2?: number;
}

export interface CalibrationScan {
  /** One reading per transmitter, all of one floor. */
  readings: CalibrationReading[];
  /** Known transmitters of the floor the scan did not report, each below its threshold (dBm). */
  censored?: CensoredReading[];
  /** What the scanner reported: every reading (known transmitters or not) and the weakest of each kind. */
  reported?: { readings: number; weakest: Partial<Record<TransmitterKind, number>> };
  /** Where the scan was: known (a reference point) or the live estimate to start from. */
  x: number;
  y: number;
  known: boolean;
}

export interface CensoredReading {
  transmitter: KnownTransmitter;
  /** It was below this (dBm): the scan's weakest reading of its kind, less the rounding. */
  threshold: number;
  lossDb?: number;
  dz2?: number;
}

export interface CalibrationOptions {
  prior: RadioPrior;
  /** Gauss–Newton steps at most. */
  iterations: number;
  /** Residuals beyond this many σ weigh less (Huber): a moved beacon or a body in the way. */
  huber: number;
}

export const DEFAULT_CALIBRATION_OPTIONS: CalibrationOptions = { prior: RADIO_PRIOR, iterations: 8, huber: 2 };

export interface CalibrationResult {
  /** What this batch adds to the stored statistics. */
  contribution: FloorStatistics;
  /** The model of the stored statistics plus this batch. */
  model: SolvedModel;
  /** Positions of the scans under that model (for unknown ones), in scan order. */
  positions: Array<{ x: number; y: number } | null>;
}

const LOG10_SCALE = 10 / Math.LN10;
/** 5 log10 d² as 5/ln 10 · ln d²: V8's log costs about half its log10. */
const FIVE_LOG10_E = 5 / Math.LN10;

/** Each transmitter's key, built once: a batch looks its offset and statistics up for every reading of every step. */
const keys = new WeakMap<KnownTransmitter, string>();
function keyOf(transmitter: KnownTransmitter): string {
  let key = keys.get(transmitter);
  if (key === undefined) keys.set(transmitter, (key = transmitterKey(transmitter)));
  return key;
}
/** Transmitters not heard are kept for the calibration up to this far beyond the farthest one heard (metres). */
const CENSORED_BEYOND_HEARD_M = 15;
/** How far a batch's refit may move a scan (metres): the transmitters not heard that can weigh within this of where it was. */
const CENSORED_MARGIN_M = 5;
const MIN_D2 = 0.25;

/**
 * The evidence of `scans` about the floor's model, given what was stored before (`base`).
 * Converges in a few steps from the stored model; the contribution is taken at the last one.
 */
export function calibrate(scans: readonly CalibrationScan[], base: FloorStatistics, options: CalibrationOptions = DEFAULT_CALIBRATION_OPTIONS): CalibrationResult {
  const job = new BatchCalibration(scans, base, options);
  while (!job.step());
  return job.result();
}

/** `calibrate` one Gauss–Newton step at a time, so a server can yield between steps. */
export class BatchCalibration {
  private model: SolvedModel;
  private readonly positions: Array<{ x: number; y: number } | null>;
  private contribution = emptyStatistics();
  private iteration = 0;
  private done = false;
  /** Slot of each transmitter in the dense couplings (1-based: 0 is the exponent). */
  private readonly slots = new Map<string, number>();
  private couplings?: Float64Array;
  /** The evidence pass of the step under way, between slices. */
  private pass?: Generator<void, Evidence, void>;

  constructor(
    private readonly scans: readonly CalibrationScan[],
    private readonly base: FloorStatistics,
    private readonly options: CalibrationOptions = DEFAULT_CALIBRATION_OPTIONS,
  ) {
    this.model = solveModel(base, options.prior);
    this.positions = scans.map((scan) => ({ x: scan.x, y: scan.y }));
    for (const key of Object.keys(base.transmitters)) this.slots.set(key, this.slots.size + 1);
    for (const scan of scans) {
      for (const reading of [...scan.readings, ...(scan.censored ?? [])])
        if (!this.slots.has(keyOf(reading.transmitter))) this.slots.set(keyOf(reading.transmitter), this.slots.size + 1);
    }
  }

  /**
   * One slice of a step (at most `EVIDENCE_SLICE_SCANS` scans' evidence, then the model's
   * update): true when converged or out of steps. A caller may yield between calls.
   */
  step(): boolean {
    if (this.done) return true;
    const size = this.slots.size + 1;
    const dense = size <= MAX_DENSE;
    if (!this.pass) {
      // One buffer for every step of the batch (size² doubles: 320 KB for 200 transmitters).
      if (dense) this.couplings = this.couplings?.length === size * size ? this.couplings.fill(0) : new Float64Array(size * size);
      this.pass = evidenceSteps(this.scans, this.positions, this.model, this.options, dense ? { matrix: this.couplings!, size, slots: this.slots } : undefined);
    }
    const next = this.pass.next();
    if (!next.done) return false;
    this.pass = undefined;
    return this.update(next.value, dense ? this.couplings : undefined);
  }

  /** The step's model from a whole pass's evidence; true when converged or out of steps. */
  private update({ reduced, conditional }: Evidence, couplings: Float64Array | undefined): boolean {
    const size = this.slots.size + 1;
    this.contribution = conditional;
    // A joint step with every coupling where the floor is small enough; else the positions are held (alternating).
    const next = couplings
      ? denseStep(addStatistics(this.base, reduced), { matrix: couplings, size, slots: this.slots }, this.model, this.options.prior)
      : solveModel(addStatistics(this.base, conditional), this.options.prior);
    const settled = Math.abs(next.exponent - this.model.exponent) < 1e-3 && maxOffsetChange(this.model, next) < 0.02;
    this.model = next;
    this.iteration += 1;
    this.done = settled || this.iteration >= this.options.iterations;
    return this.done;
  }

  result(): CalibrationResult {
    return { contribution: this.contribution, model: this.model, positions: this.positions };
  }
}

/** The offsets' couplings of a batch through its scans' positions: a dense symmetric matrix over slots, its lower triangle stored. */
interface Couplings {
  matrix: Float64Array;
  size: number;
  slots: ReadonlyMap<string, number>;
}

/**
 * One Gauss–Newton step with every coupling of the batch (the offsets of transmitters heard
 * together, through the eliminated positions), solved densely: the arrow form alone converges
 * slowly along the direction where the exponent and a common offset trade off. The couplings'
 * own term of b is Cθ at the current model, so the step is exact for the quadratic.
 */
function denseStep(statistics: FloorStatistics, couplings: Couplings, current: SolvedModel, prior: RadioPrior): SolvedModel {
  const { size, slots } = couplings;
  const offsetInformation = 1 / (prior.offsetSd * prior.offsetSd);
  const exponentInformation = 1 / (prior.exponentSd * prior.exponentSd);
  const h = Float64Array.from(couplings.matrix);
  const b = new Float64Array(size);
  // b = Hθ + g: the couplings' share of Hθ at the current model.
  const theta = new Float64Array(size);
  for (const [key, slot] of slots) theta[slot] = current.offsets.get(key) ?? 0;
  // The couplings are stored as their lower triangle (evidence()); the Cholesky solve reads no other.
  const matrix = couplings.matrix;
  for (let i = 1; i < size; i += 1) {
    const row = i * size;
    let sum = matrix[row + i] * theta[i];
    for (let j = 1; j < i; j += 1) {
      const value = matrix[row + j];
      sum += value * theta[j];
      b[j] += value * theta[i];
    }
    b[i] += sum;
  }
  h[0] = statistics.hnn + exponentInformation;
  b[0] = statistics.bn + exponentInformation * prior.exponent;
  for (let i = 1; i < size; i += 1) h[i * size + i] += offsetInformation;
  for (const [key, entry] of Object.entries(statistics.transmitters)) {
    const slot = slots.get(key);
    if (slot === undefined) return solveModel(statistics, prior);
    h[slot * size + slot] += entry.h;
    h[slot] += entry.hn;
    h[slot * size] += entry.hn;
    b[slot] += entry.b;
  }
  const solution = choleskySolve(h, b, size);
  // No step out of the plausible range (or along a direction the data leaves free): the model stays.
  if (!solution || !(solution[0] >= prior.exponentBounds[0] && solution[0] <= prior.exponentBounds[1])) return current;
  const offsets = new Map<string, number>();
  for (const [key, slot] of slots) if (statistics.transmitters[key]) offsets.set(key, Math.max(-prior.offsetBound, Math.min(prior.offsetBound, solution[slot])));
  return { exponent: solution[0], offsets, shadowingDb: solveModel(statistics, prior).shadowingDb };
}

/**
 * A censored term whose curvature is below this (z beyond about 2: the model puts the
 * transmitter 2σ below its threshold) couples offsets too weakly to matter to a batch's step:
 * the couplings serve only its direction, the evidence stored keeps every term.
 */
const WEAK_COUPLING = 0.1;

/** Transmitters of a floor beyond which a batch is solved in arrow form only (the dense solve is cubic). */
const MAX_DENSE = 400;

/** Solves Hx = b for a symmetric positive definite H (row-major, size × size, the lower triangle read and overwritten); null when it is not. */
function choleskySolve(h: Float64Array, b: Float64Array, size: number): Float64Array | null {
  // In place: each entry of h is read once, just before its factor's entry is written there.
  const l = h;
  for (let i = 0; i < size; i += 1) {
    for (let j = 0; j <= i; j += 1) {
      let sum = h[i * size + j];
      for (let k = 0; k < j; k += 1) sum -= l[i * size + k] * l[j * size + k];
      if (i === j) {
        if (!(sum > 1e-12)) return null;
        l[i * size + i] = Math.sqrt(sum);
      } else l[i * size + j] = sum / l[j * size + j];
    }
  }
  const y = new Float64Array(size);
  for (let i = 0; i < size; i += 1) {
    let sum = b[i];
    for (let k = 0; k < i; k += 1) sum -= l[i * size + k] * y[k];
    y[i] = sum / l[i * size + i];
  }
  const x = new Float64Array(size);
  for (let i = size - 1; i >= 0; i -= 1) {
    let sum = y[i];
    for (let k = i + 1; k < size; k += 1) sum -= l[k * size + i] * x[k];
    x[i] = sum / l[i * size + i];
  }
  return x;
}

/**
 * The statistics of scans at known positions (reference points) at a given model, in one
 * pass: linear in θ, so they add and subtract exactly (leave-one-out takes a point's out).
 */
export function knownEvidence(scans: readonly CalibrationScan[], model: SolvedModel, options: CalibrationOptions = DEFAULT_CALIBRATION_OPTIONS): FloorStatistics {
  const known = scans.filter((scan) => scan.known);
  return evidence(
    known,
    known.map((scan) => ({ x: scan.x, y: scan.y })),
    model,
    options,
  ).conditional;
}

function maxOffsetChange(a: SolvedModel, b: SolvedModel): number {
  let max = 0;
  for (const [key, value] of b.offsets) max = Math.max(max, Math.abs(value - (a.offsets.get(key) ?? 0)));
  return max;
}

/**
 * At `model`: the positions of unknown scans refitted (in place), then the normal equations of
 * θ in arrow form, as absolute statistics (b = Hθ + g), twice: `reduced`, each position
 * eliminated (its Schur complement: what a Gauss–Newton step needs, with the couplings it
 * creates between the offsets heard together), and `conditional`, each position held where
 * it was fitted. Only the conditional form can be stored: the arrow form drops those
 * couplings, and a reduced arrow without them is not positive definite (its exponent would
 * be unidentified however many scans it rests on). At the joint optimum the positions'
 * gradients vanish, so both forms agree on the gradient; the conditional one only claims
 * more certainty about θ than the batch has, which the decay of old scans bounds.
 */
function evidence(
  scans: readonly CalibrationScan[],
  positions: Array<{ x: number; y: number } | null>,
  model: SolvedModel,
  options: CalibrationOptions,
  couplings?: Couplings,
): Evidence {
  const pass = evidenceSteps(scans, positions, model, options, couplings);
  for (;;) {
    const next = pass.next();
    if (next.done) return next.value;
  }
}

interface Evidence {
  reduced: FloorStatistics;
  conditional: FloorStatistics;
}

/**
 * Scans per slice of an evidence pass: a batch of 1,000 scans with their censored terms took
 * 300-800 ms of the event loop in one piece (the ingest's p99 behind it); 100 take a few tens.
 */
export const EVIDENCE_SLICE_SCANS = 100;

/** `evidence`, pausing after every `EVIDENCE_SLICE_SCANS` scans (the same sums in the same order). */
function* evidenceSteps(
  scans: readonly CalibrationScan[],
  positions: Array<{ x: number; y: number } | null>,
  model: SolvedModel,
  options: CalibrationOptions,
  couplings?: Couplings,
): Generator<void, Evidence, void> {
  const statistics = emptyStatistics();
  // What eliminating each unknown scan's position takes off (its Schur complement), kept apart.
  const schur = { hnn: 0, gn: 0, transmitters: new Map<string, { h: number; hn: number; g: number }>() };
  const n = model.exponent;
  const k = n * LOG10_SCALE;
  let gn = 0;
  const gradients = new Map<string, number>();
  const ranged: RangedReading[] = [];
  for (let s = 0; s < scans.length; s += 1) {
    if (s > 0 && s % EVIDENCE_SLICE_SCANS === 0) yield;
    const scan = scans[s];
    if (scan.readings.length === 0) continue;
    let position = positions[s];
    if (!scan.known) {
      if (scan.readings.length < 3) continue;
      ranged.length = 0;
      for (const reading of scan.readings) {
        const sigma = model.shadowingDb[reading.transmitter.kind];
        const offset = model.offsets.get(keyOf(reading.transmitter)) ?? 0;
        ranged.push({
          x: reading.transmitter.x,
          y: reading.transmitter.y,
          reference: reading.transmitter.referenceRssi - (reading.lossDb ?? 0) + offset,
          rssi: reading.rssi,
          weight: 1 / (sigma * sigma),
          dz2: reading.dz2,
        });
      }
      // The transmitters not heard that can weigh near where the scan was (as the live fit takes them).
      const from = position ?? { x: scan.x, y: scan.y };
      for (const item of scan.censored ?? []) {
        const sigma = model.shadowingDb[item.transmitter.kind];
        const registered = item.transmitter.referenceRssi - (item.lossDb ?? 0);
        const fx = from.x - item.transmitter.x;
        const fy = from.y - item.transmitter.y;
        const distance = Math.max(0, Math.sqrt(fx * fx + fy * fy) - CENSORED_MARGIN_M);
        const d2 = Math.max(MIN_D2, distance * distance + (item.dz2 ?? 0));
        const loss = n * FIVE_LOG10_E * Math.log(d2);
        // Even at the largest offset, far below the threshold: skipped before any lookup.
        if (item.threshold - (registered + options.prior.offsetBound - loss) >= CENSORED_REACH_SIGMAS * sigma) continue;
        const reference = registered + (model.offsets.get(keyOf(item.transmitter)) ?? 0);
        if (item.threshold - (reference - loss) >= CENSORED_REACH_SIGMAS * sigma) continue;
        ranged.push({ x: item.transmitter.x, y: item.transmitter.y, reference, rssi: item.threshold, weight: 1 / (sigma * sigma), censored: true, dz2: item.dz2 });
      }
      const fit = fitPosition(ranged, position ?? { x: scan.x, y: scan.y }, n);
      position = fit.ok ? { x: fit.x, y: fit.y } : null;
      positions[s] = position;
      if (!position) continue;
    }
    if (!position) continue;
    // Per scan: the position block M, its coupling to n (qn) and to each δ (q per reading), and Σ w c r.
    let m11 = 0;
    let m12 = 0;
    let m22 = 0;
    let qn1 = 0;
    let qn2 = 0;
    let s1 = 0;
    let s2 = 0;
    const coupled: Array<{ key: string; q1: number; q2: number; weak?: boolean }> = [];
    const kinds: Record<TransmitterKind, number> = { ble: 0, wifi: 0 };
    for (const reading of scan.readings) {
      const transmitter = reading.transmitter;
      const key = keyOf(transmitter);
      const sigma = model.shadowingDb[transmitter.kind];
      const dx = position.x - transmitter.x;
      const dy = position.y - transmitter.y;
      const d2 = Math.max(MIN_D2, dx * dx + dy * dy + (reading.dz2 ?? 0));
      const logDistance = FIVE_LOG10_E * Math.log(d2);
      const residual = reading.rssi - (transmitter.referenceRssi - (reading.lossDb ?? 0) + (model.offsets.get(key) ?? 0) - n * logDistance);
      const scaled = Math.abs(residual) / sigma;
      const weight = (scaled > options.huber ? options.huber / scaled : 1) / (sigma * sigma);
      kinds[transmitter.kind] += 1;
      statistics.residuals[transmitter.kind].sum += Math.min(residual * residual, 16 * sigma * sigma);
      // ∂model/∂n = −L, ∂model/∂δ = 1.
      statistics.hnn += weight * logDistance * logDistance;
      gn -= weight * logDistance * residual;
      const entry = (statistics.transmitters[key] ??= { h: 0, hn: 0, b: 0, readings: 0 });
      entry.h += weight;
      entry.hn -= weight * logDistance;
      entry.readings += 1;
      gradients.set(key, (gradients.get(key) ?? 0) + weight * residual);
      if (scan.known) continue;
      // ∂model/∂position = −k (dx, dy) / d².
      const c1 = (-k * dx) / d2;
      const c2 = (-k * dy) / d2;
      m11 += weight * c1 * c1;
      m12 += weight * c1 * c2;
      m22 += weight * c2 * c2;
      qn1 -= weight * logDistance * c1;
      qn2 -= weight * logDistance * c2;
      s1 += weight * c1 * residual;
      s2 += weight * c2 * residual;
      coupled.push({ key, q1: weight * c1, q2: weight * c2 });
    }
    // Not heard: the censored terms, as readings whose weight is the curvature and whose weighted residual is the slope.
    for (const item of scan.censored ?? []) {
      const transmitter = item.transmitter;
      const sigma = model.shadowingDb[transmitter.kind];
      const dx = position.x - transmitter.x;
      const dy = position.y - transmitter.y;
      const d2 = Math.max(MIN_D2, dx * dx + dy * dy + (item.dz2 ?? 0));
      const logDistance = FIVE_LOG10_E * Math.log(d2);
      const registered = transmitter.referenceRssi - (item.lossDb ?? 0);
      // Even at the largest offset, far below the threshold: skipped before any lookup.
      if ((item.threshold - (registered + options.prior.offsetBound - n * logDistance)) / sigma > CENSORED_REACH_SIGMAS) continue;
      const key = keyOf(transmitter);
      const reference = registered + (model.offsets.get(key) ?? 0);
      const z = (item.threshold - (reference - n * logDistance)) / sigma;
      // Expected far below its threshold: nothing to add (censoredTerm would give zeros).
      if (z > CENSORED_REACH_SIGMAS) continue;
      const term = censoredTerm(z);
      if (term.lambda === 0) continue;
      // The weight is the curvature (never negative), the weighted residual the slope −λ/σ, even where the term is concave.
      const weight = term.curvature / (sigma * sigma);
      const slope = -term.lambda / sigma;
      statistics.hnn += weight * logDistance * logDistance;
      gn -= logDistance * slope;
      const entry = (statistics.transmitters[key] ??= { h: 0, hn: 0, b: 0, readings: 0 });
      entry.h += weight;
      entry.hn -= weight * logDistance;
      gradients.set(key, (gradients.get(key) ?? 0) + slope);
      if (scan.known) continue;
      const c1 = (-k * dx) / d2;
      const c2 = (-k * dy) / d2;
      m11 += weight * c1 * c1;
      m12 += weight * c1 * c2;
      m22 += weight * c2 * c2;
      qn1 -= weight * logDistance * c1;
      qn2 -= weight * logDistance * c2;
      s1 += c1 * slope;
      s2 += c2 * slope;
      coupled.push({ key, q1: weight * c1, q2: weight * c2, weak: term.curvature < WEAK_COUPLING });
    }
    const count = kinds.ble + kinds.wifi;
    for (const kind of ['ble', 'wifi'] as const) {
      // Two degrees of freedom go to the position of an unknown scan, shared by kind.
      statistics.residuals[kind].dof += kinds[kind] - (scan.known ? 0 : (2 * kinds[kind]) / count);
    }
    statistics.scans += 1;
    if (scan.reported) addScan(statistics.scanner!, scan.reported.readings, scan.reported.weakest);
    if (scan.known) continue;
    const det = m11 * m22 - m12 * m12;
    if (!(det > 1e-12)) continue;
    // M⁻¹ = [[i11, i12], [i12, i22]].
    const i11 = m22 / det;
    const i12 = -m12 / det;
    const i22 = m11 / det;
    const quad = (a1: number, a2: number, b1: number, b2: number) => a1 * (i11 * b1 + i12 * b2) + a2 * (i12 * b1 + i22 * b2);
    schur.hnn += quad(qn1, qn2, qn1, qn2);
    schur.gn += quad(qn1, qn2, s1, s2);
    for (const { key, q1, q2 } of coupled) {
      const entry = schur.transmitters.get(key) ?? { h: 0, hn: 0, g: 0 };
      entry.hn += quad(qn1, qn2, q1, q2);
      entry.h += quad(q1, q2, q1, q2);
      entry.g += quad(q1, q2, s1, s2);
      schur.transmitters.set(key, entry);
    }
    if (couplings) {
      // The offsets of transmitters heard together trade off through the scan's position.
      const { matrix, size, slots } = couplings;
      // Slots and weights in flat arrays first: the pairs are the batch's hottest loop.
      // Transmitters not heard that the model puts near the reach weigh too little to steer the step: left out of the pairs.
      const slotOf = new Int32Array(coupled.length);
      const q1s = new Float64Array(coupled.length);
      const q2s = new Float64Array(coupled.length);
      let count = 0;
      for (const entry of coupled) {
        if (entry.weak) continue;
        slotOf[count] = slots.get(entry.key)!;
        q1s[count] = entry.q1;
        q2s[count] = entry.q2;
        count += 1;
      }
      for (let a = 0; a < count; a += 1) {
        const i = slotOf[a];
        const a1 = i11 * q1s[a] + i12 * q2s[a];
        const a2 = i12 * q1s[a] + i22 * q2s[a];
        const row = i * size;
        for (let b = a + 1; b < count; b += 1) {
          const j = slotOf[b];
          const value = a1 * q1s[b] + a2 * q2s[b];
          // The lower triangle only (row the larger slot): all denseStep reads.
          if (j < i) matrix[row + j] -= value;
          else if (j > i) matrix[j * size + i] -= value;
          else matrix[row + i] -= 2 * value;
        }
      }
    }
  }
  // Absolute form: b = Hθ + g, with the positions held (conditional) and eliminated (reduced).
  const absolute = (target: FloorStatistics, eliminated: boolean): FloorStatistics => {
    if (eliminated) target.hnn -= schur.hnn;
    let bn = target.hnn * n + gn - (eliminated ? schur.gn : 0);
    for (const [key, entry] of Object.entries(target.transmitters)) {
      const removed = eliminated ? schur.transmitters.get(key) : undefined;
      if (removed) {
        entry.h -= removed.h;
        entry.hn -= removed.hn;
      }
      const offset = model.offsets.get(key) ?? 0;
      bn += entry.hn * offset;
      entry.b = entry.hn * n + entry.h * offset + (gradients.get(key) ?? 0) - (removed?.g ?? 0);
    }
    target.bn = bn;
    return target;
  };
  return { reduced: absolute(addStatistics(emptyStatistics(), statistics), true), conditional: absolute(statistics, false) };
}

/**
 * A scan as the calibration takes it: every reading of a known transmitter of `floorId` (the
 * strongest per transmitter), and every known transmitter of the floor it did not report,
 * censored below the scan's weakest reading of that kind (any transmitter's, known or not).
 * A kind the scan has no reading of is not censored: the scanner may not scan it. Used alike
 * by the server's running calibration and the benchmarks.
 */
export function calibrationScan(
  readings: ReadonlyArray<{ key: string; kind: TransmitterKind; rssi: number }>,
  transmitters: {
    get(key: string): KnownTransmitter | undefined;
    onFloor(floorId: number): readonly KnownTransmitter[];
    adjacent(floorId: number): ReadonlyArray<{ transmitter: KnownTransmitter; lossDb: number; dz2: number }>;
  },
  floorId: number,
  at: { x: number; y: number; known: boolean },
  rssiRange: readonly [number, number] = [-120, 0],
): CalibrationScan {
  const weakest: Record<TransmitterKind, number> = { ble: Infinity, wifi: Infinity };
  const heard: Array<{ transmitter: KnownTransmitter; rssi: number }> = [];
  let count = 0;
  for (const reading of readings) {
    if (!(reading.rssi >= rssiRange[0] && reading.rssi <= rssiRange[1])) continue;
    count += 1;
    if (reading.kind === 'ble' || reading.kind === 'wifi') weakest[reading.kind] = Math.min(weakest[reading.kind], reading.rssi);
    const transmitter = transmitters.get(reading.key);
    if (transmitter && transmitter.kind === reading.kind) heard.push({ transmitter, rssi: reading.rssi });
  }
  const onFloor = calibrationReadings(heard, floorId);
  const reported = new Set(onFloor.map((reading) => reading.transmitter));
  // What a scan did not hear says most within the reach of what it heard: transmitters not
  // heard beyond the farthest one heard (from where the scan was placed) and a margin are left
  // out, so a large floor costs the batch its neighbourhood, not its every transmitter.
  let farthest2 = 0;
  for (const reading of onFloor) farthest2 = Math.max(farthest2, (reading.transmitter.x - at.x) ** 2 + (reading.transmitter.y - at.y) ** 2);
  const reach = Math.sqrt(farthest2) + CENSORED_BEYOND_HEARD_M;
  const censored: CensoredReading[] = [];
  for (const transmitter of transmitters.onFloor(floorId)) {
    if (reported.has(transmitter) || weakest[transmitter.kind] === Infinity) continue;
    if ((transmitter.x - at.x) ** 2 + (transmitter.y - at.y) ** 2 > reach * reach) continue;
    censored.push({ transmitter, threshold: censoringThreshold([{ rssi: weakest[transmitter.kind] }]) });
  }
  // The floors above and below, heard through a floor: readings and non-detections alike.
  const heardLevel = new Map(heard.map((reading) => [reading.transmitter, reading.rssi]));
  for (const { transmitter, lossDb, dz2 } of transmitters.adjacent(floorId)) {
    const rssi = heardLevel.get(transmitter);
    if (rssi !== undefined) onFloor.push({ transmitter, rssi, lossDb, dz2 });
    else if ((transmitter.x - at.x) ** 2 + (transmitter.y - at.y) ** 2 > reach * reach) continue;
    else if (weakest[transmitter.kind] !== Infinity) censored.push({ transmitter, threshold: censoringThreshold([{ rssi: weakest[transmitter.kind] }]), lossDb, dz2 });
  }
  const weakestReported: Partial<Record<TransmitterKind, number>> = {};
  for (const kind of ['ble', 'wifi'] as const) if (weakest[kind] !== Infinity) weakestReported[kind] = weakest[kind];
  return { readings: onFloor, censored, reported: { readings: count, weakest: weakestReported }, x: at.x, y: at.y, known: at.known };
}

/** The readings of a scan as calibration readings: one per known transmitter of `floorId` (the strongest). */
export function calibrationReadings(readings: ReadonlyArray<{ transmitter: KnownTransmitter; rssi: number }>, floorId: number): CalibrationReading[] {
  const strongest = new Map<KnownTransmitter, number>();
  for (const reading of readings) {
    if (reading.transmitter.floorId !== floorId) continue;
    const previous = strongest.get(reading.transmitter);
    if (previous === undefined || reading.rssi > previous) strongest.set(reading.transmitter, reading.rssi);
  }
  return [...strongest].map(([transmitter, rssi]) => ({ transmitter, rssi }));
}
