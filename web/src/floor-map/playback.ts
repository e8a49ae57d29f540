/**
 * History playback, kept free of the map so it is unit-tested: the trajectory report's rows
 * (contract 6.3) as one track per device, the trails as lines (broken between positioning
 * sessions), and where each device was at a moment of the slider.
 */
export interface TrajectoryRow {
  timestamp: string;
  session_mark: number;
  floor_id: number | null;
  device_id: string;
  lat: number;
  lng: number;
}

export interface TrackPoint {
  time: number;
  lngLat: [number, number];
  session: number;
}

/** A device counts as there this long after its last fix in a session (the report's session gap). */
export const SESSION_GAP_MS = 60_000;

export function tracksOf(rows: readonly TrajectoryRow[], floorId: number): Map<string, TrackPoint[]> {
  const tracks = new Map<string, TrackPoint[]>();
  for (const row of rows) {
    if (row.floor_id !== floorId) continue;
    const time = Date.parse(row.timestamp);
    if (Number.isNaN(time)) continue;
    let track = tracks.get(row.device_id);
    if (!track) tracks.set(row.device_id, (track = []));
    track.push({ time, lngLat: [row.lng, row.lat], session: row.session_mark });
  }
  for (const track of tracks.values()) track.sort((a, b) => a.time - b.time);
  return tracks;
}

/** Each device's last point at or before `time`, unless its session ended (no fix for a minute) before then. */
export function positionsAt(tracks: ReadonlyMap<string, TrackPoint[]>, time: number): Array<{ id: string; point: TrackPoint }> {
  const out: Array<{ id: string; point: TrackPoint }> = [];
  for (const [id, track] of tracks) {
    // Binary search for the last point at or before `time`.
    let lo = 0;
    let hi = track.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (track[mid].time <= time) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0) continue;
    const point = track[found];
    const next = track[found + 1];
    const continues = next !== undefined && next.session === point.session;
    if (time - point.time <= SESSION_GAP_MS || continues) out.push({ id, point });
  }
  return out;
}

/** The trails as GeoJSON lines, one feature per device and session, up to `until`. */
export function trailsGeoJson(tracks: ReadonlyMap<string, TrackPoint[]>, until = Infinity): GeoJSON.FeatureCollection {
  const features: GeoJSON.Feature[] = [];
  for (const [id, track] of tracks) {
    let line: Array<[number, number]> = [];
    let session: number | null = null;
    const flush = () => {
      if (line.length >= 2) features.push({ type: 'Feature', properties: { id }, geometry: { type: 'LineString', coordinates: line } });
      line = [];
    };
    for (const point of track) {
      if (point.time > until) break;
      if (point.session !== session) {
        flush();
        session = point.session;
      }
      line.push(point.lngLat);
    }
    flush();
  }
  return { type: 'FeatureCollection', features };
}

/**
 * The period History shows: from the "From" field to the "To" field, or to `now` (the moment
 * "Show history" is pressed, to the millisecond) when "To" is "now". Both ends are inclusive;
 * the report's `to_date` is exclusive, so it is sent a millisecond past the end.
 */
export function historyPeriod(
  from: string,
  to: string | 'now',
  now: number,
): { from: number; to: number; toNow: boolean; query: { from_date: string; to_date: string } } | { error: 'from' | 'to' | 'order' } {
  const fromMs = new Date(from).getTime();
  if (!from || Number.isNaN(fromMs)) return { error: 'from' };
  const toNow = to === 'now';
  const toMs = toNow ? now : new Date(to).getTime();
  if (!toNow && (!to || Number.isNaN(toMs))) return { error: 'to' };
  if (toMs < fromMs) return { error: 'order' };
  return { from: fromMs, to: toMs, toNow, query: { from_date: new Date(fromMs).toISOString(), to_date: new Date(toMs + 1).toISOString() } };
}

/** `YYYY-MM-DDTHH:MM` (with `:SS` when `seconds`) in the browser's zone, for datetime-local inputs. */
export function localInput(ms: number, seconds = false): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, seconds ? 19 : 16);
}
