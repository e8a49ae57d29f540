import { FingerprintIndex } from './fingerprints';
import type { RadioMap } from './radio-map';
import { crossFloor, KnownTransmitter, transmitterKey, TransmitterKind } from './transmitter';
import { CENSORED_SELECT_SIGMAS, censoringThreshold } from './censoring';
import {
  COARSE_FIT,
  distanceOutsideHull,
  fitPosition,
  fitPositionAndExponent,
  MIN_DISTANCE,
  PositionExponentFit,
  PositionFit,
  rangeOf,
  RangedReading,
  weightedCentroid,
} from './position-fit';

/**
 * Estimates where a device is from what it hears: plain TypeScript, no framework, no I/O.
 *
 * 1. Readings are matched to known transmitters (unknown ones are ignored by the model, and counted).
 * 2. Floor: the majority of the strongest known transmitters (ties go to the floor whose
 *    transmitters are heard louder in total).
 * 3. Position, by the floor's method: the log-distance path-loss model
 *      rssi = reference − 10 · n · log10(distance)   (+ Gaussian shadowing in dB)
 *    with the floor's exponent n, shadowing σ and each transmitter's calibrated reference
 *    (position-fit.ts, started from the weighted centroid, which is also the fallback), every
 *    reading of the floor counted and every known transmitter of the floor that was not
 *    reported counted as censored below the scan's weakest reading (censoring.ts); on a floor
 *    with no model yet, the exponent of the scan itself when it has enough readings; or
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
  /** At most this many readings (the strongest on the floor) enter the fit: every one a scanner reports, in practice. */
  maxReadings: number;
  /** On a floor with no model yet (no censoring): the strongest this many. */
  freshMaxReadings: number;
  /** Transmitters of the floor not reported count as censored (false: the heard readings alone). */
  censoring: boolean;
  /** On a floor with no model, a scan with at least this many readings gets its own exponent. */
  minReadingsForExponent: number;
  /** The exponents a scan of a floor with no model may take, and how far from the default it takes evidence to go (sd). */
  scanExponentRange: [number, number];
  scanExponentSd: number;
  /** Readings outside this range are discarded as corrupt (dBm). */
  rssiRange: [number, number];
  /** No accuracy below this (metres): model error the residuals cannot reveal. */
  minAccuracy: number;
}

export const DEFAULT_ESTIMATOR_OPTIONS: EstimatorOptions = {
  pathLossExponent: 3,
  shadowingDb: { ble: 4, wifi: 6 },
  floorVoters: 5,
  maxReadings: 100,
  freshMaxReadings: 16,
  censoring: true,
  minReadingsForExponent: 6,
  scanExponentRange: [1.6, 4],
  scanExponentSd: 2,
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
  /** The transmitters of the floors above and below that the floor's model has learnt, by key. */
  adjacent?: ReadonlyMap<string, AdjacentTransmitter>;
  /** Radio map accuracy = this × the posterior's radius (what the reference points showed). */
  mapScale?: number;
}

/** A transmitter of the floor above or below, as a floor's model sees it. */
export interface AdjacentTransmitter {
  kind: TransmitterKind;
  x: number;
  y: number;
  /** Its expected RSSI at 1 m through the floor (dBm): registered, less the floor's loss, plus the learnt offset. */
  reference: number;
  /** The squared height between the floors (m²). */
  dz2: number;
  /** The floor's σ for its kind, and its exponent. */
  shadowingDb: number;
  exponent: number;
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
  private byFloor?: Map<number, KnownTransmitter[]>;
  private readonly nextTo = new Map<number, Array<{ transmitter: KnownTransmitter; lossDb: number; dz2: number }>>();

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

  /** The transmitters of one floor (indexed on first use). */
  onFloor(floorId: number): readonly KnownTransmitter[] {
    if (!this.byFloor) {
      this.byFloor = new Map();
      for (const transmitter of this.byKey.values()) {
        const list = this.byFloor.get(transmitter.floorId) ?? [];
        list.push(transmitter);
        this.byFloor.set(transmitter.floorId, list);
      }
    }
    return this.byFloor.get(floorId) ?? [];
  }

  /** The transmitters of the floors above and below `floorId` (where levels and heights are known), as its model sees them. */
  adjacent(floorId: number): ReadonlyArray<{ transmitter: KnownTransmitter; lossDb: number; dz2: number }> {
    let list = this.nextTo.get(floorId);
    if (!list) {
      list = [];
      const floor = this.onFloor(floorId)[0];
      if (floor) {
        for (const transmitter of this.byKey.values()) {
          const cross = transmitter.floorId === floorId ? null : crossFloor(transmitter, floor);
          if (cross) list.push({ transmitter, ...cross });
        }
      }
      this.nextTo.set(floorId, list);
    }
    return list;
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
  // The weakest reading of each kind, known transmitter or not: what the scanner reported down to.
  const weakest: Record<TransmitterKind, number> = { ble: Infinity, wifi: Infinity };
  for (const reading of readings) {
    if (!(reading.rssi >= options.rssiRange[0] && reading.rssi <= options.rssiRange[1])) continue;
    if (reading.kind === 'ble' || reading.kind === 'wifi') weakest[reading.kind] = Math.min(weakest[reading.kind], reading.rssi);
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
    heard.push({
      transmitter,
      x: transmitter.x,
      y: transmitter.y,
      reference: transmitter.referenceRssi,
      rssi,
      range: rangeOf(transmitter.referenceRssi, rssi, n),
      weight: 1 / (sigma * sigma),
    });
  }
  // Loudest relative to what the transmitter would give at 1 m = nearest.
  heard.sort((a, b) => a.range - b.range);

  const floorId = voteFloor(heard, options.floorVoters);
  const sameFloor = heard.filter((item) => item.transmitter.floorId === floorId);
  // A floor with a model counts every reading, the weakest through the censored terms that
  // account for the cut; a fresh floor has no σ to censor with, and there the weakest readings
  // (the ones that happened to be loud enough) are biased: its strongest few only.
  const fresh = sameFloor[0].transmitter.exponent === undefined;
  const onFloor = sameFloor.slice(0, fresh ? options.freshMaxReadings : options.maxReadings);
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
    if (fix)
      return {
        ok: true,
        floorId,
        x: fix.x,
        y: fix.y,
        accuracy: Math.max(options.minAccuracy, (floor.mapScale ?? 1) * RADIUS_68_FACTOR * fix.spread),
        method: 'radio_map',
        used,
        unknown,
      };
  }
  // Beyond the floor's own readings: those of the floors above and below, and every transmitter not heard.
  const heardExtra = floor?.adjacent ? heardThroughFloors(floor.adjacent, strongest, used) : [];
  const unheard = options.censoring ? (at: { x: number; y: number }, n: number) => notHeard(index.onFloor(floorId), floor?.adjacent, strongest, weakest, at, n, options) : null;
  const placed = placeByModel(onFloor, heardExtra, unheard, options);
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

/**
 * The transmitters of the floors above and below that the scan heard, as the floor's model
 * sees them (their learnt references through the floor, and the height between); each is
 * added to the transmitters the fix says it used.
 */
function heardThroughFloors(adjacent: ReadonlyMap<string, AdjacentTransmitter>, strongest: ReadonlyMap<KnownTransmitter, number>, used: TransmitterUsed[]): RangedReading[] {
  const readings: RangedReading[] = [];
  for (const [transmitter, rssi] of strongest) {
    const item = adjacent.get(transmitterKey(transmitter));
    if (!item) continue;
    readings.push({ x: item.x, y: item.y, reference: item.reference, rssi, weight: 1 / (item.shadowingDb * item.shadowingDb), dz2: item.dz2 });
    used.push({ id: transmitter.id, kind: transmitter.kind, rssi });
  }
  return readings;
}

/** A scan's own exponent is used only where, with it, the readings are this much cleaner than the default σ says (χ²/dof; 0.25: residuals under half of σ). */
const MAX_SCAN_EXPONENT_CHI2 = 0.25;

/**
 * Whether a fit with n free is one to trust: its residuals far below the default σ. Then a
 * wrong default exponent is what the scan's error is made of, and its own removes it; in a
 * scan as noisy as σ says, its own exponent soaks up the unknown powers and the noise instead
 * (docs/decisions.md, "Measurements behind the code"), and the floor's calibration is what finds n.
 */
function pinsExponent(fit: PositionExponentFit, readings: number): boolean {
  const dof = readings - 3;
  return dof >= 3 && fit.heardCost / dof < MAX_SCAN_EXPONENT_CHI2;
}

/** The default exponent is kept for a scan it fits within this mean square residual (dB²). */
const MIN_DEFAULT_MISFIT_DB2 = 1;

/** Two-sided 99 % quantiles of Student's t by degrees of freedom (3, 4, 5, 6, 8, 10, 15, 20, 30, ∞). */
const T99: ReadonlyArray<[number, number]> = [
  [3, 5.841],
  [4, 4.604],
  [5, 4.032],
  [6, 3.707],
  [8, 3.355],
  [10, 3.169],
  [15, 2.947],
  [20, 2.845],
  [30, 2.75],
  [Infinity, 2.576],
];

/**
 * Whether a scan's readings reject the default exponent: the nested models' F-test at 99 %
 * (F(1, ν) = t²(ν)), the gain of a free n against what the free fit leaves unexplained. A scan
 * the default fits keeps it, as an exponent of its own only adds noise there; noise-free
 * readings of another exponent reject it at once.
 */
function rejectsDefault(defaultCost: number, ownCost: number, readings: number): boolean {
  const dof = readings - 3;
  if (dof < 3) return false;
  let t = T99[T99.length - 1][1];
  for (let i = 0; i < T99.length - 1; i += 1) {
    const [low, lowT] = T99[i];
    const [high, highT] = T99[i + 1];
    if (dof >= low && dof <= high) {
      t = high === Infinity ? highT : lowT + ((dof - low) / (high - low)) * (highT - lowT);
      break;
    }
  }
  return defaultCost - ownCost > t * t * (Math.max(ownCost, 1e-9) / dof);
}

/**
 * The fit of (x, y, n) together (the default n as a weak prior): the best of `found` and the
 * fits from the centroid and from around the nearest transmitter at its range.
 */
function ownExponentFit(
  readings: readonly RangedReading[],
  nearest: Heard,
  centroid: { x: number; y: number },
  options: EstimatorOptions,
  found: PositionExponentFit,
): PositionExponentFit {
  const prior = { exponent: nearest.transmitter.exponent ?? options.pathLossExponent, sd: options.scanExponentSd };
  let best = found;
  for (const start of [centroid, ...FRESH_STARTS.map(([dx, dy]) => ({ x: nearest.x + dx * nearest.range, y: nearest.y + dy * nearest.range }))]) {
    const fit = fitPositionAndExponent(readings, start, prior, options.scanExponentRange);
    if (fit.ok && (!best.ok || fit.cost < best.cost)) best = fit;
  }
  return best;
}

/**
 * One or two readings of a floor with a model: the heard readings alone cannot place the
 * device (a ring, or two mirror points), but with the transmitters not heard they can, as the
 * oracle does. Fitted from around each heard transmitter at its range, the best kept; its
 * accuracy never below the spread of those starts' answers. Null where no fit holds.
 */
function sparseFit(
  onFloor: readonly Heard[],
  heardExtra: readonly RangedReading[],
  unheard: (at: { x: number; y: number }, n: number) => RangedReading[],
  n: number,
): { x: number; y: number; accuracy: number; method: 'fit' } | null {
  const heardOnly = heardExtra.length === 0 ? onFloor : [...onFloor, ...heardExtra];
  const centroid = weightedCentroid(onFloor, n);
  const near = unheard(centroid, n);
  if (near.length === 0) return null;
  const readings = [...heardOnly, ...near];
  let best: PositionFit | null = null;
  const answers: Array<{ x: number; y: number; cost: number }> = [];
  for (const item of onFloor) {
    for (const [dx, dy] of FRESH_STARTS) {
      const fit = fitPosition(readings, { x: item.x + dx * item.range, y: item.y + dy * item.range }, n);
      if (!fit.ok) continue;
      answers.push(fit);
      if (!best || fit.cost < best.cost) best = fit;
    }
  }
  if (!best) return null;
  // Starts that end in other minima about as good say how far the answer may be off.
  let spread2 = 0;
  for (const answer of answers) if (answer.cost - best.cost < 2) spread2 = Math.max(spread2, (answer.x - best.x) ** 2 + (answer.y - best.y) ** 2);
  const variance = best.covariance[0] + best.covariance[2] + spread2;
  const accuracy = RADIUS_68_FACTOR * Math.sqrt(variance);
  return Number.isFinite(accuracy) ? { x: best.x, y: best.y, accuracy, method: 'fit' } : null;
}

/** Where a fit with its own exponent also starts: around the nearest transmitter, at its range. */
const FRESH_STARTS: ReadonlyArray<[number, number]> = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];

/** How far the fit may move from its heard-only start (metres): the censored terms that can matter are those within reach from this close. */
const CENSORED_MARGIN_M = 5;
/**
 * The known transmitters of the floor (and of the floors above and below its model has learnt)
 * that the scan did not report and that may weigh in a fit near `at`, as censored readings:
 * each was below the weakest reading of its kind (a kind the scan has no reading of is not
 * censored: the scanner may not scan it). Those the model expects far below the threshold
 * from within the margin of `at` say nothing and are left out: the floor's cells within reach
 * of the loudest of its transmitters are visited (FloorCells), then one distance test each,
 * and a logarithm only for those near enough.
 */
function notHeard(
  floorTransmitters: readonly KnownTransmitter[],
  adjacent: ReadonlyMap<string, AdjacentTransmitter> | undefined,
  strongest: ReadonlyMap<KnownTransmitter, number>,
  weakest: Record<TransmitterKind, number>,
  at: { x: number; y: number },
  fitN: number,
  options: EstimatorOptions,
): RangedReading[] {
  const censored: RangedReading[] = [];
  const thresholds: Record<TransmitterKind, number> = { ble: censoringThreshold([{ rssi: weakest.ble }]), wifi: censoringThreshold([{ rssi: weakest.wifi }]) };
  const consider = (x: number, y: number, kind: TransmitterKind, reference: number, n: number, sigma: number, dz2: number) => {
    const threshold = thresholds[kind];
    const dx = at.x - x;
    const dy = at.y - y;
    const distance = Math.max(0, Math.sqrt(dx * dx + dy * dy) - CENSORED_MARGIN_M);
    const d2 = Math.max(MIN_DISTANCE * MIN_DISTANCE, distance * distance + dz2);
    if (threshold - (reference - ((5 * n) / Math.LN10) * Math.log(d2)) >= CENSORED_SELECT_SIGMAS * sigma) return;
    censored.push({ x, y, reference, rssi: threshold, weight: 1 / (sigma * sigma), censored: true, dz2: dz2 > 0 ? dz2 : undefined });
  };
  const cells = floorCells(floorTransmitters);
  // Beyond this from `at` no transmitter of the floor is within 2σ of its threshold, the loudest
  // included (the test above passes only within its range at that level, plus the margin).
  let reach = 0;
  for (let kind = 0; kind < KINDS.length; kind += 1) {
    const bounds = cells.kinds[kind];
    const threshold = thresholds[KINDS[kind]];
    if (bounds.count === 0 || threshold === Infinity) continue;
    const sigma = Math.max(bounds.maxSigma, bounds.anyDefaultSigma ? options.shadowingDb[KINDS[kind]] : -Infinity);
    const minN = Math.min(bounds.minN, bounds.anyDefaultN ? fitN : Infinity);
    const maxN = Math.max(bounds.maxN, bounds.anyDefaultN ? fitN : -Infinity);
    const level = bounds.maxReference - threshold + CENSORED_SELECT_SIGMAS * sigma;
    reach = Math.max(reach, Math.max(MIN_DISTANCE, Math.exp((Math.LN10 * level) / (10 * (level > 0 ? minN : maxN)))) + CENSORED_MARGIN_M + 1e-6);
  }
  if (reach > 0) {
    for (const transmitter of strongest.keys()) {
      const slot = cells.slots.get(transmitter);
      if (slot !== undefined) cells.heard[slot] = 1;
    }
    let found = 0;
    const reach2 = reach * reach;
    const fromColumn = Math.max(0, Math.floor((at.x - reach - cells.x0) / cells.size));
    const toColumn = Math.min(cells.columns - 1, Math.floor((at.x + reach - cells.x0) / cells.size));
    const fromRow = Math.max(0, Math.floor((at.y - reach - cells.y0) / cells.size));
    const toRow = Math.min(cells.rows - 1, Math.floor((at.y + reach - cells.y0) / cells.size));
    for (let row = fromRow; row <= toRow; row += 1) {
      for (let column = fromColumn; column <= toColumn; column += 1) {
        const cell = row * cells.columns + column;
        for (let item = cells.start[cell]; item < cells.start[cell + 1]; item += 1) {
          const slot = cells.items[item];
          if (cells.heard[slot] === 1) continue;
          const dx = at.x - cells.x[slot];
          const dy = at.y - cells.y[slot];
          if (dx * dx + dy * dy <= reach2) cells.found[found++] = slot;
        }
      }
    }
    for (const transmitter of strongest.keys()) {
      const slot = cells.slots.get(transmitter);
      if (slot !== undefined) cells.heard[slot] = 0;
    }
    for (let index = 0; index < found; index += 1) {
      const slot = cells.found[index];
      const transmitter = floorTransmitters[slot];
      if (thresholds[transmitter.kind] === Infinity) continue;
      const n = transmitter.exponent ?? fitN;
      const sigma = transmitter.shadowingDb ?? options.shadowingDb[transmitter.kind];
      consider(transmitter.x, transmitter.y, transmitter.kind, transmitter.referenceRssi, n, sigma, 0);
    }
  }
  if (adjacent) {
    const heard = new Set<string>();
    for (const transmitter of strongest.keys()) heard.add(transmitterKey(transmitter));
    for (const [key, item] of adjacent) {
      if (heard.has(key) || thresholds[item.kind] === Infinity) continue;
      // The height between the floors only takes off: within the planar range at the threshold, plus the margin.
      const radius = rangeOf(item.reference, thresholds[item.kind] - CENSORED_SELECT_SIGMAS * item.shadowingDb, item.exponent) + CENSORED_MARGIN_M;
      const dx = at.x - item.x;
      const dy = at.y - item.y;
      if (dx * dx + dy * dy > radius * radius) continue;
      consider(item.x, item.y, item.kind, item.reference, item.exponent, item.shadowingDb, item.dz2);
    }
  }
  return censored;
}

const KINDS: readonly TransmitterKind[] = ['ble', 'wifi'];

/**
 * A floor's transmitters in square cells (compressed rows: the slots of cell c are
 * items[start[c]..start[c+1]), slots being indices in the floor's list), with what bounds the
 * reach of each kind: the loudest reference, the largest σ, the exponents' range, and whether
 * some take the estimate's default exponent or σ. Built once per floor list (a calibrated index
 * is a new one); `heard` and `found` are scratch space of one call.
 */
interface FloorCells {
  size: number;
  x0: number;
  y0: number;
  columns: number;
  rows: number;
  start: Int32Array;
  items: Int32Array;
  x: Float64Array;
  y: Float64Array;
  slots: Map<KnownTransmitter, number>;
  heard: Uint8Array;
  found: Int32Array;
  kinds: Array<{ count: number; maxReference: number; maxSigma: number; minN: number; maxN: number; anyDefaultN: boolean; anyDefaultSigma: boolean }>;
}

const cellsOfFloor = new WeakMap<readonly KnownTransmitter[], FloorCells>();

function floorCells(transmitters: readonly KnownTransmitter[]): FloorCells {
  let cells = cellsOfFloor.get(transmitters);
  if (cells) return cells;
  const count = transmitters.length;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const kinds = KINDS.map(() => ({ count: 0, maxReference: -Infinity, maxSigma: -Infinity, minN: Infinity, maxN: -Infinity, anyDefaultN: false, anyDefaultSigma: false }));
  const x = new Float64Array(count);
  const y = new Float64Array(count);
  const slots = new Map<KnownTransmitter, number>();
  for (let slot = 0; slot < count; slot += 1) {
    const transmitter = transmitters[slot];
    x[slot] = transmitter.x;
    y[slot] = transmitter.y;
    slots.set(transmitter, slot);
    x0 = Math.min(x0, transmitter.x);
    y0 = Math.min(y0, transmitter.y);
    x1 = Math.max(x1, transmitter.x);
    y1 = Math.max(y1, transmitter.y);
    const bounds = kinds[KINDS.indexOf(transmitter.kind)];
    if (!bounds) continue;
    bounds.count += 1;
    bounds.maxReference = Math.max(bounds.maxReference, transmitter.referenceRssi);
    if (transmitter.exponent === undefined) bounds.anyDefaultN = true;
    else {
      bounds.minN = Math.min(bounds.minN, transmitter.exponent);
      bounds.maxN = Math.max(bounds.maxN, transmitter.exponent);
    }
    if (transmitter.shadowingDb === undefined) bounds.anyDefaultSigma = true;
    else bounds.maxSigma = Math.max(bounds.maxSigma, transmitter.shadowingDb);
  }
  // About two transmitters a cell, in at most 64 × 64 cells; a floor of one point, one cell.
  const width = count > 0 ? Math.max(x1 - x0, y1 - y0, 1e-6) : 1;
  const size = Math.max(width / 64, Math.sqrt((Math.max(x1 - x0, 1) * Math.max(y1 - y0, 1) * 2) / Math.max(1, count)));
  const columns = count > 0 ? Math.floor((x1 - x0) / size) + 1 : 0;
  const rows = count > 0 ? Math.floor((y1 - y0) / size) + 1 : 0;
  const cellOf = new Int32Array(count);
  const start = new Int32Array(columns * rows + 1);
  for (let slot = 0; slot < count; slot += 1) {
    const cell = Math.min(rows - 1, Math.floor((y[slot] - y0) / size)) * columns + Math.min(columns - 1, Math.floor((x[slot] - x0) / size));
    cellOf[slot] = cell;
    start[cell + 1] += 1;
  }
  for (let cell = 0; cell < columns * rows; cell += 1) start[cell + 1] += start[cell];
  const items = new Int32Array(count);
  const filled = start.slice(0, Math.max(0, columns * rows));
  for (let slot = 0; slot < count; slot += 1) items[filled[cellOf[slot]]++] = slot;
  cells = { size, x0: count > 0 ? x0 : 0, y0: count > 0 ? y0 : 0, columns, rows, start, items, x, y, slots, heard: new Uint8Array(count), found: new Int32Array(count), kinds };
  cellsOfFloor.set(transmitters, cells);
  return cells;
}

/** The path-loss model's position of the readings of one floor (nearest first), with its unscaled accuracy. */
function placeByModel(
  onFloor: readonly Heard[],
  heardExtra: readonly RangedReading[],
  unheard: ((at: { x: number; y: number }, n: number) => RangedReading[]) | null,
  options: EstimatorOptions,
): { x: number; y: number; accuracy: number; method: 'fit' | 'centroid' | 'single' } {
  const n = onFloor[0].transmitter.exponent ?? options.pathLossExponent;
  const sparse = onFloor.length < 3 && unheard && onFloor[0].transmitter.exponent !== undefined ? sparseFit(onFloor, heardExtra, unheard, n) : null;
  if (sparse) return sparse;
  if (onFloor.length === 1) {
    const [only] = onFloor;
    // Anywhere on a ring around the transmitter: the ring's radius (at one sigma longer) bounds the error.
    const sigma = only.transmitter.shadowingDb ?? options.shadowingDb[only.transmitter.kind];
    return { x: only.transmitter.x, y: only.transmitter.y, accuracy: only.range * Math.exp((Math.LN10 * sigma) / (10 * n)), method: 'single' };
  }
  const centroid = weightedCentroid(onFloor, n);
  // First the readings heard alone (nearly quadratic), then with the transmitters not heard that
  // matter from there: the censored terms are not convex, and started far off they can hold the
  // fit in a false minimum.
  const heardOnly = heardExtra.length === 0 ? onFloor : [...onFloor, ...heardExtra];
  const fresh = onFloor[0].transmitter.exponent === undefined;
  // Where the censored terms follow, the heard readings' fit is only their start: a coarse one does.
  const refine = unheard !== null && !fresh;
  let fit: PositionFit | null = onFloor.length >= 3 ? fitPosition(heardOnly, centroid, n, refine ? COARSE_FIT : undefined) : null;
  let ownExponent: PositionExponentFit | null = null;
  if (fit && fresh && onFloor.length >= options.minReadingsForExponent) {
    // A floor with no model yet: the scan's own exponent where its readings reject the default.
    // One fit with n free, from the default's position, asks; where it says yes, where the
    // default's fit lies beyond the transmitters' hull (with n free, false minima lie towards
    // the inside there) or where the readings are clean, it is searched from several starts.
    const prior = { exponent: n, sd: options.scanExponentSd };
    const probe = fitPositionAndExponent(heardOnly, fit.ok ? fit : centroid, prior, options.scanExponentRange);
    const outside = fit.ok && distanceOutsideHull(onFloor, fit.x, fit.y) > 0;
    // A default that fits within a dB (its mean square residual) is not rejected whatever the F-test says: rounding alone gives that much.
    const sigma = onFloor[0].transmitter.shadowingDb ?? options.shadowingDb[onFloor[0].transmitter.kind];
    const defaultOff = !fit.ok || (fit.heardCost * sigma * sigma) / Math.max(1, heardOnly.length - 2) > MIN_DEFAULT_MISFIT_DB2;
    const rejects = (candidate: PositionExponentFit) => candidate.ok && defaultOff && (!fit!.ok || rejectsDefault(fit!.cost, candidate.cost, heardOnly.length));
    // A scan the default fits no worse than σ says may still be one of another exponent caught in a false minimum.
    const clean = fit.ok && fit.cost / Math.max(1, heardOnly.length - 2) < 1;
    if (rejects(probe) || outside || clean) {
      const best = ownExponentFit(heardOnly, onFloor[0], centroid, options, probe);
      if (rejects(best) && pinsExponent(best, heardOnly.length)) {
        fit = best;
        ownExponent = best;
      }
    }
  }
  // Only on a floor with a model: the censored terms rest on its σ and powers, which a fresh
  // floor only guesses (noise-free scans near the edge of a grid were pulled 2 m inwards).
  if (fit && unheard && !fresh) {
    const start = fit.ok ? { x: fit.x, y: fit.y } : centroid;
    const near = unheard(start, n);
    fit = near.length > 0 ? fitPosition([...heardOnly, ...near], start, n) : fit.ok ? fitPosition(heardOnly, start, n) : fit;
  }
  // The geometry of every transmitter heard, the floors above and below included.
  const geometry = spreadOf(heardOnly);
  if (fit && fit.ok) {
    // χ² per degree of freedom: two go to the position, a third to an exponent of its own.
    const inflation = Math.max(1, fit.heardCost / Math.max(1, onFloor.length - (ownExponent ? 3 : 2)));
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
      const outside = distanceOutsideHull(heardOnly, x, y);
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
    entry.power += Math.exp((Math.LN10 * item.rssi) / 10);
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
function spreadOf(heard: readonly { x: number; y: number }[]): Spread {
  let cx = 0;
  let cy = 0;
  for (const item of heard) {
    cx += item.x;
    cy += item.y;
  }
  cx /= heard.length;
  cy /= heard.length;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const item of heard) {
    const dx = item.x - cx;
    const dy = item.y - cy;
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
