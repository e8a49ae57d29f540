import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSelfIntersection, LatLng, MAX_RING_POINTS, MIN_RING_POINTS, segmentsIntersect, validateRing } from './polygon';

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/** Closes a list of corners into a ring (first pair repeated at the end), copying every pair. */
const close = (corners: readonly LatLng[]): LatLng[] => [...corners.map(([lat, lng]): LatLng => [lat, lng]), [corners[0][0], corners[0][1]]];

/** The corners of a closed ring (the ring without its closing pair). */
const cornersOf = (ring: readonly LatLng[]): LatLng[] => ring.slice(0, -1).map(([lat, lng]): LatLng => [lat, lng]);

const rotate = <T>(items: readonly T[], by: number): T[] => {
  const shift = ((by % items.length) + items.length) % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
};

/** `x + 0` turns -0 into 0, so that JSON round trips compare equal. */
const noNegativeZero = (x: number): number => x + 0;

/** A single error on the whole field, with the given code. */
const fieldError = (code: string, fields = 'geometric') => [expect.objectContaining({ code, fields, message: expect.any(String) })];

/** Regular polygon (all corners on an ellipse), evenly spaced: convex and simple. */
const regularRing = (corners: number, centre: LatLng = [0, 0], radiusLat = 80, radiusLng = 170): LatLng[] =>
  close(
    Array.from({ length: corners }, (_, k): LatLng => {
      const theta = (2 * Math.PI * k) / corners;
      return [noNegativeZero(centre[0] + radiusLat * Math.sin(theta)), noNegativeZero(centre[1] + radiusLng * Math.cos(theta))];
    }),
  );

// ---------------------------------------------------------------------------------------
// Reference implementation: brute force O(n²) in exact integer arithmetic.
// Independent of polygon.ts: intersection by parametric cross products, adjacency by
// "collinear and pointing the same way from the shared vertex".
// ---------------------------------------------------------------------------------------

type Vec = readonly [number, number];
const sub = (a: Vec, b: Vec): Vec => [a[0] - b[0], a[1] - b[1]];
const cross = (u: Vec, v: Vec): number => u[0] * v[1] - u[1] * v[0];
const dot = (u: Vec, v: Vec): number => u[0] * v[0] + u[1] * v[1];

const assertExact = (...points: Vec[]): void => {
  for (const point of points) {
    for (const coordinate of point) {
      // Products of differences of integers below 2^20 stay exact in doubles.
      if (!Number.isInteger(coordinate) || Math.abs(coordinate) > 2 ** 20) throw new Error(`reference needs small integers, got ${coordinate}`);
    }
  }
};

/** Whether closed segments [p, p2] and [q, q2] share a point (both of positive length). */
function refSegmentsMeet(p: Vec, p2: Vec, q: Vec, q2: Vec): boolean {
  assertExact(p, p2, q, q2);
  const r = sub(p2, p);
  const s = sub(q2, q);
  const qp = sub(q, p);
  if (dot(r, r) === 0 || dot(s, s) === 0) throw new Error('reference: zero-length segment');
  const denominator = cross(r, s);
  if (denominator === 0) {
    if (cross(qp, r) !== 0) return false; // parallel, on different lines
    // Collinear: project q and q2 onto p + t·r, in units of 1/|r|², and compare with [0, |r|²].
    const t0 = dot(qp, r);
    const t1 = t0 + dot(s, r);
    return Math.max(Math.min(t0, t1), 0) <= Math.min(Math.max(t0, t1), dot(r, r));
  }
  // p + t·r = q + u·s with t = (qp × s) / (r × s), u = (qp × r) / (r × s); both in [0, 1].
  let t = cross(qp, s);
  let u = cross(qp, r);
  let d = denominator;
  if (d < 0) [t, u, d] = [-t, -u, -d];
  return t >= 0 && t <= d && u >= 0 && u <= d;
}

/** Edges (a→b) and (b→c) share b; they overlap beyond it only if c turns straight back towards a. */
function refFoldsBack(a: Vec, b: Vec, c: Vec): boolean {
  assertExact(a, b, c);
  return cross(sub(a, b), sub(c, b)) === 0 && dot(sub(a, b), sub(c, b)) > 0;
}

/** Every pair [i, j] (i < j) of edges of the closed ring that touch or cross, by brute force. */
function refIntersectingPairs(ring: readonly LatLng[], meet = refSegmentsMeet, foldsBack = refFoldsBack): Array<[number, number]> {
  const n = ring.length - 1; // edge i runs from ring[i] to ring[i + 1]
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 1; j < n; j += 1) {
      let hit: boolean;
      if (j === i + 1) hit = foldsBack(ring[i], ring[i + 1], ring[i + 2]);
      else if (i === 0 && j === n - 1)
        hit = foldsBack(ring[n - 1], ring[n], ring[1]); // last edge runs into edge 0
      else hit = meet(ring[i], ring[i + 1], ring[j], ring[j + 1]);
      if (hit) pairs.push([i, j]);
    }
  }
  return pairs;
}

/** The preconditions validateRing establishes before it calls findSelfIntersection. */
const isWellFormedRing = (ring: readonly LatLng[]): boolean => {
  if (ring.length < MIN_RING_POINTS) return false;
  const [first, last] = [ring[0], ring[ring.length - 1]];
  if (first[0] !== last[0] || first[1] !== last[1]) return false;
  for (let i = 1; i < ring.length; i += 1) {
    if (ring[i][0] === ring[i - 1][0] && ring[i][1] === ring[i - 1][1]) return false;
  }
  return new Set(ring.slice(0, -1).map(([lat, lng]) => `${lat},${lng}`)).size >= 3;
};

// ---------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------

/** Largest cyclic gap between sorted angle units (out of `steps`). */
const maxCyclicGap = (sorted: readonly number[], steps: number): number => {
  let gap = sorted[0] + steps - sorted[sorted.length - 1];
  for (let k = 1; k < sorted.length; k += 1) gap = Math.max(gap, sorted[k] - sorted[k - 1]);
  return gap;
};

/**
 * Sorted distinct angles (in units of 1/steps of a turn) whose consecutive gaps all stay
 * below 170°, so that every edge lies inside its own wedge < 180° around the centre and
 * the polygon is star-shaped, hence simple. Distinct integer units keep corners apart.
 */
const anglesArb = (minCorners: number, maxCorners: number, steps: number) =>
  fc
    .uniqueArray(fc.integer({ min: 0, max: steps - 1 }), { minLength: minCorners, maxLength: maxCorners })
    .map((units) => [...units].sort((a, b) => a - b))
    .filter((units) => maxCyclicGap(units, steps) < (steps * 170) / 360);

/** Centre and size of a polygon such that all of it stays inside the valid lat/lng ranges. */
const placementArb = fc.constantFrom(1e-4, 1e-3, 0.05, 1, 10, 60).chain((radius) =>
  fc.record({
    radius: fc.constant(radius),
    // Different scales on lat and lng (an affine map keeps the polygon simple / convex).
    aspect: fc.double({ min: 0.5, max: 2, noNaN: true }),
    lat: fc.double({ min: -(89 - radius), max: 89 - radius, noNaN: true }),
    lng: fc.double({ min: -(178 - 2 * radius), max: 178 - 2 * radius, noNaN: true }),
  }),
);

const toCorners = (units: readonly number[], steps: number, radii: readonly number[], place: { radius: number; aspect: number; lat: number; lng: number }): LatLng[] =>
  units.map((unit, k): LatLng => {
    const theta = (2 * Math.PI * unit) / steps;
    return [noNegativeZero(place.lat + place.radius * radii[k] * Math.sin(theta)), noNegativeZero(place.lng + place.radius * place.aspect * radii[k] * Math.cos(theta))];
  });

/** Corners of a star-shaped polygon (radii 0.2–1 of the size), in angular order. */
const starCornersArb = (minCorners = 3, maxCorners = 40, steps = 36_000) =>
  fc.tuple(anglesArb(minCorners, maxCorners, steps), placementArb).chain(([units, place]) =>
    fc.array(fc.integer({ min: 20, max: 100 }), { minLength: units.length, maxLength: units.length }).map((radii) =>
      toCorners(
        units,
        steps,
        radii.map((r) => r / 100),
        place,
      ),
    ),
  );

/** Corners of a convex polygon (all on an ellipse), in angular order. */
const convexCornersArb = (minCorners = 3, maxCorners = 40, steps = 3_600) =>
  fc.tuple(anglesArb(minCorners, maxCorners, steps), placementArb).map(([units, place]) =>
    toCorners(
      units,
      steps,
      units.map(() => 1),
      place,
    ),
  );

/** A simple ring in any orientation and starting at any corner. */
const validRingArb = (minCorners = 3, maxCorners = 40) =>
  fc
    .tuple(fc.oneof(starCornersArb(minCorners, maxCorners), convexCornersArb(minCorners, maxCorners)), fc.nat(), fc.boolean())
    .map(([corners, start, reversed]) => close(rotate(reversed ? [...corners].reverse() : corners, start)));

/** Random closed rings on an integer grid, in the shape validateRing hands to findSelfIntersection. */
const gridRingArb = (min: number, max: number, minCorners = 3, maxCorners = 12) =>
  fc
    .array(fc.tuple(fc.integer({ min, max }), fc.integer({ min, max })), { minLength: minCorners, maxLength: maxCorners })
    .map((corners) => close(corners.map(([lat, lng]): LatLng => [noNegativeZero(lat), noNegativeZero(lng)])))
    .filter(isWellFormedRing);

/** Star polygons rounded to a coarse integer grid: about half stay simple, half do not. */
const roundedStarRingArb = fc
  .tuple(anglesArb(3, 12, 360), fc.integer({ min: 3, max: 25 }))
  .chain(([units, size]) =>
    fc.array(fc.integer({ min: 1, max: size }), { minLength: units.length, maxLength: units.length }).map((radii) =>
      close(
        units.map((unit, k): LatLng => {
          const theta = (2 * Math.PI * unit) / 360;
          return [noNegativeZero(Math.round(radii[k] * Math.sin(theta))), noNegativeZero(Math.round(radii[k] * Math.cos(theta)))];
        }),
      ),
    ),
  )
  .filter(isWellFormedRing);

// ---------------------------------------------------------------------------------------
// segmentsIntersect
// ---------------------------------------------------------------------------------------

describe('segmentsIntersect', () => {
  const cases: Array<[string, LatLng, LatLng, LatLng, LatLng, boolean]> = [
    ['crossing (X)', [0, 0], [2, 2], [0, 2], [2, 0], true],
    ['crossing, one of them axis-aligned', [1, -1], [1, 3], [0, 0], [2, 2], true],
    ['touching at a shared endpoint', [0, 0], [1, 1], [1, 1], [2, 0], true],
    ['an endpoint touching the interior of the other (T)', [0, 0], [2, 0], [1, 0], [1, 5], true],
    ['collinear, overlapping', [0, 0], [2, 2], [1, 1], [3, 3], true],
    ['collinear, one containing the other', [0, 0], [4, 0], [1, 0], [2, 0], true],
    ['collinear, touching end to end', [0, 0], [1, 0], [1, 0], [2, 0], true],
    ['collinear, disjoint', [0, 0], [1, 1], [2, 2], [3, 3], false],
    ['collinear on an axis, disjoint', [0, 0], [0, 1], [0, 2], [0, 3], false],
    ['parallel, distinct lines', [0, 0], [2, 2], [0, 1], [2, 3], false],
    ['parallel horizontal', [0, 0], [0, 5], [1, 0], [1, 5], false],
    ['lines cross outside both segments', [0, 0], [1, 1], [3, 0], [2, 1], false],
    ['lines cross inside one segment only', [0, 0], [4, 4], [3, 0], [2.5, 0.5], false],
    ['near miss by a small margin', [0, 0], [2, 0], [1, 1e-9], [1, 5], false],
  ];

  it.each(cases)('%s → %s', (_name, p1, q1, p2, q2, expected) => {
    expect(segmentsIntersect(p1, q1, p2, q2)).toBe(expected);
  });

  it.each(cases)('is symmetric in its segments and in their endpoints: %s', (_name, p1, q1, p2, q2, expected) => {
    for (const [a, b, c, d] of [
      [p1, q1, p2, q2],
      [q1, p1, p2, q2],
      [p1, q1, q2, p2],
      [p2, q2, p1, q1],
      [q2, p2, q1, p1],
    ]) {
      expect(segmentsIntersect(a, b, c, d)).toBe(expected);
    }
  });

  it('agrees with the exact reference on random integer segments (property)', () => {
    const point = fc.tuple(fc.integer({ min: -4, max: 4 }), fc.integer({ min: -4, max: 4 })) as fc.Arbitrary<LatLng>;
    fc.assert(
      fc.property(point, point, point, point, (p1, q1, p2, q2) => {
        fc.pre((p1[0] !== q1[0] || p1[1] !== q1[1]) && (p2[0] !== q2[0] || p2[1] !== q2[1]));
        const expected = refSegmentsMeet(p1, q1, p2, q2);
        expect(segmentsIntersect(p1, q1, p2, q2)).toBe(expected);
        expect(segmentsIntersect(q2, p2, q1, p1)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });
});

// ---------------------------------------------------------------------------------------
// findSelfIntersection against the brute-force reference
// ---------------------------------------------------------------------------------------

describe('findSelfIntersection', () => {
  /** Checks agreement with the reference, and that any reported pair really touches. */
  const agreesWithReference = (ring: LatLng[], pairs = refIntersectingPairs(ring)): void => {
    const found = findSelfIntersection(ring);
    expect(found !== null, `ring ${JSON.stringify(ring)}: reference pairs ${JSON.stringify(pairs)}, found ${JSON.stringify(found)}`).toBe(pairs.length > 0);
    if (found) {
      expect(found[0]).toBeLessThan(found[1]);
      expect(pairs).toContainEqual(found);
    }
  };

  it('returns null for a simple triangle and a square', () => {
    expect(
      findSelfIntersection(
        close([
          [0, 0],
          [0, 1],
          [1, 0],
        ]),
      ),
    ).toBeNull();
    expect(
      findSelfIntersection(
        close([
          [0, 0],
          [0, 1],
          [1, 1],
          [1, 0],
        ]),
      ),
    ).toBeNull();
  });

  it('names the two crossing edges of a bow-tie', () => {
    // Edges 0: (0,0)→(1,1) and 2: (1,0)→(0,1) cross at (0.5, 0.5).
    expect(
      findSelfIntersection(
        close([
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
        ]),
      ),
    ).toEqual([0, 2]);
  });

  it('treats the last and the first edge as adjacent (they share the closing vertex)', () => {
    // A right-angle corner at the closing vertex: edges 3 and 0 meet only there.
    expect(
      findSelfIntersection(
        close([
          [0, 0],
          [0, 4],
          [4, 4],
          [4, 0],
        ]),
      ),
    ).toBeNull();
    // A fold back across the closing vertex: edge 5 (4,4)→(6,6), edge 0 (6,6)→(5,5). Edge 1
    // starts at (5,5), on edge 5, so [1, 5] touch as well; either pair may be reported.
    const spike = close([
      [6, 6],
      [5, 5],
      [4, 0],
      [0, 0],
      [0, 4],
      [4, 4],
    ]);
    expect(refIntersectingPairs(spike)).toEqual([
      [0, 5],
      [1, 5],
    ]);
    expect([
      [0, 5],
      [1, 5],
    ]).toContainEqual(findSelfIntersection(spike));
    // A degenerate triangle (three collinear corners) only has adjacent edges: they fold back.
    const flat = close([
      [0, 0],
      [0, 2],
      [0, 1],
    ]);
    expect(refIntersectingPairs(flat)).toEqual([
      [0, 1],
      [0, 2],
    ]);
    expect([
      [0, 1],
      [0, 2],
    ]).toContainEqual(findSelfIntersection(flat));
  });

  it('agrees with the brute force on random rings of 3–12 corners on a tiny grid (property)', () => {
    // A 5×5 grid makes collinear, touching and overlapping edges very common.
    fc.assert(
      fc.property(gridRingArb(0, 4), (ring) => agreesWithReference(ring)),
      { numRuns: 500 },
    );
  });

  it('agrees with the brute force on random rings of 4–12 corners over the whole lat range (property)', () => {
    fc.assert(
      fc.property(gridRingArb(-90, 90, 4, 12), (ring) => agreesWithReference(ring)),
      { numRuns: 300 },
    );
  });

  it('agrees with the brute force on rounded star polygons, simple or not (property)', () => {
    fc.assert(
      fc.property(roundedStarRingArb, (ring) => agreesWithReference(ring)),
      { numRuns: 400 },
    );
  });

  it('sweeps like the brute force on random double coordinates (property)', () => {
    // Same intersection primitive on both sides (plus the bounding-box overlap that any real
    // intersection needs), so this isolates the sweep: sort, pruning, adjacency. Coordinates
    // have 7 decimals like real data, and come partly from a small pool to create shared
    // longitudes, shared latitudes and repeated corners. Rings whose adjacent edges are even
    // nearly collinear are left out: the reference's adjacency test is exact only on integers.
    const r7 = (x: number) => noNegativeZero(Math.round(x * 1e7) / 1e7);
    const coordinate = (limit: number) => fc.oneof(fc.double({ min: -limit, max: limit, noNaN: true }).map(r7), fc.constantFrom(-limit, -1.25, 0, 3.5, 42.8723597, limit));
    const boxesOverlap = (a: LatLng, b: LatLng, c: LatLng, d: LatLng): boolean =>
      [0, 1].every((axis) => Math.max(Math.min(a[axis], b[axis]), Math.min(c[axis], d[axis])) <= Math.min(Math.max(a[axis], b[axis]), Math.max(c[axis], d[axis])));
    const meet = (a: Vec, b: Vec, c: Vec, d: Vec): boolean =>
      boxesOverlap(a as LatLng, b as LatLng, c as LatLng, d as LatLng) && segmentsIntersect(a as LatLng, b as LatLng, c as LatLng, d as LatLng);
    const ringArb = fc
      .array(fc.tuple(coordinate(90), coordinate(180)), { minLength: 3, maxLength: 14 })
      .map((corners) => close(corners as LatLng[]))
      .filter(isWellFormedRing);
    fc.assert(
      fc.property(ringArb, (ring) => {
        const corners = cornersOf(ring);
        const k = corners.length;
        for (let i = 0; i < k; i += 1) {
          const [a, b, c] = [corners[i], corners[(i + 1) % k], corners[(i + 2) % k]];
          const scale = Math.max(1, ...[a, b, c].flat().map(Math.abs)) ** 2;
          fc.pre(Math.abs(cross(sub(a, b), sub(c, b))) > 1e-6 * scale);
        }
        agreesWithReference(
          ring,
          refIntersectingPairs(ring, meet, () => false),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('returns null on simple rings (star-shaped and convex) (property)', () => {
    fc.assert(
      fc.property(validRingArb(), (ring) => {
        expect(findSelfIntersection(ring)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------
// validateRing: valid rings
// ---------------------------------------------------------------------------------------

describe('validateRing: valid rings', () => {
  it('accepts the example of the contract', () => {
    const ring: LatLng[] = [
      [42.8723597, -8.5633224],
      [42.8724068, -8.5632165],
      [42.8723292, -8.5631467],
      [42.8723597, -8.5633224],
    ];
    expect(validateRing(ring)).toEqual([]);
  });

  it('accepts the smallest ring (a triangle, 4 pairs)', () => {
    expect(MIN_RING_POINTS).toBe(4);
    expect(
      validateRing(
        close([
          [0, 0],
          [0, 1],
          [1, 0],
        ]),
      ),
    ).toEqual([]);
  });

  it('accepts corners exactly on the range limits (±90, ±180)', () => {
    expect(
      validateRing(
        close([
          [-90, -180],
          [-90, 180],
          [90, 180],
          [90, -180],
        ]),
      ),
    ).toEqual([]);
  });

  it('accepts a concave polygon and a polygon with collinear consecutive corners going forward', () => {
    // An L shape.
    expect(
      validateRing(
        close([
          [0, 0],
          [0, 4],
          [2, 4],
          [2, 2],
          [4, 2],
          [4, 0],
        ]),
      ),
    ).toEqual([]);
    // (0,0)→(0,2)→(0,4): a straight edge split in two is not a fold back.
    expect(
      validateRing(
        close([
          [0, 0],
          [0, 2],
          [0, 4],
          [4, 4],
          [4, 0],
        ]),
      ),
    ).toEqual([]);
  });

  it('accepts simple rings, without mutating them, and they round-trip through JSON unchanged (property)', () => {
    fc.assert(
      fc.property(validRingArb(), (ring) => {
        // (No Object.freeze here: frozen arrays make V8's inline caches in polygon.ts
        // polymorphic for the rest of the file and slow the 10,000-pair tests down ~10×.)
        const snapshot = structuredClone(ring);
        const pairs = [...ring];
        expect(validateRing(ring)).toEqual([]);
        expect(ring).toEqual(snapshot);
        ring.forEach((pair, index) => expect(pair).toBe(pairs[index])); // same pair objects, same order
        const parsed: unknown = JSON.parse(JSON.stringify(ring));
        expect(parsed).toEqual(ring);
        expect(validateRing(parsed)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('accepts large star-shaped rings (property)', () => {
    fc.assert(
      fc.property(
        starCornersArb(500, 3_000).map((corners) => close(corners)),
        (ring) => {
          expect(validateRing(ring)).toEqual([]);
        },
      ),
      { numRuns: 10 },
    );
  });

  it('uses the given field name', () => {
    expect(validateRing('nope', 'area')).toEqual(fieldError('invalid', 'area'));
    expect(validateRing([[0, 0], [0, 1], 'x', [0, 0]], 'area')).toEqual([expect.objectContaining({ code: 'invalid', fields: 'area[2]' })]);
    expect(
      validateRing(
        close([
          [0, 0],
          [0, 1],
          [1, 0],
        ]),
        'area',
      ),
    ).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------
// validateRing: size limits
// ---------------------------------------------------------------------------------------

describe('validateRing: size limits', () => {
  it('accepts a ring of exactly 10,000 pairs (a regular 9,999-gon)', () => {
    expect(MAX_RING_POINTS).toBe(10_000);
    const ring = regularRing(9_999);
    expect(ring).toHaveLength(10_000);
    expect(validateRing(ring)).toEqual([]);
  });

  it('refuses a ring of 10,001 pairs', () => {
    const ring = regularRing(10_000);
    expect(ring).toHaveLength(10_001);
    expect(validateRing(ring)).toEqual(fieldError('invalid'));
  });

  /**
   * A comb of 10,000 pairs: ~5,000 horizontal teeth edges that all span almost the whole
   * longitude range, so the longitude sweep keeps them all active (its worst case).
   */
  const comb = (pairs: number): LatLng[] => {
    const teeth = Math.floor((pairs - 2) / 4);
    const extra = pairs - (4 * teeth + 2); // spare pairs go on the spine, collinear
    const h = 178 / (2 * teeth);
    const corners: LatLng[] = [[-89, -170]];
    let top = -89;
    for (let t = 0; t < teeth; t += 1) {
      const y0 = -89 + 2 * t * h;
      const y1 = y0 + h;
      corners.push([y0, 170], [y1, 170], [y1, -160]);
      if (t < teeth - 1) corners.push([y0 + 2 * h, -160]);
      top = y1;
    }
    corners.push([top, -170]);
    for (let e = 1; e <= extra; e += 1) corners.push([top - ((top + 89) * e) / (extra + 1), -170]);
    return close(corners);
  };

  /**
   * Slanted teeth: every tooth edge overlaps thousands of others along both axes, which made
   * the former axis-interval sweep compare ~25 M pairs (0.5–1.7 s). The base closes the ring.
   */
  const sawtooth = (pairs: number): LatLng[] => {
    const teeth = Math.floor((pairs - 3) / 2);
    const step = 170 / teeth / 2;
    const corners: LatLng[] = [];
    for (let tooth = 0; tooth < teeth; tooth += 1) corners.push([-40, -85 + tooth * step], [40, -85 + tooth * step + 40]);
    corners.push([-40, -85 + teeth * step]);
    while (corners.length < pairs - 2) corners.push([-41 - corners.length * 1e-6, -85 + teeth * step]);
    corners.push([-45, -85]);
    return close(corners);
  };

  it('agrees with the brute force on small sawtooths, simple and with one tooth bent across its neighbour', () => {
    for (const pairs of [9, 15, 41]) {
      const ring = sawtooth(pairs).map(([lat, lng]): LatLng => [Math.round(lat * 64), Math.round(lng * 64)]);
      expect(refIntersectingPairs(ring)).toEqual([]);
      expect(findSelfIntersection(ring)).toBeNull();
      const bent = ring.map((pair): LatLng => [pair[0], pair[1]]);
      bent[3] = [bent[3][0], bent[5][1] + 64];
      const pairsMet = refIntersectingPairs(bent);
      expect(pairsMet.length).toBeGreaterThan(0);
      expect(pairsMet).toContainEqual(findSelfIntersection(bent));
    }
  });

  it('validates a 10,000-pair sawtooth in well under the old 600–800 ms', () => {
    const ring = sawtooth(10_000);
    expect(ring).toHaveLength(10_000);
    const started = performance.now();
    expect(validateRing(ring)).toEqual([]);
    // About 10 ms here (best of 7) against 500 ms for the former sweep; the bound leaves room
    // for a cold JIT on a loaded CI machine and still fails a quadratic check.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('validates a 10,000-pair comb (formerly the sweep worst case) without timing out', { timeout: 30_000 }, () => {
    const ring = comb(10_000);
    expect(ring).toHaveLength(10_000);
    expect(validateRing(ring)).toEqual([]);
  });

  it('finds a single crossing in a 10,000-pair ring', () => {
    const corners = cornersOf(regularRing(9_999));
    // Swap two neighbouring corners far from the start: a sub-path reversal, which crosses.
    [corners[7_000], corners[7_001]] = [corners[7_001], corners[7_000]];
    const ring = close(corners);
    expect(validateRing(ring)).toEqual(fieldError('self_intersection'));
    expect(findSelfIntersection(ring)).toEqual([6_999, 7_001]);
  });

  it.each([
    ['no pairs', []],
    ['one pair', [[0, 0]]],
    [
      'two pairs',
      [
        [0, 0],
        [1, 1],
      ],
    ],
    [
      'three pairs, closed',
      [
        [0, 0],
        [1, 1],
        [0, 0],
      ],
    ],
    [
      'three pairs, open',
      [
        [0, 0],
        [1, 1],
        [1, 0],
      ],
    ],
  ])('refuses fewer than 4 pairs: %s', (_name, ring) => {
    expect(validateRing(ring)).toEqual(fieldError('invalid'));
  });
});

// ---------------------------------------------------------------------------------------
// validateRing: broken rings
// ---------------------------------------------------------------------------------------

describe('validateRing: malformed input', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', '[[0,0],[0,1],[1,0],[0,0]]'],
    ['a number', 42],
    ['an object', { type: 'Polygon', coordinates: [] }],
    ['an array-like object', { length: 4, 0: [0, 0], 1: [0, 1], 2: [1, 0], 3: [0, 0] }],
    ['a typed array', new Float64Array([0, 0, 0, 1, 1, 0, 0, 0])],
  ])('refuses non-array input: %s', (_name, value) => {
    expect(validateRing(value)).toEqual(fieldError('invalid'));
  });

  const notPairs: Array<[string, unknown]> = [
    ['NaN latitude', [Number.NaN, 1]],
    ['NaN longitude', [1, Number.NaN]],
    ['Infinity', [Number.POSITIVE_INFINITY, 1]],
    ['-Infinity', [1, Number.NEGATIVE_INFINITY]],
    ['numeric strings', ['1', '2']],
    ['a 3-element array', [1, 2, 3]],
    ['a 1-element array', [1]],
    ['an empty array', []],
    ['null', null],
    ['undefined', undefined],
    ['a number', 5],
    ['an object', { lat: 1, lng: 2 }],
    ['booleans', [true, false]],
    ['null coordinates', [null, null]],
    ['a bigint', [1n, 2]],
    ['a nested pair', [[1, 2], 3]],
  ];

  it.each(notPairs)('refuses a pair that is not two finite numbers (%s) at geometric[i]', (_name, bad) => {
    const corners: unknown[] = [
      [0, 0],
      [0, 1],
      [1, 1],
      [1, 0],
    ];
    for (const index of [0, 2, 4]) {
      const ring: unknown[] = [...corners, [0, 0]];
      ring[index] = bad;
      const errors = validateRing(ring);
      expect(errors).toEqual([expect.objectContaining({ code: 'invalid', fields: `geometric[${index}]` })]);
      expect(errors[0].value).toBe(bad);
    }
  });

  it('reports every bad pair, each with its own index (property)', () => {
    const badPair = fc.constantFrom<unknown>(Number.NaN, null, 'x', [1], [1, 2, 3], ['1', '2'], [Number.NaN, 0], [0, Number.POSITIVE_INFINITY]);
    fc.assert(
      fc.property(
        validRingArb(4, 20).chain((ring) => fc.tuple(fc.constant(ring), fc.uniqueArray(fc.nat({ max: ring.length - 1 }), { minLength: 1, maxLength: ring.length }), badPair)),
        ([ring, indexes, bad]) => {
          const broken: unknown[] = [...ring];
          for (const index of indexes) broken[index] = bad;
          const errors = validateRing(broken);
          expect(errors.map((error) => error.fields)).toEqual([...indexes].sort((a, b) => a - b).map((index) => `geometric[${index}]`));
          expect(errors.every((error) => error.code === 'invalid')).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('validateRing: out-of-range coordinates', () => {
  it.each([
    ['latitude above 90', [90.0000001, 0], 0],
    ['latitude below -90', [-91, 0], 0],
    ['longitude above 180', [0, 180.5], 1],
    ['longitude below -180', [0, -181], 1],
    ['huge latitude', [1e300, 0], 0],
  ] as Array<[string, LatLng, 0 | 1]>)('refuses a %s with geometric[i][k]', (_name, pair, axis) => {
    const ring: LatLng[] = [[0, 0], [0, 1], pair, [1, 0], [0, 0]];
    expect(validateRing(ring)).toEqual([expect.objectContaining({ code: 'out_of_range', fields: `geometric[2][${axis}]`, value: pair[axis] })]);
  });

  it('reports both coordinates of a pair when both are out of range', () => {
    const ring: LatLng[] = [
      [0, 0],
      [0, 1],
      [100, -200],
      [1, 0],
      [0, 0],
    ];
    expect(validateRing(ring)).toEqual([
      expect.objectContaining({ code: 'out_of_range', fields: 'geometric[2][0]', value: 100 }),
      expect.objectContaining({ code: 'out_of_range', fields: 'geometric[2][1]', value: -200 }),
    ]);
  });

  it('refuses an out-of-range coordinate anywhere in a valid ring, naming it (property)', () => {
    const outside = (limit: number) =>
      fc.oneof(fc.double({ min: limit, max: 1e6, noNaN: true, minExcluded: true }), fc.double({ min: -1e6, max: -limit, noNaN: true, maxExcluded: true }));
    fc.assert(
      fc.property(
        validRingArb(3, 30).chain((ring) => fc.tuple(fc.constant(ring), fc.nat({ max: ring.length - 1 }), fc.constantFrom<0 | 1>(0, 1))),
        fc.tuple(outside(90), outside(180)),
        ([ring, index, axis], [badLat, badLng]) => {
          const broken = ring.map(([lat, lng]): LatLng => [lat, lng]);
          const bad = axis === 0 ? badLat : badLng;
          broken[index][axis] = bad;
          expect(validateRing(broken)).toEqual([expect.objectContaining({ code: 'out_of_range', fields: `geometric[${index}][${axis}]`, value: bad })]);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('validateRing: open rings', () => {
  it('refuses a ring whose last pair does not repeat the first', () => {
    expect(
      validateRing([
        [0, 0],
        [0, 1],
        [1, 1],
        [1, 0],
      ]),
    ).toEqual(fieldError('not_closed'));
    expect(
      validateRing([
        [0, 0],
        [0, 1],
        [1, 1],
        [1, 0],
        [0, 1e-9],
      ]),
    ).toEqual(fieldError('not_closed'));
  });

  it('refuses a valid ring with its closing pair dropped (property)', () => {
    fc.assert(
      fc.property(validRingArb(4, 40), (ring) => {
        expect(validateRing(ring.slice(0, -1))).toEqual(fieldError('not_closed'));
      }),
      { numRuns: 200 },
    );
  });
});

describe('validateRing: repeated points', () => {
  it('refuses a consecutive repeated corner, naming the repeat', () => {
    expect(
      validateRing([
        [0, 0],
        [0, 1],
        [0, 1],
        [1, 0],
        [0, 0],
      ]),
    ).toEqual([expect.objectContaining({ code: 'repeated_point', fields: 'geometric[2]' })]);
    // The closing pair repeated.
    expect(
      validateRing([
        [0, 0],
        [0, 1],
        [1, 0],
        [0, 0],
        [0, 0],
      ]),
    ).toEqual([expect.objectContaining({ code: 'repeated_point', fields: 'geometric[4]' })]);
  });

  it('refuses a valid ring with any pair duplicated in place (property)', () => {
    fc.assert(
      fc.property(
        validRingArb(3, 30).chain((ring) => fc.tuple(fc.constant(ring), fc.nat({ max: ring.length - 1 }))),
        ([ring, index]) => {
          const broken = [...ring.slice(0, index + 1), [...ring[index]] as LatLng, ...ring.slice(index + 1)];
          expect(validateRing(broken)).toEqual([expect.objectContaining({ code: 'repeated_point', fields: `geometric[${index + 1}]` })]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a ring with fewer than 3 distinct corners', () => {
    expect(
      validateRing([
        [0, 0],
        [1, 1],
        [0, 0],
        [1, 1],
        [0, 0],
      ]),
    ).toEqual(fieldError('invalid'));
  });
});

describe('validateRing: self-intersection', () => {
  it('refuses a bow-tie', () => {
    expect(
      validateRing(
        close([
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
        ]),
      ),
    ).toEqual(fieldError('self_intersection'));
  });

  it('refuses a figure 8 whose loops share a single corner', () => {
    // Two triangles meeting only at (0,0): A B C A D E A.
    const ring: LatLng[] = [
      [0, 0],
      [1, 1],
      [-1, 1],
      [0, 0],
      [1, -1],
      [-1, -1],
      [0, 0],
    ];
    expect(validateRing(ring)).toEqual(fieldError('self_intersection'));
    // The same shape starting elsewhere, so the shared corner is not the closing one.
    expect(validateRing(close(rotate(cornersOf(ring), 2)))).toEqual(fieldError('self_intersection'));
  });

  it('refuses a ring with a corner touching the inside of another edge', () => {
    // (2,0) lies on the edge (0,0)→(4,0).
    expect(
      validateRing(
        close([
          [0, 0],
          [4, 0],
          [4, 4],
          [2, 0],
          [0, 4],
        ]),
      ),
    ).toEqual(fieldError('self_intersection'));
  });

  it('refuses spikes: consecutive edges folding back over each other', () => {
    const square: LatLng[] = [
      [0, 0],
      [0, 4],
      [4, 4],
      [4, 0],
    ];
    // (4,4)→(6,6)→(5,5): goes out and half way back on the same line.
    expect(
      validateRing(
        close([
          [0, 0],
          [0, 4],
          [4, 4],
          [6, 6],
          [5, 5],
          [4, 0],
        ]),
      ),
    ).toEqual(fieldError('self_intersection'));
    // (4,4)→(6,6)→(4,4): all the way back.
    expect(
      validateRing(
        close([
          [0, 0],
          [0, 4],
          [4, 4],
          [6, 6],
          [4, 4],
          [4, 0],
        ]),
      ),
    ).toEqual(fieldError('self_intersection'));
    // (4,4)→(6,6)→(3,3): back past where it started.
    expect(
      validateRing(
        close([
          [0, 0],
          [0, 4],
          [4, 4],
          [6, 6],
          [3, 3],
          [4, 0],
        ]),
      ),
    ).toEqual(fieldError('self_intersection'));
    // A fold back across the closing vertex (last edge → first edge).
    expect(
      validateRing(
        close([
          [6, 6],
          [5, 5],
          [4, 0],
          [0, 0],
          [0, 4],
          [4, 4],
        ]),
      ),
    ).toEqual(fieldError('self_intersection'));
    // A degenerate ring: three collinear corners.
    expect(
      validateRing(
        close([
          [0, 0],
          [0, 1],
          [0, 2],
        ]),
      ),
    ).toEqual(fieldError('self_intersection'));
    expect(validateRing(close(square))).toEqual([]);
  });

  it('refuses a spike A→B→A inserted anywhere in a valid ring (property)', () => {
    fc.assert(
      fc.property(
        validRingArb(3, 30).chain((ring) => fc.tuple(fc.constant(ring), fc.nat({ max: ring.length - 2 }))),
        ([ring, index]) => {
          const corners = cornersOf(ring);
          const k = corners.length;
          // corners[index] → corners[index + 1] → corners[index] again → corners[index + 2] …
          const back: LatLng = [...corners[index]];
          const spiked = close(rotate([...rotate(corners, index + 2), back], k - index - 2));
          expect(spiked).toHaveLength(ring.length + 1);
          expect(validateRing(spiked)).toEqual(fieldError('self_intersection'));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a convex polygon with a sub-path reversed, which always crosses (property)', () => {
    fc.assert(
      fc.property(
        convexCornersArb(4, 40).chain((corners) => fc.tuple(fc.constant(corners), fc.nat({ max: corners.length - 1 }), fc.integer({ min: 2, max: corners.length - 2 }), fc.nat())),
        ([corners, at, length, start]) => {
          // With v = corners rotated by `at`: v0, v_L, …, v_1, v_{L+1}, … The chords v0→v_L and
          // v_1→v_{L+1} have interleaved ends on a convex polygon, so they cross.
          const v = rotate(corners, at);
          const reversed = [v[0], ...v.slice(1, length + 1).reverse(), ...v.slice(length + 1)];
          const ring = close(rotate(reversed, start));
          expect(validateRing(ring)).toEqual(fieldError('self_intersection'));
          const found = findSelfIntersection(ring);
          expect(found).not.toBeNull();
          const [i, j] = found as [number, number];
          expect(segmentsIntersect(ring[i], ring[i + 1], ring[j], ring[j + 1])).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------
// Regressions: each of these once failed
// ---------------------------------------------------------------------------------------

describe('segmentsIntersect: floating-point robustness', () => {
  // Rounding made both collinearity tests 0 and the old `o1 !== o2 && o3 !== o4` fire.
  it('does not report segments with disjoint bounding boxes as meeting', () => {
    expect(segmentsIntersect([0, 0], [1, 1], [0, -1e-20], [1, -1])).toBe(false);
  });
});

describe('validateRing: sparse arrays (not reachable from a JSON body)', () => {
  // forEach skipped holes and a later read of the missing pair threw.
  it('refuses a ring with a hole instead of a pair', () => {
    const ring = [[0, 0], , [1, 1], [1, 0], [0, 0]];
    expect(validateRing(ring)).toEqual([expect.objectContaining({ code: 'invalid', fields: 'geometric[1]' })]);
  });

  // every() skipped holes, so an undefined longitude passed.
  it('refuses a pair with a hole instead of a coordinate', () => {
    const ring = [
      [0, 0],
      [0, 1],
      [1, ,],
      [1, 0],
      [0, 0],
    ];
    expect(validateRing(ring)).toEqual([expect.objectContaining({ code: 'invalid', fields: 'geometric[2]' })]);
  });
});
