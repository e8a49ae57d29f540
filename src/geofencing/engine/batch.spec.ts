import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchMatches, collectMatches, driveFixes, EvaluableFix, FloorFences as FloorOfCaller, IndexedFence, LiveFence, PairState as StoredState, PendingEvent } from './batch';
import { LatLng, LocalProjection, projectRing, signedDistance } from './classify';
import { FloorIndex } from './floor-index';
import { DEFAULT_RULES, GeofenceRules } from './rules';
import { initialVisitState, Observation, onFix, Transition } from './visit-state';

const ORIGIN = new LocalProjection(42.87, -8.56);
const METRE_LAT = 1 / 111_195;
const METRE_LNG = METRE_LAT / Math.cos((42.87 * Math.PI) / 180);
const point = (east: number, north: number) => ({ lat: 42.87 + north * METRE_LAT, lng: -8.56 + east * METRE_LNG });

/** A square of `side` metres with its south-west corner `east`, `north` metres from the origin. */
function square(east: number, north: number, side: number): LatLng[] {
  const sw = point(east, north);
  const ne = point(east + side, north + side);
  return [
    [sw.lat, sw.lng],
    [ne.lat, sw.lng],
    [ne.lat, ne.lng],
    [sw.lat, ne.lng],
    [sw.lat, sw.lng],
  ];
}

const rulesArb = fc.record({
  enabled: fc.boolean(),
  enter_when: fc.constantFrom('center', 'contains', 'intersects'),
  exit_when: fc.constantFrom('center_out', 'not_intersects', 'not_contains'),
  accuracy_factor: fc.constantFrom(0.5, 1, 2),
  max_accuracy_m: fc.constantFrom(5, 20),
  buffer_m: fc.constantFrom(0, 1),
  min_dwell_seconds: fc.integer({ min: 0, max: 4 }),
  exit_grace_seconds: fc.integer({ min: 0, max: 4 }),
  dwell_seconds: fc.integer({ min: 0, max: 6 }),
  cooldown_seconds: fc.integer({ min: 0, max: 4 }),
  stale_after_seconds: fc.integer({ min: 1, max: 8 }),
});

/** Two floors; floor 1 has overlapping squares (with the rules drawn for each), floor 2 one square. */
function floors(rules: Array<Partial<GeofenceRules>>): { indexes: Map<number, FloorOfCaller>; fences: Map<string, LiveFence> } {
  const fences = new Map<string, LiveFence>();
  const indexes = new Map<number, FloorOfCaller>();
  for (const floorId of [1, 2]) {
    const own = new Map<string, IndexedFence>();
    const count = floorId === 1 ? rules.length : 1;
    for (let n = 0; n < count; n++) {
      const ring = square(n * 4, (n % 2) * 3, 6);
      const fence: IndexedFence = {
        id: `f${floorId}-${n}`,
        name: `F${n}`,
        code: `f${n}`,
        buildingId: 9,
        floorId,
        rules: { ...DEFAULT_RULES, ...rules[n] },
        projected: projectRing(ring, ORIGIN),
      };
      own.set(fence.id, fence);
      fences.set(fence.id, fence);
    }
    const index = new FloorIndex(
      ORIGIN,
      [...own.values()].map((fence) => ({ ring: [], projected: fence.projected, accuracyFactor: fence.rules.accuracy_factor, fence })),
    );
    indexes.set(floorId, { floorId, buildingId: 9, index, fences: own });
  }
  return { indexes, fences };
}

let visits = 0;

/**
 * The evaluator's drive as it was before it skipped pairs (every candidate fence of a device
 * through onFix, distances from `match`): the reference the faster one must equal.
 */
function referenceDrive(
  fixes: readonly EvaluableFix[],
  states: Map<string, StoredState>,
  fences: ReadonlyMap<string, LiveFence>,
  indexes: ReadonlyMap<number, FloorOfCaller>,
): PendingEvent[] {
  const key = (deviceId: string, fenceId: string) => `${deviceId}\u0000${fenceId}`;
  const byDevice = new Map<string, Set<string>>();
  for (const stored of states.values()) {
    if (!byDevice.has(stored.deviceId)) byDevice.set(stored.deviceId, new Set());
    byDevice.get(stored.deviceId)!.add(stored.fenceId);
  }
  const pending: PendingEvent[] = [];
  let deviceStart = 0;
  const sortTail = () => {
    const tail = pending.splice(deviceStart).sort((a, b) => a.event.occurredAt - b.event.occurredAt);
    pending.push(...tail);
    deviceStart = pending.length;
  };
  fixes.forEach((fix, position) => {
    if (position > 0 && fixes[position - 1].deviceId !== fix.deviceId) sortTail();
    const candidates = byDevice.get(fix.deviceId) ?? new Set<string>();
    const floor = fix.floorId === null ? undefined : indexes.get(fix.floorId);
    const distances = new Map<string, number>();
    for (const match of floor ? floor.index.match(fix.lat, fix.lng, fix.accuracy) : []) {
      distances.set(match.fence.id, match.distance);
      candidates.add(match.fence.id);
    }
    byDevice.set(fix.deviceId, candidates);
    for (const fenceId of candidates) {
      const fence = fences.get(fenceId)!;
      let distance = Infinity;
      if (floor && fence.floorId === fix.floorId) distance = distances.get(fenceId) ?? signedDistance(fence.projected!, ORIGIN.x(fix.lng), ORIGIN.y(fix.lat));
      const stored = states.get(key(fix.deviceId, fenceId));
      const observation: Observation = {
        time: fix.time,
        distance,
        accuracy: fix.accuracy,
        position: { lat: fix.lat, lng: fix.lng, accuracy: fix.accuracy, time: fix.time, poi_id: null },
      };
      const transition = onFix(stored?.state ?? initialVisitState(), observation, { rules: fence.rules, newVisitId: () => `ref-${(visits += 1)}` });
      if (!stored && plainOutside(transition, fence.rules)) continue;
      states.set(key(fix.deviceId, fenceId), { deviceId: fix.deviceId, fenceId, state: transition.state, userId: fix.userId, stored: stored?.stored ?? false, dirty: true });
      for (const event of transition.events) pending.push({ event, fence, deviceId: fix.deviceId, userId: fix.userId });
    }
  });
  sortTail();
  return pending;
}

function plainOutside({ state, events, nextDeadline }: Transition, rules: GeofenceRules): boolean {
  if (state.phase !== 'outside' || !state.armed || events.length > 0 || nextDeadline !== null) return false;
  if (state.lastExitAt === null || rules.cooldown_seconds === 0) return true;
  return state.lastFixAt !== null && state.lastFixAt >= state.lastExitAt + rules.cooldown_seconds * 1000;
}

/** Visit ids are random: compared by the order they first appear in. */
function normalized(pending: PendingEvent[], states: Map<string, StoredState>) {
  const ids = new Map<string, string>();
  const visit = (id: string | null) => (id === null ? null : (ids.get(id) ?? (ids.set(id, `v${ids.size}`), `v${ids.size - 1}`)));
  const events = pending.map(({ event, fence, deviceId }) => ({ ...event, visitId: visit(event.visitId), fence: fence.id, deviceId }));
  const finalStates = [...states.values()]
    .map((stored) => ({ deviceId: stored.deviceId, fenceId: stored.fenceId, ...stored.state, visitId: visit(stored.state.visitId), userId: stored.userId }))
    .sort((a, b) => (a.deviceId + a.fenceId < b.deviceId + b.fenceId ? -1 : 1));
  return { events, finalStates };
}

let visitIds = 0;
/** The engine's batch driver with visit ids of its own, as the evaluator runs it. */
const evaluator = {
  drive: (
    fixes: readonly EvaluableFix[],
    states: Map<string, StoredState>,
    fences: ReadonlyMap<string, LiveFence>,
    indexes: ReadonlyMap<number, FloorOfCaller>,
    matches: BatchMatches,
    lastEvaluated?: ReadonlyMap<string, number>,
  ) => driveFixes(fixes, states, fences, indexes, matches, () => `vis_${(visitIds += 1)}`, lastEvaluated),
};

describe('the evaluator drive', () => {
  it('fires exactly what running every candidate fence through the machine fires (property)', () => {
    const fixArb = fc.record({
      device: fc.constantFrom('a', 'b', 'c'),
      dt: fc.integer({ min: 0, max: 3 }),
      east: fc.double({ min: -4, max: 20, noNaN: true }),
      north: fc.double({ min: -4, max: 12, noNaN: true }),
      accuracy: fc.option(fc.constantFrom(0.3, 1, 3, 8, 30)),
      floorId: fc.constantFrom<number | null>(1, 1, 1, 2, null),
    });
    fc.assert(
      fc.property(fc.array(rulesArb, { minLength: 1, maxLength: 4 }), fc.array(fixArb, { maxLength: 40 }), fc.integer({ min: 1, max: 3 }), (rules, raw, batches) => {
        const { indexes, fences } = floors(rules);
        let time = 1_000_000;
        const all: EvaluableFix[] = raw.map((fix) => {
          time += fix.dt * 1000;
          return { deviceId: fix.device, userId: null, time, floorId: fix.floorId, accuracy: fix.accuracy, ...point(fix.east, fix.north) };
        });
        const fast = new Map<string, StoredState>();
        const reference = new Map<string, StoredState>();
        const fastEvents: PendingEvent[] = [];
        const referenceEvents: PendingEvent[] = [];
        const size = Math.ceil(all.length / batches);
        for (let start = 0; start < all.length; start += size) {
          // A batch as ingest hands it: ordered by device, then time.
          const batch = all.slice(start, start + size).sort((x, y) => (x.deviceId === y.deviceId ? x.time - y.time : x.deviceId < y.deviceId ? -1 : 1));
          fastEvents.push(...evaluator.drive(batch, fast, fences, indexes, collectMatches(batch, indexes)));
          referenceEvents.push(...referenceDrive(batch, reference, fences, indexes));
        }
        expect(normalized(fastEvents, fast)).toEqual(normalized(referenceEvents, reference));
      }),
      { numRuns: 400 },
    );
  });

  it("drives nothing with a fix older than the device's last evaluated one, even for a fence it has no state with (7.2)", () => {
    const { indexes, fences } = floors([{ min_dwell_seconds: 0 }]);
    const inside = (deviceId: string, time: number): EvaluableFix => ({ deviceId, userId: null, time, floorId: 1, accuracy: 1, ...point(3, 3) });
    // Device a was last seen at 10 s (outside everything, so it has no state row); b never was.
    const batch = [inside('a', 5000), inside('a', 9000), inside('b', 5000)];
    const states = new Map<string, StoredState>();
    const pending = evaluator.drive(batch, states, fences, indexes, collectMatches(batch, indexes), new Map([['a', 10_000]]));
    expect(pending.map(({ event, deviceId }) => [deviceId, event.type, event.occurredAt])).toEqual([['b', 'geofence.enter', 5000]]);
    expect([...states.values()].map((stored) => stored.deviceId)).toEqual(['b']);
    // At the last evaluated time itself, or after it, a fix counts again.
    const later = [inside('a', 10_000)];
    expect(evaluator.drive(later, states, fences, indexes, collectMatches(later, indexes), new Map([['a', 10_000]])).map(({ event }) => event.type)).toEqual(['geofence.enter']);
  });
});
