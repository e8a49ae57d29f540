import { accuracyRadius, Classification, classifyDistance, overlapShare } from './classify';
import { GeofenceRules } from './rules';

/**
 * The state machine of contract 7.2 for one (device, fence) pair. Pure: a state and an
 * input in, the next state, the events to emit and the next deadline out. The service
 * stores the state row keyed by (device, fence), writes the events with it in one
 * transaction, and a timer calls `onDeadline` at `nextDeadline` (with that original time)
 * when no fix came first. Times are sample times in milliseconds since the epoch.
 */
export type VisitPhase = 'outside' | 'pending_enter' | 'inside' | 'pending_exit';

export type EventType = 'geofence.enter' | 'geofence.exit' | 'geofence.dwell';
export type EventReason = 'position' | 'timeout' | 'fence_changed' | 'fence_deleted' | 'fence_created';

/** The fix an event or a state refers to, as 7.3 shows it. */
export interface FixPosition {
  lat: number;
  lng: number;
  accuracy: number | null;
  time: number;
  poi_id?: string | null;
}

/** One fix as one fence sees it. `distance` is Infinity when the fix is on another floor (or none). */
export interface Observation {
  time: number;
  distance: number;
  accuracy: number | null;
  position: FixPosition;
}

export interface VisitState {
  phase: VisitPhase;
  /** When the current phase's clock started: the first fix in (pending_enter) or out (pending_exit). */
  pendingSince: number | null;
  visitId: string | null;
  enteredAt: number | null;
  dwellFired: boolean;
  /** When the last visit ended by the device's doing; enters wait for cooldown_seconds after it. */
  lastExitAt: number | null;
  /** The last fix that drove this state; older fixes are late and drive nothing. */
  lastFixAt: number | null;
  /**
   * Up to when the state is settled without a fix: the last deadline the timer (or a fix) fired,
   * or the fence's change. Fixes sampled before it arrive too late to count (they would date
   * events before ones already emitted), like fixes older than lastFixAt.
   */
  decidedUntil: number | null;
  lastPosition: FixPosition | null;
  lastClassification: Classification | null;
  lastOverlap: number | null;
  /**
   * false after a fence was created around a device without initial_trigger: the device
   * must be seen out before it can enter, so creation stays silent.
   */
  armed: boolean;
}

/** An event as the engine decides it; the service adds ids, seq, organization and fence details. */
export interface VisitEvent {
  type: EventType;
  occurredAt: number;
  visitId: string;
  reason: EventReason;
  classification: Classification | null;
  overlap: number | null;
  dwellSeconds: number;
  position: FixPosition | null;
}

export interface Transition {
  state: VisitState;
  events: VisitEvent[];
  /** When onDeadline must be called if no fix arrives first; null: nothing pending. */
  nextDeadline: number | null;
  /** What happened to the input fix: it drove the state, or was late, or failed the accuracy gate. */
  fix?: 'evaluated' | 'late' | 'inaccurate' | 'disabled';
}

export interface EngineContext {
  rules: GeofenceRules;
  /** A new visit id (the service uses `vis_…`; tests use a counter). */
  newVisitId: () => string;
}

export const initialVisitState = (): VisitState => ({
  phase: 'outside',
  pendingSince: null,
  visitId: null,
  enteredAt: null,
  dwellFired: false,
  lastExitAt: null,
  lastFixAt: null,
  decidedUntil: null,
  lastPosition: null,
  lastClassification: null,
  lastOverlap: null,
  armed: true,
});

const SECOND = 1000;

interface Reading {
  classification: Classification;
  overlap: number;
  entering: boolean;
  leaving: boolean;
}

/**
 * 7.2's enter_when and exit_when. A fix that satisfies the enter condition never counts as
 * leaving, so combinations like intersects/center_out cannot flap on one fix.
 */
export function readObservation(observation: Pick<Observation, 'distance' | 'accuracy'>, rules: GeofenceRules): Reading {
  const d = observation.distance;
  const r = accuracyRadius(observation.accuracy, rules.accuracy_factor);
  const entering = rules.enter_when === 'center' ? d <= 0 : rules.enter_when === 'contains' ? d <= -r : d < r;
  const exitCondition = rules.exit_when === 'center_out' ? d >= rules.buffer_m : rules.exit_when === 'not_intersects' ? d >= r + rules.buffer_m : d > -r;
  return { classification: classifyDistance(d, r), overlap: overlapShare(d, r), entering, leaving: exitCondition && !entering };
}

/**
 * The deadline a pair keeps when a new one is computed: a stored deadline still to come and no later
 * than the new one stays (the timer then wakes early, finds nothing due and moves it on, so no event
 * fires late, and a deadline that merely moves later is not rewritten). The pair upsert's SQL says the same.
 */
export function keptDeadline(stored: number | null, computed: number | null, now: number): number | null {
  return stored !== null && computed !== null && stored > now && stored <= computed ? stored : computed;
}

/** The earliest time something happens without a fix, given the state. */
export function nextDeadline(state: VisitState, rules: GeofenceRules): number | null {
  const stale = state.lastFixAt === null ? Infinity : state.lastFixAt + rules.stale_after_seconds * SECOND;
  let deadline = Infinity;
  if (state.phase === 'pending_enter' && state.pendingSince !== null) deadline = Math.min(state.pendingSince + rules.min_dwell_seconds * SECOND, stale);
  if (state.phase === 'inside') {
    deadline = stale;
    if (rules.dwell_seconds > 0 && !state.dwellFired && state.enteredAt !== null) deadline = Math.min(deadline, state.enteredAt + rules.dwell_seconds * SECOND);
  }
  if (state.phase === 'pending_exit' && state.pendingSince !== null) deadline = Math.min(state.pendingSince + rules.exit_grace_seconds * SECOND, stale);
  return Number.isFinite(deadline) ? deadline : null;
}

class Step {
  readonly events: VisitEvent[] = [];

  constructor(
    public state: VisitState,
    readonly context: EngineContext,
  ) {}

  get rules(): GeofenceRules {
    return this.context.rules;
  }

  emit(type: EventType, occurredAt: number, reason: EventReason): void {
    const { state } = this;
    this.events.push({
      type,
      occurredAt,
      visitId: state.visitId as string,
      reason,
      classification: state.lastClassification,
      overlap: state.lastOverlap,
      dwellSeconds: state.enteredAt === null ? 0 : Math.max(0, Math.round((occurredAt - state.enteredAt) / SECOND)),
      position: state.lastPosition,
    });
  }

  enter(at: number, reason: EventReason): void {
    this.state = { ...this.state, phase: 'inside', pendingSince: null, visitId: this.context.newVisitId(), enteredAt: at, dwellFired: false };
    this.emit('geofence.enter', at, reason);
    // A dwell of 0 would fire with the enter; 0 means no dwell events instead.
  }

  exit(at: number, reason: EventReason): void {
    this.emit('geofence.exit', at, reason);
    const byDevice = reason === 'position' || reason === 'timeout';
    this.state = {
      ...this.state,
      phase: 'outside',
      pendingSince: null,
      visitId: null,
      enteredAt: null,
      dwellFired: false,
      lastExitAt: byDevice ? at : this.state.lastExitAt,
    };
  }

  /** Fires every deadline up to and including `until`, in time order, each at its own time. */
  advance(until: number): void {
    for (;;) {
      const deadline = nextDeadline(this.state, this.rules);
      if (deadline === null || deadline > until) return;
      this.fire(deadline);
      this.decidedUntil(deadline);
    }
  }

  decidedUntil(at: number): void {
    if (this.state.decidedUntil === null || this.state.decidedUntil < at) this.state = { ...this.state, decidedUntil: at };
  }

  private fire(at: number): void {
    const { state, rules } = this;
    const stale = state.lastFixAt !== null && at >= state.lastFixAt + rules.stale_after_seconds * SECOND;
    if (state.phase === 'pending_enter') {
      const confirmAt = (state.pendingSince as number) + rules.min_dwell_seconds * SECOND;
      // Confirmation comes first when both are due: the device was seen in and never seen out.
      if (at >= confirmAt) return this.enter(state.pendingSince as number, 'position');
      if (stale) this.state = { ...state, phase: 'outside', pendingSince: null };
      return;
    }
    if (state.phase === 'inside') {
      const dwellAt = state.enteredAt === null ? Infinity : state.enteredAt + rules.dwell_seconds * SECOND;
      if (rules.dwell_seconds > 0 && !state.dwellFired && at >= dwellAt) {
        this.emit('geofence.dwell', dwellAt, 'position');
        this.state = { ...this.state, dwellFired: true };
        return;
      }
      if (stale) this.exit(at, 'timeout');
      return;
    }
    if (state.phase === 'pending_exit') {
      const graceEnd = (state.pendingSince as number) + rules.exit_grace_seconds * SECOND;
      // The exit happened at the first fix out; the grace only waited for a re-entry.
      if (at >= graceEnd) return this.exit(state.pendingSince as number, 'position');
      if (stale) this.exit(at, 'timeout');
    }
  }

  /** A fix at or after the last one, already past the accuracy gate. */
  observe(observation: Observation): void {
    const reading = readObservation(observation, this.rules);
    const rules = this.rules;
    this.state = {
      ...this.state,
      lastFixAt: observation.time,
      lastPosition: observation.position,
      lastClassification: reading.classification,
      lastOverlap: reading.overlap,
    };
    const { state } = this;
    const t = observation.time;
    switch (state.phase) {
      case 'outside': {
        if (!state.armed) {
          if (!reading.entering) this.state = { ...state, armed: true };
          return;
        }
        if (!reading.entering) return;
        if (state.lastExitAt !== null && t < state.lastExitAt + rules.cooldown_seconds * SECOND) return;
        if (rules.min_dwell_seconds === 0) return this.enter(t, 'position');
        this.state = { ...state, phase: 'pending_enter', pendingSince: t };
        return;
      }
      case 'pending_enter': {
        if (!reading.entering) {
          this.state = { ...state, phase: 'outside', pendingSince: null };
          return;
        }
        if (t >= (state.pendingSince as number) + rules.min_dwell_seconds * SECOND) this.enter(state.pendingSince as number, 'position');
        return;
      }
      case 'inside': {
        if (!reading.leaving) return;
        if (rules.exit_grace_seconds === 0) return this.exit(t, 'position');
        this.state = { ...state, phase: 'pending_exit', pendingSince: t };
        return;
      }
      case 'pending_exit': {
        // Back in within the grace: the same visit goes on.
        if (!reading.leaving) this.state = { ...state, phase: 'inside', pendingSince: null };
        // A dwell that fell due while the exit was pending belongs to the visit that went on.
        if (!reading.leaving) this.advance(t);
        return;
      }
    }
  }

  result(fix?: Transition['fix']): Transition {
    return { state: this.state, events: this.events, nextDeadline: nextDeadline(this.state, this.rules), ...(fix && { fix }) };
  }
}

/**
 * One fix for one fence. Late fixes (older than the last evaluated one) and fixes worse than
 * max_accuracy_m change nothing; deadlines due before the fix fire first, at their own times.
 */
export function onFix(state: VisitState, observation: Observation, context: EngineContext): Transition {
  const step = new Step(state, context);
  if ((state.lastFixAt !== null && observation.time < state.lastFixAt) || (state.decidedUntil !== null && observation.time < state.decidedUntil)) return step.result('late');
  step.advance(observation.time);
  if (!context.rules.enabled) return step.result('disabled');
  if (observation.accuracy !== null && observation.accuracy > context.rules.max_accuracy_m) return step.result('inaccurate');
  step.observe(observation);
  // What the fix itself made due (a dwell shorter than the enter confirmation) fires now.
  step.advance(observation.time);
  return step.result('evaluated');
}

/**
 * Whether `onFix` on a pair with no state (`initialVisitState()`) can leave anything behind:
 * only an enabled fence, a fix within max_accuracy_m, and one that meets enter_when start a
 * pending enter (or an enter). Anything else leaves the pair plainly outside, so the
 * evaluator skips it without running the machine.
 */
export function couldStartVisit(distance: number, accuracy: number | null, rules: GeofenceRules): boolean {
  if (!rules.enabled || (accuracy !== null && accuracy > rules.max_accuracy_m)) return false;
  if (rules.enter_when === 'center') return distance <= 0;
  const r = accuracyRadius(accuracy, rules.accuracy_factor);
  return rules.enter_when === 'contains' ? distance <= -r : distance < r;
}

/** The timer: fires every deadline up to `now`, each with its original time. */
export function onDeadline(state: VisitState, now: number, context: EngineContext): Transition {
  const step = new Step(state, context);
  step.advance(now);
  return step.result();
}

/** A fence's geometry or floor changed (or it was deleted): its occupants exit with that reason. */
export function onFenceChanged(state: VisitState, at: number, reason: 'fence_changed' | 'fence_deleted', context: EngineContext): Transition {
  const step = new Step(state, context);
  step.advance(at);
  if (step.state.phase === 'inside' || step.state.phase === 'pending_exit') step.exit(at, reason);
  else if (step.state.phase === 'pending_enter') step.state = { ...step.state, phase: 'outside', pendingSince: null };
  // Fixes sampled before the change saw the old fence: they are late for this one (else one
  // uploaded after the change would enter it before the exit just dated `at`).
  step.decidedUntil(at);
  return step.result();
}

/**
 * A fence was created while the device's last fix was `observation` (null: none known).
 * With initial_trigger, a device inside enters at once (reason fence_created); without it,
 * creation is silent and the device must be seen out before it can enter.
 */
export function onFenceCreated(observation: Observation | null, at: number, context: EngineContext): Transition {
  // Fixes sampled before the fence existed are late for it: an upload delayed past the creation
  // must not enter it at a time when it did not exist (creation is silent without initial_trigger).
  const step = new Step({ ...initialVisitState(), decidedUntil: at }, context);
  const { rules } = context;
  if (!observation || !rules.enabled || (observation.accuracy !== null && observation.accuracy > rules.max_accuracy_m)) return step.result();
  // A device not heard from for stale_after_seconds would have timed out of any visit: its last fix
  // says nothing now (and entering on it would be followed by a timeout exit dated before the enter).
  if (at >= observation.time + rules.stale_after_seconds * SECOND) return step.result();
  const reading = readObservation(observation, rules);
  step.state = {
    ...step.state,
    lastFixAt: observation.time,
    lastPosition: observation.position,
    lastClassification: reading.classification,
    lastOverlap: reading.overlap,
  };
  if (!reading.entering) return step.result();
  if (rules.initial_trigger) step.enter(at, 'fence_created');
  else step.state = { ...step.state, armed: false };
  return step.result();
}
