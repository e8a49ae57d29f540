import { describe, expect, it } from 'vitest';
import { historyPeriod, positionsAt, tracksOf, trailsGeoJson, TrajectoryRow } from './playback';

const row = (device: string, seconds: number, session: number, lng: number, floor = 7): TrajectoryRow => ({
  timestamp: new Date(Date.UTC(2026, 10, 23, 10, 0, seconds)).toISOString(),
  session_mark: session,
  floor_id: floor,
  device_id: device,
  lat: 42,
  lng,
});
const at = (seconds: number) => Date.UTC(2026, 10, 23, 10, 0, seconds);

describe('history playback', () => {
  const rows = [row('a', 0, 1, 1), row('a', 10, 1, 2), row('b', 5, 1, 5), row('a', 200, 2, 3), row('c', 1, 1, 9, 8)];
  const tracks = tracksOf(rows, 7);

  it('keeps the floor asked for, one track per device in time order', () => {
    expect([...tracks.keys()]).toEqual(['a', 'b']);
    expect(tracks.get('a')!.map((p) => p.lngLat[0])).toEqual([1, 2, 3]);
  });

  it('places each device at its last fix, until its session has been silent a minute', () => {
    expect(positionsAt(tracks, at(7)).map((p) => [p.id, p.point.lngLat[0]])).toEqual([
      ['a', 1],
      ['b', 5],
    ]);
    expect(positionsAt(tracks, at(60)).map((p) => [p.id, p.point.lngLat[0]])).toEqual([
      ['a', 2],
      ['b', 5],
    ]);
    // 100 s after a's last fix of session 1 and 95 s after b's: both gone until a's next session.
    expect(positionsAt(tracks, at(110))).toEqual([]);
    expect(positionsAt(tracks, at(200)).map((p) => p.id)).toEqual(['a']);
  });

  it('draws a line per session, up to the slider', () => {
    expect(trailsGeoJson(tracks).features.map((f) => (f.geometry as GeoJSON.LineString).coordinates.length)).toEqual([2]);
    expect(trailsGeoJson(tracks, at(5)).features).toEqual([]);
  });

  it('ends the period now by default, to the millisecond, both ends included', () => {
    const now = Date.UTC(2026, 10, 23, 10, 0, 59, 900);
    const period = historyPeriod('2026-11-23T09:00Z', 'now', now);
    expect(period).toEqual({ from: Date.UTC(2026, 10, 23, 9), to: now, toNow: true, query: { from_date: '2026-11-23T09:00:00.000Z', to_date: '2026-11-23T10:00:59.901Z' } });
    expect(historyPeriod('2026-11-23T09:00Z', '2026-11-23T09:30:15Z', now)).toMatchObject({ toNow: false, query: { to_date: '2026-11-23T09:30:15.001Z' } });
    expect(historyPeriod('', 'now', now)).toEqual({ error: 'from' });
    expect(historyPeriod('2026-11-23T09:00Z', '', now)).toEqual({ error: 'to' });
    expect(historyPeriod('2026-11-23T11:00Z', 'now', now)).toEqual({ error: 'order' });
  });
});
