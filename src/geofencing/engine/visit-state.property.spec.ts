import fc from 'fast-check';
import { expect, it } from 'vitest';
import { DEFAULT_RULES, GeofenceRules } from './rules';
import { initialVisitState, onDeadline, onFix, VisitEvent, VisitState } from './visit-state';

const rulesArb = fc.record({
  min_dwell_seconds: fc.integer({ min: 0, max: 5 }), exit_grace_seconds: fc.integer({ min: 0, max: 5 }), dwell_seconds: fc.integer({ min: 0, max: 8 }),
  cooldown_seconds: fc.integer({ min: 0, max: 5 }), stale_after_seconds: fc.integer({ min: 1, max: 8 }), max_accuracy_m: fc.constantFrom(5, 20),
  enter_when: fc.constantFrom('center', 'contains', 'intersects'), exit_when: fc.constantFrom('center_out', 'not_intersects', 'not_contains'), buffer_m: fc.constantFrom(0, 1),
});
const fixesArb = fc.array(fc.record({ dt: fc.integer({ min: 0, max: 4 }), d: fc.constantFrom(-5, -1, -0.5, 0, 0.5, 1, 5, Infinity), acc: fc.constantFrom(null, 1, 5, 20, 30) }), { maxLength: 25 });

function run(rules: GeofenceRules, fixes: Array<{ dt: number; d: number; acc: number | null }>, withTimer: boolean) {
  let n = 0;
  const ctx = { rules, newVisitId: () => `v${++n}` };
  let state: VisitState = initialVisitState();
  const events: VisitEvent[] = [];
  let t = 0;
  let deadline: number | null = null;
  for (const f of fixes) {
    t += f.dt * 1000;
    if (withTimer && deadline !== null && deadline <= t) {
      const r = onDeadline(state, deadline, ctx); state = r.state; events.push(...r.events); deadline = r.nextDeadline;
      if (deadline !== null && deadline <= t) { const r2 = onDeadline(state, t, ctx); state = r2.state; events.push(...r2.events); deadline = r2.nextDeadline; }
    }
    const r = onFix(state, { time: t, distance: f.d, accuracy: f.acc, position: { lat: 0, lng: 0, accuracy: f.acc, time: t } }, ctx);
    state = r.state; events.push(...r.events); deadline = r.nextDeadline;
  }
  const r = onDeadline(state, t + 1e9, ctx); events.push(...r.events);
  return events.map((e) => `${e.type}@${e.occurredAt}/${e.visitId}/${e.reason}`);
}

/**
 * Review rev1: decisions.md says a late timer or a restart yields the same events with the same
 * times. Random rules and tracks (distances on and around the edges, fixes at deadlines, equal
 * times, inaccurate fixes), run once on fixes alone and once with the timer firing at every
 * deadline it announced: the same events, and every visit enter, at most one dwell, exit.
 */
it('the timer changes no event, and every visit is enter, at most one dwell, exit', () => {
  fc.assert(fc.property(rulesArb, fixesArb, (partial, fixes) => {
    const rules = { ...DEFAULT_RULES, ...partial } as GeofenceRules;
    const a = run(rules, fixes, false);
    const b = run(rules, fixes, true);
    expect(b).toEqual(a);
    const open = new Map<string, number>();
    let inside: string | null = null;
    for (const e of a) {
      const [type, rest] = e.split('@');
      const visit = rest.split('/')[1];
      if (type === 'geofence.enter') { expect(inside).toBeNull(); inside = visit; open.set(visit, 0); }
      if (type === 'geofence.dwell') { expect(inside).toBe(visit); open.set(visit, open.get(visit)! + 1); expect(open.get(visit)).toBe(1); }
      if (type === 'geofence.exit') { expect(inside).toBe(visit); inside = null; }
    }
  }), { numRuns: 1000 });
}, 60000);
