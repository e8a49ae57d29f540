import { describe, expect, it } from 'vitest';
import { DEFAULT_STALE_AFTER_S } from './freshness';
import { LatestPerDevice, LiveDevice, occupancyColour, OCCUPANCY_SCALE, RecentTrails, staleDevices, toLiveDevice } from './live';

const device = (id: string, time: number, lng = 0): LiveDevice => ({ id, lngLat: [lng, 0], accuracy: 3, time, floorId: 1 });

describe('live devices', () => {
  it('turns a 6.1 feature ([lat, lng]) into a device in GeoJSON order', () => {
    const d = toLiveDevice({
      type: 'Feature',
      id: '42',
      userId: null,
      geometry: { type: 'Point', coordinates: [42.88, -8.54] },
      properties: { time: '2026-11-23T03:00:00.000Z', floor_id: 7, building_id: 3, accuracy: 2.5 },
    });
    expect(d).toEqual({ id: '42', lngLat: [-8.54, 42.88], accuracy: 2.5, time: Date.parse('2026-11-23T03:00:00.000Z'), floorId: 7 });
  });

  it('refuses a feature without coordinates or time', () => {
    expect(
      toLiveDevice({
        type: 'Feature',
        id: '1',
        userId: null,
        geometry: { type: 'Point', coordinates: [] as unknown as [number, number] },
        properties: { time: 'x', floor_id: 1, building_id: 1, accuracy: 1 },
      }),
    ).toBeNull();
  });

  it('keeps one fix per device between frames, the newest, and never goes back in time', () => {
    const latest = new LatestPerDevice();
    expect(latest.offer(device('a', 10, 1))).toBe(true);
    expect(latest.offer(device('a', 30, 3))).toBe(true);
    expect(latest.offer(device('a', 20, 2))).toBe(false);
    expect(latest.offer(device('b', 5))).toBe(true);
    expect(latest.size).toBe(2);
    expect(latest.drain().map((d) => [d.id, d.time])).toEqual([
      ['a', 30],
      ['b', 5],
    ]);
    expect(latest.size).toBe(0);
    // Shown at 30: an older fix from a crossing snapshot is dropped, a newer one kept.
    expect(latest.offer(device('a', 25))).toBe(false);
    expect(latest.offer(device('a', 31))).toBe(true);
    latest.forget(['a']);
    expect(latest.size).toBe(0);
    expect(latest.offer(device('a', 1))).toBe(true);
  });

  it('keeps a short trail per device: every fix in time order, none older than the span before the newest, at most N', () => {
    const trails = new RecentTrails(60_000, 4);
    const at = (id: string, time: number, lng: number): LiveDevice => ({ id, lngLat: [lng, 0], accuracy: 1, time, floorId: 1 });
    trails.add(at('a', 10_000, 1));
    trails.add(at('a', 30_000, 3));
    // Late and out of order: slotted in by time; the same fix twice counts once.
    trails.add(at('a', 20_000, 2));
    trails.add(at('a', 20_000, 2));
    expect(trails.of('a')).toEqual([
      [1, 0],
      [2, 0],
      [3, 0],
    ]);
    trails.add(at('a', 40_000, 4));
    trails.add(at('a', 50_000, 5));
    expect(trails.of('a')).toEqual([
      [2, 0],
      [3, 0],
      [4, 0],
      [5, 0],
    ]);
    // Over a minute before the newest: dropped.
    trails.add(at('a', 95_000, 6));
    expect(trails.of('a')).toEqual([
      [4, 0],
      [5, 0],
      [6, 0],
    ]);
    expect(trails.of('b')).toEqual([]);
    trails.forget(['a']);
    expect(trails.of('a')).toEqual([]);
  });

  it('colours fences from empty to crowded', () => {
    expect(occupancyColour(0)).toBe(OCCUPANCY_SCALE[0].colour);
    expect(occupancyColour(1)).toBe(OCCUPANCY_SCALE[1].colour);
    expect(occupancyColour(4)).toBe(OCCUPANCY_SCALE[1].colour);
    expect(occupancyColour(5)).toBe(OCCUPANCY_SCALE[2].colour);
    expect(occupancyColour(500)).toBe(OCCUPANCY_SCALE[3].colour);
    expect(new Set(OCCUPANCY_SCALE.map((s) => s.colour)).size).toBe(OCCUPANCY_SCALE.length);
  });

  it('finds the devices whose last fix is too old to show', () => {
    const now = 1_000_000;
    expect(
      staleDevices(
        new Map([
          ['fresh', now - 1000],
          ['old', now - 121_000],
        ]),
        now,
        DEFAULT_STALE_AFTER_S * 1000,
      ),
    ).toEqual(['old']);
    expect(
      staleDevices(
        new Map([
          ['fresh', now - 1000],
          ['old', now - 61_000],
        ]),
        now,
        60_000,
      ),
    ).toEqual(['old']);
  });
});
