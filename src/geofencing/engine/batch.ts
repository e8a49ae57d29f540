import { LatLng, ProjectedRing, projectRing, signedDistance } from './classify';
import { FloorIndex } from './floor-index';
import { GeofenceRules } from './rules';
import {
  couldStartVisit,
  FixPosition,
  initialVisitState,
  nextDeadline,
  Observation,
  onDeadline,
  onFenceChanged,
  onFenceCreated,
  onFix,
  Transition,
  VisitEvent,
  VisitState,
} from './visit-state';

/**
 * The engine over batches (contract 7.2): fixes of many devices against the fences of their
 * floors, the timer over many pairs, and a fence's change over its occupants. Pure: states and
 * fences in, states and events out; the caller reads and writes them. Visit ids come from the
 * caller (`newVisitId`), so tests and `simulate` can make their own.
 */

/** A fix as the engine needs it (ingest hands them ordered by device, then time). */
export interface EvaluableFix {
  deviceId: string;
  userId: string | null;
  time: number;
  floorId: number | null;
  lat: number;
  lng: number;
  accuracy: number | null;
}

/** A live fence as an event names it. */
export interface EventFence {
  id: string;
  name: string;
  code: string;
  buildingId: number;
  floorId: number;
}

/** A live fence with its effective rules: from a floor index (projected ring) or read from the database (stored ring). */
export interface LiveFence extends EventFence {
  rules: GeofenceRules;
  ring?: LatLng[];
  /** The ring in its floor index's projection (fences that come from an index). */
  projected?: ProjectedRing;
}

/** A live fence as a floor index holds it: what a match reports and everything its rules need. */
export interface IndexedFence extends LiveFence {
  projected: ProjectedRing;
}

/** One floor's index of live fences, as the engine reads it. */
export interface FloorFences {
  floorId: number;
  buildingId: number;
  index: FloorIndex<IndexedFence>;
  /** The index's fences by id. */
  fences: ReadonlyMap<string, IndexedFence>;
}

/** One (device, fence) pair's visit state as a batch works on it. */
export interface PairState {
  deviceId: string;
  fenceId: string;
  state: VisitState;
  /** The user of the pair's last fix. */
  userId: string | null;
  /** Whether a row holds the pair (false: none yet). */
  stored: boolean;
  /** Touched by this batch: its row is written again if what it holds changed. */
  dirty: boolean;
}

/** An event the engine decided, with what its body names. */
export interface PendingEvent {
  event: VisitEvent;
  fence: LiveFence;
  deviceId: string;
  userId: string | null;
}

/** The fences each fix matched: fix i's are `fences[start[i]]` to `fences[start[i + 1] - 1]`, with their signed distances. */
export interface BatchMatches {
  fences: IndexedFence[];
  distances: number[];
  start: number[];
}

export const pairKey = (deviceId: string, fenceId: string): string => `${deviceId}\u0000${fenceId}`;

/**
 * What the floor index of each fix's floor matches (7.1: inside or possibly_inside), in flat
 * arrays (no object per match). `keep` drops fences; `accuracyFactor` replaces the fences' own.
 */
export function collectMatches(
  fixes: readonly EvaluableFix[],
  indexes: ReadonlyMap<number, FloorFences>,
  options: { keep?: (fence: IndexedFence) => boolean; accuracyFactor?: number } = {},
): BatchMatches {
  const matches: BatchMatches = { fences: [], distances: [], start: [0] };
  for (const fix of fixes) {
    const floor = fix.floorId === null ? undefined : indexes.get(fix.floorId);
    if (floor) {
      const from = matches.fences.length;
      floor.index.collect(fix.lat, fix.lng, fix.accuracy, matches.fences, matches.distances, options.accuracyFactor);
      if (options.keep) {
        let kept = from;
        for (let at = from; at < matches.fences.length; at++) {
          if (!options.keep(matches.fences[at])) continue;
          matches.fences[kept] = matches.fences[at];
          matches.distances[kept++] = matches.distances[at];
        }
        matches.fences.length = kept;
        matches.distances.length = kept;
      }
    }
    matches.start.push(matches.fences.length);
  }
  return matches;
}

/**
 * The signed distance from a device's position to a fence, as a fix there sees it: Infinity when
 * the position is on another floor, or on one no index holds.
 */
export function distanceTo(
  fence: LiveFence,
  position: { floorId: number | null; lat: number; lng: number },
  indexes: ReadonlyMap<number, FloorFences>,
  rings?: Map<string, ProjectedRing>,
): number {
  const floor = position.floorId === null ? undefined : indexes.get(position.floorId);
  if (!floor || fence.floorId !== position.floorId) return Infinity;
  return signedDistance(projectedRing(fence, floor, rings), floor.index.projection.x(position.lng), floor.index.projection.y(position.lat));
}

/** A fence read from the database (no projected ring) is projected once per batch with its floor's projection. */
function projectedRing(fence: LiveFence, floor: FloorFences, rings?: Map<string, ProjectedRing>): ProjectedRing {
  if (fence.projected) return fence.projected;
  let ring = rings?.get(fence.id);
  if (!ring) {
    ring = projectRing(fence.ring ?? [], floor.index.projection);
    rings?.set(fence.id, ring);
  }
  return ring;
}

/**
 * The state machine over fixes ordered by device and time: updates `states` (marking the pairs
 * it touched) and answers the events, each device's in time order. `lastEvaluated`: each
 * device's last evaluated fix before these; older fixes are late and drive nothing (7.2), not
 * even a pair without state yet.
 */
export function driveFixes(
  fixes: readonly EvaluableFix[],
  states: Map<string, PairState>,
  fences: ReadonlyMap<string, LiveFence>,
  indexes: ReadonlyMap<number, FloorFences>,
  matches: BatchMatches,
  newVisitId: () => string,
  lastEvaluated: ReadonlyMap<string, number> = new Map(),
): PendingEvent[] {
  // Each device's candidate fences, in the order they became candidates (its states, then
  // what its fixes matched), with the pair's state (null: none yet).
  const byDevice = new Map<string, Map<string, PairState | null>>();
  for (const pair of states.values()) {
    if (!fences.has(pair.fenceId)) {
      // Its fence is gone (deleted outside the exits' path): nothing can happen to it any more.
      pair.dirty = true;
      pair.state = initialVisitState();
      continue;
    }
    let candidates = byDevice.get(pair.deviceId);
    if (!candidates) byDevice.set(pair.deviceId, (candidates = new Map()));
    candidates.set(pair.fenceId, pair);
  }

  const rings = new Map<string, ProjectedRing>();
  const pending: PendingEvent[] = [];
  /** The distances of the current fix's matches, by fence id (one Map, cleared per fix). */
  const matched = new Map<string, number>();
  let deviceStart = 0;
  let candidates = new Map<string, PairState | null>();
  let lateBefore = -Infinity;
  for (let position = 0; position < fixes.length; position++) {
    const fix = fixes[position];
    if (position === 0 || fixes[position - 1].deviceId !== fix.deviceId) {
      if (position > 0) {
        sortByTime(pending, deviceStart);
        deviceStart = pending.length;
      }
      const known = byDevice.get(fix.deviceId);
      if (known) candidates = known;
      else byDevice.set(fix.deviceId, (candidates = new Map()));
      lateBefore = lastEvaluated.get(fix.deviceId) ?? -Infinity;
    }
    // Late for the device (7.2): stored, but it drives no pair, not even one without state yet.
    if (fix.time < lateBefore) continue;
    matched.clear();
    for (let at = matches.start[position]; at < matches.start[position + 1]; at++) {
      const fenceId = matches.fences[at].id;
      if (!fences.has(fenceId)) continue;
      matched.set(fenceId, matches.distances[at]);
      if (!candidates.has(fenceId)) candidates.set(fenceId, null);
    }
    let fixPosition: FixPosition | null = null;
    for (const [fenceId, pair] of candidates) {
      const matchedDistance = matched.get(fenceId);
      // A pair without state that this fix does not match is outside and stays so: it can only
      // start a visit by meeting enter_when, which implies a match (the index uses the same radius).
      if (pair === null && matchedDistance === undefined) continue;
      const fence = fences.get(fenceId)!;
      const distance = matchedDistance ?? distanceTo(fence, fix, indexes, rings);
      if (pair === null && !couldStartVisit(distance, fix.accuracy, fence.rules)) continue;
      fixPosition ??= { lat: fix.lat, lng: fix.lng, accuracy: fix.accuracy, time: fix.time, poi_id: null };
      const observation: Observation = { time: fix.time, distance, accuracy: fix.accuracy, position: fixPosition };
      const transition = onFix(pair?.state ?? initialVisitState(), observation, { rules: fence.rules, newVisitId });
      if (pair) {
        pair.state = transition.state;
        pair.userId = fix.userId;
        pair.dirty = true;
      } else {
        if (isPlainOutside(transition, fence.rules)) continue;
        const created: PairState = { deviceId: fix.deviceId, fenceId, state: transition.state, userId: fix.userId, stored: false, dirty: true };
        candidates.set(fenceId, created);
        states.set(pairKey(fix.deviceId, fenceId), created);
      }
      for (const event of transition.events) pending.push({ event, fence, deviceId: fix.deviceId, userId: fix.userId });
    }
  }
  sortByTime(pending, deviceStart);
  return pending;
}

/**
 * The timer over `pairs` (read under their devices' lock): each fires what is due up to `now`,
 * each event at its own time. Every pair is marked touched (its stored deadline moves on even
 * when nothing is due any more); a pair whose fence is gone is reset, so it is removed.
 */
export function fireDeadlines(pairs: PairState[], fences: ReadonlyMap<string, LiveFence>, now: number, newVisitId: () => string): PendingEvent[] {
  const pending: PendingEvent[] = [];
  for (const pair of pairs.sort(byDevice)) {
    pair.dirty = true;
    const fence = fences.get(pair.fenceId);
    if (!fence) continue;
    const deadline = nextDeadline(pair.state, fence.rules);
    if (deadline === null || deadline > now) continue;
    const transition = onDeadline(pair.state, now, { rules: fence.rules, newVisitId });
    pair.state = transition.state;
    for (const event of transition.events) pending.push({ event, fence, deviceId: pair.deviceId, userId: pair.userId });
  }
  return sortedByDeviceAndTime(pending);
}

/** A fence changed or was deleted (or was turned off): its occupants exit with the reason, pending enters drop. */
export function endVisits(
  pairs: PairState[],
  ending: ReadonlyMap<string, LiveFence>,
  reason: 'fence_changed' | 'fence_deleted',
  at: number,
  newVisitId: () => string,
): PendingEvent[] {
  const pending: PendingEvent[] = [];
  for (const pair of pairs) {
    const fence = ending.get(pair.fenceId);
    if (!fence) continue;
    const transition = onFenceChanged(pair.state, at, reason, { rules: fence.rules, newVisitId });
    pair.state = transition.state;
    pair.dirty = true;
    for (const event of transition.events) pending.push({ event, fence, deviceId: pair.deviceId, userId: pair.userId });
  }
  return sortedByDeviceAndTime(pending);
}

/** Where a device was last seen, as a new fence sees it. */
export interface LastSeen {
  deviceId: string;
  userId: string | null;
  time: number;
  lat: number;
  lng: number;
  accuracy: number | null;
  /** Its signed distance to the new fence. */
  distance: number;
}

/**
 * A new fence (7.2): each device last seen on its floor (and not stale) is seen against it.
 * Inside without `initial_trigger`, the device is left unarmed (no enter until it has been
 * out); with it, the device enters now with reason `fence_created`.
 */
export function fenceCreated(devices: readonly LastSeen[], fence: LiveFence, at: number, newVisitId: () => string): { pairs: PairState[]; pending: PendingEvent[] } {
  const pairs: PairState[] = [];
  const pending: PendingEvent[] = [];
  for (const device of devices) {
    const observation: Observation = {
      time: device.time,
      distance: device.distance,
      accuracy: device.accuracy,
      position: { lat: device.lat, lng: device.lng, accuracy: device.accuracy, time: device.time, poi_id: null },
    };
    const transition = onFenceCreated(observation, at, { rules: fence.rules, newVisitId });
    if (transition.state.armed && transition.state.phase === 'outside') continue;
    pairs.push({ deviceId: device.deviceId, fenceId: fence.id, state: transition.state, userId: device.userId, stored: false, dirty: true });
    for (const event of transition.events) pending.push({ event, fence, deviceId: device.deviceId, userId: device.userId });
  }
  return { pairs, pending };
}

/** A pair that needs no row: outside, armed, past any cooldown, nothing due. */
export function isPlainOutside(transition: Pick<Transition, 'state' | 'events' | 'nextDeadline'>, rules: GeofenceRules): boolean {
  const { state } = transition;
  if (state.phase !== 'outside' || !state.armed || transition.events.length > 0 || transition.nextDeadline !== null) return false;
  if (state.lastExitAt === null || rules.cooldown_seconds === 0) return true;
  return state.lastFixAt !== null && state.lastFixAt >= state.lastExitAt + rules.cooldown_seconds * 1000;
}

/** Whether a pair's row can go: its fence is gone, or the pair is plainly outside. */
export function needsNoRow(state: VisitState, fence: LiveFence | undefined): boolean {
  return !fence || isPlainOutside({ state, events: [], nextDeadline: nextDeadline(state, fence.rules) }, fence.rules);
}

const byDevice = (x: PairState, y: PairState) => (x.deviceId < y.deviceId ? -1 : x.deviceId > y.deviceId ? 1 : 0);

/** Events grouped by device, each device's in time order across its fences. */
function sortedByDeviceAndTime(pending: PendingEvent[]): PendingEvent[] {
  return pending.sort((x, y) => (x.deviceId === y.deviceId ? x.event.occurredAt - y.event.occurredAt : x.deviceId < y.deviceId ? -1 : 1));
}

/** A device's events in time order (deadlines fired by a later fix may predate an earlier fence's event). */
function sortByTime(pending: PendingEvent[], from: number): void {
  if (pending.length - from < 2) return;
  const tail = pending.splice(from).sort((a, b) => a.event.occurredAt - b.event.occurredAt);
  pending.push(...tail);
}
