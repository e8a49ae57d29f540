/**
 * The likelihood of one scan at any point of a floor, under the radio model the single-scan
 * estimator uses, plain TypeScript: what trackers and filters weigh positions with.
 *
 *   −2 log L(x, y) = Σ_heard w (rssi − μ(x, y))² + Σ_not heard −2 log P(not heard | μ(x, y))
 *
 * with μ = reference − 10 · n · log10(distance) (the floor's exponent, σ and calibrated powers),
 * the transmitters of the floors above and below through the floor (the learnt references of
 * the floor's model where it has them, else the registered power less the prior floor loss),
 * and every known transmitter not reported censored below the scan's weakest reading of its
 * kind (censoring.ts). A reading of a transmitter the floor's model does not reach (two floors
 * away) costs a constant: it says the device is not there, whatever the point of the floor.
 *
 * Per building, `ScanRadio` lays every floor's transmitters out in flat arrays once; per scan,
 * `prepare` matches the readings once and `terms(floorId, region)` keeps, of the transmitters
 * not heard, those that can matter in a region (one distance test each, no logarithm): a
 * position costs one logarithm per term.
 */
import { censoredTerm, CENSORED_REACH_SIGMAS, censoringThreshold, MISS_PROBABILITY } from './censoring';
import { MIN_DISTANCE } from './position-fit';
import { DEFAULT_ESTIMATOR_OPTIONS, EstimatorOptions, ScanReading, TransmitterIndex } from './scan-estimator';
import { KnownTransmitter, transmitterKey, TransmitterKind } from './transmitter';

export interface LikelihoodOptions {
  /** Exponent and σ where a transmitter's floor has none, and the valid RSSI range: the estimator's. */
  estimator: EstimatorOptions;
  /** The chance that a transmitter loud enough is not reported anyway. */
  missProbability: number;
  /** −2 log L of a reading the floor's model cannot explain (a transmitter two floors away or more): about a 4σ misfit. */
  unmodelledCost: number;
  /** Loss through a floor (dB) where the floor's model has not learnt the transmitters above and below. */
  floorLossDb: number;
}

export const DEFAULT_LIKELIHOOD_OPTIONS: LikelihoodOptions = { estimator: DEFAULT_ESTIMATOR_OPTIONS, missProbability: MISS_PROBABILITY, unmodelledCost: 16, floorLossDb: 15 };

const KINDS: readonly TransmitterKind[] = ['ble', 'wifi'];
const LN10 = Math.LN10;
const MIN_D2 = MIN_DISTANCE * MIN_DISTANCE;

/** The transmitters one floor's model sees (its own, and those of the floors above and below), flat. */
class FloorRadio {
  readonly count: number;
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly reference: Float64Array;
  /** 10 n / ln 10: μ = reference − k · ln(distance). */
  readonly k: Float64Array;
  readonly sigma: Float64Array;
  readonly dz2: Float64Array;
  readonly kind: Uint8Array;
  /** Slot of each building transmitter (by its number in `ScanRadio`), −1 where this floor's model does not see it. */
  readonly slotOf: Int32Array;
  /** Per kind: the loudest reference, the smallest k and the largest σ: a radius beyond which no transmitter of the kind matters. */
  readonly loudest = [-Infinity, -Infinity];
  readonly smallestK = [Infinity, Infinity];
  readonly largestSigma = [0, 0];
  /** Scratch of `terms`: the call that last heard each slot. */
  readonly heardAt: Int32Array;
  stamp = 0;

  constructor(
    entries: ReadonlyArray<{ number: number; x: number; y: number; reference: number; n: number; sigma: number; dz2: number; kind: TransmitterKind }>,
    transmitters: number,
  ) {
    this.count = entries.length;
    this.x = new Float64Array(this.count);
    this.y = new Float64Array(this.count);
    this.reference = new Float64Array(this.count);
    this.k = new Float64Array(this.count);
    this.sigma = new Float64Array(this.count);
    this.dz2 = new Float64Array(this.count);
    this.kind = new Uint8Array(this.count);
    this.slotOf = new Int32Array(transmitters).fill(-1);
    this.heardAt = new Int32Array(this.count);
    entries.forEach((entry, slot) => {
      const kind = entry.kind === 'ble' ? 0 : 1;
      this.x[slot] = entry.x;
      this.y[slot] = entry.y;
      this.reference[slot] = entry.reference;
      this.k[slot] = (10 * entry.n) / LN10;
      this.sigma[slot] = entry.sigma;
      this.dz2[slot] = entry.dz2;
      this.kind[slot] = kind;
      this.slotOf[entry.number] = slot;
      this.loudest[kind] = Math.max(this.loudest[kind], entry.reference);
      this.smallestK[kind] = Math.min(this.smallestK[kind], this.k[slot]);
      this.largestSigma[kind] = Math.max(this.largestSigma[kind], entry.sigma);
    });
  }
}

/** One scan's readings matched to the building's transmitters: the strongest per transmitter and the thresholds of the transmitters not heard. */
export interface PreparedScan {
  /** Building transmitter numbers heard, and their strongest RSSI. */
  heard: Int32Array;
  rssi: Float64Array;
  /** Per kind (ble, wifi): the weakest reading less the rounding; Infinity where the scan has none of the kind (not censored). */
  thresholds: [number, number];
  /** Readings that matched no known transmitter. */
  unknown: number;
}

/** Where the transmitters not heard are looked at: a disc around a point (radius Infinity: everywhere). */
export interface Region {
  x: number;
  y: number;
  radius: number;
}

/** The radio model of one building, laid out for likelihoods: built once per building. */
export class ScanRadio {
  private readonly numberOf = new Map<string, number>();
  private readonly kinds: TransmitterKind[] = [];
  private readonly floors = new Map<number, FloorRadio>();
  /** Scratch of `prepare`: the position of each transmitter in the scan's list, −1 when not heard. */
  private readonly inScan: Int32Array;

  constructor(
    private readonly index: TransmitterIndex,
    readonly options: LikelihoodOptions = DEFAULT_LIKELIHOOD_OPTIONS,
  ) {
    for (const transmitter of index.all()) {
      this.numberOf.set(transmitter.key, this.kinds.length);
      this.kinds.push(transmitter.kind);
    }
    this.inScan = new Int32Array(this.kinds.length).fill(-1);
  }

  /** The transmitters floor `floorId`'s model sees, laid out on first use. */
  floor(floorId: number): FloorRadio {
    let floor = this.floors.get(floorId);
    if (!floor) {
      floor = this.layOut(floorId);
      this.floors.set(floorId, floor);
    }
    return floor;
  }

  private layOut(floorId: number): FloorRadio {
    const { estimator } = this.options;
    const entries: Array<{ number: number; x: number; y: number; reference: number; n: number; sigma: number; dz2: number; kind: TransmitterKind }> = [];
    const own = this.index.onFloor(floorId);
    const numberOf = (transmitter: KnownTransmitter) => this.numberOf.get(transmitter.key)!;
    for (const transmitter of own) {
      entries.push({
        number: numberOf(transmitter),
        x: transmitter.x,
        y: transmitter.y,
        reference: transmitter.referenceRssi,
        n: transmitter.exponent ?? estimator.pathLossExponent,
        sigma: transmitter.shadowingDb ?? estimator.shadowingDb[transmitter.kind],
        dz2: 0,
        kind: transmitter.kind,
      });
    }
    const learnt = this.index.floor(floorId)?.adjacent;
    const first = own[0];
    for (const { transmitter, lossDb, dz2 } of this.index.adjacent(floorId)) {
      const item = learnt?.get(transmitterKey(transmitter));
      if (item) {
        entries.push({ number: numberOf(transmitter), x: item.x, y: item.y, reference: item.reference, n: item.exponent, sigma: item.shadowingDb, dz2: item.dz2, kind: item.kind });
      } else if (!learnt) {
        // No learnt model through the floor: the registered power less the prior loss, with this floor's exponent and σ.
        const loss = Number.isFinite(lossDb) ? Math.max(lossDb, this.options.floorLossDb) : this.options.floorLossDb;
        entries.push({
          number: numberOf(transmitter),
          x: transmitter.x,
          y: transmitter.y,
          reference: transmitter.referenceRssi - loss,
          n: first?.exponent ?? transmitter.exponent ?? estimator.pathLossExponent,
          sigma: (first?.kind === transmitter.kind ? first.shadowingDb : undefined) ?? transmitter.shadowingDb ?? estimator.shadowingDb[transmitter.kind],
          dz2,
          kind: transmitter.kind,
        });
      }
    }
    return new FloorRadio(entries, this.kinds.length);
  }

  /** Matches a scan's readings to the building's transmitters (the strongest per transmitter) and finds its censoring thresholds. */
  prepare(readings: readonly ScanReading[]): PreparedScan {
    const [low, high] = this.options.estimator.rssiRange;
    const weakest = [Infinity, Infinity];
    const numbers: number[] = [];
    const values: number[] = [];
    let unknown = 0;
    for (const reading of readings) {
      if (!(reading.rssi >= low && reading.rssi <= high)) continue;
      if (reading.kind === 'ble') weakest[0] = Math.min(weakest[0], reading.rssi);
      else if (reading.kind === 'wifi') weakest[1] = Math.min(weakest[1], reading.rssi);
      const number = this.numberOf.get(reading.key);
      if (number === undefined || this.kinds[number] !== reading.kind) {
        unknown += 1;
        continue;
      }
      const at = this.inScan[number];
      if (at >= 0) {
        if (reading.rssi > values[at]) values[at] = reading.rssi;
        continue;
      }
      this.inScan[number] = numbers.length;
      numbers.push(number);
      values.push(reading.rssi);
    }
    for (const number of numbers) this.inScan[number] = -1;
    const thresholds: [number, number] = [
      weakest[0] === Infinity ? Infinity : censoringThreshold([{ rssi: weakest[0] }]),
      weakest[1] === Infinity ? Infinity : censoringThreshold([{ rssi: weakest[1] }]),
    ];
    return { heard: Int32Array.from(numbers), rssi: Float64Array.from(values), thresholds, unknown };
  }

  /**
   * The terms of a prepared scan on one floor: every reading the floor's model sees, and the
   * transmitters not heard that can weigh anywhere within `region` (beyond it, each is
   * expected more than 3σ below its threshold, where a censored term is worth nothing).
   * `into`: terms to reuse (cleared), for callers that place many scans.
   */
  terms(scan: PreparedScan, floorId: number, region: Region = { x: 0, y: 0, radius: Infinity }, into?: ScanTerms): ScanTerms {
    const floor = this.floor(floorId);
    const terms = into ? into.clear() : new ScanTerms(this.options.missProbability);
    let unmodelled = 0;
    // Marks the floor's transmitters heard (a stamp per call: no clearing).
    const stamp = (floor.stamp += 1);
    for (let i = 0; i < scan.heard.length; i += 1) {
      const slot = floor.slotOf[scan.heard[i]];
      if (slot < 0) {
        unmodelled += 1;
        continue;
      }
      floor.heardAt[slot] = stamp;
      terms.add(floor.x[slot], floor.y[slot], floor.reference[slot], floor.k[slot], scan.rssi[i], floor.sigma[slot], floor.dz2[slot], false);
    }
    terms.constant = unmodelled * this.options.unmodelledCost;
    terms.unmodelled = unmodelled;
    // Per kind, a radius beyond which even the floor's loudest transmitter is expected 3σ below the threshold.
    const reach = [0, 1].map((kind) => {
      const threshold = scan.thresholds[kind];
      if (threshold === Infinity || floor.loudest[kind] === -Infinity) return -1;
      const distance = Math.exp((floor.loudest[kind] - threshold + CENSORED_REACH_SIGMAS * floor.largestSigma[kind]) / floor.smallestK[kind]);
      return distance + region.radius;
    });
    // Transmitters not heard far beyond the region change slowly across it: their sum enters as
    // one quadratic about the region's centre (its Gauss–Newton form), computed once.
    const far = Number.isFinite(region.radius) ? Math.max(FAR_MIN_M, FAR_PER_RADIUS * region.radius) : Infinity;
    const far2 = far * far;
    terms.centre(region.x, region.y);
    for (let slot = 0; slot < floor.count; slot += 1) {
      const kind = floor.kind[slot];
      const radius = reach[kind];
      if (radius < 0 || floor.heardAt[slot] === stamp) continue;
      const dx = floor.x[slot] - region.x;
      const dy = floor.y[slot] - region.y;
      const planar2 = dx * dx + dy * dy;
      if (planar2 > radius * radius) continue;
      if (planar2 > far2) terms.addFar(floor.x[slot], floor.y[slot], floor.reference[slot], floor.k[slot], scan.thresholds[kind], floor.sigma[slot], floor.dz2[slot]);
      else terms.add(floor.x[slot], floor.y[slot], floor.reference[slot], floor.k[slot], scan.thresholds[kind], floor.sigma[slot], floor.dz2[slot], true);
    }
    return terms;
  }

  /** The kinds of transmitter, in the order of the thresholds. */
  static readonly kinds = KINDS;
}

/** The Gauss–Newton view of −½ · (−2 log L) at a point: cost, gradient and curvature. */
export interface NormalEquations {
  /** −2 log L (up to a constant common to every point of the floor). */
  cost: number;
  /** Its heard readings' share: their χ². */
  heardCost: number;
  /** Gradient of cost/2 in (x, y). */
  gx: number;
  gy: number;
  /** Gauss–Newton Hessian of cost/2 (the information the scan gives): never negative. */
  hxx: number;
  hxy: number;
  hyy: number;
}

const STRIDE = 8;
/** Transmitters not heard beyond this many region radii (and at least this many metres) from its centre enter as one quadratic. */
const FAR_PER_RADIUS = 3;
const FAR_MIN_M = 15;

/** The terms of one scan on one floor: −2 log L anywhere, and its normal equations. */
export class ScanTerms {
  private data = new Float64Array(32 * STRIDE);
  count = 0;
  heard = 0;
  /** −2 log L of the readings the floor's model does not see: the same at every point of the floor. */
  constant = 0;
  unmodelled = 0;

  /** The far censored terms' quadratic about (fx, fy): cost, gradient and curvature of cost/2. */
  private fx = 0;
  private fy = 0;
  private farCost = 0;
  private farGx = 0;
  private farGy = 0;
  private farHxx = 0;
  private farHxy = 0;
  private farHyy = 0;
  far = 0;

  constructor(private readonly missProbability: number) {}

  /** Empties the terms for another scan or floor (the same miss probability). */
  clear(): this {
    this.count = 0;
    this.heard = 0;
    this.constant = 0;
    this.unmodelled = 0;
    this.farCost = 0;
    this.farGx = 0;
    this.farGy = 0;
    this.farHxx = 0;
    this.farHxy = 0;
    this.farHyy = 0;
    this.far = 0;
    return this;
  }

  /** Where the far terms are expanded. */
  centre(x: number, y: number): void {
    this.fx = x;
    this.fy = y;
  }

  /** A transmitter not heard, far from the centre: its term enters the quadratic. */
  addFar(x: number, y: number, reference: number, k: number, threshold: number, sigma: number, dz2: number): void {
    const dx = this.fx - x;
    const dy = this.fy - y;
    const d2 = Math.max(MIN_D2, dx * dx + dy * dy + dz2);
    const z = (threshold - (reference - 0.5 * k * Math.log(d2))) / sigma;
    const term = censoredTerm(z, this.missProbability);
    if (term.cost === 0 && term.lambda === 0) return;
    const scale = k / sigma / d2;
    const jx = scale * dx;
    const jy = scale * dy;
    this.farCost += term.cost;
    this.farGx -= jx * term.lambda;
    this.farGy -= jy * term.lambda;
    this.farHxx += term.curvature * jx * jx;
    this.farHxy += term.curvature * jx * jy;
    this.farHyy += term.curvature * jy * jy;
    this.far += 1;
  }

  /** The far terms' cost at (x, y). */
  private farAt(x: number, y: number): number {
    const dx = x - this.fx;
    const dy = y - this.fy;
    return this.farCost + 2 * (this.farGx * dx + this.farGy * dy) + this.farHxx * dx * dx + 2 * this.farHxy * dx * dy + this.farHyy * dy * dy;
  }

  add(x: number, y: number, reference: number, k: number, rssi: number, sigma: number, dz2: number, censored: boolean): void {
    if ((this.count + 1) * STRIDE > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const at = this.count * STRIDE;
    const data = this.data;
    data[at] = x;
    data[at + 1] = y;
    data[at + 2] = reference;
    data[at + 3] = k;
    data[at + 4] = rssi;
    data[at + 5] = 1 / sigma;
    data[at + 6] = dz2;
    data[at + 7] = censored ? 1 : 0;
    this.count += 1;
    if (!censored) this.heard += 1;
  }

  /** −2 log L at (x, y). */
  cost(x: number, y: number): number {
    const data = this.data;
    const p = this.missProbability;
    let cost = this.constant + (this.far > 0 ? this.farAt(x, y) : 0);
    for (let at = 0, end = this.count * STRIDE; at < end; at += STRIDE) {
      const dx = x - data[at];
      const dy = y - data[at + 1];
      const d2 = Math.max(MIN_D2, dx * dx + dy * dy + data[at + 6]);
      const z = (data[at + 4] - (data[at + 2] - 0.5 * data[at + 3] * Math.log(d2))) * data[at + 5];
      cost += data[at + 7] === 1 ? censoredTerm(z, p).cost : z * z;
    }
    return cost;
  }

  /** Cost, gradient and Gauss–Newton curvature at (x, y), into `out`. */
  normal(x: number, y: number, out: NormalEquations): NormalEquations {
    const data = this.data;
    const p = this.missProbability;
    let heardCost = 0;
    let cost = this.constant;
    let gx = 0;
    let gy = 0;
    let hxx = 0;
    let hxy = 0;
    let hyy = 0;
    for (let at = 0, end = this.count * STRIDE; at < end; at += STRIDE) {
      const dx = x - data[at];
      const dy = y - data[at + 1];
      const d2 = Math.max(MIN_D2, dx * dx + dy * dy + data[at + 6]);
      const inverseSigma = data[at + 5];
      const z = (data[at + 4] - (data[at + 2] - 0.5 * data[at + 3] * Math.log(d2))) * inverseSigma;
      // d z / d(x, y) = k · (dx, dy) / d² / σ (clamped at the minimum distance: no slope).
      const scale = d2 === MIN_D2 ? 0 : (data[at + 3] * inverseSigma) / d2;
      const jx = scale * dx;
      const jy = scale * dy;
      let slope: number;
      let weight: number;
      if (data[at + 7] === 1) {
        const term = censoredTerm(z, p);
        cost += term.cost;
        if (term.lambda === 0) continue;
        slope = -term.lambda;
        weight = term.curvature;
      } else {
        heardCost += z * z;
        slope = z;
        weight = 1;
      }
      gx += jx * slope;
      gy += jy * slope;
      hxx += weight * jx * jx;
      hxy += weight * jx * jy;
      hyy += weight * jy * jy;
    }
    if (this.far > 0) {
      const dx = x - this.fx;
      const dy = y - this.fy;
      cost += this.farAt(x, y);
      gx += this.farGx + this.farHxx * dx + this.farHxy * dy;
      gy += this.farGy + this.farHxy * dx + this.farHyy * dy;
      hxx += this.farHxx;
      hxy += this.farHxy;
      hyy += this.farHyy;
    }
    out.cost = cost + heardCost;
    out.heardCost = heardCost;
    out.gx = gx;
    out.gy = gy;
    out.hxx = hxx;
    out.hxy = hxy;
    out.hyy = hyy;
    return out;
  }
}

const radios = new WeakMap<TransmitterIndex, WeakMap<LikelihoodOptions, ScanRadio>>();

/** The building's laid-out radio model for an index, built once per (index, options). */
export function scanRadio(index: TransmitterIndex, options: LikelihoodOptions = DEFAULT_LIKELIHOOD_OPTIONS): ScanRadio {
  let byOptions = radios.get(index);
  if (!byOptions) {
    byOptions = new WeakMap();
    radios.set(index, byOptions);
  }
  let radio = byOptions.get(options);
  if (!radio) {
    radio = new ScanRadio(index, options);
    byOptions.set(options, radio);
  }
  return radio;
}

/** log L(x, y) of a scan's readings on a floor, every transmitter not heard counted (up to a constant of the scan). */
export function scanLikelihood(
  index: TransmitterIndex,
  floorId: number,
  readings: readonly ScanReading[],
  options: LikelihoodOptions = DEFAULT_LIKELIHOOD_OPTIONS,
): (x: number, y: number) => number {
  const radio = scanRadio(index, options);
  const terms = radio.terms(radio.prepare(readings), floorId);
  return (x, y) => -0.5 * terms.cost(x, y);
}
