import fc from 'fast-check';
import { expect, it } from 'vitest';
import { DEFAULT_RULES, GeofenceRules } from './rules';
import { couldStartVisit, initialVisitState, onDeadline, onFenceChanged, onFenceCreated, onFix, VisitEvent, VisitState } from './visit-state';

const rulesArb = fc.record({
  min_dwell_seconds: fc.integer({ min: 0, max: 5 }),
  exit_grace_seconds: fc.integer({ min: 0, max: 5 }),
  dwell_seconds: fc.integer({ min: 0, max: 8 }),
  cooldown_seconds: fc.integer({ min: 0, max: 5 }),
  stale_after_seconds: fc.integer({ min: 1, max: 8 }),
  max_accuracy_m: fc.constantFrom(5, 20),
  enter_when: fc.constantFrom('center', 'contains', 'intersects'),
  exit_when: fc.constantFrom('center_out', 'not_intersects', 'not_contains'),
  buffer_m: fc.constantFrom(0, 1),
});
const fixesArb = fc.array(fc.record({ dt: fc.integer({ min: 0, max: 4 }), d: fc.constantFrom(-5, -1, -0.5, 0, 0.5, 1, 5, Infinity), acc: fc.constantFrom(null, 1, 5, 20, 30) }), {
  maxLength: 25,
});

interface Start {
  /** Created around the device (its last fix at 0 this far from the edge) at this second; null: a fresh state. */
  createdAt: number | null;
  d: number;
  /** The fence is changed at this fix index (fence_changed), if any. */
  changeAt: number | null;
}

function run(rules: GeofenceRules, fixes: Array<{ dt: number; d: number; acc: number | null }>, withTimer: boolean, start: Start = { createdAt: null, d: 0, changeAt: null }) {
  let n = 0;
  const ctx = { rules, newVisitId: () => `v${++n}` };
  let state: VisitState = initialVisitState();
  const events: VisitEvent[] = [];
  let t = 0;
  let deadline: number | null = null;
  if (start.createdAt !== null) {
    t = start.createdAt * 1000;
    const created = onFenceCreated({ time: 0, distance: start.d, accuracy: 1, position: { lat: 0, lng: 0, accuracy: 1, time: 0 } }, t, ctx);
    state = created.state;
    events.push(...created.events);
    deadline = created.nextDeadline;
  }
  for (const [index, f] of fixes.entries()) {
    t += f.dt * 1000;
    if (index === start.changeAt) {
      const changed = onFenceChanged(state, t, 'fence_changed', ctx);
      state = changed.state;
      events.push(...changed.events);
      deadline = changed.nextDeadline;
    }
    if (withTimer && deadline !== null && deadline <= t) {
      const r = onDeadline(state, deadline, ctx);
      state = r.state;
      events.push(...r.events);
      deadline = r.nextDeadline;
      if (deadline !== null && deadline <= t) {
        const r2 = onDeadline(state, t, ctx);
        state = r2.state;
        events.push(...r2.events);
        deadline = r2.nextDeadline;
      }
    }
    const r = onFix(state, { time: t, distance: f.d, accuracy: f.acc, position: { lat: 0, lng: 0, accuracy: f.acc, time: t } }, ctx);
    state = r.state;
    events.push(...r.events);
    deadline = r.nextDeadline;
  }
  const r = onDeadline(state, t + 1e9, ctx);
  events.push(...r.events);
  return events.map((e) => `${e.type}@${e.occurredAt}/${e.visitId}/${e.reason}`);
}

/**
 * Review rev1: decisions.md says a late timer or a restart yields the same events with the same
 * times. Random rules and tracks (distances on and around the edges, fixes at deadlines, equal
 * times, inaccurate fixes), run once on fixes alone and once with the timer firing at every
 * deadline it announced: the same events, and every visit enter, at most one dwell, exit.
 */
it('the timer changes no event, and every visit is enter, at most one dwell, exit', () => {
  const startArb = fc.record({ createdAt: fc.option(fc.integer({ min: 0, max: 12 })), d: fc.constantFrom(-5, 0, 5), changeAt: fc.option(fc.nat(25)) });
  fc.assert(
    fc.property(rulesArb, fixesArb, startArb, fc.boolean(), (partial, fixes, start, initialTrigger) => {
      const rules = { ...DEFAULT_RULES, ...partial, initial_trigger: initialTrigger } as GeofenceRules;
      const a = run(rules, fixes, false, start);
      const b = run(rules, fixes, true, start);
      expect(b).toEqual(a);
      const open = new Map<string, number>();
      const times = new Map<string, number>();
      for (const e of a) {
        const [, rest] = e.split('@');
        const [time, visit] = rest.split('/');
        // Within a visit, time never goes back: enter ≤ dwell ≤ exit.
        expect(Number(time)).toBeGreaterThanOrEqual(times.get(visit) ?? -Infinity);
        times.set(visit, Number(time));
      }
      const all = a.map((e) => Number(e.split('@')[1].split('/')[0]));
      for (let i = 1; i < all.length; i += 1) expect(all[i]).toBeGreaterThanOrEqual(all[i - 1]);
      let inside: string | null = null;
      for (const e of a) {
        const [type, rest] = e.split('@');
        const visit = rest.split('/')[1];
        if (type === 'geofence.enter') {
          expect(inside).toBeNull();
          inside = visit;
          open.set(visit, 0);
        }
        if (type === 'geofence.dwell') {
          expect(inside).toBe(visit);
          open.set(visit, open.get(visit)! + 1);
          expect(open.get(visit)).toBe(1);
        }
        if (type === 'geofence.exit') {
          expect(inside).toBe(visit);
          inside = null;
        }
      }
    }),
    { numRuns: 1000 },
  );
}, 60000);

/**
 * Fixes that arrive late (sample times before earlier ones) with the timer running on a wall
 * clock: the timer may now change events (that is what arrival order means), but a device's
 * events still come in time order and every visit stays well formed.
 */
it('with late fixes and the timer on a wall clock, events stay in time order and visits well formed', () => {
  const lateArb = fc.array(fc.record({ dt: fc.integer({ min: -3, max: 4 }), d: fc.constantFrom(-5, -1, 0, 1, 5), acc: fc.constantFrom(null, 1, 30) }), { maxLength: 25 });
  fc.assert(
    fc.property(rulesArb, lateArb, fc.option(fc.nat(25)), (partial, fixes, changeAt) => {
      const rules = { ...DEFAULT_RULES, ...partial } as GeofenceRules;
      let n = 0;
      const ctx = { rules, newVisitId: () => `v${++n}` };
      let state: VisitState = initialVisitState();
      const events: VisitEvent[] = [];
      let t = 0;
      let wall = 0;
      for (const [index, f] of fixes.entries()) {
        t += f.dt * 1000;
        wall = Math.max(wall, t);
        const timer = onDeadline(state, wall, ctx);
        state = timer.state;
        events.push(...timer.events);
        if (index === changeAt) {
          const changed = onFenceChanged(state, wall, 'fence_changed', ctx);
          state = changed.state;
          events.push(...changed.events);
        }
        const r = onFix(state, { time: t, distance: f.d, accuracy: f.acc, position: { lat: 0, lng: 0, accuracy: f.acc, time: t } }, ctx);
        state = r.state;
        events.push(...r.events);
      }
      let inside: string | null = null;
      for (let i = 0; i < events.length; i += 1) {
        const e = events[i];
        if (i > 0) expect(e.occurredAt).toBeGreaterThanOrEqual(events[i - 1].occurredAt);
        if (e.type === 'geofence.enter') {
          expect(inside).toBeNull();
          inside = e.visitId;
        } else {
          expect(inside).toBe(e.visitId);
          if (e.type === 'geofence.exit') inside = null;
        }
      }
    }),
    { numRuns: 3000 },
  );
}, 60000);

it('couldStartVisit is false exactly when a fix leaves a pair without state plainly outside (the evaluator skips those)', () => {
  fc.assert(
    fc.property(
      rulesArb,
      fc.boolean(),
      fc.double({ min: -20, max: 20, noNaN: true }),
      fc.option(fc.double({ min: 0, max: 40, noNaN: true })),
      fc.constantFrom(0.5, 1, 3),
      (partial, enabled, distance, accuracy, factor) => {
        const rules = { ...DEFAULT_RULES, ...partial, enabled, accuracy_factor: factor } as GeofenceRules;
        const transition = onFix(initialVisitState(), { time: 1000, distance, accuracy, position: { lat: 0, lng: 0, accuracy, time: 1000 } }, { rules, newVisitId: () => 'v' });
        const leftSomething = transition.state.phase !== 'outside' || transition.events.length > 0 || transition.nextDeadline !== null;
        expect(couldStartVisit(distance, accuracy, rules)).toBe(leftSomething);
      },
    ),
    { numRuns: 2000 },
  );
});
