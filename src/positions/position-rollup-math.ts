import { SESSION_GAP_MS } from './session-mark';

/**
 * The arithmetic of the position rollups: per (building, device, 15-minute UTC slot), how
 * many fixes and how long the device was positioned.
 *
 * Positioned time is the session_mark notion of a session (contract 6.3): two consecutive
 * fixes of a device in the same building no more than 60 s apart are one session, and the
 * time between them was positioned. A gap longer than 60 s, or a fix in another building
 * (or in none) in between, ends the session. A pair that straddles a slot edge is split at
 * the edge, so every bucket made of whole slots (any hour, day, week or month of any IANA
 * zone, all of whose offsets are multiples of 15 minutes) gets exactly its share.
 */
export const SLOT_MS = 15 * 60_000;

export interface TrackPoint {
  time: number;
  buildingId: number | null;
}

export interface SlotTotals {
  buildingId: number;
  /** Epoch ms of the slot start. */
  slot: number;
  fixes: number;
  positionedMs: number;
  /** First and last fix time in the slot (null when only positioned time changed). */
  firstMs: number | null;
  lastMs: number | null;
}

export const slotOf = (ms: number): number => Math.floor(ms / SLOT_MS) * SLOT_MS;
const keyOf = (buildingId: number, slot: number) => `${buildingId}:${slot}`;

function totalsFor(map: Map<string, SlotTotals>, buildingId: number, slot: number): SlotTotals {
  const key = keyOf(buildingId, slot);
  let totals = map.get(key);
  if (!totals) {
    totals = { buildingId, slot, fixes: 0, positionedMs: 0, firstMs: null, lastMs: null };
    map.set(key, totals);
  }
  return totals;
}

/** Adds `sign` × the positioned time of a time-ordered track of one device to `into`, split at slot edges. */
export function addPositionedTime(track: ReadonlyArray<TrackPoint>, into: Map<string, SlotTotals>, sign = 1): void {
  for (let i = 1; i < track.length; i++) {
    const a = track[i - 1];
    const b = track[i];
    if (a.buildingId === null || a.buildingId !== b.buildingId || b.time - a.time > SESSION_GAP_MS) continue;
    let start = a.time;
    while (start < b.time) {
      const slot = slotOf(start);
      const end = Math.min(b.time, slot + SLOT_MS);
      totalsFor(into, a.buildingId, slot).positionedMs += sign * (end - start);
      start = end;
    }
  }
}

/**
 * What a batch adds to one device's rollups. `stored` are the device's fixes already kept
 * between the batch's first and last fix, with at least the nearest one on each side
 * within 60 s (any more further out change nothing); `added` the
 * batch's fixes (both ordered by time). A fix already stored (a replayed batch) is not
 * counted again; a late fix that lands between stored ones re-splits their session. The
 * change in positioned time is the window's positioned time after minus before: pairs
 * leaving the window are more than 60 s from every new fix, so they do not change.
 */
export function rollupDelta(stored: ReadonlyArray<TrackPoint>, added: ReadonlyArray<TrackPoint>): SlotTotals[] {
  const storedTimes = new Set(stored.map((point) => point.time));
  const fresh = added.filter((point) => !storedTimes.has(point.time));
  const delta = new Map<string, SlotTotals>();
  if (fresh.length === 0) return [];
  for (const point of fresh) {
    if (point.buildingId === null) continue;
    const totals = totalsFor(delta, point.buildingId, slotOf(point.time));
    totals.fixes++;
    totals.firstMs = totals.firstMs === null ? point.time : Math.min(totals.firstMs, point.time);
    totals.lastMs = totals.lastMs === null ? point.time : Math.max(totals.lastMs, point.time);
  }
  const merged: TrackPoint[] = [];
  let s = 0;
  let f = 0;
  while (s < stored.length || f < fresh.length) {
    if (f >= fresh.length || (s < stored.length && stored[s].time < fresh[f].time)) merged.push(stored[s++]);
    else merged.push(fresh[f++]);
  }
  addPositionedTime(merged, delta, 1);
  addPositionedTime(stored, delta, -1);
  return [...delta.values()].filter((totals) => totals.fixes !== 0 || totals.positionedMs !== 0);
}

/** Population statistics of the per-device seconds of a bucket: the positioning_time row. */
export function positionedStatistics(secondsPerDevice: ReadonlyArray<number>): { total: number; avg: number; std: number } {
  const n = secondsPerDevice.length;
  if (n === 0) return { total: 0, avg: 0, std: 0 };
  let total = 0;
  for (const seconds of secondsPerDevice) total += seconds;
  const avg = total / n;
  let squares = 0;
  for (const seconds of secondsPerDevice) squares += (seconds - avg) ** 2;
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return { total: round(total), avg: round(avg), std: round(Math.sqrt(squares / n)) };
}
