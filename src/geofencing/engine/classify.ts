/**
 * Classification of contract 7.1: the signed distance from a point to a fence's ring in
 * local metres, and from it inside / possibly_inside / outside and the overlap share of the
 * accuracy disk. Rings are projected once, around their building, into flat arrays.
 */
export type LatLng = readonly [number, number];

export type Classification = 'inside' | 'possibly_inside' | 'outside';

const EARTH_RADIUS_M = 6_371_008.8;
const METRES_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_M;
/** 7.1: the accuracy radius is never taken below half a metre. */
export const MIN_RADIUS_M = 0.5;

/**
 * A local equirectangular projection around an origin (the building's location): x east,
 * y north, in metres. Over a building's extent its error is far below a fix's accuracy.
 */
export class LocalProjection {
  private readonly metresPerDegreeLng: number;

  constructor(
    readonly originLat: number,
    readonly originLng: number,
  ) {
    this.metresPerDegreeLng = METRES_PER_DEGREE * Math.cos((originLat * Math.PI) / 180);
  }

  x(lng: number): number {
    // Wrapped so a building on the antimeridian keeps its fences next to it.
    const delta = ((((lng - this.originLng + 180) % 360) + 360) % 360) - 180;
    return delta * this.metresPerDegreeLng;
  }

  y(lat: number): number {
    return (lat - this.originLat) * METRES_PER_DEGREE;
  }
}

/** A closed ring in local metres: xs[i], ys[i] for each corner, the closing corner not repeated. */
export interface ProjectedRing {
  xs: Float64Array;
  ys: Float64Array;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Projects a closed ring of [lat, lng] pairs (first = last, as stored). */
export function projectRing(ring: readonly LatLng[], projection: LocalProjection): ProjectedRing {
  const closed = ring.length > 1 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1];
  const count = closed ? ring.length - 1 : ring.length;
  const xs = new Float64Array(count);
  const ys = new Float64Array(count);
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let index = 0; index < count; index += 1) {
    const x = projection.x(ring[index][1]);
    const y = projection.y(ring[index][0]);
    xs[index] = x;
    ys[index] = y;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { xs, ys, minX, minY, maxX, maxY };
}

/**
 * Signed distance in metres from (x, y) to the ring's boundary: negative inside, positive
 * outside, 0 on the edge. One pass over the edges: the nearest edge gives the magnitude and
 * an even-odd crossing count gives the side, which holds for concave rings too.
 */
export function signedDistance(ring: ProjectedRing, x: number, y: number): number {
  const { xs, ys } = ring;
  const count = xs.length;
  let nearest = Infinity;
  let inside = false;
  for (let i = 0, j = count - 1; i < count; j = i, i += 1) {
    const ax = xs[j];
    const ay = ys[j];
    const bx = xs[i];
    const by = ys[i];
    if (ay > y !== by > y && x < ((bx - ax) * (y - ay)) / (by - ay) + ax) inside = !inside;
    const dx = bx - ax;
    const dy = by - ay;
    const lengthSquared = dx * dx + dy * dy;
    let t = lengthSquared === 0 ? 0 : ((x - ax) * dx + (y - ay) * dy) / lengthSquared;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const ex = ax + t * dx - x;
    const ey = ay + t * dy - y;
    const distanceSquared = ex * ex + ey * ey;
    if (distanceSquared < nearest) nearest = distanceSquared;
  }
  const distance = Math.sqrt(nearest);
  return inside ? -distance : distance;
}

/** 7.1: r = max(0.5, accuracy_factor × accuracy), in metres. */
export function accuracyRadius(accuracy: number | null | undefined, accuracyFactor: number): number {
  return Math.max(MIN_RADIUS_M, accuracyFactor * (accuracy ?? 0));
}

/**
 * 7.1: the share of the accuracy disk inside the fence, taking the edge as a straight line
 * at distance d: (acos(h) − h·sqrt(1−h²))/π with h = clamp(d/r, −1, 1).
 */
export function overlapShare(distance: number, radius: number): number {
  const h = Math.min(1, Math.max(-1, distance / radius));
  return (Math.acos(h) - h * Math.sqrt(1 - h * h)) / Math.PI;
}

export function classifyDistance(distance: number, radius: number): Classification {
  if (distance <= -radius) return 'inside';
  if (distance >= radius) return 'outside';
  return 'possibly_inside';
}

export interface ClassifiedPoint {
  classification: Classification;
  overlap: number;
  /** Signed: negative inside the ring. */
  distance: number;
  radius: number;
}

/** Everything 7.1 says about one point and one fence. */
export function classifyPoint(ring: ProjectedRing, x: number, y: number, accuracy: number | null | undefined, accuracyFactor: number): ClassifiedPoint {
  const distance = signedDistance(ring, x, y);
  const radius = accuracyRadius(accuracy, accuracyFactor);
  return { classification: classifyDistance(distance, radius), overlap: overlapShare(distance, radius), distance, radius };
}
