import { describe, expect, it } from 'vitest';
import { planCorners, toLatLngRing, toLngLatRing } from './geo';

const metresPerDegree = (Math.PI / 180) * 6_371_008.8;

describe('floor plan placement', () => {
  it('puts an unrotated plan around the building location, top edge to the north', () => {
    const [tl, tr, br, bl] = planCorners({ location: { lat: 40, lng: -3 }, dimensions: { width: 100, length: 50 }, rotation: 0 });
    const east = (lng: number) => (lng - -3) * metresPerDegree * Math.cos((40 * Math.PI) / 180);
    const north = (lat: number) => (lat - 40) * metresPerDegree;
    expect(east(tl[0])).toBeCloseTo(-50, 6);
    expect(north(tl[1])).toBeCloseTo(25, 6);
    expect(east(tr[0])).toBeCloseTo(50, 6);
    expect(north(br[1])).toBeCloseTo(-25, 6);
    expect(east(bl[0])).toBeCloseTo(-50, 6);
  });

  it('turns the plan counter-clockwise by the rotation', () => {
    const [tl, tr] = planCorners({ location: { lat: 0, lng: 0 }, dimensions: { width: 20, length: 10 }, rotation: Math.PI / 2 });
    // Rotated a quarter turn, the top edge (x from 0 to width) runs from south to north on the west side.
    expect(tr[1]).toBeGreaterThan(tl[1]);
    expect(tl[0]).toBeCloseTo(tr[0], 9);
    expect(tl[0]).toBeLessThan(0);
  });

  it('swaps [lat, lng] and [lng, lat] both ways', () => {
    const ring: Array<[number, number]> = [
      [42.1, -8.5],
      [42.2, -8.4],
      [42.1, -8.5],
    ];
    expect(toLngLatRing(ring)).toEqual([
      [-8.5, 42.1],
      [-8.4, 42.2],
      [-8.5, 42.1],
    ]);
    expect(toLatLngRing(toLngLatRing(ring))).toEqual(ring);
  });
});
