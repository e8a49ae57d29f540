import { MIN_DISTANCE } from './position-fit';
import { KnownTransmitter, transmitterKey } from './transmitter';
import { complete, Steps } from './steps';

/**
 * A floor's radio map from its reference points, plain TypeScript: for each transmitter, the
 * RSSI expected anywhere on the floor, as the fitted log-distance model plus that
 * transmitter's residuals at the reference points interpolated in space (Gaussian-process
 * regression, "kriging", with a Matérn 3/2 kernel whose length scale and variance are chosen
 * by leave-one-out on the reference points). Walls, shelves and doors leave the same mark on
 * every scan taken at a place: the model cannot know it, the residuals at the reference points
 * around the place do.
 *
 * A scan is placed by the posterior over the cells of a grid over the surveyed area (around the
 * transmitters heard, coarse, then fine where the posterior has mass): its mean is the fix, its
 * spread the accuracy.
 */

export interface MapGrid {
  /** Lower left corner of the first cell (floor metres) and the cell size. */
  x0: number;
  y0: number;
  cell: number;
  columns: number;
  rows: number;
}

/** The Gaussian process of every transmitter's residuals on a floor (one choice per floor). */
export interface FieldHyper {
  /** Matérn 3/2 length scale (metres). */
  lengthM: number;
  /** Variance of the static residual field (dB²). */
  signalVar: number;
  /** Variance of one scan's reading about the static field (dB²): what repeats at a point do not share. */
  noiseVar: number;
}

/** A reading of a transmitter the map may know (key `kind:id`), with where that transmitter is. */
export interface MapReading {
  key: string;
  rssi: number;
  x: number;
  y: number;
}

export interface MapFix {
  x: number;
  y: number;
  /** sqrt(var x + var y) of the posterior over the cells (metres). */
  spread: number;
}

export interface RadioMapOptions {
  /** Cell size (metres), enlarged on large floors to keep the map within `maxCells` and `maxValues`. */
  cellM: number;
  /** At most this many cells (what a scan's search costs) and expected values (cells × transmitters, 4 bytes each) per floor. */
  maxCells: number;
  maxValues: number;
  /** Length scales (metres) and shares of the residual variance tried by the leave-one-out choice (0: no map). */
  lengths: readonly number[];
  signalShares: readonly number[];
  /** At most this many points per transmitter's field (the nearest to it): bounds the O(m³) fit. */
  maxFieldPoints: number;
  /** Transmitters whose fields choose the hyperparameters (the most observed), each with at most this many of its points. */
  tuningFields: number;
  tuningPoints: number;
  /** Given instead of chosen (tests). */
  hyper?: FieldHyper;
}

export const DEFAULT_MAP_OPTIONS: RadioMapOptions = {
  cellM: 1,
  maxCells: 20_000,
  maxValues: 2_000_000,
  lengths: [2, 3, 4.5, 7, 11],
  signalShares: [0, 0.15, 0.3, 0.5, 0.75],
  maxFieldPoints: 200,
  tuningFields: 12,
  tuningPoints: 80,
};

/** The posterior's cells beyond this much χ² above the best carry no weight (e^-15). */
const CHI2_WINDOW = 30;
/** The search covers the heard transmitters' bounding box and this much around it (metres). */
const SEARCH_MARGIN_M = 10;
/** The coarse pass looks at every second cell each way. */
const COARSE = 2;
/** Matérn 3/2 is below 1 % of its variance beyond this many length scales. */
const KERNEL_CUTOFF = 4;
const SQRT3 = Math.sqrt(3);
/** Leaving a point out moves the fields by less than this (dB, against a reading noise of 1.5 dB and more) beyond the cells it is applied to. */
const LOO_TOLERANCE_DB = 0.05;

/** (1 + u)·e^−u tabulated in steps of 1/200 up to the cutoff (linear between: within 1e-5 of it), as it runs millions of times a fit. */
const MATERN_STEP = 200;
const MATERN_TABLE = Float64Array.from({ length: Math.ceil(SQRT3 * KERNEL_CUTOFF * MATERN_STEP) + 2 }, (_, i) => (1 + i / MATERN_STEP) * Math.exp(-i / MATERN_STEP));

function covariance(hyper: FieldHyper, distance: number): number {
  const at = ((SQRT3 * distance) / hyper.lengthM) * MATERN_STEP;
  const i = Math.floor(at);
  if (i >= MATERN_TABLE.length - 1) return 0;
  const t = at - i;
  return hyper.signalVar * (MATERN_TABLE[i] * (1 - t) + MATERN_TABLE[i + 1] * t);
}

const cellX = (grid: MapGrid, column: number) => grid.x0 + (column + 0.5) * grid.cell;
const cellY = (grid: MapGrid, row: number) => grid.y0 + (row + 0.5) * grid.cell;

/** The expected RSSI of every transmitter of a floor at every cell of its surveyed area, and how to place a scan on it. */
export class RadioMap {
  /** Costs of the cells (scratch, reused: locating is synchronous). */
  private static costs = new Float64Array(0);

  constructor(
    readonly grid: MapGrid,
    /** Expected RSSI per cell (row-major) by transmitter key `kind:id`. */
    readonly fields: ReadonlyMap<string, Float32Array>,
    /** Variance of a live reading about the map (dB²): the search's weights. */
    readonly readingVar: number,
    readonly hyper: FieldHyper,
    /**
     * The posterior's temperature: the readings' variance is taken this many times larger. A flat
     * prior over a bounded area pulls a wide posterior's mean inwards; leave-one-out on the
     * reference points finds how much sharper (below 1) places scans best.
     */
    readonly temperature = 1,
  ) {}

  /** The same map (the same fields, not copied) at another temperature. */
  tempered(temperature: number): RadioMap {
    return new RadioMap(this.grid, this.fields, this.readingVar, this.hyper, temperature);
  }

  /** Values held (cells × transmitters): the map's memory is 4 bytes each. */
  get values(): number {
    return this.fields.size * this.grid.columns * this.grid.rows;
  }

  /**
   * The posterior mean and spread of a scan's position, from the readings of transmitters the
   * map has (keys `kind:id`); null with fewer than three of them.
   */
  locate(readings: ReadonlyArray<MapReading>): MapFix | null {
    const used: Array<{ field: Float32Array; rssi: number }> = [];
    // The cells searched: around the transmitters heard, so that a scan costs the same on a floor of any size.
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const reading of readings) {
      const field = this.fields.get(reading.key);
      if (!field) continue;
      used.push({ field, rssi: reading.rssi });
      minX = Math.min(minX, reading.x);
      minY = Math.min(minY, reading.y);
      maxX = Math.max(maxX, reading.x);
      maxY = Math.max(maxY, reading.y);
    }
    if (used.length < 3) return null;
    const { grid } = this;
    const columns = grid.columns;
    const cells = columns * grid.rows;
    const first = (value: number, origin: number, count: number) => Math.min(count - 1, Math.max(0, Math.floor((value - origin) / grid.cell)));
    const column0 = first(minX - SEARCH_MARGIN_M, grid.x0, columns);
    const column1 = first(maxX + SEARCH_MARGIN_M, grid.x0, columns);
    const row0 = first(minY - SEARCH_MARGIN_M, grid.y0, grid.rows);
    const row1 = first(maxY + SEARCH_MARGIN_M, grid.y0, grid.rows);
    if (RadioMap.costs.length < cells) RadioMap.costs = new Float64Array(cells);
    const costs = RadioMap.costs;
    const weight = 1 / (this.readingVar * this.temperature);
    const cost = (index: number) => {
      let sum = 0;
      for (let i = 0; i < used.length; i += 1) {
        const residual = used[i].rssi - used[i].field[index];
        sum += residual * residual;
      }
      return sum * weight;
    };
    // Coarse pass: where the posterior can have mass.
    let best = Infinity;
    for (let row = row0; row <= row1; row += COARSE) {
      for (let column = column0; column <= column1; column += COARSE) {
        const index = row * columns + column;
        costs[index] = cost(index);
        if (costs[index] < best) best = costs[index];
      }
    }
    let lowRow = row1;
    let highRow = row0;
    let lowColumn = column1;
    let highColumn = column0;
    // A coarse cell may lie a cell and a half from the peak: its excess over the peak is allowed for in the window.
    const coarseWindow = 2 * CHI2_WINDOW;
    for (let row = row0; row <= row1; row += COARSE) {
      for (let column = column0; column <= column1; column += COARSE) {
        if (costs[row * columns + column] > best + coarseWindow) continue;
        lowRow = Math.min(lowRow, row);
        highRow = Math.max(highRow, row);
        lowColumn = Math.min(lowColumn, column);
        highColumn = Math.max(highColumn, column);
      }
    }
    lowRow = Math.max(row0, lowRow - COARSE);
    highRow = Math.min(row1, highRow + COARSE);
    lowColumn = Math.max(column0, lowColumn - COARSE);
    highColumn = Math.min(column1, highColumn + COARSE);
    // Fine pass over that window: the posterior's mean and spread.
    best = Infinity;
    for (let row = lowRow; row <= highRow; row += 1) {
      for (let column = lowColumn; column <= highColumn; column += 1) {
        const index = row * columns + column;
        costs[index] = cost(index);
        if (costs[index] < best) best = costs[index];
      }
    }
    let sum = 0;
    let mx = 0;
    let my = 0;
    let mxx = 0;
    let myy = 0;
    for (let row = lowRow; row <= highRow; row += 1) {
      const y = cellY(this.grid, row);
      for (let column = lowColumn; column <= highColumn; column += 1) {
        const excess = costs[row * columns + column] - best;
        if (excess > CHI2_WINDOW) continue;
        const p = Math.exp(-excess / 2);
        const x = cellX(this.grid, column);
        sum += p;
        mx += p * x;
        my += p * y;
        mxx += p * x * x;
        myy += p * y * y;
      }
    }
    mx /= sum;
    my /= sum;
    // A cell's own extent adds cell²/12 each way.
    const variance = Math.max(0, mxx / sum - mx * mx) + Math.max(0, myy / sum - my * my) + (this.grid.cell * this.grid.cell) / 6;
    return { x: mx, y: my, spread: Math.sqrt(variance) };
  }
}

/** One scan at a reference point: the point's index, and its RSSI by transmitter key. */
export interface MapSample {
  point: number;
  readings: ReadonlyMap<string, number>;
}

/** A transmitter's Gaussian process over the points that heard it. */
interface Field {
  key: string;
  /** Point indices (of the floor's points) and, by point index, the position in this field (−1: not observed). */
  points: number[];
  local: Int32Array;
  /** Mean residual at each of its points, the readings behind it and their sum (for leaving one out). */
  y: Float64Array;
  counts: Float64Array;
  /** K⁻¹ (m × m) and α = K⁻¹y, K the kernel plus each point's noise (noiseVar / count). */
  inverse: Float64Array;
  alpha: Float64Array;
}

export interface MapBuild {
  map: RadioMap;
  /** For leave-one-out: the map without a point (and with its other scans), applied in place and undone. */
  heldOut: (point: number) => HeldOutPoint;
}

export interface HeldOutPoint {
  /** Runs `use` with the point left out of the map. */
  far<T>(use: () => T): T;
  /** Runs `use` with only `scan` (one of the point's scans) left out. */
  near<T>(scan: ReadonlyMap<string, number>, use: () => T): T;
}

/**
 * The radio map of a floor from its reference points (distinct positions `points`, their scans
 * `samples`) and the floor's calibrated transmitters (the fitted model: offsets, exponent).
 * Null when the residuals show no spatial structure worth a map (the leave-one-out choice of
 * the field's variance is 0: the model alone explains the references as well) or too few.
 */
export function buildRadioMap(
  points: ReadonlyArray<{ x: number; y: number }>,
  samples: readonly MapSample[],
  transmitters: readonly KnownTransmitter[],
  exponent: number,
  options: RadioMapOptions = DEFAULT_MAP_OPTIONS,
): MapBuild | null {
  return complete(radioMapSteps(points, samples, transmitters, exponent, options));
}

/** `buildRadioMap` in steps of a few milliseconds (steps.ts). */
export function* radioMapSteps(
  points: ReadonlyArray<{ x: number; y: number }>,
  samples: readonly MapSample[],
  transmitters: readonly KnownTransmitter[],
  exponent: number,
  options: RadioMapOptions = DEFAULT_MAP_OPTIONS,
): Steps<MapBuild | null> {
  if (points.length < 4 || transmitters.length === 0) return null;
  const byKey = new Map(transmitters.map((transmitter) => [transmitterKey(transmitter), transmitter]));
  const modelAt = (transmitter: KnownTransmitter, x: number, y: number) =>
    transmitter.referenceRssi - 10 * (transmitter.exponent ?? exponent) * Math.log10(Math.max(MIN_DISTANCE, Math.hypot(x - transmitter.x, y - transmitter.y)));

  // Residuals per transmitter and point: sums, squares and counts.
  const residuals = new Map<string, Map<number, { sum: number; squares: number; count: number }>>();
  for (const sample of samples) {
    const at = points[sample.point];
    for (const [key, rssi] of sample.readings) {
      const transmitter = byKey.get(key);
      if (!transmitter) continue;
      const residual = rssi - modelAt(transmitter, at.x, at.y);
      let byPoint = residuals.get(key);
      if (!byPoint) residuals.set(key, (byPoint = new Map()));
      const entry = byPoint.get(sample.point) ?? { sum: 0, squares: 0, count: 0 };
      entry.sum += residual;
      entry.squares += residual * residual;
      entry.count += 1;
      byPoint.set(sample.point, entry);
    }
  }
  yield;
  // One scan's noise from the repeats at a point; the residuals' total variance from everything.
  let within = 0;
  let withinDof = 0;
  let total = 0;
  let totalCount = 0;
  for (const byPoint of residuals.values()) {
    for (const entry of byPoint.values()) {
      total += entry.squares;
      totalCount += entry.count;
      if (entry.count < 2) continue;
      within += entry.squares - (entry.sum * entry.sum) / entry.count;
      withinDof += entry.count - 1;
    }
  }
  if (totalCount < 3 * points.length) return null;
  const totalVar = total / totalCount;
  // Without repeats the split between noise and field is the leave-one-out's to find.
  const noiseVars = withinDof >= 30 ? [Math.max(0.25, within / withinDof)] : [0.25, 0.5, 0.75].map((share) => share * totalVar);

  const observations = [...residuals.entries()]
    .filter(([, byPoint]) => byPoint.size >= 3)
    .map(([key, byPoint]) => {
      const transmitter = byKey.get(key)!;
      // The nearest points to the transmitter first: they say most, and the fit is cubic in their number.
      const ordered = [...byPoint.entries()]
        .sort(
          (a, b) =>
            Math.hypot(points[a[0]].x - transmitter.x, points[a[0]].y - transmitter.y) - Math.hypot(points[b[0]].x - transmitter.x, points[b[0]].y - transmitter.y) || a[0] - b[0],
        )
        .slice(0, options.maxFieldPoints);
      return {
        key,
        points: ordered.map(([point]) => point),
        y: Float64Array.from(ordered, ([, entry]) => entry.sum / entry.count),
        counts: Float64Array.from(ordered, ([, entry]) => entry.count),
      };
    })
    .sort((a, b) => b.points.length - a.points.length || (a.key < b.key ? -1 : 1));
  if (observations.length === 0) return null;
  yield;

  // Hyperparameters: the best leave-one-out predictive density over the most observed transmitters.
  const tuning = options.hyper
    ? []
    : observations.slice(0, options.tuningFields).map((observed) => ({
        points: observed.points.slice(0, options.tuningPoints),
        y: observed.y.subarray(0, options.tuningPoints),
        counts: observed.counts.subarray(0, options.tuningPoints),
      }));
  let hyper: FieldHyper | null = options.hyper ?? null;
  let bestScore = -Infinity;
  for (const noiseVar of options.hyper ? [] : noiseVars) {
    for (const share of options.signalShares) {
      for (const lengthM of share === 0 ? [options.lengths[0]] : options.lengths) {
        const candidate: FieldHyper = { lengthM, signalVar: share * totalVar, noiseVar };
        let score = 0;
        for (const observed of tuning) score += leaveOneOutDensity(points, observed, candidate);
        if (score > bestScore) {
          bestScore = score;
          hyper = candidate;
        }
        yield;
      }
    }
  }
  if (!hyper || hyper.signalVar === 0) return null;
  const chosen = hyper;

  const fields: Field[] = [];
  for (const observed of observations) {
    fields.push(gaussianProcess(points, observed, chosen));
    yield;
  }
  const grid = gridOf(points, byKey, fields.length || 1, options);
  const cells = grid.columns * grid.rows;

  // Every transmitter of the floor gets the model; those with a field, their interpolated residuals on top.
  const expected = new Map<string, Float32Array>();
  for (const [key, transmitter] of byKey) {
    if (expected.size % 16 === 15) yield;
    const values = new Float32Array(cells);
    for (let row = 0; row < grid.rows; row += 1)
      for (let column = 0; column < grid.columns; column += 1) values[row * grid.columns + column] = modelAt(transmitter, cellX(grid, column), cellY(grid, row));
    expected.set(key, values);
  }
  const cutoff = KERNEL_CUTOFF * chosen.lengthM;
  const fieldsAt = fieldsByPoint(points.length, fields);
  for (let point = 0; point < points.length; point += 1) {
    if (point % 16 === 15) yield;
    if (fieldsAt[point].length === 0) continue;
    const window = kernelAround(grid, chosen, points[point].x, points[point].y, cutoff);
    for (const field of fieldsAt[point]) {
      const values = expected.get(field.key)!;
      const weight = field.alpha[field.local[point]];
      for (let i = 0; i < window.indices.length; i += 1) values[window.indices[i]] += weight * window.values[i];
    }
  }

  // A live reading differs from the map by its own noise and by the map's error where it is (about half the far-from-a-point one).
  let farVar = 0;
  let farCount = 0;
  for (const field of fields) {
    for (let a = 0; a < field.points.length; a += 1) {
      farVar += Math.max(0, 1 / field.inverse[a * field.points.length + a] - chosen.noiseVar / field.counts[a]);
      farCount += 1;
    }
  }
  const readingVar = chosen.noiseVar + (farCount > 0 ? farVar / farCount : chosen.signalVar) / 2;
  const map = new RadioMap(grid, expected, readingVar, chosen);

  const spacing = nearestSpacing(points);
  const rings = ringOffsets(grid.cell, cutoff);
  const heldOut = (point: number): HeldOutPoint => {
    const at = points[point];
    // Leaving the point out moves each field that observed it by −(α_a / K⁻¹_aa)·w(x), w(x) = k(x)ᵀK⁻¹e_a its
    // kriging weight at x: only the column of K⁻¹ near the point matters, and w fades within a few spacings.
    const affected = fieldsAt[point].map((field) => {
      const m = field.points.length;
      const a = field.local[point];
      let largest = 0;
      for (let l = 0; l < m; l += 1) largest = Math.max(largest, Math.abs(field.inverse[l * m + a]));
      const column = new Map<number, number>();
      for (let l = 0; l < m; l += 1) if (Math.abs(field.inverse[l * m + a]) >= 1e-3 * largest) column.set(field.points[l], field.inverse[l * m + a]);
      const inverseAA = field.inverse[a * m + a];
      return { field, a, column, inverseAA, loo: field.alpha[a] / inverseAA, values: expected.get(field.key)!, weights: [] as number[], original: new Float32Array(0) };
    });
    const neighbours = [...new Set(affected.flatMap((item) => [...item.column.keys()]))];
    const columns = affected.map((item) => Float64Array.from(neighbours, (other) => item.column.get(other) ?? 0));
    const neighbourX = Float64Array.from(neighbours, (other) => points[other].x);
    const neighbourY = Float64Array.from(neighbours, (other) => points[other].y);
    const window: number[] = [];
    const kernel = new Float64Array(neighbours.length);
    const column0 = Math.floor((at.x - grid.x0) / grid.cell);
    const row0 = Math.floor((at.y - grid.y0) / grid.cell);
    let band = 0;
    let bandLargest = 0;
    for (const [dColumn, dRow, distance] of rings) {
      if (Math.floor(distance / grid.cell) > band) {
        // A whole band of cells where no field moves by more than the tolerance: nothing farther will.
        if (bandLargest < LOO_TOLERANCE_DB && distance > spacing) break;
        band = Math.floor(distance / grid.cell);
        bandLargest = 0;
      }
      const column = column0 + dColumn;
      const row = row0 + dRow;
      if (column < 0 || row < 0 || column >= grid.columns || row >= grid.rows) continue;
      const x = cellX(grid, column);
      const y = cellY(grid, row);
      for (let n = 0; n < neighbours.length; n += 1) kernel[n] = covariance(chosen, Math.hypot(x - neighbourX[n], y - neighbourY[n]));
      window.push(row * grid.columns + column);
      for (let f = 0; f < affected.length; f += 1) {
        const values = columns[f];
        let w = 0;
        for (let n = 0; n < neighbours.length; n += 1) w += kernel[n] * values[n];
        affected[f].weights.push(w);
        bandLargest = Math.max(bandLargest, Math.abs(w * affected[f].loo));
      }
    }
    for (const item of affected) item.original = Float32Array.from(window, (index) => item.values[index]);
    const run = <T>(coefficients: number[], use: () => T): T => {
      for (let f = 0; f < affected.length; f += 1) {
        const { values, weights } = affected[f];
        const c = coefficients[f];
        if (c === 0) continue;
        for (let i = 0; i < window.length; i += 1) values[window[i]] += c * weights[i];
      }
      try {
        return use();
      } finally {
        // Back to the full map exactly: recomputed from the saved copy, not by subtracting (float32).
        for (let f = 0; f < affected.length; f += 1) {
          if (coefficients[f] === 0) continue;
          const { values, original } = affected[f];
          for (let i = 0; i < window.length; i += 1) values[window[i]] = original[i];
        }
      }
    };
    return {
      far: (use) =>
        run(
          affected.map((item) => -item.loo),
          use,
        ),
      near: (scan, use) =>
        run(
          affected.map((item) => {
            const { field, a } = item;
            const count = field.counts[a];
            const heard = scan.get(field.key);
            if (heard === undefined) return 0;
            if (count < 2) return -item.loo;
            const own = heard - modelAt(byKey.get(field.key)!, at.x, at.y);
            const rest = (field.y[a] * count - own) / (count - 1);
            // The point back with its other scans: the field without it, conditioned on their mean.
            const without = field.y[a] - item.loo;
            const varianceWithout = 1 / item.inverseAA - chosen.noiseVar / count;
            const gain = (rest - without) / (item.inverseAA * (varianceWithout + chosen.noiseVar / (count - 1)));
            return gain - item.loo;
          }),
          use,
        ),
    };
  };
  return { map, heldOut };
}

/** Σ over the field's points of log N(y_a; leave-one-out mean, variance): closed form from K⁻¹. */
function leaveOneOutDensity(points: ReadonlyArray<{ x: number; y: number }>, observed: { points: number[]; y: Float64Array; counts: Float64Array }, hyper: FieldHyper): number {
  const m = observed.points.length;
  const inverse = kernelInverse(points, observed.points, observed.counts, hyper);
  if (!inverse) return -Infinity;
  let score = 0;
  for (let a = 0; a < m; a += 1) {
    let alpha = 0;
    for (let l = 0; l < m; l += 1) alpha += inverse[a * m + l] * observed.y[l];
    const variance = 1 / inverse[a * m + a];
    const error = alpha * variance;
    score += -0.5 * Math.log(variance) - (error * error) / (2 * variance);
  }
  return score;
}

function gaussianProcess(
  points: ReadonlyArray<{ x: number; y: number }>,
  observed: { key: string; points: number[]; y: Float64Array; counts: Float64Array },
  hyper: FieldHyper,
): Field {
  const m = observed.points.length;
  const inverse = kernelInverse(points, observed.points, observed.counts, hyper) ?? diagonalInverse(observed.counts, hyper);
  const alpha = new Float64Array(m);
  for (let a = 0; a < m; a += 1) {
    let sum = 0;
    for (let l = 0; l < m; l += 1) sum += inverse[a * m + l] * observed.y[l];
    alpha[a] = sum;
  }
  const local = new Int32Array(points.length).fill(-1);
  observed.points.forEach((point, a) => (local[point] = a));
  return { key: observed.key, points: observed.points, local, y: observed.y, counts: observed.counts, inverse, alpha };
}

function diagonalInverse(counts: Float64Array, hyper: FieldHyper): Float64Array {
  const m = counts.length;
  const inverse = new Float64Array(m * m);
  for (let a = 0; a < m; a += 1) inverse[a * m + a] = 1 / (hyper.signalVar + hyper.noiseVar / counts[a]);
  return inverse;
}

/** (K + noise)⁻¹ by Cholesky; null when not positive definite. */
function kernelInverse(points: ReadonlyArray<{ x: number; y: number }>, indices: readonly number[], counts: Float64Array, hyper: FieldHyper): Float64Array | null {
  const m = indices.length;
  const matrix = new Float64Array(m * m);
  for (let a = 0; a < m; a += 1) {
    const p = points[indices[a]];
    for (let b = 0; b <= a; b += 1) {
      const q = points[indices[b]];
      const value = hyper.signalVar > 0 ? covariance(hyper, Math.hypot(p.x - q.x, p.y - q.y)) : 0;
      matrix[a * m + b] = value;
      matrix[b * m + a] = value;
    }
    matrix[a * m + a] += hyper.noiseVar / counts[a];
  }
  return invertSymmetric(matrix, m);
}

/** Inverse of a symmetric positive definite matrix (row-major), by Cholesky; null when not positive definite. */
export function invertSymmetric(matrix: Float64Array, m: number): Float64Array | null {
  const l = new Float64Array(m * m);
  for (let i = 0; i < m; i += 1) {
    for (let j = 0; j <= i; j += 1) {
      let sum = matrix[i * m + j];
      for (let k = 0; k < j; k += 1) sum -= l[i * m + k] * l[j * m + k];
      if (i === j) {
        if (!(sum > 0)) return null;
        l[i * m + i] = Math.sqrt(sum);
      } else {
        l[i * m + j] = sum / l[j * m + j];
      }
    }
  }
  // L⁻¹ (lower triangular), then K⁻¹ = L⁻ᵀL⁻¹.
  const li = new Float64Array(m * m);
  for (let i = 0; i < m; i += 1) {
    li[i * m + i] = 1 / l[i * m + i];
    for (let j = 0; j < i; j += 1) {
      let sum = 0;
      for (let k = j; k < i; k += 1) sum -= l[i * m + k] * li[k * m + j];
      li[i * m + j] = sum / l[i * m + i];
    }
  }
  const inverse = new Float64Array(m * m);
  for (let i = 0; i < m; i += 1) {
    for (let j = 0; j <= i; j += 1) {
      let sum = 0;
      for (let k = i; k < m; k += 1) sum += li[k * m + i] * li[k * m + j];
      inverse[i * m + j] = sum;
      inverse[j * m + i] = sum;
    }
  }
  return inverse;
}

function fieldsByPoint(count: number, fields: readonly Field[]): Field[][] {
  const byPoint: Field[][] = Array.from({ length: count }, () => []);
  for (const field of fields) for (const point of field.points) byPoint[point].push(field);
  return byPoint;
}

/** The surveyed area (the points' bounding box and half their spacing around it) in cells. */
function gridOf(points: ReadonlyArray<{ x: number; y: number }>, transmitters: ReadonlyMap<string, KnownTransmitter>, fieldCount: number, options: RadioMapOptions): MapGrid {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const point of points) {
    minX = Math.min(minX, point.x);
    minY = Math.min(minY, point.y);
    maxX = Math.max(maxX, point.x);
    maxY = Math.max(maxY, point.y);
  }
  const margin = Math.max(1, nearestSpacing(points) / 2);
  minX -= margin;
  minY -= margin;
  maxX += margin;
  maxY += margin;
  const area = (maxX - minX) * (maxY - minY);
  const layers = Math.max(fieldCount, transmitters.size);
  const cell = Math.max(options.cellM, Math.sqrt(area / options.maxCells), Math.sqrt((area * layers) / options.maxValues));
  const columns = Math.max(1, Math.ceil((maxX - minX) / cell));
  const rows = Math.max(1, Math.ceil((maxY - minY) / cell));
  return { x0: minX, y0: minY, cell, columns, rows };
}

/** The median distance from a point to its nearest neighbour. */
function nearestSpacing(points: ReadonlyArray<{ x: number; y: number }>): number {
  const nearest = points.map((p, i) => {
    let best = Infinity;
    points.forEach((q, j) => {
      if (i !== j) best = Math.min(best, Math.hypot(p.x - q.x, p.y - q.y));
    });
    return best;
  });
  nearest.sort((a, b) => a - b);
  const median = nearest[Math.floor(nearest.length / 2)];
  return Number.isFinite(median) ? median : 0;
}

/** Cell offsets (columns, rows) within `radius` of a cell, nearest first, with their distance. */
function ringOffsets(cell: number, radius: number): Array<[number, number, number]> {
  const reach = Math.ceil(radius / cell);
  const offsets: Array<[number, number, number]> = [];
  for (let dRow = -reach; dRow <= reach; dRow += 1) {
    for (let dColumn = -reach; dColumn <= reach; dColumn += 1) {
      const distance = Math.hypot(dColumn, dRow) * cell;
      if (distance <= radius) offsets.push([dColumn, dRow, distance]);
    }
  }
  return offsets.sort((a, b) => a[2] - b[2]);
}

/** The cells whose centres lie within `radius` of (x, y), and the kernel from (x, y) to each. */
function kernelAround(grid: MapGrid, hyper: FieldHyper, x: number, y: number, radius: number): { indices: number[]; values: number[] } {
  const indices: number[] = [];
  const values: number[] = [];
  const lowColumn = Math.max(0, Math.floor((x - radius - grid.x0) / grid.cell));
  const highColumn = Math.min(grid.columns - 1, Math.floor((x + radius - grid.x0) / grid.cell));
  const lowRow = Math.max(0, Math.floor((y - radius - grid.y0) / grid.cell));
  const highRow = Math.min(grid.rows - 1, Math.floor((y + radius - grid.y0) / grid.cell));
  for (let row = lowRow; row <= highRow; row += 1) {
    for (let column = lowColumn; column <= highColumn; column += 1) {
      const distance = Math.hypot(cellX(grid, column) - x, cellY(grid, row) - y);
      if (distance > radius) continue;
      indices.push(row * grid.columns + column);
      values.push(covariance(hyper, distance));
    }
  }
  return { indices, values };
}
