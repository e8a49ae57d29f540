import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock';
import { DEFAULT_RULES, GeofenceRules } from './rules';
import { EngineContext, initialVisitState, Observation, onDeadline, onFenceChanged, onFenceCreated, onFix, Transition, VisitState } from './visit-state';

const S = 1000;

/** A fix `distance` metres from the edge (negative: inside) at `seconds`, 1 m accurate. */
const at = (seconds: number, distance: number, accuracy = 1): Observation => ({
  time: seconds * S,
  distance,
  accuracy,
  position: { lat: 42, lng: -8, accuracy, time: seconds * S },
});
const IN = -5;
const OUT = 5;

type Step = Observation | { tick: number };

/** Runs a track (fixes and timer ticks, in order) through one (device, fence) state; events as [type, second, reason, visit]. */
function run(track: Step[], overrides: Partial<GeofenceRules> = {}, start: VisitState = initialVisitState()) {
  let visits = 0;
  const context: EngineContext = { rules: { ...DEFAULT_RULES, ...overrides }, newVisitId: () => `vis_${++visits}` };
  const clock = new ManualClock();
  let state = start;
  const events: Array<[string, number, string, string]> = [];
  const outcomes: Array<Transition['fix']> = [];
  let last: Transition | undefined;
  for (const step of track) {
    if ('tick' in step) {
      clock.set(step.tick * S);
      last = onDeadline(state, clock.now(), context);
    } else {
      last = onFix(state, step, context);
      outcomes.push(last.fix);
    }
    state = last.state;
    events.push(...last.events.map((event) => [event.type.replace('geofence.', ''), event.occurredAt / S, event.reason, event.visitId] as [string, number, string, string]));
  }
  return { events, state, outcomes, nextDeadline: last?.nextDeadline ?? null, context };
}

describe('visit state machine (contract 7.2)', () => {
  it('confirms an enter after min_dwell_seconds, dated at the first fix in', () => {
    const { events, state } = run([at(0, OUT), at(10, IN), at(11, IN), at(12, IN), at(13, IN)], { min_dwell_seconds: 3 });
    expect(events).toEqual([['enter', 10, 'position', 'vis_1']]);
    expect(state.phase).toBe('inside');
  });

  it('drops a pending enter that a fix out interrupts (no flapping from one noisy fix)', () => {
    const { events, state } = run([at(0, IN), at(1, OUT), at(2, IN), at(3, OUT), at(4, IN)], { min_dwell_seconds: 3 });
    expect(events).toEqual([]);
    expect(state.phase).toBe('pending_enter');
  });

  it('confirms an enter from the timer when no fix follows, at the deadline it announced', () => {
    const first = run([at(0, IN)], { min_dwell_seconds: 3 });
    expect(first.nextDeadline).toBe(3 * S);
    expect(run([at(0, IN), { tick: 2.999 }], { min_dwell_seconds: 3 }).events).toEqual([]);
    expect(run([at(0, IN), { tick: 3 }], { min_dwell_seconds: 3 }).events).toEqual([['enter', 0, 'position', 'vis_1']]);
  });

  it('enters on the first fix with min_dwell_seconds 0', () => {
    expect(run([at(5, IN)], { min_dwell_seconds: 0 }).events).toEqual([['enter', 5, 'position', 'vis_1']]);
  });

  it('continues the same visit on a re-entry within exit_grace_seconds, and exits at the first fix out after it', () => {
    const { events } = run([at(0, IN), at(3, IN), at(10, OUT), at(15, IN), at(20, OUT), at(25, OUT), at(31, OUT), at(40, IN), at(43, IN)], {
      min_dwell_seconds: 3,
      exit_grace_seconds: 10,
      dwell_seconds: 0,
    });
    expect(events).toEqual([
      ['enter', 0, 'position', 'vis_1'],
      ['exit', 20, 'position', 'vis_1'],
      ['enter', 40, 'position', 'vis_2'],
    ]);
  });

  it('exits from the timer when the grace ends without a fix', () => {
    const track: Step[] = [at(0, IN), at(3, IN), at(10, OUT)];
    const rules = { exit_grace_seconds: 10, dwell_seconds: 0 };
    expect(run(track, rules).nextDeadline).toBe(20 * S);
    expect(run([...track, { tick: 20 }], rules).events).toEqual([
      ['enter', 0, 'position', 'vis_1'],
      ['exit', 10, 'position', 'vis_1'],
    ]);
  });

  it('fires dwell once per visit after dwell_seconds, with its own time and the visit id', () => {
    const track: Step[] = [];
    for (let second = 0; second <= 200; second += 10) track.push(at(second, IN));
    const { events } = run(track, { min_dwell_seconds: 0, dwell_seconds: 60 });
    expect(events).toEqual([
      ['enter', 0, 'position', 'vis_1'],
      ['dwell', 60, 'position', 'vis_1'],
    ]);
  });

  it('fires dwell from the timer for a sleeping device, and the timeout exit after it', () => {
    const rules = { min_dwell_seconds: 0, dwell_seconds: 60, stale_after_seconds: 120 };
    const entered = run([at(0, IN)], rules);
    expect(entered.nextDeadline).toBe(60 * S);
    const { events, nextDeadline } = run([at(0, IN), { tick: 60 }], rules);
    expect(events.at(-1)).toEqual(['dwell', 60, 'position', 'vis_1']);
    expect(nextDeadline).toBe(120 * S);
  });

  it('reports dwell_seconds on the events: 0 at enter, the threshold at dwell, the visit length at exit', () => {
    const context: EngineContext = { rules: { ...DEFAULT_RULES, min_dwell_seconds: 0, dwell_seconds: 30, exit_grace_seconds: 0 }, newVisitId: () => 'vis_x' };
    let state = initialVisitState();
    const all = [];
    for (const fix of [at(0, IN), at(40, IN), at(95, OUT)]) {
      const step = onFix(state, fix, context);
      state = step.state;
      all.push(...step.events);
    }
    expect(all.map((event) => [event.type, event.dwellSeconds])).toEqual([
      ['geofence.enter', 0],
      ['geofence.dwell', 30],
      ['geofence.exit', 95],
    ]);
    expect(all[0]).toMatchObject({ classification: 'inside', position: { time: 0 } });
    expect(all[2]).toMatchObject({ classification: 'outside', overlap: 0, position: { time: 95 * S } });
  });

  it('keeps a dwell that fell due during a pending exit when the device comes back', () => {
    const { events } = run([at(0, IN), at(55, OUT), at(62, IN)], { min_dwell_seconds: 0, dwell_seconds: 60, exit_grace_seconds: 10 });
    expect(events).toEqual([
      ['enter', 0, 'position', 'vis_1'],
      ['dwell', 60, 'position', 'vis_1'],
    ]);
  });

  it('fires a dwell shorter than the enter confirmation right after the enter, at its own time', () => {
    const { events, nextDeadline } = run([at(0, IN), at(10, IN)], { min_dwell_seconds: 10, dwell_seconds: 5 });
    expect(events).toEqual([
      ['enter', 0, 'position', 'vis_1'],
      ['dwell', 5, 'position', 'vis_1'],
    ]);
    expect(nextDeadline).toBe((10 + DEFAULT_RULES.stale_after_seconds) * S);
  });

  it('fires no dwell when the visit ended before it was due', () => {
    const { events } = run([at(0, IN), at(55, OUT), { tick: 70 }], { min_dwell_seconds: 0, dwell_seconds: 60, exit_grace_seconds: 10 });
    expect(events).toEqual([
      ['enter', 0, 'position', 'vis_1'],
      ['exit', 55, 'position', 'vis_1'],
    ]);
  });

  it('ignores enters within cooldown_seconds of an exit', () => {
    const rules = { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0, cooldown_seconds: 30 };
    const { events } = run([at(0, IN), at(10, OUT), at(20, IN), at(30, OUT), at(39, IN), at(40, IN)], rules);
    expect(events).toEqual([
      ['enter', 0, 'position', 'vis_1'],
      ['exit', 10, 'position', 'vis_1'],
      ['enter', 40, 'position', 'vis_2'],
    ]);
  });

  it('exits with reason timeout after stale_after_seconds without a fix, at that time even when the timer runs late', () => {
    const rules = { min_dwell_seconds: 0, dwell_seconds: 0, stale_after_seconds: 120 };
    const { events, state, nextDeadline } = run([at(0, IN), at(30, IN), { tick: 149 }], rules);
    expect(nextDeadline).toBe(150 * S);
    expect(state.phase).toBe('inside');
    const late = run([at(0, IN), at(30, IN), { tick: 1000 }], rules);
    expect(late.events).toEqual([...events, ['exit', 150, 'timeout', 'vis_1']]);
    expect(late.nextDeadline).toBeNull();
  });

  it('never lets a fix worse than max_accuracy_m change a state', () => {
    const rules = { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0, max_accuracy_m: 20 };
    const { events, outcomes, state } = run([at(0, IN, 25), at(5, IN, 5), at(10, OUT, 21), at(15, OUT, 50)], rules);
    expect(events).toEqual([['enter', 5, 'position', 'vis_1']]);
    expect(outcomes).toEqual(['inaccurate', 'evaluated', 'inaccurate', 'inaccurate']);
    expect(state.lastFixAt).toBe(5 * S);
  });

  it('holds a visit while the fix stays within buffer_m past the edge (hysteresis)', () => {
    const rules = { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0, buffer_m: 2 };
    const { events } = run([at(0, IN), at(1, 0.5), at(2, 1.9), at(3, -0.1), at(4, 2)], rules);
    expect(events).toEqual([
      ['enter', 0, 'position', 'vis_1'],
      ['exit', 4, 'position', 'vis_1'],
    ]);
  });

  it('stores late fixes without letting them drive the state', () => {
    const rules = { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0 };
    const { events, outcomes, state } = run([at(10, IN), at(5, OUT), at(8, OUT)], rules);
    expect(events).toEqual([['enter', 10, 'position', 'vis_1']]);
    expect(outcomes).toEqual(['evaluated', 'late', 'late']);
    expect(state.phase).toBe('inside');
  });

  it('fires nothing for a fence whose rules are disabled', () => {
    const { events, outcomes } = run([at(0, IN), at(10, IN)], { enabled: false, min_dwell_seconds: 0 });
    expect(events).toEqual([]);
    expect(outcomes).toEqual(['disabled', 'disabled']);
  });

  it('applies enter_when and exit_when with the accuracy radius', () => {
    const base = { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0 };
    // contains: the whole 4 m disk inside (d ≤ −4).
    expect(run([at(0, -3, 4), at(1, -4, 4)], { ...base, enter_when: 'contains' }).events).toEqual([['enter', 1, 'position', 'vis_1']]);
    // intersects: any part of the disk inside (d < r).
    expect(run([at(0, 4, 4), at(1, 3.9, 4)], { ...base, enter_when: 'intersects' }).events).toEqual([['enter', 1, 'position', 'vis_1']]);
    // not_intersects: out only when the disk clears the edge by buffer_m (d ≥ r + buffer).
    expect(run([at(0, IN, 4), at(1, 4.9, 4), at(2, 5, 4)], { ...base, exit_when: 'not_intersects', buffer_m: 1 }).events).toEqual([
      ['enter', 0, 'position', 'vis_1'],
      ['exit', 2, 'position', 'vis_1'],
    ]);
    // not_contains: out as soon as the disk is not wholly inside (d > −r).
    expect(run([at(0, -10, 4), at(1, -4, 4), at(2, -3.9, 4)], { ...base, enter_when: 'contains', exit_when: 'not_contains' }).events).toEqual([
      ['enter', 0, 'position', 'vis_1'],
      ['exit', 2, 'position', 'vis_1'],
    ]);
  });

  it('exits occupants with fence_changed or fence_deleted, without cooldown, and drops pending enters silently', () => {
    const rules = { min_dwell_seconds: 0, dwell_seconds: 0, cooldown_seconds: 600 };
    const inside = run([at(0, IN)], rules);
    for (const reason of ['fence_changed', 'fence_deleted'] as const) {
      const changed = onFenceChanged(inside.state, 50 * S, reason, inside.context);
      expect(changed.events.map((event) => [event.type, event.occurredAt / S, event.reason, event.visitId])).toEqual([['geofence.exit', 50, reason, 'vis_1']]);
      expect(changed.state.phase).toBe('outside');
      expect(changed.nextDeadline).toBeNull();
      const again = run([at(51, IN)], rules, changed.state);
      expect(again.events).toEqual([['enter', 51, 'position', 'vis_1']]);
    }
    const pending = run([at(0, IN)], { min_dwell_seconds: 3 });
    const dropped = onFenceChanged(pending.state, 1 * S, 'fence_changed', pending.context);
    expect(dropped.events).toEqual([]);
    expect(dropped.state.phase).toBe('outside');
  });

  // Review rev1: a fix sampled before the change but uploaded after it (newer than the last one)
  // entered the changed fence before its fence_changed exit, an enter dated before that exit.
  it('does not let fixes sampled before a fence change drive the changed fence', () => {
    const rules = { min_dwell_seconds: 0, dwell_seconds: 0 };
    const inside = run([at(0, IN)], rules);
    const changed = onFenceChanged(inside.state, 50 * S, 'fence_changed', inside.context);
    const delayed = run([at(30, IN), at(49, IN)], rules, changed.state);
    expect(delayed.events).toEqual([]);
    expect(delayed.outcomes).toEqual(['late', 'late']);
    expect(run([at(50, IN)], rules, changed.state).events).toEqual([['enter', 50, 'position', 'vis_1']]);
    // The same for a device that was outside or pending when the fence changed.
    const pending = run([at(0, IN)], { min_dwell_seconds: 3 });
    const dropped = onFenceChanged(pending.state, 10 * S, 'fence_changed', pending.context);
    expect(run([at(5, IN), at(9, IN)], { min_dwell_seconds: 3 }, dropped.state).events).toEqual([]);
  });

  // Review rev1: the timer fired the dwell at 310, then an upload brought a fix out sampled at 305
  // (newer than the last fix, so not late): an exit dated before the dwell already sent.
  // Review rev1: an upload delayed past a fence's creation entered it before it existed.
  it('takes fixes sampled before the fence was created as late', () => {
    const context: EngineContext = { rules: { ...DEFAULT_RULES, min_dwell_seconds: 0 }, newVisitId: () => 'vis_new' };
    const created = onFenceCreated(null, 100 * S, context);
    const track = run([at(90, IN), at(99, IN), at(100, IN)], { min_dwell_seconds: 0 }, created.state);
    expect(track.outcomes).toEqual(['late', 'late', 'evaluated']);
    expect(track.events).toEqual([['enter', 100, 'position', 'vis_1']]);
  });

  it('takes fixes sampled before a deadline the timer already fired as late', () => {
    const rules = { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 300, stale_after_seconds: 600 };
    const track = run([at(10, IN), { tick: 400 }, at(305, OUT), at(309, OUT), at(310, OUT)], rules);
    expect(track.events).toEqual([
      ['enter', 10, 'position', 'vis_1'],
      ['dwell', 310, 'position', 'vis_1'],
      ['exit', 310, 'position', 'vis_1'],
    ]);
    expect(track.outcomes).toEqual(['evaluated', 'late', 'late', 'evaluated']);
  });

  it('keeps creation silent unless initial_trigger, and then enters at creation with reason fence_created', () => {
    const context = (initial_trigger: boolean): EngineContext => ({
      rules: { ...DEFAULT_RULES, initial_trigger, min_dwell_seconds: 0, dwell_seconds: 0 },
      newVisitId: () => 'vis_new',
    });
    const triggered = onFenceCreated(at(100, IN), 105 * S, context(true));
    expect(triggered.events.map((event) => [event.type, event.occurredAt / S, event.reason, event.visitId])).toEqual([['geofence.enter', 105, 'fence_created', 'vis_new']]);
    expect(triggered.state.phase).toBe('inside');

    const silent = onFenceCreated(at(100, IN), 105 * S, context(false));
    expect(silent.events).toEqual([]);
    // Still inside on later fixes: nothing, until the device has been seen out and comes back.
    const later = run([at(110, IN), at(120, IN), at(130, OUT), at(140, IN)], { min_dwell_seconds: 0, dwell_seconds: 0 }, silent.state);
    expect(later.events).toEqual([['enter', 140, 'position', 'vis_1']]);

    expect(onFenceCreated(at(100, OUT), 105 * S, context(true)).events).toEqual([]);
    // A last fix too inaccurate to trust says nothing about where the device is.
    const vague = onFenceCreated(at(100, IN, 50), 105 * S, context(true));
    expect(vague.events).toEqual([]);
    expect(vague.state).toEqual({ ...initialVisitState(), decidedUntil: 105 * S });
    expect(onFenceCreated(null, 105 * S, context(true)).state.phase).toBe('outside');
  });

  // Review rev1: with initial_trigger, a device last seen inside long ago entered at creation and
  // then timed out at its last fix + stale_after, an exit dated before its enter.
  it('takes a last fix older than stale_after_seconds at creation as no fix: no enter, no exit before it', () => {
    const context: EngineContext = { rules: { ...DEFAULT_RULES, initial_trigger: true, stale_after_seconds: 120 }, newVisitId: () => 'vis_new' };
    const stale = onFenceCreated(at(100, IN), 1000 * S, context);
    expect(stale.events).toEqual([]);
    expect(stale.nextDeadline).toBeNull();
    const later = onDeadline(stale.state, 2000 * S, context);
    expect(later.events).toEqual([]);
    // A fix in after that starts a visit like any first fix in.
    const fix = run([at(1100, IN), at(1110, IN)], { stale_after_seconds: 120 }, stale.state);
    expect(fix.events).toEqual([['enter', 1100, 'position', 'vis_1']]);
    // Exactly at the deadline it is already stale (a deadline due at T fires before what happens at T).
    expect(onFenceCreated(at(100, IN), 220 * S, context).events).toEqual([]);
    const fresh = onFenceCreated(at(100, IN), 219 * S, context);
    expect(fresh.events.map((event) => [event.type, event.occurredAt / S])).toEqual([['geofence.enter', 219]]);
    expect(fresh.nextDeadline).toBe(220 * S);
  });

  it('resumes from a stored state (a restart between a fix and its deadline) with the same events', () => {
    const rules = { min_dwell_seconds: 3, dwell_seconds: 60, stale_after_seconds: 120 };
    const before = run([at(0, IN), at(3, IN)], rules);
    const stored = JSON.parse(JSON.stringify(before.state)) as VisitState;
    const resumed = onDeadline(stored, 500 * S, { rules: { ...DEFAULT_RULES, ...rules }, newVisitId: () => 'unused' });
    expect(resumed.events.map((event) => [event.type, event.occurredAt / S, event.reason, event.visitId])).toEqual([
      ['geofence.dwell', 60, 'position', 'vis_1'],
      ['geofence.exit', 123, 'timeout', 'vis_1'],
    ]);
    expect(onDeadline(resumed.state, 1000 * S, before.context).events).toEqual([]);
  });

  it('treats a fix on another floor (infinite distance) as out', () => {
    const { events } = run([at(0, IN), at(5, Infinity)], { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0 });
    expect(events.at(-1)).toEqual(['exit', 5, 'position', 'vis_1']);
  });
});
