/**
 * One rule for how fresh a device is, shared by the map, the device list and the fences: a
 * device is `online` while its last fix is recent, `stale` (shown grey, with its age) until
 * the organization's `stale_after_seconds` (the timeout after which the fences let it go), and
 * `offline` after that (off the map, out of every fence).
 */
export type Freshness = 'online' | 'stale' | 'offline';

/** The one word for each status, wherever a device is shown (the device list, the map's list, popup and details). */
export const FRESHNESS_WORDS: Readonly<Record<Freshness, string>> = { online: 'online', stale: 'stale', offline: 'offline' };

/** A fix this recent is live; older ones are stale. */
const ONLINE_WITHIN_MS = 30_000;
/** The geofencing default of `stale_after_seconds`, until the organization's settings are read. */
export const DEFAULT_STALE_AFTER_S = 120;

/** How old a fix may be and still be live: 30 s, or the stale timeout when it is shorter. */
const frozenAfterMs = (staleAfterMs: number): number => Math.min(ONLINE_WITHIN_MS, staleAfterMs);

/** The freshness of a fix `ageMs` old, with the stale timeout in milliseconds (as the live map counts). */
export function freshnessOfAge(ageMs: number, staleAfterMs: number): Freshness {
  if (ageMs > staleAfterMs) return 'offline';
  return ageMs > frozenAfterMs(staleAfterMs) ? 'stale' : 'online';
}

export function freshness(lastSeen: number | null, now: number, staleAfterS: number): Freshness {
  if (lastSeen === null || Number.isNaN(lastSeen)) return 'offline';
  return freshnessOfAge(now - lastSeen, staleAfterS * 1000);
}

/** An age in words: `12 s`, `4 min`, `3 h`, `2 d`. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h`;
  return `${Math.floor(h / 24)} d`;
}

/** The instants that bound each status for a list query (`last_seen_after` / `last_seen_before`). */
export function lastSeenBounds(status: Freshness, now: number, staleAfterS: number): { last_seen_after?: string; last_seen_before?: string } {
  const online = new Date(now - frozenAfterMs(staleAfterS * 1000)).toISOString();
  const stale = new Date(now - staleAfterS * 1000).toISOString();
  if (status === 'online') return { last_seen_after: online };
  if (status === 'stale') return { last_seen_after: stale, last_seen_before: online };
  return { last_seen_before: stale };
}
