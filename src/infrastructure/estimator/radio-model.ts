import { AdjacentTransmitter, FloorEstimation, TransmitterIndex } from './scan-estimator';
import { KnownTransmitter, transmitterKey, TransmitterKind } from './transmitter';

/**
 * A floor's radio model, plain TypeScript: its path-loss exponent n, each transmitter's
 * offset δ_j from its registered reference RSSI, and the shadowing σ per kind, as the
 * posterior mode of a Gaussian prior and the evidence gathered so far:
 *
 *   rssi_ij = (registered_j + δ_j) − 10 · n · log10(d_ij) + ε,   ε ~ N(0, σ²)
 *
 * The evidence is kept as sufficient statistics of a quadratic in θ = (n, δ_1 … δ_J): the
 * information H and the vector b with ½θᵀHθ − bᵀθ, in "arrow" form (n couples to every δ_j;
 * the δ_j among themselves are kept apart), so statistics from any number of batches, scans
 * or instances add up, and solving is linear in the number of transmitters.
 */

export interface TransmitterStatistics {
  /** H_jj: the information about δ_j. */
  h: number;
  /** H_nj: how δ_j and n trade off. */
  hn: number;
  /** b_j. */
  b: number;
  /** Readings behind it (decayed with the rest). */
  readings: number;
}

/**
 * What the scans say of the scanners that sent them: the weakest reading of each kind, the
 * most readings one scan had, and how many scans had that many (a share near 1: the scanner
 * keeps its strongest N). Reported, not used: the censoring threshold of each scan is its own
 * weakest reading, which holds whatever mix of scanners a site has.
 */
export interface ScannerStatistics {
  weakest: Record<TransmitterKind, number | null>;
  maxReadings: number;
  /** Scans (decayed) with maxReadings readings. */
  atMax: number;
}

/** The statistics' format: stored statistics of an older one start again (issue 36: theirs were fitted without the censored terms and are biased). */
export const STATISTICS_VERSION = 2;

export interface FloorStatistics {
  version?: number;
  /** Scans behind the statistics (decayed: the model forgets the oldest beyond a cap). */
  scans: number;
  hnn: number;
  bn: number;
  /** By transmitter key `kind:id` (`ble:12`). */
  transmitters: Record<string, TransmitterStatistics>;
  /** Σ r² (dB²) and its degrees of freedom per kind: the shadowing σ. */
  residuals: Record<TransmitterKind, { sum: number; dof: number }>;
  scanner?: ScannerStatistics;
}

export interface RadioPrior {
  exponent: number;
  exponentSd: number;
  exponentBounds: [number, number];
  offsetSd: number;
  /** Offsets are kept within ± this (dB): beyond it the transmitter is misregistered, not miscalibrated. */
  offsetBound: number;
  shadowingDb: Record<TransmitterKind, number>;
  /** How many readings' worth the prior σ weighs. */
  shadowingReadings: number;
  /** σ is never taken below this (dB): the model's own error the residuals cannot show. */
  minShadowingDb: number;
}

/** Indoor 2.4 GHz exponents run from about 1.8 (halls, corridors) to 3.5 and more (walls, offices). */
export const RADIO_PRIOR: RadioPrior = {
  exponent: 2.8,
  exponentSd: 0.5,
  exponentBounds: [1.5, 4.5],
  offsetSd: 3.5,
  offsetBound: 15,
  shadowingDb: { ble: 4, wifi: 6 },
  shadowingReadings: 200,
  minShadowingDb: 1.5,
};

/**
 * Whether the scans tell the exponent: `prior` while they say too little about it beside the
 * offsets (the prior's exponent is kept, not a value pulled towards a bound), `unidentified`
 * when the evidence points outside the plausible range (the scans do not fit the model: the
 * prior's exponent is kept), `fitted` otherwise.
 */
export interface ExponentFit {
  state: 'prior' | 'fitted' | 'unidentified';
  /** Why not fitted; null when fitted. */
  reason: string | null;
  /** The posterior standard deviation of the exponent. */
  sd: number;
}

/** The data must carry at least this share of the prior's information about n to move it. */
const MIN_EXPONENT_EVIDENCE = 0.25;

export interface SolvedModel {
  exponent: number;
  /** How the exponent was found (solveModel; a batch's intermediate steps leave it out). */
  exponentFit?: ExponentFit;
  /** False for the prior alone (no scans): its floor is placed as a fresh one (calibratedIndex). */
  evidence?: boolean;
  /** δ_j by transmitter key `kind:id` (dB). */
  offsets: Map<string, number>;
  shadowingDb: Record<TransmitterKind, number>;
}

export function emptyStatistics(): FloorStatistics {
  return { version: STATISTICS_VERSION, scans: 0, hnn: 0, bn: 0, transmitters: {}, residuals: { ble: { sum: 0, dof: 0 }, wifi: { sum: 0, dof: 0 } }, scanner: emptyScanner() };
}

export function emptyScanner(): ScannerStatistics {
  return { weakest: { ble: null, wifi: null }, maxReadings: 0, atMax: 0 };
}

/** One scan's part of the scanner statistics: `readings` reported, the weakest of each kind. */
export function addScan(scanner: ScannerStatistics, readings: number, weakest: Partial<Record<TransmitterKind, number>>): void {
  for (const kind of ['ble', 'wifi'] as const) {
    const value = weakest[kind];
    if (value !== undefined && (scanner.weakest[kind] === null || value < scanner.weakest[kind]!)) scanner.weakest[kind] = value;
  }
  if (readings > scanner.maxReadings) {
    scanner.maxReadings = readings;
    scanner.atMax = 1;
  } else if (readings === scanner.maxReadings) scanner.atMax += 1;
}

function combineScanners(a: ScannerStatistics | undefined, b: ScannerStatistics | undefined, scaleA: number, scaleB: number): ScannerStatistics {
  const left = a ?? emptyScanner();
  const right = b ?? emptyScanner();
  const weakest = (kind: TransmitterKind) => {
    const values = [left.weakest[kind], right.weakest[kind]].filter((value): value is number => value !== null);
    return values.length === 0 ? null : Math.min(...values);
  };
  const maxReadings = Math.max(left.maxReadings, right.maxReadings);
  const atMax = (left.maxReadings === maxReadings ? left.atMax * scaleA : 0) + (right.maxReadings === maxReadings ? right.atMax * scaleB : 0);
  return { weakest: { ble: weakest('ble'), wifi: weakest('wifi') }, maxReadings, atMax };
}

/** a + b, each scaled (b's weight 1 by default): statistics are additive. */
export function addStatistics(a: FloorStatistics, b: FloorStatistics, scaleA = 1, scaleB = 1): FloorStatistics {
  const transmitters: Record<string, TransmitterStatistics> = {};
  for (const [key, value] of Object.entries(a.transmitters))
    transmitters[key] = { h: value.h * scaleA, hn: value.hn * scaleA, b: value.b * scaleA, readings: value.readings * scaleA };
  for (const [key, value] of Object.entries(b.transmitters)) {
    const sum = transmitters[key] ?? { h: 0, hn: 0, b: 0, readings: 0 };
    transmitters[key] = { h: sum.h + value.h * scaleB, hn: sum.hn + value.hn * scaleB, b: sum.b + value.b * scaleB, readings: sum.readings + value.readings * scaleB };
  }
  const residual = (kind: TransmitterKind) => ({
    sum: a.residuals[kind].sum * scaleA + b.residuals[kind].sum * scaleB,
    dof: a.residuals[kind].dof * scaleA + b.residuals[kind].dof * scaleB,
  });
  return {
    version: STATISTICS_VERSION,
    scans: a.scans * scaleA + b.scans * scaleB,
    hnn: a.hnn * scaleA + b.hnn * scaleB,
    bn: a.bn * scaleA + b.bn * scaleB,
    transmitters,
    residuals: { ble: residual('ble'), wifi: residual('wifi') },
    scanner: combineScanners(a.scanner, b.scanner, scaleA, scaleB),
  };
}

/**
 * The stored statistics with a new contribution: the stored ones scaled down first when the
 * sum would rest on more than `maxScans`, so the model follows a building that changes
 * (a moved beacon, a new battery) and forgets what it learned with a worse model.
 */
export function mergeStatistics(stored: FloorStatistics, contribution: FloorStatistics, maxScans: number): FloorStatistics {
  const room = Math.max(0, maxScans - contribution.scans);
  const keep = stored.scans > room && stored.scans > 0 ? room / stored.scans : 1;
  return addStatistics(stored, contribution, keep, 1);
}

/**
 * The posterior mode: minimises ½θᵀHθ − bᵀθ plus the prior, by eliminating each δ_j
 * (the arrow's diagonal) and solving for n; the offsets are then solved at that exponent.
 * Where the evidence cannot tell n, the prior's n is kept and `exponentFit` says why: never
 * a value clamped to a bound.
 */
export function solveModel(statistics: FloorStatistics, prior: RadioPrior = RADIO_PRIOR): SolvedModel {
  const offsetInformation = 1 / (prior.offsetSd * prior.offsetSd);
  const exponentInformation = 1 / (prior.exponentSd * prior.exponentSd);
  let a = statistics.hnn + exponentInformation;
  let rhs = statistics.bn + exponentInformation * prior.exponent;
  const entries = Object.entries(statistics.transmitters);
  for (const [, value] of entries) {
    const d = value.h + offsetInformation;
    a -= (value.hn * value.hn) / d;
    rhs -= (value.hn * value.b) / d;
  }
  // a is the exponent's information with the offsets eliminated: the prior's plus the data's.
  const evidence = a - exponentInformation;
  const solved = a > 1e-9 ? rhs / a : NaN;
  let exponent = prior.exponent;
  let exponentFit: ExponentFit;
  if (statistics.scans <= 0 || !(evidence >= MIN_EXPONENT_EVIDENCE * exponentInformation) || !Number.isFinite(solved)) {
    exponentFit = {
      state: 'prior',
      reason: statistics.scans <= 0 ? 'no scans yet' : "the scans do not yet tell the exponent apart from the transmitters' offsets",
      sd: prior.exponentSd,
    };
  } else if (solved < prior.exponentBounds[0] || solved > prior.exponentBounds[1]) {
    exponentFit = {
      state: 'unidentified',
      reason: `the scans point to ${solved.toFixed(2)}, outside ${prior.exponentBounds[0]}-${prior.exponentBounds[1]}: they do not fit the path-loss model`,
      sd: prior.exponentSd,
    };
  } else {
    exponent = solved;
    exponentFit = { state: 'fitted', reason: null, sd: 1 / Math.sqrt(a) };
  }
  const offsets = new Map<string, number>();
  for (const [key, value] of entries) {
    const offset = (value.b - value.hn * exponent) / (value.h + offsetInformation);
    offsets.set(key, Math.max(-prior.offsetBound, Math.min(prior.offsetBound, Number.isFinite(offset) ? offset : 0)));
  }
  return {
    exponent,
    exponentFit,
    evidence: statistics.scans > 0,
    offsets,
    shadowingDb: { ble: shadowingOf(statistics, 'ble', prior), wifi: shadowingOf(statistics, 'wifi', prior) },
  };
}

function shadowingOf(statistics: FloorStatistics, kind: TransmitterKind, prior: RadioPrior): number {
  const { sum, dof } = statistics.residuals[kind];
  const weight = prior.shadowingReadings;
  const variance = (sum + weight * prior.shadowingDb[kind] ** 2) / (Math.max(0, dof) + weight);
  return Math.max(prior.minShadowingDb, Math.sqrt(variance));
}

/** What the estimator needs of one floor's model. */
export interface FloorRadio {
  model: SolvedModel;
  estimation: FloorEstimation;
}

/**
 * The transmitters as the estimator should see them: each with its floor's exponent and σ,
 * and its reference RSSI moved by its offset. Floors without a model keep the registered
 * references and the estimator's defaults.
 */
export function calibratedIndex(all: Iterable<KnownTransmitter>, floors: ReadonlyMap<number, FloorRadio>): TransmitterIndex {
  const transmitters = [...all];
  const calibrated: KnownTransmitter[] = [];
  const estimations = new Map<number, FloorEstimation>();
  for (const transmitter of transmitters) {
    const floor = floors.get(transmitter.floorId);
    // A model of no scans is the prior: the floor is placed as a fresh one (the scan's own
    // exponent where it shows one, no censored terms on a σ nothing measured).
    if (!floor || floor.model.evidence === false) {
      calibrated.push(transmitter);
      continue;
    }
    const offset = floor.model.offsets.get(transmitterKey(transmitter)) ?? 0;
    calibrated.push({ ...transmitter, referenceRssi: transmitter.referenceRssi + offset, exponent: floor.model.exponent, shadowingDb: floor.model.shadowingDb[transmitter.kind] });
  }
  // Each model's view of the floors next to it: the transmitters it has learnt an offset for through the floor.
  const registered = new TransmitterIndex(transmitters);
  for (const [floorId, floor] of floors) {
    if (floor.model.evidence === false) {
      estimations.set(floorId, floor.estimation);
      continue;
    }
    const adjacent = new Map<string, AdjacentTransmitter>();
    for (const { transmitter, lossDb, dz2 } of registered.adjacent(floorId)) {
      const key = transmitterKey(transmitter);
      const offset = floor.model.offsets.get(key);
      if (offset === undefined) continue;
      adjacent.set(key, {
        kind: transmitter.kind,
        x: transmitter.x,
        y: transmitter.y,
        reference: transmitter.referenceRssi - lossDb + offset,
        dz2,
        shadowingDb: floor.model.shadowingDb[transmitter.kind],
        exponent: floor.model.exponent,
      });
    }
    estimations.set(floorId, adjacent.size > 0 ? { ...floor.estimation, adjacent } : floor.estimation);
  }
  return new TransmitterIndex(calibrated, estimations);
}
