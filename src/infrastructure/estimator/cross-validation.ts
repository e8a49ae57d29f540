import { BatchCalibration, CalibrationOptions, CalibrationScan, calibrationScan, DEFAULT_CALIBRATION_OPTIONS, knownEvidence } from './calibration';
import { FingerprintIndex } from './fingerprints';
import { MapSample, radioMapSteps } from './radio-map';
import { addStatistics, calibratedIndex, emptyStatistics, FloorStatistics, solveModel } from './radio-model';
import { DEFAULT_ESTIMATOR_OPTIONS, estimatePosition, EstimatorOptions, FloorEstimation, ScanReading, TransmitterIndex } from './scan-estimator';
import { complete, Steps } from './steps';
import { KnownTransmitter, transmitterKey } from './transmitter';

/**
 * What a floor's reference points say, plain TypeScript: the model they support, and which
 * way of placing scans they show to be better there, by leave-one-out cross-validation
 * (each reference position in turn left out of the model and of the fingerprints, and its
 * scans placed by both). The same errors calibrate each method's reported accuracy.
 */

/** One scan taken at a known position of the floor. */
export interface ReferenceScan {
  x: number;
  y: number;
  readings: readonly ScanReading[];
}

export interface MethodScore {
  /** Median and 90th percentile of the leave-one-out errors (metres). */
  median: number;
  p90: number;
  /** Share of held-out scans within the accuracy reported after scaling. */
  coverage: number;
}

export interface ReferenceFit {
  /** Distinct reference positions and scans on the floor. */
  points: number;
  scans: number;
  /** The references' evidence about the model (empty when too few). */
  statistics: FloorStatistics;
  /** How the floor places scans. */
  estimation: FloorEstimation;
  /** Leave-one-out scores; null where the method was not eligible. */
  model: MethodScore | null;
  fingerprint: MethodScore | null;
  /** The radio map's scores; null where the residuals showed no spatial structure (or too few points). */
  map: MethodScore | null;
}

/** Fewer reference scans than this on a floor: the model is not fitted from them. */
export const MIN_REFERENCE_SCANS = 10;
/** Fewer distinct positions than this: no fingerprinting (k-NN needs neighbours all around). */
export const MIN_FINGERPRINT_POINTS = 10;
/** At most this many positions are held out (evenly spread), to bound the cost of a large survey. */
const MAX_HELD_OUT = 400;
const NEIGHBOURS = [3, 4, 6];
/** Temperatures of the radio map's posterior tried by leave-one-out (radio-map.ts). */
const MAP_TEMPERATURES = [0.25, 0.4, 0.6, 1];
/** The reported accuracy should hold for about two fixes in three: aimed a little above (the held-out points are few). */
const COVERAGE_AIM = 0.72;
const SCALE_BOUNDS: [number, number] = [0.5, 4];

export interface ReferenceFitOptions {
  estimator?: EstimatorOptions;
  calibration?: CalibrationOptions;
  /** Keep the radio map in the estimation even where it is not chosen (the benchmark's comparison). */
  keepMap?: boolean;
}

export function fitReferences(floorId: number, references: readonly ReferenceScan[], transmitters: readonly KnownTransmitter[], options: ReferenceFitOptions = {}): ReferenceFit {
  return complete(referenceFitSteps(floorId, references, transmitters, options));
}

/** `fitReferences` in steps of a few milliseconds (steps.ts): a survey of a few hundred points takes seconds. */
export function* referenceFitSteps(
  floorId: number,
  references: readonly ReferenceScan[],
  transmitters: readonly KnownTransmitter[],
  options: ReferenceFitOptions = {},
): Steps<ReferenceFit> {
  const estimator = options.estimator ?? DEFAULT_ESTIMATOR_OPTIONS;
  const calibration = options.calibration ?? DEFAULT_CALIBRATION_OPTIONS;
  const fingerprints = new FingerprintIndex(references.map((scan) => ({ x: scan.x, y: scan.y, readings: vectorOf(scan.readings) })));
  const none: ReferenceFit = {
    points: fingerprints.size,
    scans: references.length,
    statistics: emptyStatistics(),
    estimation: { method: 'model', accuracyScale: 1 },
    model: null,
    fingerprint: null,
    map: null,
  };
  if (references.length < MIN_REFERENCE_SCANS) return none;

  // As the running calibration takes scans: every reading of the floor and of the floors next to it, and what was not heard.
  const registered = new TransmitterIndex(transmitters);
  const calibrationScans: CalibrationScan[] = references.map((scan) => calibrationScan(scan.readings, registered, floorId, { x: scan.x, y: scan.y, known: true }));
  const job = new BatchCalibration(calibrationScans, emptyStatistics(), calibration);
  while (!job.step()) yield;
  const full = job.result();
  const statistics = full.contribution;
  const groups = new Map<number, number[]>();
  references.forEach((scan, index) => {
    const point = fingerprints.pointAt(scan.x, scan.y);
    groups.set(point, [...(groups.get(point) ?? []), index]);
  });
  const heldOut = spreadSample(
    [...groups.keys()].sort((a, b) => a - b),
    MAX_HELD_OUT,
  );

  // The model without each held-out position: its statistics less theirs (exact: linear in θ at the full model).
  const modelRuns: Array<{ error: number; accuracy: number }> = [];
  for (const point of heldOut) {
    const members = groups.get(point)!;
    const without = addStatistics(
      statistics,
      knownEvidence(
        members.map((index) => calibrationScans[index]),
        full.model,
        calibration,
      ),
      1,
      -1,
    );
    const model = solveModel(without, calibration.prior);
    const index = calibratedIndex(transmitters, new Map([[floorId, { model, estimation: { method: 'model' as const, accuracyScale: 1 } }]]));
    for (const member of members) {
      const scan = references[member];
      const estimate = estimatePosition(scan.readings, index, estimator);
      if (!estimate.ok || estimate.floorId !== floorId) continue;
      modelRuns.push({ error: Math.hypot(estimate.x - scan.x, estimate.y - scan.y), accuracy: estimate.accuracy });
    }
    yield;
  }
  const accuracyScale = scaleFor(modelRuns.map((run) => run.error / run.accuracy));
  const model = score(modelRuns.map((run) => ({ error: run.error, accuracy: Math.max(estimator.minAccuracy, run.accuracy * accuracyScale) })));

  let fingerprint: MethodScore | null = null;
  let estimation: FloorEstimation = { method: 'model', accuracyScale };
  let map: MethodScore | null = null;
  if (fingerprints.size >= MIN_FINGERPRINT_POINTS) {
    const samples = references.map((scan) => ({ x: scan.x, y: scan.y, readings: vectorOf(scan.readings) }));
    let best: { k: number; runs: HeldOutRun[]; median: number } | null = null;
    for (const k of NEIGHBOURS) {
      const runs: HeldOutRun[] = [];
      for (const point of heldOut) {
        for (const member of groups.get(point)!) {
          const scan = references[member];
          const far = fingerprints.locate(samples[member].readings, k, point);
          if (!far) continue;
          // Without the held-out scan only (the rest of its point kept): a live scan this close to a reference point.
          const rest = fingerprints.without(point, samples[member].readings);
          const near = (rest && fingerprints.locate(samples[member].readings, k, point, rest)) ?? far;
          runs.push({
            far: { error: Math.hypot(far.x - scan.x, far.y - scan.y), spread: Math.max(0.1, far.spread) },
            near: { error: Math.hypot(near.x - scan.x, near.y - scan.y), spread: Math.max(0.1, near.spread) },
          });
        }
        yield;
      }
      const median = blend(medianOf(runs.map((run) => run.near.error)), medianOf(runs.map((run) => run.far.error)));
      if (!best || median < best.median) best = { k, runs, median };
    }
    if (best && best.runs.length > 0) {
      const fingerprintScale = blendedScale(best.runs);
      const fingerprintFloor = estimator.minAccuracy;
      fingerprint = blendedScore(best.runs, fingerprintScale, fingerprintFloor);
      estimation = { method: 'model', accuracyScale, fingerprints, k: best.k, fingerprintScale, fingerprintFloor };
    }

    // The radio map: the model of the references plus their residuals interpolated, each point held out of it in turn.
    const floorTransmitters = [
      ...calibratedIndex(transmitters, new Map([[floorId, { model: full.model, estimation: { method: 'model' as const, accuracyScale: 1 } }]])).all(),
    ].filter((transmitter) => transmitter.floorId === floorId);
    const positions = fingerprints.positions();
    const mapSamples: MapSample[] = references.map((scan, member) => ({
      point: fingerprints.pointAt(scan.x, scan.y),
      readings: onFloorVector(samples[member].readings, floorTransmitters),
    }));
    const built = yield* radioMapSteps(positions, mapSamples, floorTransmitters, full.model.exponent);
    if (built) {
      const tempered = MAP_TEMPERATURES.map((temperature) => built.map.tempered(temperature));
      const indices = tempered.map((radioMap) =>
        calibratedIndex(transmitters, new Map([[floorId, { model: full.model, estimation: { method: 'map' as const, accuracyScale, radioMap, mapScale: 1 } }]])),
      );
      const place = (scan: ReferenceScan): Array<HeldOutRun['far'] | null> =>
        indices.map((index) => {
          const estimate = estimatePosition(scan.readings, index, estimator);
          if (!estimate.ok || estimate.floorId !== floorId) return null;
          // The unscaled radius: the scale is what these runs decide.
          return {
            error: Math.hypot(estimate.x - scan.x, estimate.y - scan.y),
            spread: Math.max(0.1, estimate.method === 'radio_map' ? estimate.accuracy : estimate.accuracy / accuracyScale),
          };
        });
      const runs: HeldOutRun[][] = tempered.map(() => []);
      for (const point of heldOut) {
        const held = built.heldOut(point);
        for (const member of groups.get(point)!) {
          const scan = references[member];
          const far = held.far(() => place(scan));
          // A point's only scan moves the map as the point itself does: placing it again would give the same runs.
          const near = groups.get(point)!.length > 1 ? held.near(mapSamples[member].readings, () => place(scan)) : far;
          far.forEach((run, t) => {
            if (run) runs[t].push({ far: run, near: near[t] ?? run });
          });
        }
        yield;
      }
      let best = -1;
      let bestMedian = Infinity;
      runs.forEach((list, t) => {
        if (list.length === 0) return;
        const median = blend(medianOf(list.map((run) => run.near.error)), medianOf(list.map((run) => run.far.error)));
        if (median < bestMedian) {
          best = t;
          bestMedian = median;
        }
      });
      if (best >= 0) {
        const mapScale = blendedScale(runs[best]);
        map = blendedScore(runs[best], mapScale, estimator.minAccuracy);
        estimation = { ...estimation, radioMap: tempered[best], mapScale };
      }
    }
    const candidates: Array<[FloorEstimation['method'], MethodScore | null]> = [
      ['model', model],
      ['map', map],
      ['fingerprint', fingerprint],
    ];
    let chosen: FloorEstimation['method'] = 'model';
    let chosenMedian = model?.median ?? Infinity;
    for (const [method, scored] of candidates) {
      if (scored && scored.median < chosenMedian) {
        chosen = method;
        chosenMedian = scored.median;
      }
    }
    estimation = { ...estimation, method: chosen };
    // A map not chosen is not kept (it is the larger part of a floor's cache), unless asked for (the benchmark's comparison).
    if (chosen !== 'map' && !options.keepMap) delete estimation.radioMap;
  }
  return { points: fingerprints.size, scans: references.length, statistics, estimation, model, fingerprint, map };
}

/** The readings of a scan vector that belong to the floor's transmitters, by the model's key `kind:id`. */
function onFloorVector(readings: ReadonlyMap<string, number>, floorTransmitters: readonly KnownTransmitter[]): Map<string, number> {
  const vector = new Map<string, number>();
  for (const transmitter of floorTransmitters) {
    const rssi = readings.get(transmitter.key);
    if (rssi !== undefined) vector.set(transmitterKey(transmitter), rssi);
  }
  return vector;
}

/** The accuracy scale of held-out runs (error / unscaled radius), taken as a live scan is placed between them. */
function blendedScale(runs: readonly HeldOutRun[]): number {
  return blend(scaleFor(runs.map((run) => run.near.error / run.near.spread)), scaleFor(runs.map((run) => run.far.error / run.far.spread)));
}

function blendedScore(runs: readonly HeldOutRun[], scale: number, floor: number): MethodScore {
  const near = score(runs.map((run) => ({ error: run.near.error, accuracy: Math.max(floor, run.near.spread * scale) })))!;
  const far = score(runs.map((run) => ({ error: run.far.error, accuracy: Math.max(floor, run.far.spread * scale) })))!;
  return { median: blend(near.median, far.median), p90: blend(near.p90, far.p90), coverage: blend(near.coverage, far.coverage) };
}

interface HeldOutRun {
  /** The held-out scan placed with its point's other scans still there (at a reference point)… */
  near: { error: number; spread: number };
  /** …and with its whole point left out (as far from the nearest point as the spacing). */
  far: { error: number; spread: number };
}

/**
 * A live scan lies on average 0.38 spacings from the nearest reference point of a square grid
 * (the mean distance to the nearest node), between the two held-out cases (0 and 1 spacing):
 * fingerprint and radio map figures are taken that far between them.
 */
const LIVE_DISTANCE_SHARE = 0.38;
const blend = (near: number, far: number) => (1 - LIVE_DISTANCE_SHARE) * near + LIVE_DISTANCE_SHARE * far;
const medianOf = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** The model a floor uses: from its reference points when it has enough of them, else from what it saw. */
export function floorStatistics(running: FloorStatistics, references: FloorStatistics | null): FloorStatistics {
  return references && references.scans >= MIN_REFERENCE_SCANS ? references : running;
}

export function vectorOf(readings: readonly ScanReading[]): Map<string, number> {
  const vector = new Map<string, number>();
  for (const reading of readings) {
    const previous = vector.get(reading.key);
    if (previous === undefined || reading.rssi > previous) vector.set(reading.key, reading.rssi);
  }
  return vector;
}

/** The scale that puts COVERAGE_AIM of the ratios error/accuracy within 1; 1 when too few to tell. */
function scaleFor(ratios: number[]): number {
  if (ratios.length < 20) return 1;
  const sorted = ratios.filter(Number.isFinite).sort((a, b) => a - b);
  return Math.min(SCALE_BOUNDS[1], Math.max(SCALE_BOUNDS[0], quantile(sorted, COVERAGE_AIM)));
}

function score(runs: Array<{ error: number; accuracy: number }>): MethodScore | null {
  if (runs.length === 0) return null;
  const errors = runs.map((run) => run.error).sort((a, b) => a - b);
  return { median: quantile(errors, 0.5), p90: quantile(errors, 0.9), coverage: runs.filter((run) => run.error <= run.accuracy).length / runs.length };
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function spreadSample<T>(items: T[], limit: number): T[] {
  if (items.length <= limit) return items;
  return Array.from({ length: limit }, (_, i) => items[Math.floor((i * items.length) / limit)]);
}
