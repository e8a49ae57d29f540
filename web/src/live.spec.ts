import { describe, expect, it } from 'vitest';
import { accuracyRadiusExpression, LatestPerDevice, LiveDevice, metresPerPixelAtZoom0, occupancyColour, OCCUPANCY_SCALE, staleDevices, toLiveDevice } from './live';

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
    expect(toLiveDevice({ type: 'Feature', id: '1', userId: null, geometry: { type: 'Point', coordinates: [] as unknown as [number, number] }, properties: { time: 'x', floor_id: 1, building_id: 1, accuracy: 1 } })).toBeNull();
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

  it('draws accuracy to scale: the radius in pixels doubles per zoom level', () => {
    const expression = accuracyRadiusExpression(42.88) as [string, unknown, unknown, number, [string, unknown, number], number, [string, unknown, number]];
    const at0 = expression[4][2];
    const at24 = expression[6][2];
    expect(at24 / at0).toBeCloseTo(2 ** 24, 0);
    // At zoom 20 a 10 m accuracy is 10 / (metres per pixel) pixels.
    expect(10 * at0 * 2 ** 20).toBeCloseTo(10 / (metresPerPixelAtZoom0(42.88) / 2 ** 20), 6);
    expect(metresPerPixelAtZoom0(0)).toBeCloseTo(78271.5, 0);
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
    expect(staleDevices(new Map([['fresh', now - 1000], ['old', now - 121_000]]), now)).toEqual(['old']);
    expect(staleDevices(new Map([['fresh', now - 1000], ['old', now - 61_000]]), now, 60_000)).toEqual(['old']);
  });
});
