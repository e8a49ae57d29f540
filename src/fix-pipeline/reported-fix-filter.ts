/**
 * A filter over the positions a device reports itself (`POST /realtime/positions`), for the
 * buildings that ask for it (issue 37: "not filtered unless the building asks for it"). Plain
 * TypeScript: a step is a pure function of (state, fix), so any instance continues any track
 * from the state the pipeline keeps with the device, in the transaction of the fix.
 *
 * The model is the scan tracker's walking mode (tracker/tracker-contract.ts): each axis's
 * velocity an Ornstein–Uhlenbeck process (a pedestrian's speed, pulled back to rest), the
 * position its integral; a fix measures the position with the noise its own accuracy states (a
 * 68 % radius). Both axes share the model and the noise, so one 2 × 2 covariance serves both:
 * a Kalman filter of five numbers a device. A fix far outside the prediction (beyond
 * `gateSds`) is held back once (the prediction is answered) and starts a new track where a
 * second one in a row agrees with it (the device re-localised or a jump the app meant).
 */

/** The 68 % radius of an isotropic two-dimensional Gaussian is this many times its sd per axis. */
export const RADIUS_68_PER_SD = Math.sqrt(-2 * Math.log(1 - 0.6827));

export interface ReportedFilterOptions {
  /** A track is started afresh after this long without a fix (ms). */
  resetAfterMs: number;
  /** Each axis's velocity: its spread at rest of the process (m/s) and its memory (s). */
  speedSd: number;
  velocityMemoryS: number;
  /** A fix whose innovation is beyond this many sd (Mahalanobis, both axes) is an outlier. */
  gateSds: number;
  /** The noise of a fix is never taken below this sd per axis (m): an accuracy of 0 is not exact. */
  minMeasurementSd: number;
}

export const DEFAULT_REPORTED_FILTER_OPTIONS: ReportedFilterOptions = {
  resetAfterMs: 30_000,
  speedSd: 1,
  velocityMemoryS: 20,
  gateSds: 5,
  minMeasurementSd: 0.1,
};

/** One fix as reported: its time (ms), floor (null: the building's, no floor named), position in the building's metres and accuracy (m, 68 %). */
export interface ReportedObservation {
  time: number;
  buildingId: number;
  floorId: number | null;
  x: number;
  y: number;
  accuracy: number;
}

export interface ReportedStep {
  x: number;
  y: number;
  /** The filter's 68 % radius. */
  accuracy: number;
  /** Why a new track began here, or null where it went on. */
  started: 'first' | 'silence' | 'contradiction' | 'building' | null;
  /** The fix was held back as an outlier (the prediction answered). */
  held: boolean;
  state: string;
}

interface State {
  buildingId: number;
  floorId: number | null;
  time: number;
  x: number;
  y: number;
  vx: number;
  vy: number;
  /** The covariance of (position, velocity) on each axis. */
  pp: number;
  pv: number;
  vv: number;
  /** Outliers in a row. */
  outliers: number;
}

const STATE_PREFIX = 'R1;';

export class ReportedFixFilter {
  private readonly options: ReportedFilterOptions;

  constructor(options: Partial<ReportedFilterOptions> = {}) {
    this.options = { ...DEFAULT_REPORTED_FILTER_OPTIONS, ...options };
  }

  /** One reported fix: the filtered position and the state to keep, or null where the fix is not newer than the state (late: stored as reported, the track stays). */
  step(stateText: string | null, fix: ReportedObservation): ReportedStep | null {
    const previous = stateText === null ? null : decodeReportedState(stateText);
    if (!previous) return this.start(fix, 'first');
    if (previous.buildingId !== fix.buildingId) return this.start(fix, 'building');
    if (!(fix.time > previous.time)) return null;
    if (fix.time - previous.time > this.options.resetAfterMs) return this.start(fix, 'silence');

    // Predict: the Ornstein–Uhlenbeck velocity over dt, exactly (not a small-step approximation).
    const { speedSd, velocityMemoryS: tau } = this.options;
    const dt = (fix.time - previous.time) / 1000;
    const a = Math.exp(-dt / tau);
    const b = tau * (1 - a);
    const s2 = speedSd * speedSd;
    const qvv = s2 * (1 - a * a);
    const qpv = s2 * tau * (1 - a) * (1 - a);
    const qpp = s2 * tau * tau * Math.max(0, (2 * dt) / tau - 3 + 4 * a - a * a);
    const x = previous.x + b * previous.vx;
    const y = previous.y + b * previous.vy;
    const vx = a * previous.vx;
    const vy = a * previous.vy;
    const pp = previous.pp + 2 * b * previous.pv + b * b * previous.vv + qpp;
    const pv = a * (previous.pv + b * previous.vv) + qpv;
    const vv = a * a * previous.vv + qvv;

    // Update with the fix's position, its noise from its stated accuracy.
    const sd = Math.max(this.options.minMeasurementSd, fix.accuracy / RADIUS_68_PER_SD);
    const innovationVariance = pp + sd * sd;
    const ix = fix.x - x;
    const iy = fix.y - y;
    const gate = this.options.gateSds;
    if ((ix * ix + iy * iy) / innovationVariance > gate * gate) {
      if (previous.outliers >= 1) return this.start(fix, 'contradiction');
      const held: State = { ...previous, time: fix.time, floorId: fix.floorId, x, y, vx, vy, pp, pv, vv, outliers: previous.outliers + 1 };
      return { x, y, accuracy: RADIUS_68_PER_SD * Math.sqrt(pp), started: null, held: true, state: encodeReportedState(held) };
    }
    const kp = pp / innovationVariance;
    const kv = pv / innovationVariance;
    const next: State = {
      buildingId: fix.buildingId,
      // The device names its floor: a change of floor is taken as it is, the horizontal track goes on.
      floorId: fix.floorId,
      time: fix.time,
      x: x + kp * ix,
      y: y + kp * iy,
      vx: vx + kv * ix,
      vy: vy + kv * iy,
      pp: (1 - kp) * pp,
      pv: (1 - kp) * pv,
      vv: vv - kv * pv,
      outliers: 0,
    };
    return this.answer(next, null);
  }

  private start(fix: ReportedObservation, started: NonNullable<ReportedStep['started']>): ReportedStep {
    const sd = Math.max(this.options.minMeasurementSd, fix.accuracy / RADIUS_68_PER_SD);
    const state: State = {
      buildingId: fix.buildingId,
      floorId: fix.floorId,
      time: fix.time,
      x: fix.x,
      y: fix.y,
      vx: 0,
      vy: 0,
      pp: sd * sd,
      pv: 0,
      vv: this.options.speedSd * this.options.speedSd,
      outliers: 0,
    };
    return this.answer(state, started);
  }

  private answer(state: State, started: ReportedStep['started']): ReportedStep {
    // Stored rounded; the answer is what the next step continues from.
    const kept = decodeReportedState(encodeReportedState(state))!;
    return { x: kept.x, y: kept.y, accuracy: RADIUS_68_PER_SD * Math.sqrt(kept.pp), started, held: false, state: encodeReportedState(kept) };
  }
}

const round = (value: number, digits: number) => {
  const text = value.toFixed(digits);
  // No "-0.000": one spelling for a number.
  return Number(text) === 0 ? '0' : text.replace(/\.?0+$/, '');
};

/** `R1;building;floor;time;x;y;vx;vy;pp;pv;vv;outliers` (mm and mm/s, covariances to 1e-6): about 60 bytes. */
export function encodeReportedState(state: State): string {
  return (
    STATE_PREFIX +
    [
      String(state.buildingId),
      state.floorId === null ? '' : String(state.floorId),
      String(state.time),
      round(state.x, 3),
      round(state.y, 3),
      round(state.vx, 3),
      round(state.vy, 3),
      round(state.pp, 6),
      round(state.pv, 6),
      round(state.vv, 6),
      String(state.outliers),
    ].join(';')
  );
}

/** The state of a string, or null where it is not one this filter wrote (the scan tracker's, or an older version's). */
export function decodeReportedState(text: string): State | null {
  if (!text.startsWith(STATE_PREFIX)) return null;
  const parts = text.slice(STATE_PREFIX.length).split(';');
  if (parts.length !== 11) return null;
  const numbers = parts.map((part, i) => (i === 1 && part === '' ? null : Number(part)));
  if (numbers.some((value, i) => (i === 1 ? value !== null && !Number.isFinite(value) : !Number.isFinite(value as number)))) return null;
  const [buildingId, , time, x, y, vx, vy, pp, pv, vv, outliers] = numbers as number[];
  if (!(pp > 0) || !(vv > 0)) return null;
  return { buildingId, floorId: numbers[1], time, x, y, vx, vy, pp, pv, vv, outliers };
}
