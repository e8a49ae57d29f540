import { describe, expect, it } from 'vitest';
import { LocalProjection, projectRing, signedDistance } from './classify';
import { FloorIndex } from './floor-index';

const ORIGIN = new LocalProjection(42.87, -8.56);
const METRE_LAT = 1 / 111_195;
const METRE_LNG = METRE_LAT / Math.cos((42.87 * Math.PI) / 180);

/** A square of `side` metres with its south-west corner `east`, `north` metres from the origin. */
function square(east: number, north: number, side: number): Array<[number, number]> {
  const lat = 42.87 + north * METRE_LAT;
  const lng = -8.56 + east * METRE_LNG;
  const dLat = side * METRE_LAT;
  const dLng = side * METRE_LNG;
  return [[lat, lng], [lat + dLat, lng], [lat + dLat, lng + dLng], [lat, lng + dLng], [lat, lng]];
}

const pointAt = (east: number, north: number) => [42.87 + north * METRE_LAT, -8.56 + east * METRE_LNG] as const;

describe('floor index', () => {
  const fences = Array.from({ length: 400 }, (_, index) => ({
    ring: square((index % 20) * 15, Math.floor(index / 20) * 15, 10),
    accuracyFactor: index === 21 ? 3 : 1,
    fence: `f${index}`,
  }));
  const index = new FloorIndex(ORIGIN, fences);

  it('finds exactly the fences a linear scan classifies inside or possibly inside', () => {
    for (const [east, north, accuracy] of [[5, 5, 0], [15 + 5, 15 + 5, 2], [10.2, 3, 1], [12.5, 12.5, 3], [-40, -40, 5], [100, 100, 20], [14, 16, 0]]) {
      const [lat, lng] = pointAt(east, north);
      const found = index.match(lat, lng, accuracy).map((match) => match.fence).sort();
      const x = ORIGIN.x(lng);
      const y = ORIGIN.y(lat);
      const expected = fences
        .filter((fence) => signedDistance(projectRing(fence.ring, ORIGIN), x, y) < Math.max(0.5, fence.accuracyFactor * accuracy))
        .map((fence) => fence.fence)
        .sort();
      expect(found, `${east},${north}`).toEqual(expected);
    }
  });

  it('uses each fence its own accuracy factor', () => {
    // 2 m outside fence 21 (south-west corner at 15, 15) and 2 m outside fence 22.
    const [lat, lng] = pointAt(15 + 10 + 2.5, 20);
    const matches = index.match(lat, lng, 1);
    expect(matches.map((match) => [match.fence, match.classification])).toEqual([['f21', 'possibly_inside']]);
    expect(matches[0].distance).toBeCloseTo(2.5, 3);
  });

  it('answers nothing on an empty floor', () => {
    expect(new FloorIndex(ORIGIN, []).match(42.87, -8.56, 3)).toEqual([]);
  });
});
