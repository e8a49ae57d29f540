import fc from 'fast-check';
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
  return [
    [lat, lng],
    [lat + dLat, lng],
    [lat + dLat, lng + dLng],
    [lat, lng + dLng],
    [lat, lng],
  ];
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
    for (const [east, north, accuracy] of [
      [5, 5, 0],
      [15 + 5, 15 + 5, 2],
      [10.2, 3, 1],
      [12.5, 12.5, 3],
      [-40, -40, 5],
      [100, 100, 20],
      [14, 16, 0],
    ]) {
      const [lat, lng] = pointAt(east, north);
      const found = index
        .match(lat, lng, accuracy)
        .map((match) => match.fence)
        .sort();
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

  it('collects the same fences as match, with the same distances', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -30, max: 320, noNaN: true }),
        fc.double({ min: -30, max: 320, noNaN: true }),
        fc.option(fc.double({ min: 0, max: 25, noNaN: true })),
        (east, north, accuracy) => {
          const [lat, lng] = pointAt(east, north);
          const fencesFound: string[] = [];
          const distances: number[] = [];
          index.collect(lat, lng, accuracy, fencesFound, distances);
          const matches = index.match(lat, lng, accuracy);
          expect(fencesFound).toEqual(matches.map((match) => match.fence));
          expect(distances).toEqual(matches.map((match) => match.distance));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('collects with a given accuracy factor in place of each fence its own', () => {
    // 2.5 m outside fence 21 (factor 3) and fence 22 (factor 1): with factor 4 and accuracy 1, both are near.
    const [lat, lng] = pointAt(15 + 10 + 2.5, 20);
    const found: string[] = [];
    index.collect(lat, lng, 1, found, [], 4);
    expect(found.sort()).toEqual(['f21', 'f22']);
    const own: string[] = [];
    index.collect(lat, lng, 1, own, []);
    expect(own).toEqual(['f21']);
  });

  it('uses a ring projected beforehand as given, not its own ring', () => {
    // The stored ring is at the origin; the projection handed over is 100 m east of it.
    const own = new FloorIndex(ORIGIN, [{ ring: square(0, 0, 10), projected: projectRing(square(100, 0, 10), ORIGIN), accuracyFactor: 1, fence: 'a' }]);
    expect(own.match(...pointAt(5, 5), 1)).toEqual([]);
    expect(own.match(...pointAt(105, 5), 1)[0].distance).toBeCloseTo(-5, 3);
  });

  it('answers nothing on an empty floor', () => {
    expect(new FloorIndex(ORIGIN, []).match(42.87, -8.56, 3)).toEqual([]);
  });
});
