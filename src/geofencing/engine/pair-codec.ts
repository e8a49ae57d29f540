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
export type StoredPair = Omit<VisitState, keyof LastFix> & Partial<LastFix> & { userId?: string | null };

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

/** A stored state as its text and, once read or written in this process, as parsed (rows kept in memory are parsed once). */
export interface PairText {
  text: string | object;
  parsed?: Readonly<StoredPair>;
}

const parsedOf = (row: PairText): Readonly<StoredPair> => (row.parsed ??= (typeof row.text === 'string' ? JSON.parse(row.text) : row.text) as StoredPair);

/**
 * What a pair's row holds, as an object. `derived`: what the device's newest fix gives the pair
 * (undefined when the device has none); the state is stored without its last fix when it equals that.
 */
export function storedForm(state: VisitState, userId: string | null, newest: NewestFix | undefined, derived: LastFix | undefined): StoredPair {
  const { lastFixAt, lastPosition, lastClassification, lastOverlap, ...settled } = state;
  const follows =
    newest !== undefined &&
    derived !== undefined &&
    userId === newest.userId &&
    lastFixAt === derived.lastFixAt &&
    lastClassification === derived.lastClassification &&
    lastOverlap === derived.lastOverlap &&
    samePosition(lastPosition, derived.lastPosition);
  return follows ? settled : { ...settled, lastFixAt, lastPosition, lastClassification, lastOverlap, userId };
}

const SETTLED: ReadonlyArray<keyof StoredPair> = ['phase', 'pendingSince', 'visitId', 'enteredAt', 'dwellFired', 'lastExitAt', 'decidedUntil', 'armed'];
const PINNED: ReadonlyArray<keyof StoredPair> = ['lastFixAt', 'lastClassification', 'lastOverlap', 'userId'];

/** Whether a row already holds `form` (compared field by field: no text is built for a pair that does not change). */
export function holds(row: PairText, form: StoredPair): boolean {
  const stored = parsedOf(row);
  for (const field of SETTLED) if (stored[field] !== form[field]) return false;
  if ((stored.lastFixAt !== undefined) !== (form.lastFixAt !== undefined)) return false;
  if (form.lastFixAt === undefined) return true;
  for (const field of PINNED) if ((stored[field] ?? null) !== (form[field] ?? null)) return false;
  return samePosition(stored.lastPosition ?? null, form.lastPosition ?? null);
}

/** The text of a stored form, with the form kept as its parse. */
export const encodeForm = (form: StoredPair): { text: string; parsed: StoredPair } => ({ text: JSON.stringify(form), parsed: form });

/** Whether a stored text keeps its own last fix (pinned), or follows the device's newest fix. */
export function isPinned(row: PairText): boolean {
  return parsedOf(row).lastFixAt !== undefined;
}

/**
 * A pair's state from its row. `derive` gives what the device's newest fix says of the pair (it
 * is called only for a state stored without its own last fix); undefined when the device has no
 * newest fix any more, which leaves the state without one.
 */
export function decodePair(row: PairText, newest: NewestFix | undefined, derive: () => LastFix | undefined): { state: VisitState; userId: string | null } {
  const stored = parsedOf(row);
  const { userId, ...state } = stored;
  if (stored.lastFixAt !== undefined) {
    return { state: { lastPosition: null, lastClassification: null, lastOverlap: null, ...state, lastFixAt: stored.lastFixAt } as VisitState, userId: userId ?? null };
  }
  const last = derive() ?? { lastFixAt: null, lastPosition: null, lastClassification: null, lastOverlap: null };
  return { state: { ...state, ...last } as VisitState, userId: newest?.userId ?? null };
}
