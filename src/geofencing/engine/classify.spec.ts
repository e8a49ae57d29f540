import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accuracyRadius, classifyDistance, classifyPoint, LocalProjection, overlapShare, ProjectedRing, projectRing, signedDistance } from './classify';

const SEED = 20261123;
const settings = { seed: SEED, numRuns: 150 };

function ringOf(points: Array<[number, number]>): ProjectedRing {
  const xs = Float64Array.from(points.map((point) => point[0]));
  const ys = Float64Array.from(points.map((point) => point[1]));
  return { xs, ys, minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
}

/** A star-shaped ring around the origin: simple by construction, concave whenever the radii vary. */
const starRing = fc
  .array(fc.record({ angle: fc.double({ min: 0, max: 1, noNaN: true }), radius: fc.double({ min: 5, max: 60, noNaN: true }) }), { minLength: 3, maxLength: 14 })
  .map((corners) => {
    const angles = [...new Set(corners.map((corner) => Math.round(corner.angle * 3600)))].sort((a, b) => a - b);
    return angles.map((angle, index): [number, number] => {
      const radius = corners[index % corners.length].radius;
      const theta = (angle / 3600) * 2 * Math.PI;
      return [radius * Math.cos(theta), radius * Math.sin(theta)];
    });
  })
  .filter((points) => points.length >= 3 && Math.abs(area(points)) > 1);

function area(points: Array<[number, number]>): number {
  let sum = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i, i += 1) sum += points[j][0] * points[i][1] - points[i][0] * points[j][1];
  return sum / 2;
}

/** Reference side test: the winding number (a different algorithm from the even-odd count under test). */
function windingInside(points: Array<[number, number]>, x: number, y: number): boolean {
  let winding = 0;
  for (let i = 0; i < points.length; i += 1) {
    const [ax, ay] = points[i];
    const [bx, by] = points[(i + 1) % points.length];
    const cross = (bx - ax) * (y - ay) - (x - ax) * (by - ay);
    if (ay <= y && by > y && cross > 0) winding += 1;
    else if (ay > y && by <= y && cross < 0) winding -= 1;
  }
  return winding !== 0;
}

const SAMPLES_PER_EDGE = 400;

/** Reference distance: the nearest of many points sampled along the boundary, and the sampling step. */
function sampledDistance(points: Array<[number, number]>, x: number, y: number): { distance: number; step: number } {
  let best = Infinity;
  let step = 0;
  for (let i = 0; i < points.length; i += 1) {
    const [ax, ay] = points[i];
    const [bx, by] = points[(i + 1) % points.length];
    step = Math.max(step, Math.hypot(bx - ax, by - ay) / SAMPLES_PER_EDGE);
    for (let k = 0; k <= SAMPLES_PER_EDGE; k += 1) {
      const t = k / SAMPLES_PER_EDGE;
      best = Math.min(best, Math.hypot(ax + t * (bx - ax) - x, ay + t * (by - ay) - y));
    }
  }
  return { distance: best, step };
}

/** Reference overlap: the share of a grid over the accuracy disk that falls inside the ring. */
function sampledShare(points: Array<[number, number]>, x: number, y: number, radius: number, grid = 80): { share: number; all: boolean; none: boolean } {
  let inside = 0;
  let total = 0;
  for (let i = 0; i < grid; i += 1) {
    for (let j = 0; j < grid; j += 1) {
      const u = ((i + 0.5) / grid) * 2 - 1;
      const v = ((j + 0.5) / grid) * 2 - 1;
      if (u * u + v * v > 1) continue;
      total += 1;
      if (windingInside(points, x + u * radius, y + v * radius)) inside += 1;
    }
  }
  return { share: inside / total, all: inside === total, none: inside === 0 };
}

/** Points anywhere around the ring, and points within half a metre of a corner. */
const probe = (points: Array<[number, number]>) =>
  fc.oneof(
    fc.record({ x: fc.double({ min: -80, max: 80, noNaN: true }), y: fc.double({ min: -80, max: 80, noNaN: true }) }),
    fc
      .record({ corner: fc.nat(points.length - 1), dx: fc.double({ min: -0.5, max: 0.5, noNaN: true }), dy: fc.double({ min: -0.5, max: 0.5, noNaN: true }) })
      .map(({ corner, dx, dy }) => ({ x: points[corner][0] + dx, y: points[corner][1] + dy })),
  );

const withProbe = starRing.chain((points) => fc.tuple(fc.constant(points), probe(points), fc.double({ min: 0, max: 30, noNaN: true })));

describe('classification (contract 7.1) against brute force', () => {
  it('gives the distance to the nearest boundary point, negative exactly when the point is inside', () => {
    fc.assert(
      fc.property(withProbe, ([points, { x, y }]) => {
        const d = signedDistance(ringOf(points), x, y);
        const reference = sampledDistance(points, x, y);
        expect(Math.abs(d)).toBeLessThanOrEqual(reference.distance + 1e-9);
        expect(reference.distance - Math.abs(d)).toBeLessThanOrEqual(reference.step / 2 + 1e-9);
        // Within a hair of the edge either side is right.
        if (Math.abs(d) > 1e-9) expect(d < 0).toBe(windingInside(points, x, y));
      }),
      settings,
    );
  });

  it('classifies inside only when the whole accuracy disk is inside, outside only when none of it is', () => {
    fc.assert(
      fc.property(withProbe, ([points, { x, y }, accuracy]) => {
        const { classification, radius, overlap } = classifyPoint(ringOf(points), x, y, accuracy, 1);
        const disk = sampledShare(points, x, y, radius * 0.999, 40);
        if (classification === 'inside') {
          expect(disk.all).toBe(true);
          expect(overlap).toBe(1);
        }
        if (classification === 'outside') {
          expect(disk.none).toBe(true);
          expect(overlap).toBe(0);
        }
        if (classification === 'possibly_inside') {
          expect(overlap).toBeGreaterThan(0);
          expect(overlap).toBeLessThan(1);
        }
      }),
      settings,
    );
  });

  it('matches the sampled share of the disk wherever the disk crosses a single straight edge', () => {
    // Points near the middle of an edge, up to one radius either side of it.
    const nearEdge = starRing.chain((points) =>
      fc.tuple(
        fc.constant(points),
        fc.nat(points.length - 1),
        fc.double({ min: 0.2, max: 0.8, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: 0.5, max: 4, noNaN: true }),
      ),
    );
    let checked = 0;
    fc.assert(
      fc.property(nearEdge, ([points, edge, t, h, radius]) => {
        const [ax, ay] = points[edge];
        const [bx, by] = points[(edge + 1) % points.length];
        const length = Math.hypot(bx - ax, by - ay);
        const x = ax + t * (bx - ax) + (h * radius * (by - ay)) / length;
        const y = ay + t * (by - ay) - (h * radius * (bx - ax)) / length;
        const nearCorners = points.filter(([cx, cy]) => Math.hypot(cx - x, cy - y) <= radius).length;
        const edgesWithin = points.filter((_, i) => Math.abs(signedDistance(ringOf([points[i], points[(i + 1) % points.length]]), x, y)) < radius).length;
        if (nearCorners > 0 || edgesWithin !== 1) return;
        checked += 1;
        const d = signedDistance(ringOf(points), x, y);
        expect(Math.abs(overlapShare(d, radius) - sampledShare(points, x, y, radius).share)).toBeLessThan(0.02);
      }),
      { ...settings, numRuns: 200 },
    );
    expect(checked).toBeGreaterThan(50);
  });

  it('follows the formula at known values', () => {
    expect(overlapShare(0, 2)).toBeCloseTo(0.5, 12);
    expect(overlapShare(-2, 2)).toBe(1);
    expect(overlapShare(2, 2)).toBe(0);
    expect(overlapShare(-100, 2)).toBe(1);
    // h = 0.5: (acos(0.5) − 0.5·sqrt(0.75))/π
    expect(overlapShare(1, 2)).toBeCloseTo((Math.acos(0.5) - 0.5 * Math.sqrt(0.75)) / Math.PI, 12);
    expect(overlapShare(-1, 2)).toBeCloseTo(1 - overlapShare(1, 2), 12);
    expect(accuracyRadius(0, 1)).toBe(0.5);
    expect(accuracyRadius(null, 3)).toBe(0.5);
    expect(accuracyRadius(4, 1.5)).toBe(6);
    expect(classifyDistance(-2, 2)).toBe('inside');
    expect(classifyDistance(-1.999, 2)).toBe('possibly_inside');
    expect(classifyDistance(2, 2)).toBe('outside');
  });

  it('measures a concave ring: the notch of a U is outside, its arms inside', () => {
    // A U of 30 × 30 m with a 10 m wide, 20 m deep notch from the top.
    const u = ringOf([
      [0, 0],
      [30, 0],
      [30, 30],
      [20, 30],
      [20, 10],
      [10, 10],
      [10, 30],
      [0, 30],
    ]);
    expect(signedDistance(u, 15, 20)).toBeCloseTo(5, 12);
    expect(signedDistance(u, 5, 20)).toBeCloseTo(-5, 12);
    expect(signedDistance(u, 15, 5)).toBeCloseTo(-5, 12);
    expect(signedDistance(u, 15, 12)).toBeCloseTo(2, 12);
    expect(signedDistance(u, 20, 10)).toBeCloseTo(0, 12);
    expect(signedDistance(u, -3, -4)).toBeCloseTo(5, 12);
  });

  it('projects a ring once around its building, in metres, closing corner dropped', () => {
    const projection = new LocalProjection(42.87, -8.56);
    const ring = projectRing(
      [
        [42.87, -8.56],
        [42.8701, -8.56],
        [42.8701, -8.5599],
        [42.87, -8.56],
      ],
      projection,
    );
    expect(ring.xs.length).toBe(3);
    expect(ring.ys[1]).toBeCloseTo(11.12, 2);
    expect(ring.xs[2]).toBeCloseTo(11.12 * Math.cos((42.87 * Math.PI) / 180), 2);
    expect(new LocalProjection(0, 179.9999).x(-179.9999)).toBeCloseTo(22.24, 1);
  });
});
