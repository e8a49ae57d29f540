import { accuracyRadius, classifyDistance, overlapShare } from './classify';
import { LiveFence } from './batch';
import { FixPosition, VisitState } from './visit-state';

/**
 * How a pair's state is stored. A device's newest fix drives every pair it has a state with, so
 * what a state says of its last fix (time, position, classification, overlap, user) is almost
 * always what the device's newest fix gives against the fence: such a state is stored without
 * it and read back with the device's newest fix, so a fix that moves no pair to another phase
 * writes no pair row. A state whose last fix is another (a fix too inaccurate for the fence, a
 * fence edited or its rules changed since) keeps its own ("pinned").
 */

/** A device's newest fix, as the pairs derive their last fix from it. */
export interface NewestFix {
  time: number;
  floorId: number | null;
  lat: number;
  lng: number;
  accuracy: number | null;
  userId: string | null;
}

/** The part of a visit state that comes from the pair's last fix. */
type LastFix = Pick<VisitState, 'lastFixAt' | 'lastPosition' | 'lastClassification' | 'lastOverlap'>;

/** A stored pair state: the settled part, and the last fix only when pinned (`lastFixAt` present). */
type StoredPair = Omit<VisitState, keyof LastFix> & Partial<LastFix> & { userId?: string | null };

/** The last fix a device's newest fix gives a pair, `distance` being that fix's signed distance to the fence. */
export function lastFixOf(newest: NewestFix, fence: LiveFence, distance: number): LastFix {
  const radius = accuracyRadius(newest.accuracy, fence.rules.accuracy_factor);
  return {
    lastFixAt: newest.time,
    lastPosition: { lat: newest.lat, lng: newest.lng, accuracy: newest.accuracy, time: newest.time, poi_id: null },
    lastClassification: classifyDistance(distance, radius),
    lastOverlap: overlapShare(distance, radius),
  };
}

const samePosition = (a: FixPosition | null, b: FixPosition | null) =>
  a === b || (a !== null && b !== null && a.lat === b.lat && a.lng === b.lng && a.accuracy === b.accuracy && a.time === b.time && (a.poi_id ?? null) === (b.poi_id ?? null));

/**
 * The text a pair's row holds. `derived`: what the device's newest fix gives the pair (undefined
 * when the device has none); the state is stored without its last fix when it equals that.
 */
export function encodePair(state: VisitState, userId: string | null, newest: NewestFix | undefined, derived: LastFix | undefined): string {
  const { lastFixAt, lastPosition, lastClassification, lastOverlap, ...settled } = state;
  const follows =
    newest !== undefined &&
    derived !== undefined &&
    userId === newest.userId &&
    lastFixAt === derived.lastFixAt &&
    lastClassification === derived.lastClassification &&
    lastOverlap === derived.lastOverlap &&
    samePosition(lastPosition, derived.lastPosition);
  if (follows) return JSON.stringify(settled);
  return JSON.stringify({ ...settled, lastFixAt, lastPosition, lastClassification, lastOverlap, userId });
}

/** Whether a stored text keeps its own last fix (pinned), or follows the device's newest fix. */
export function isPinned(text: string | object): boolean {
  const stored = (typeof text === 'string' ? JSON.parse(text) : text) as StoredPair;
  return stored.lastFixAt !== undefined;
}

/**
 * A pair's state from its row. `derive` gives what the device's newest fix says of the pair (it
 * is called only for a state stored without its own last fix); undefined when the device has no
 * newest fix any more, which leaves the state without one.
 */
export function decodePair(text: string | object, newest: NewestFix | undefined, derive: () => LastFix | undefined): { state: VisitState; userId: string | null } {
  const stored = (typeof text === 'string' ? JSON.parse(text) : text) as StoredPair;
  const { userId, ...state } = stored;
  if (stored.lastFixAt !== undefined) {
    return { state: { lastPosition: null, lastClassification: null, lastOverlap: null, ...state, lastFixAt: stored.lastFixAt } as VisitState, userId: userId ?? null };
  }
  const last = derive() ?? { lastFixAt: null, lastPosition: null, lastClassification: null, lastOverlap: null };
  return { state: { ...state, ...last } as VisitState, userId: newest?.userId ?? null };
}
