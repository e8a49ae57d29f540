/**
 * The server's tracker of one device (issue 37), plain TypeScript: a Gaussian filter of
 * (x, y, vx, vy) on a floor, one scan at a time, whose state is a short string.
 *
 * Each step
 * 1. predicts the Gaussian with a pedestrian motion model: each axis's velocity a random walk
 *    pulled back to rest (Ornstein–Uhlenbeck: walking, turning, pausing), the position its
 *    integral, in closed form for any interval; at a junction of the paths graph the velocity
 *    gains spread (a walker may turn there);
 * 2. updates the position with the scan's likelihood under the radio model, every transmitter
 *    not heard included (estimator/scan-likelihood.ts): the posterior's mode by Gauss–Newton
 *    from the prediction (and from the single-scan estimate where that explains the scan
 *    better), its covariance from the curvature there (Laplace); the velocity follows through
 *    its correlation with the position;
 * 3. keeps the posterior to where people are: a dozen or so draws from it (a fixed spiral of
 *    points, turned by the step's seed) weighed by the floor's rectangle and, where the floor
 *    has a paths graph, by the distance to its links (walkable within about a metre), and, for
 *    the likelier motion mode, by the scan's likelihood there over the quadratic the Laplace fit
 *    took it for; refitted as a Gaussian (Kotecha & Djurić's Gaussian particle filter, its
 *    proposal the Laplace fit);
 * 4. changes floor only near a floor change node of the graph (stairs, lifts, escalators), where
 *    the other floor's Laplace evidence beats this one's with the prior odds of a change; with no
 *    graph, on strong evidence or a better one for several scans in a row;
 * 5. starts afresh from the single-scan estimate on the first scan, after a silence, in another
 *    building, or when the scan contradicts the track (the estimate far outside the predicted
 *    spread and explaining the scan far better).
 * The state: floor, time, mean, the Cholesky factor of the covariance and three counters, as a
 * JSON array of rounded numbers (about 150 bytes), so it round-trips exactly.
 */
import type { TransmitterIndex } from '../estimator/scan-estimator';
import { DEFAULT_LIKELIHOOD_OPTIONS, LikelihoodOptions, NormalEquations, PreparedScan, scanRadio, ScanRadio, ScanTerms } from '../estimator/scan-likelihood';
import { hashSeed, seededRandom } from './seeded-random';
import { DEFAULT_TRACKER_OPTIONS, TrackerObservation, TrackerOptions, TrackerSpace, TrackStep } from './tracker-contract';
import { WalkableSpace } from './walkable';

const STATE_VERSION = 2;
/** 68 % radius of a circular 2-D Gaussian over √(trace): exact when circular, conservative when elongated. */
const RADIUS_68_PER_ROOT_TRACE = 1.0675;
/** The 68 % radius over the sd of one axis, circular. */
const RADIUS_68_PER_SD = 1.5096;
/** The draws come from the fitted posterior widened by this much: the constraints cut its tails. */
const PROPOSAL_WIDTH = 1.5;
const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/** A Gaussian of the position alone: mean and covariance (xx, xy, yy). */
interface Position {
  x: number;
  y: number;
  sxx: number;
  sxy: number;
  syy: number;
}

interface State {
  floorId: number;
  time: number;
  /** The probability that the device is at rest. */
  still: number;
  /** Walking: x, y, vx, vy, and its row-major 4 × 4 covariance. */
  mean: Float64Array;
  covariance: Float64Array;
  /** At rest: the position. */
  rest: Position;
  /** Consecutive scans whose single-scan floor differed, and that floor. */
  votes: number;
  voteFloor: number;
  /** What the scans held against the track, summed with a fading memory (−2 log L beyond the slack). */
  excess: number;
  /** A second place the scans may point to (a false track's rival: the other side of a beacon's ring), and how much better it has explained them; null where there is none. */
  rival: { x: number; y: number; gain: number } | null;
  buildingId: number | null;
}

/** A Laplace fit of the position on one floor. */
interface Hypothesis {
  floorId: number;
  x: number;
  y: number;
  /** Posterior covariance of the position (xx, xy, yy). */
  sxx: number;
  sxy: number;
  syy: number;
  /** −2 log L of the scan at the mode, and at the single-scan estimate (NaN where that is on another floor). */
  cost: number;
  rawCost: number;
  /** −2 log of the posterior's peak (likelihood and prior). */
  total: number;
  /** log ∫ prior · L, up to a constant common to every floor. */
  evidence: number;
  /** The scan's likelihood about the mode, as −log L ≈ g·δ + ½ δᵀHδ: what each motion mode's update uses. */
  gx: number;
  gy: number;
  hxx: number;
  hxy: number;
  hyy: number;
  /** The prior it was fitted from: 4-vector and 4 × 4 covariance. */
  mean: Float64Array;
  covariance: Float64Array;
}

export class Tracker {
  private readonly options: TrackerOptions;
  private readonly radio: ScanRadio;
  private readonly walkable: WalkableSpace;
  /** The unit spiral of draws (x, y pairs) and the weights that undo the proposal's widening. */
  private readonly spiral: Float64Array;
  private readonly spiralWeight: Float64Array;
  private readonly normal: NormalEquations = { cost: 0, heardCost: 0, gx: 0, gy: 0, hxx: 0, hxy: 0, hyy: 0 };
  private readonly candidate: NormalEquations = { cost: 0, heardCost: 0, gx: 0, gy: 0, hxx: 0, hxy: 0, hyy: 0 };
  private readonly termsByFloor = new Map<number, ScanTerms>();
  private readonly kept: NormalEquations = { cost: 0, heardCost: 0, gx: 0, gy: 0, hxx: 0, hxy: 0, hyy: 0 };

  constructor(
    index: TransmitterIndex,
    private readonly space: TrackerSpace,
    options: Partial<TrackerOptions> = {},
    likelihood: LikelihoodOptions = DEFAULT_LIKELIHOOD_OPTIONS,
  ) {
    this.options = { ...DEFAULT_TRACKER_OPTIONS, ...options };
    this.radio = scanRadio(index, likelihood);
    this.walkable = new WalkableSpace(space, this.options.pathWidthM + 4 * this.options.pathSoftnessM);
    const count = Math.max(0, Math.round(this.options.particles));
    this.spiral = new Float64Array(2 * count);
    this.spiralWeight = new Float64Array(count);
    for (let i = 0; i < count; i += 1) {
      // Radii at the quantiles of a 2-D standard normal's radius, angles on the golden spiral.
      const radius = Math.sqrt(-2 * Math.log(1 - (i + 0.5) / count));
      this.spiral[2 * i] = radius * Math.cos(i * GOLDEN_ANGLE);
      this.spiral[2 * i + 1] = radius * Math.sin(i * GOLDEN_ANGLE);
      this.spiralWeight[i] = Math.exp(-0.5 * (PROPOSAL_WIDTH * PROPOSAL_WIDTH - 1) * radius * radius);
    }
  }

  /**
   * One scan of a device: the tracked position and the state to keep, or null when the scan is
   * not newer than the state (a late scan: the track stays as it is). Deterministic in
   * (state, observation, seed).
   */
  step(stateText: string | null, observation: TrackerObservation, seed: string | number): TrackStep | null {
    const previous = stateText === null ? null : decodeState(stateText);
    const buildingId = this.space.buildingId ?? null;
    if (!previous) return this.start(observation, 'first');
    if (previous.buildingId !== buildingId || !this.space.floors.has(previous.floorId)) return this.start(observation, 'building');
    if (!(observation.time > previous.time)) return null;
    if (observation.time - previous.time > this.options.resetAfterMs) return this.start(observation, 'silence');

    const prior = this.predict(previous, (observation.time - previous.time) / 1000);
    const { mean, covariance } = prior.combined;
    const scan = this.radio.prepare(observation.readings);
    const { raw } = observation;
    const far = raw.floorId === previous.floorId && Math.hypot(raw.x - mean[0], raw.y - mean[1]) > RIVAL_M;
    const here = this.fit(previous.floorId, mean, covariance, scan, raw, previous.rival ?? (far ? raw : undefined));
    let best = here;

    // Another floor: near the graph's floor changes, or (with none on this floor) where the single-scan estimate says so.
    let votes = 0;
    let voteFloor = previous.floorId;
    const changes = this.walkable.changesFrom(previous.floorId);
    if (raw.floorId !== previous.floorId) {
      votes = previous.voteFloor === raw.floorId ? previous.votes + 1 : 1;
      voteFloor = raw.floorId;
    }
    if (changes.length > 0) {
      const reach = this.options.floorChangeRadiusM + 2 * Math.sqrt(covariance[0] + covariance[5]);
      const nearest = new Map<number, { distance: number; toX: number; toY: number }>();
      for (const change of changes) {
        const distance = Math.hypot(change.x - mean[0], change.y - mean[1]);
        if (distance > reach || !this.space.floors.has(change.toFloorId)) continue;
        const known = nearest.get(change.toFloorId);
        if (!known || distance < known.distance) nearest.set(change.toFloorId, { distance, toX: change.toX, toY: change.toY });
      }
      for (const [floorId, change] of nearest) {
        const shifted = mean.slice();
        shifted[0] = change.toX;
        shifted[1] = change.toY;
        const widened = covariance.slice();
        widened[0] += 4;
        widened[5] += 4;
        const other = this.fit(floorId, shifted, widened, scan, raw);
        if (other.evidence + this.options.floorChangeLogPrior > best.evidence) best = other;
      }
    }
    if (raw.floorId !== best.floorId && this.space.floors.has(raw.floorId) && (changes.length === 0 || votes >= 2 * this.options.floorVotes)) {
      const widened = covariance.slice();
      widened[0] += 1;
      widened[5] += 1;
      const other = this.fit(raw.floorId, mean, widened, scan, raw);
      const gain = other.evidence - best.evidence;
      if (changes.length > 0) {
        // A graph that offers no way there: only overwhelming, lasting evidence starts the track over.
        if (gain > 2 * this.options.strongFloorEvidence) return this.start(observation, 'contradiction');
      } else if (gain > this.options.strongFloorEvidence || (votes >= this.options.floorVotes && gain > 0)) {
        best = other;
      }
    }
    if (best.floorId !== previous.floorId) {
      votes = 0;
      voteFloor = best.floorId;
    }

    // A contradiction: the single-scan estimate explaining the scan far better than the track,
    // at once (and far outside the predicted spread) or scan after scan (a cumulative sum of
    // the excess beyond what a right track shows: a track caught in a wrong place).
    let excess = previous.excess * this.options.contradictionMemory;
    if (raw.floorId === best.floorId) {
      const gain = best.cost - best.rawCost;
      excess = Math.max(0, excess + gain - this.options.contradictionSlack);
      if (gain > this.options.contradictionCost) {
        const spread = (raw.accuracy / RADIUS_68_PER_SD) ** 2;
        const distance2 = mahalanobis2(raw.x - best.mean[0], raw.y - best.mean[1], best.covariance[0] + spread, best.covariance[1], best.covariance[5] + spread);
        if (distance2 > this.options.contradictionSds ** 2) return this.start(observation, 'contradiction');
      }
      if (excess > this.options.contradictionCost) return this.start(observation, 'contradiction');
    }

    // A rival, while the device is most likely at rest (where a wrong place would last): started
    // where the single-scan estimate lies far off and explains the scan better,
    // it follows its own basin of the likelihood (a Gauss–Newton descent from where it was, held
    // loosely there); where it explains the scans better scan after scan the track moves there,
    // where it joins the track or explains a scan clearly worse it is dropped.
    let rival: State['rival'] = null;
    if (best === here && this.options.rivals && prior.still > 0.5) {
      const terms = this.termsByFloor.get(here.floorId)!;
      const from = previous.rival ?? (far && here.rawCost < here.cost ? { x: raw.x, y: raw.y, gain: 0 } : null);
      if (from) {
        const spread = RIVAL_SPREAD_M * RIVAL_SPREAD_M;
        const found = this.descend(terms, from.x, from.y, Float64Array.of(from.x, from.y), 1 / spread, 0, 1 / spread);
        const cost = this.normal.cost;
        const margin = here.cost - cost;
        const gain = Math.max(0, from.gain * this.options.contradictionMemory + margin - this.options.rivalSlack);
        const x = clamp(found.x, 0, this.space.width);
        const y = clamp(found.y, 0, this.space.length);
        if (gain > this.options.rivalCost) {
          const information = this.normal.hxx + this.normal.hyy;
          const accuracy = Math.max(this.options.minAccuracy, RADIUS_68_PER_ROOT_TRACE * Math.sqrt(4 / Math.max(1e-6, information)));
          return this.start({ ...observation, raw: { ...raw, x, y, accuracy } }, 'contradiction');
        }
        if (Math.hypot(x - here.x, y - here.y) > RIVAL_M / 2 && margin > -this.options.contradictionSlack) rival = { x, y, gain };
      }
    }

    // Each motion mode updated with the scan's likelihood about the mode of the fit, and weighed by how well it predicted it.
    let still = prior.still;
    let rest: Position;
    let walking: Position;
    let walkingPrior: { mean: Float64Array; covariance: Float64Array };
    if (best === here) {
      const atRest = update(prior.rest, best);
      const moving = update(positionOf(prior.moving), best);
      const odds = Math.log(prior.still / (1 - prior.still)) + atRest.evidence - moving.evidence;
      still = clamp(1 / (1 + Math.exp(-clamp(odds, -30, 30))), MIN_MODE, 1 - MIN_MODE);
      rest = atRest.position;
      walking = moving.position;
      walkingPrior = prior.moving;
    } else {
      // A change of floor: both modes start from the other floor's fit.
      rest = { x: best.x, y: best.y, sxx: best.sxx, sxy: best.sxy, syy: best.syy };
      walking = rest;
      walkingPrior = { mean: best.mean, covariance: best.covariance };
    }
    // A mode of little weight is only clamped to the floor: it matters where it gains weight, and then it is kept again.
    const weighed = this.options.likelihoodDraws;
    rest = still > NEGLIGIBLE_MODE ? this.constrain(best.floorId, rest, seed, 0, weighed === 2 || (weighed === 1 && still >= 0.5) ? best : undefined) : this.clampTo(rest);
    walking =
      still < 1 - NEGLIGIBLE_MODE ? this.constrain(best.floorId, walking, seed, 1, weighed === 2 || (weighed === 1 && still < 0.5) ? best : undefined) : this.clampTo(walking);
    const moving = joint(walkingPrior, walking);
    // On a link, walking goes along it: its velocity across the link is about 0.
    const along = this.options.acrossPathSpeedSd > 0 ? this.walkable.direction(best.floorId, walking.x, walking.y, this.options.pathWidthM) : null;
    if (along) observeAcross(moving, along, this.options.acrossPathSpeedSd);
    const state: State = {
      floorId: best.floorId,
      time: observation.time,
      still,
      mean: moving.mean,
      covariance: moving.covariance,
      rest,
      votes,
      voteFloor,
      excess,
      rival,
      buildingId,
    };
    const encoded = encodeState(state);
    const fix = mixture(still, rest, walking);
    const accuracy = Math.max(this.options.minAccuracy, this.options.accuracyScale * RADIUS_68_PER_ROOT_TRACE * Math.sqrt(fix.sxx + fix.syy));
    return { floorId: best.floorId, x: clamp(fix.x, 0, this.space.width), y: clamp(fix.y, 0, this.space.length), accuracy, started: null, state: encoded };
  }

  /** A new track at the single-scan estimate, as wide as its accuracy, at rest or walking alike. */
  private start(observation: TrackerObservation, started: NonNullable<TrackStep['started']>): TrackStep {
    const { raw } = observation;
    const x = clamp(raw.x, 0, this.space.width);
    const y = clamp(raw.y, 0, this.space.length);
    const sd = Math.max(0.1, raw.accuracy / RADIUS_68_PER_SD);
    const covariance = new Float64Array(16);
    covariance[0] = sd * sd;
    covariance[5] = sd * sd;
    covariance[10] = this.options.speedSd ** 2;
    covariance[15] = this.options.speedSd ** 2;
    const rest = { x, y, sxx: sd * sd, sxy: 0, syy: sd * sd };
    const state: State = {
      floorId: raw.floorId,
      time: observation.time,
      still: 0.5,
      mean: Float64Array.of(x, y, 0, 0),
      covariance,
      rest,
      votes: 0,
      voteFloor: raw.floorId,
      excess: 0,
      rival: null,
      buildingId: this.space.buildingId ?? null,
    };
    return { floorId: raw.floorId, x, y, accuracy: raw.accuracy, started, state: encodeState(state) };
  }

  /**
   * The state `dt` seconds later. The modes first mix (interacting multiple models): one at rest
   * may start walking, one walking may stop, at the options' rates. Then at rest the position
   * barely drifts; walking, each axis's (position, velocity) is an integrated Ornstein–Uhlenbeck
   * process. `combined` is the mixture of both as one Gaussian: what the scan's fit starts from.
   */
  private predict(
    state: State,
    dt: number,
  ): { still: number; rest: Position; moving: { mean: Float64Array; covariance: Float64Array }; combined: { mean: Float64Array; covariance: Float64Array } } {
    const { speedSd, velocityMemoryS, pauseAfterS, resumeAfterS, restDriftM2PerS } = this.options;
    const stop = 1 - Math.exp(-dt / pauseAfterS);
    const go = 1 - Math.exp(-dt / resumeAfterS);
    const still = state.still * (1 - go) + (1 - state.still) * stop;
    // Mixing: what each mode starts from.
    const restFromRest = (state.still * (1 - go)) / still;
    const rest = mixture(restFromRest, state.rest, positionOf(state));
    const movingFromRest = (state.still * go) / (1 - still);
    const resting = embed(state.rest, speedSd * speedSd);
    const moving = mix4(movingFromRest, resting, { mean: state.mean, covariance: state.covariance });
    // At rest.
    rest.sxx += restDriftM2PerS * dt;
    rest.syy += restDriftM2PerS * dt;
    // Walking.
    const tau = velocityMemoryS;
    const variance = speedSd * speedSd;
    const a = Math.exp(-dt / tau);
    const b = tau * (1 - a);
    const qvv = variance * (1 - a * a);
    const qpv = variance * tau * (1 - a) ** 2;
    const qpp = variance * tau * tau * (2 * (dt / tau) - 3 + 4 * a - a * a);
    const m = moving.mean;
    const mean = Float64Array.of(m[0] + b * m[2], m[1] + b * m[3], a * m[2], a * m[3]);
    // F = [[I, b·I], [0, a·I]] in (position, velocity) blocks: P' = F P Fᵀ + Q, block by block.
    const p = moving.covariance;
    const covariance = new Float64Array(16);
    for (let i = 0; i < 2; i += 1) {
      for (let j = 0; j < 2; j += 1) {
        const pp = p[i * 4 + j];
        const pv = p[i * 4 + j + 2];
        const vp = p[(i + 2) * 4 + j];
        const vv = p[(i + 2) * 4 + j + 2];
        covariance[i * 4 + j] = pp + b * (pv + vp) + b * b * vv;
        covariance[i * 4 + j + 2] = a * (pv + b * vv);
        covariance[(i + 2) * 4 + j] = a * (vp + b * vv);
        covariance[(i + 2) * 4 + j + 2] = a * a * vv;
      }
    }
    covariance[0] += qpp;
    covariance[5] += qpp;
    covariance[10] += qvv;
    covariance[15] += qvv;
    covariance[2] += qpv;
    covariance[8] += qpv;
    covariance[7] += qpv;
    covariance[13] += qpv;
    // At a junction of the graph (links of other directions near) a walker may turn: the velocity gains spread there.
    const { junctionSpeedSd, pathWidthM } = this.options;
    if (
      junctionSpeedSd > 0 &&
      this.walkable.has(state.floorId) &&
      this.walkable.direction(state.floorId, mean[0], mean[1], pathWidthM) === null &&
      this.walkable.distance(state.floorId, mean[0], mean[1]) <= pathWidthM
    ) {
      const extra = junctionSpeedSd * junctionSpeedSd * Math.min(1, dt);
      covariance[10] += extra;
      covariance[15] += extra;
    }
    const predicted = { mean, covariance };
    return { still, rest, moving: predicted, combined: mix4(still, embed(rest, 0), predicted) };
  }

  /** The Laplace fit of the position on a floor, from a predicted Gaussian. */
  private fit(floorId: number, mean: Float64Array, covariance: Float64Array, scan: PreparedScan, raw: TrackerObservation['raw'], cover?: { x: number; y: number }): Hypothesis {
    const pxx = covariance[0];
    const pxy = covariance[1];
    const pyy = covariance[5];
    const det = pxx * pyy - pxy * pxy;
    const ixx = pyy / det;
    const ixy = -pxy / det;
    const iyy = pxx / det;
    // Terms reused step after step: one set per floor a step may weigh (a step fits each floor at most once).
    let reused = this.termsByFloor.get(floorId);
    if (!reused) {
      reused = new ScanTerms(this.radio.options.missProbability);
      this.termsByFloor.set(floorId, reused);
    }
    // The region the fit may reach, and `cover` (a rival weighed besides): the censored terms beyond it enter as one quadratic.
    let radius = 3 * Math.sqrt(pxx + pyy) + 3;
    if (cover) radius = Math.max(radius, Math.min(MAX_COVER_M, Math.hypot(cover.x - mean[0], cover.y - mean[1]) + 3));
    const terms = this.radio.terms(scan, floorId, { x: mean[0], y: mean[1], radius }, reused);
    const power = this.options.likelihoodPower;
    const prior = (x: number, y: number) => {
      const dx = x - mean[0];
      const dy = y - mean[1];
      return ixx * dx * dx + 2 * ixy * dx * dy + iyy * dy * dy;
    };
    let found = this.descend(terms, mean[0], mean[1], mean, ixx, ixy, iyy);
    const normal = Object.assign(this.kept, this.normal);
    let rawCost = NaN;
    if (raw.floorId === floorId) {
      rawCost = terms.cost(raw.x, raw.y);
      if (Math.hypot(raw.x - found.x, raw.y - found.y) > 0.5 && power * rawCost + prior(raw.x, raw.y) < found.total) {
        const other = this.descend(terms, raw.x, raw.y, mean, ixx, ixy, iyy);
        if (other.total < found.total) {
          found = other;
          Object.assign(normal, this.normal);
        }
      }
    }
    const hxx = power * normal.hxx + ixx;
    const hxy = power * normal.hxy + ixy;
    const hyy = power * normal.hyy + iyy;
    const hdet = hxx * hyy - hxy * hxy;
    const sxx = hyy / hdet;
    const sxy = -hxy / hdet;
    const syy = hxx / hdet;
    // Laplace: log ∫ prior · L ≈ −½ total + ½ log det Σ_posterior − ½ log det Σ_prior.
    const evidence = -0.5 * found.total - 0.5 * Math.log(hdet) - 0.5 * Math.log(det);
    return {
      floorId,
      x: found.x,
      y: found.y,
      sxx,
      sxy,
      syy,
      cost: normal.cost,
      rawCost,
      total: found.total,
      evidence,
      gx: power * normal.gx,
      gy: power * normal.gy,
      hxx: power * normal.hxx,
      hxy: power * normal.hxy,
      hyy: power * normal.hyy,
      mean,
      covariance,
    };
  }

  /** Gauss–Newton on −2 log (L^power · prior) from (x, y), with step halving; the normal equations at the result are left in `this.normal`. */
  private descend(terms: ScanTerms, x: number, y: number, mean: Float64Array, ixx: number, ixy: number, iyy: number): { x: number; y: number; total: number } {
    const power = this.options.likelihoodPower;
    const normal = this.normal;
    const candidate = this.candidate;
    const total = (at: NormalEquations, px: number, py: number) => {
      const dx = px - mean[0];
      const dy = py - mean[1];
      return power * at.cost + ixx * dx * dx + 2 * ixy * dx * dy + iyy * dy * dy;
    };
    terms.normal(x, y, normal);
    let current = total(normal, x, y);
    for (let iteration = 0; iteration < 10; iteration += 1) {
      const dx = x - mean[0];
      const dy = y - mean[1];
      const gx = power * normal.gx + ixx * dx + ixy * dy;
      const gy = power * normal.gy + ixy * dx + iyy * dy;
      const hxx = power * normal.hxx + ixx;
      const hxy = power * normal.hxy + ixy;
      const hyy = power * normal.hyy + iyy;
      const det = hxx * hyy - hxy * hxy;
      if (!(det > 0)) break;
      let stepX = -(hyy * gx - hxy * gy) / det;
      let stepY = -(hxx * gy - hxy * gx) / det;
      let accepted = false;
      for (let attempt = 0; attempt < 4; attempt += 1) {
        terms.normal(x + stepX, y + stepY, candidate);
        const next = total(candidate, x + stepX, y + stepY);
        if (next < current) {
          x += stepX;
          y += stepY;
          Object.assign(normal, candidate);
          accepted = current - next > 1e-3 && stepX * stepX + stepY * stepY > 1e-4;
          current = next;
          break;
        }
        stepX /= 2;
        stepY /= 2;
      }
      if (!accepted) break;
    }
    return { x, y, total: current };
  }

  private clampTo(position: Position): Position {
    return { ...position, x: clamp(position.x, 0, this.space.width), y: clamp(position.y, 0, this.space.length) };
  }

  /**
   * A position kept to where people are: as it is where it lies well inside the floor and no
   * graph applies, else the moments of draws from it weighed by the rectangle and the distance
   * to the graph. `salt` tells the modes' draws apart.
   */
  private constrain(floorId: number, fit: Position, seed: string | number, salt: number, likelihood?: Hypothesis): Position {
    const { width, length } = this.space;
    const sdx = Math.sqrt(fit.sxx);
    const sdy = Math.sqrt(fit.syy);
    const graph = this.walkable.has(floorId);
    const edge = fit.x - 3 * sdx < 0 || fit.x + 3 * sdx > width || fit.y - 3 * sdy < 0 || fit.y + 3 * sdy > length;
    const count = this.spiralWeight.length;
    const fallback = { x: clamp(fit.x, 0, width), y: clamp(fit.y, 0, length), sxx: fit.sxx, sxy: fit.sxy, syy: fit.syy };
    if ((!graph && !edge && !likelihood) || count === 0) return fallback;
    const terms = likelihood ? this.termsByFloor.get(likelihood.floorId) : undefined;
    const power = this.options.likelihoodPower;
    // Cholesky of the widened posterior.
    const l00 = PROPOSAL_WIDTH * sdx;
    const l10 = (PROPOSAL_WIDTH * fit.sxy) / sdx;
    const l11 = PROPOSAL_WIDTH * Math.sqrt(Math.max(1e-12, fit.syy - (fit.sxy * fit.sxy) / fit.sxx));
    const angle = 2 * Math.PI * seededRandom(hashSeed(seed) + salt)();
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const { pathWidthM, pathSoftnessM } = this.options;
    let sum = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let sxy = 0;
    let syy = 0;
    let active = false;
    for (let i = 0; i < count; i += 1) {
      const u = this.spiral[2 * i];
      const v = this.spiral[2 * i + 1];
      const z0 = cos * u - sin * v;
      const z1 = sin * u + cos * v;
      const x = fit.x + l00 * z0;
      const y = fit.y + l10 * z0 + l11 * z1;
      if (x < 0 || x > width || y < 0 || y > length) {
        active = true;
        continue;
      }
      let weight = this.spiralWeight[i];
      if (terms && likelihood) {
        // The scan's likelihood there against the quadratic the fit took it for (both −log L from the fit's mode).
        const dx = x - likelihood.x;
        const dy = y - likelihood.y;
        const quadratic = likelihood.gx * dx + likelihood.gy * dy + 0.5 * (likelihood.hxx * dx * dx + 2 * likelihood.hxy * dx * dy + likelihood.hyy * dy * dy);
        const actual = 0.5 * power * (terms.cost(x, y) - likelihood.cost);
        weight *= Math.exp(clamp(quadratic - actual, -20, MAX_LOG_LIKELIHOOD_RATIO));
        active = true;
      }
      if (graph) {
        const distance = this.walkable.distance(floorId, x, y);
        if (distance > pathWidthM) {
          const excess = (distance - pathWidthM) / pathSoftnessM;
          weight *= Math.exp(-0.5 * excess * excess);
          active = true;
        }
      }
      sum += weight;
      sx += weight * x;
      sy += weight * y;
      sxx += weight * x * x;
      sxy += weight * x * y;
      syy += weight * y * y;
    }
    if (!active || !(sum > 1e-9)) return fallback;
    const mx = sx / sum;
    const my = sy / sum;
    // Never narrower than a hundredth of the fit (a handful of draws can agree by chance), nor than 5 cm.
    const floor = 0.0025;
    return {
      x: clamp(mx, 0, width),
      y: clamp(my, 0, length),
      sxx: Math.max(floor, 0.01 * fit.sxx, sxx / sum - mx * mx),
      sxy: sxy / sum - mx * my,
      syy: Math.max(floor, 0.01 * fit.syy, syy / sum - my * my),
    };
  }
}

/**
 * The whole posterior from the position's: the velocity follows the position through the
 * prior's correlation (the scan says nothing of it directly).
 */
function joint(prior: { mean: Float64Array; covariance: Float64Array }, position: Position): { mean: Float64Array; covariance: Float64Array } {
  const p = prior.covariance;
  const m = prior.mean;
  const det = p[0] * p[5] - p[1] * p[1];
  // B = P_vp · P_pp⁻¹ (rows vx, vy; columns x, y).
  const i00 = p[5] / det;
  const i01 = -p[1] / det;
  const i11 = p[0] / det;
  const b00 = p[8] * i00 + p[9] * i01;
  const b01 = p[8] * i01 + p[9] * i11;
  const b10 = p[12] * i00 + p[13] * i01;
  const b11 = p[12] * i01 + p[13] * i11;
  const dx = position.x - m[0];
  const dy = position.y - m[1];
  const mean = Float64Array.of(position.x, position.y, m[2] + b00 * dx + b01 * dy, m[3] + b10 * dx + b11 * dy);
  const s00 = position.sxx;
  const s01 = position.sxy;
  const s11 = position.syy;
  // Σ_vp = B Σ.
  const c00 = b00 * s00 + b01 * s01;
  const c01 = b00 * s01 + b01 * s11;
  const c10 = b10 * s00 + b11 * s01;
  const c11 = b10 * s01 + b11 * s11;
  // Σ_vv = P_vv − B P_pv + B Σ Bᵀ.
  const v00 = p[10] - (b00 * p[8] + b01 * p[9]) + (c00 * b00 + c01 * b01);
  const v01 = p[11] - (b00 * p[12] + b01 * p[13]) + (c00 * b10 + c01 * b11);
  const v11 = p[15] - (b10 * p[12] + b11 * p[13]) + (c10 * b10 + c11 * b11);
  const covariance = Float64Array.of(s00, s01, c00, c10, s01, s11, c01, c11, c00, c01, v00, v01, c10, c11, v01, v11);
  return { mean, covariance };
}

/** A Kalman update of a 4-D Gaussian on the velocity across a direction being 0 (sd `sd`). */
function observeAcross(gaussian: { mean: Float64Array; covariance: Float64Array }, along: { dx: number; dy: number }, sd: number): void {
  const h2 = -along.dy;
  const h3 = along.dx;
  const p = gaussian.covariance;
  const ph = new Float64Array(4);
  for (let i = 0; i < 4; i += 1) ph[i] = p[i * 4 + 2] * h2 + p[i * 4 + 3] * h3;
  const innovation = ph[2] * h2 + ph[3] * h3 + sd * sd;
  const residual = -(gaussian.mean[2] * h2 + gaussian.mean[3] * h3);
  for (let i = 0; i < 4; i += 1) gaussian.mean[i] += (ph[i] / innovation) * residual;
  for (let i = 0; i < 4; i += 1) for (let j = 0; j < 4; j += 1) p[i * 4 + j] -= (ph[i] * ph[j]) / innovation;
}

/** A rival is started by a single-scan estimate this far from the prediction (m), and held this loosely where it was (sd, m); the fit's region reaches it up to this far (m). */
const RIVAL_M = 4;
const RIVAL_SPREAD_M = 3;
const MAX_COVER_M = 25;
/** A draw's likelihood may outweigh what the fit's quadratic gave it by at most this (natural log): a few draws must not take the whole posterior. */
const MAX_LOG_LIKELIHOOD_RATIO = 3;

/** The smallest probability a motion mode keeps: it must be able to come back. */
const MIN_MODE = 1e-3;
/** Below this weight a mode is not kept to the graph (it hardly moves the fix). */
const NEGLIGIBLE_MODE = 0.02;

/** The position marginal of a 4-D Gaussian (or of a state's walking mode). */
function positionOf(gaussian: { mean: Float64Array; covariance: Float64Array }): Position {
  return { x: gaussian.mean[0], y: gaussian.mean[1], sxx: gaussian.covariance[0], sxy: gaussian.covariance[1], syy: gaussian.covariance[5] };
}

/** A position as a 4-D Gaussian at rest: velocity 0 with this variance per axis, uncorrelated. */
function embed(position: Position, velocityVariance: number): { mean: Float64Array; covariance: Float64Array } {
  const covariance = new Float64Array(16);
  covariance[0] = position.sxx;
  covariance[1] = position.sxy;
  covariance[4] = position.sxy;
  covariance[5] = position.syy;
  covariance[10] = velocityVariance;
  covariance[15] = velocityVariance;
  return { mean: Float64Array.of(position.x, position.y, 0, 0), covariance };
}

/** The mixture w · a + (1 − w) · b of two positions, as one Gaussian (its moments). */
function mixture(w: number, a: Position, b: Position): Position {
  const x = w * a.x + (1 - w) * b.x;
  const y = w * a.y + (1 - w) * b.y;
  const ax = a.x - x;
  const ay = a.y - y;
  const bx = b.x - x;
  const by = b.y - y;
  return {
    x,
    y,
    sxx: w * (a.sxx + ax * ax) + (1 - w) * (b.sxx + bx * bx),
    sxy: w * (a.sxy + ax * ay) + (1 - w) * (b.sxy + bx * by),
    syy: w * (a.syy + ay * ay) + (1 - w) * (b.syy + by * by),
  };
}

/** The same for two 4-D Gaussians. */
function mix4(
  w: number,
  a: { mean: Float64Array; covariance: Float64Array },
  b: { mean: Float64Array; covariance: Float64Array },
): { mean: Float64Array; covariance: Float64Array } {
  const mean = new Float64Array(4);
  for (let i = 0; i < 4; i += 1) mean[i] = w * a.mean[i] + (1 - w) * b.mean[i];
  const covariance = new Float64Array(16);
  for (let i = 0; i < 4; i += 1) {
    for (let j = 0; j < 4; j += 1) {
      const da = (a.mean[i] - mean[i]) * (a.mean[j] - mean[j]);
      const db = (b.mean[i] - mean[i]) * (b.mean[j] - mean[j]);
      covariance[i * 4 + j] = w * (a.covariance[i * 4 + j] + da) + (1 - w) * (b.covariance[i * 4 + j] + db);
    }
  }
  return { mean, covariance };
}

/**
 * A mode's prior position updated with the scan's likelihood as the fit saw it about its mode
 * (−log L ≈ g·δ + ½ δᵀHδ, δ from the mode), in information form, and the log of how well the
 * mode predicted the scan (up to a constant common to every mode).
 */
function update(prior: Position, fit: Hypothesis): { position: Position; evidence: number } {
  const det = prior.sxx * prior.syy - prior.sxy * prior.sxy;
  const ixx = prior.syy / det;
  const ixy = -prior.sxy / det;
  const iyy = prior.sxx / det;
  const dx = prior.x - fit.x;
  const dy = prior.y - fit.y;
  const hxx = ixx + fit.hxx;
  const hxy = ixy + fit.hxy;
  const hyy = iyy + fit.hyy;
  const hdet = hxx * hyy - hxy * hxy;
  const sxx = hyy / hdet;
  const sxy = -hxy / hdet;
  const syy = hxx / hdet;
  const ex = ixx * dx + ixy * dy - fit.gx;
  const ey = ixy * dx + iyy * dy - fit.gy;
  const mx = sxx * ex + sxy * ey;
  const my = sxy * ex + syy * ey;
  const evidence = -0.5 * (dx * (ixx * dx + ixy * dy) + dy * (ixy * dx + iyy * dy) - (ex * mx + ey * my)) - 0.5 * Math.log(hdet) - 0.5 * Math.log(det);
  return { position: { x: fit.x + mx, y: fit.y + my, sxx, sxy, syy }, evidence };
}

function mahalanobis2(dx: number, dy: number, sxx: number, sxy: number, syy: number): number {
  const det = sxx * syy - sxy * sxy;
  return (syy * dx * dx - 2 * sxy * dx * dy + sxx * dy * dy) / det;
}

function clamp(value: number, low: number, high: number): number {
  return value < low ? low : value > high ? high : value;
}

/** Lower Cholesky factor of a 4 × 4 covariance (row-major, lower triangle by rows: 10 numbers), regularized where it is not positive. */
function cholesky(covariance: Float64Array): number[] {
  const l = new Float64Array(16);
  for (let i = 0; i < 4; i += 1) {
    for (let j = 0; j <= i; j += 1) {
      let sum = covariance[i * 4 + j];
      for (let k = 0; k < j; k += 1) sum -= l[i * 4 + k] * l[j * 4 + k];
      if (i === j) l[i * 4 + i] = Math.sqrt(Math.max(1e-6, sum));
      else l[i * 4 + j] = sum / l[j * 4 + j];
    }
  }
  return [l[0], l[4], l[5], l[8], l[9], l[10], l[12], l[13], l[14], l[15]];
}

/** A 2 × 2 covariance's Cholesky factor (l00, l10, l11). */
function cholesky2(position: Position): [number, number, number] {
  const l00 = Math.sqrt(Math.max(1e-6, position.sxx));
  const l10 = position.sxy / l00;
  return [l00, l10, Math.sqrt(Math.max(1e-6, position.syy - l10 * l10))];
}

const STATE_LENGTH = 30;

/** Units of the state's integers: millimetres (and mm/s) for means, 1e-4 for Cholesky factors (m, m/s) and for the probability of rest. */
const MEAN_UNIT = 1e3;
const FACTOR_UNIT = 1e4;

/**
 * The state as a JSON array of integers (integers print and parse exactly, and fast): version,
 * floor, time, the probability of rest, the walking mean and its covariance's Cholesky factor,
 * the position at rest and its factor, votes, vote floor, the contradictions' sum (1/100), the
 * rival (mm, and its gain in 1/100; -1 where there is none), building.
 */
export function encodeState(state: State): string {
  const f = cholesky(state.covariance);
  const [r00, r10, r11] = cholesky2(state.rest);
  const m = state.mean;
  const mean = (value: number) => Math.round(value * MEAN_UNIT);
  const factor = (value: number) => Math.round(value * FACTOR_UNIT);
  const diagonal = (value: number) => Math.max(10, factor(value));
  return (
    `[${STATE_VERSION},${state.floorId},${state.time},${Math.round(state.still * FACTOR_UNIT)},${mean(m[0])},${mean(m[1])},${mean(m[2])},${mean(m[3])},` +
    `${diagonal(f[0])},${factor(f[1])},${diagonal(f[2])},${factor(f[3])},${factor(f[4])},${diagonal(f[5])},${factor(f[6])},${factor(f[7])},${factor(f[8])},${diagonal(f[9])},` +
    `${mean(state.rest.x)},${mean(state.rest.y)},${diagonal(r00)},${factor(r10)},${diagonal(r11)},${state.votes},${state.voteFloor},${Math.round(state.excess * 100)},${state.rival ? `${mean(state.rival.x)},${mean(state.rival.y)},${Math.round(state.rival.gain * 100)}` : '0,0,-1'},${state.buildingId === null ? 'null' : state.buildingId}]`
  );
}

/** The integers of a JSON array of integers (the last may be null: NaN), or null where the text is not one; no JSON.parse, no garbage. */
function parseIntegers(text: string, out: Float64Array): boolean {
  const end = text.length;
  if (text.charCodeAt(0) !== 91 || text.charCodeAt(end - 1) !== 93) return false;
  let count = 0;
  let i = 1;
  while (i < end - 1) {
    if (count >= out.length) return false;
    if (text.startsWith('null', i)) {
      out[count] = NaN;
      i += 4;
    } else {
      let negative = false;
      if (text.charCodeAt(i) === 45) {
        negative = true;
        i += 1;
      }
      let value = 0;
      const start = i;
      for (let code = text.charCodeAt(i); code >= 48 && code <= 57; code = text.charCodeAt(i)) {
        value = value * 10 + (code - 48);
        i += 1;
      }
      if (i === start || i - start > 16) return false;
      out[count] = negative ? -value : value;
    }
    count += 1;
    if (i < end - 1) {
      if (text.charCodeAt(i) !== 44) return false;
      i += 1;
    }
  }
  return count === out.length;
}

const parsed = new Float64Array(STATE_LENGTH);

/** The state of a string, or null where it is not one this version wrote. */
export function decodeState(text: string): State | null {
  if (!parseIntegers(text, parsed) || parsed[0] !== STATE_VERSION) return null;
  for (let i = 0; i < STATE_LENGTH - 1; i += 1) if (Number.isNaN(parsed[i])) return null;
  const building = Number.isNaN(parsed[STATE_LENGTH - 1]) ? null : parsed[STATE_LENGTH - 1];
  const p = parsed;
  const l = new Float64Array(16);
  // Lower triangle by rows: (0,0) (1,0) (1,1) (2,0) (2,1) (2,2) (3,0) (3,1) (3,2) (3,3).
  l[0] = p[8] / FACTOR_UNIT;
  l[4] = p[9] / FACTOR_UNIT;
  l[5] = p[10] / FACTOR_UNIT;
  l[8] = p[11] / FACTOR_UNIT;
  l[9] = p[12] / FACTOR_UNIT;
  l[10] = p[13] / FACTOR_UNIT;
  l[12] = p[14] / FACTOR_UNIT;
  l[13] = p[15] / FACTOR_UNIT;
  l[14] = p[16] / FACTOR_UNIT;
  l[15] = p[17] / FACTOR_UNIT;
  const r00 = p[20] / FACTOR_UNIT;
  const r10 = p[21] / FACTOR_UNIT;
  const r11 = p[22] / FACTOR_UNIT;
  const covariance = new Float64Array(16);
  for (let i = 0; i < 4; i += 1) {
    for (let j = 0; j < 4; j += 1) {
      let sum = 0;
      for (let k = 0; k < 4; k += 1) sum += l[i * 4 + k] * l[j * 4 + k];
      covariance[i * 4 + j] = sum;
    }
  }
  const atRest = { x: p[18] / MEAN_UNIT, y: p[19] / MEAN_UNIT, sxx: r00 * r00, sxy: r00 * r10, syy: r10 * r10 + r11 * r11 };
  const mean = Float64Array.of(p[4] / MEAN_UNIT, p[5] / MEAN_UNIT, p[6] / MEAN_UNIT, p[7] / MEAN_UNIT);
  return {
    floorId: p[1],
    time: p[2],
    still: clamp(p[3] / FACTOR_UNIT, MIN_MODE, 1 - MIN_MODE),
    mean,
    covariance,
    rest: atRest,
    votes: p[23],
    voteFloor: p[24],
    excess: p[25] / 100,
    rival: p[28] < 0 ? null : { x: p[26] / MEAN_UNIT, y: p[27] / MEAN_UNIT, gain: p[28] / 100 },
    buildingId: building,
  };
}
