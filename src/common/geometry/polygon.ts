import { FieldError } from '../errors/api-error';

/** A [lat, lng] pair in decimal degrees. */
export type LatLng = [number, number];
type Point = readonly [number, number];

export const MIN_RING_POINTS = 4;
export const MAX_RING_POINTS = 10_000;

interface Segment {
  index: number;
  a: Point;
  b: Point;
  /** Extent along the sweep axis. */
  min: number;
  max: number;
}

const orientation = (p: Point, q: Point, r: Point): number => {
  const value = (q[1] - p[1]) * (r[0] - q[0]) - (q[0] - p[0]) * (r[1] - q[1]);
  return value > 0 ? 1 : value < 0 ? -1 : 0;
};

const onSegment = (p: Point, q: Point, r: Point): boolean =>
  Math.min(p[0], r[0]) <= q[0] && q[0] <= Math.max(p[0], r[0]) && Math.min(p[1], r[1]) <= q[1] && q[1] <= Math.max(p[1], r[1]);

/** Whether two closed segments share at least one point (touching counts). */
export function segmentsIntersect(p1: Point, q1: Point, p2: Point, q2: Point): boolean {
  const o1 = orientation(p1, q1, p2);
  const o2 = orientation(p1, q1, q2);
  const o3 = orientation(p2, q2, p1);
  const o4 = orientation(p2, q2, q1);
  // A proper crossing needs each segment's ends strictly on both sides of the other.
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return (o1 === 0 && onSegment(p1, p2, q1)) || (o2 === 0 && onSegment(p1, q2, q1)) || (o3 === 0 && onSegment(p2, p1, q2)) || (o4 === 0 && onSegment(p2, q1, q2));
}

/**
 * Finds two non-adjacent edges of a closed ring that touch or cross. Edges are swept along
 * the axis where they are shortest in total, so only edges overlapping on it are compared:
 * near-linear for the rings people draw, quadratic only for contrived ones.
 */
export function findSelfIntersection(ring: readonly Point[]): [number, number] | null {
  const edgeCount = ring.length - 1;
  let latExtent = 0;
  let lngExtent = 0;
  for (let index = 0; index < edgeCount; index += 1) {
    latExtent += Math.abs(ring[index + 1][0] - ring[index][0]);
    lngExtent += Math.abs(ring[index + 1][1] - ring[index][1]);
  }
  const axis = latExtent < lngExtent ? 0 : 1;
  const segments: Segment[] = [];
  for (let index = 0; index < edgeCount; index += 1) {
    const a = ring[index];
    const b = ring[index + 1];
    segments.push({ index, a, b, min: Math.min(a[axis], b[axis]), max: Math.max(a[axis], b[axis]) });
  }
  segments.sort((x, y) => x.min - y.min);
  const active: Segment[] = [];
  for (const segment of segments) {
    for (let i = active.length - 1; i >= 0; i -= 1) {
      if (active[i].max < segment.min) active.splice(i, 1);
    }
    for (const other of active) {
      const gap = Math.abs(other.index - segment.index);
      const adjacent = gap === 1 || gap === edgeCount - 1;
      if (adjacent) {
        // Lower index first, except that the last edge runs into edge 0.
        const lowFirst = gap === 1 ? other.index < segment.index : other.index > segment.index;
        const [before, after] = lowFirst ? [other, segment] : [segment, other];
        if (foldsBack(before, after)) return [Math.min(other.index, segment.index), Math.max(other.index, segment.index)];
        continue;
      }
      if (segmentsIntersect(other.a, other.b, segment.a, segment.b)) {
        return other.index < segment.index ? [other.index, segment.index] : [segment.index, other.index];
      }
    }
    active.push(segment);
  }
  return null;
}

/** Two consecutive edges share a vertex; they only overlap when the second turns straight back. */
function foldsBack(before: Segment, after: Segment): boolean {
  const [start, shared, end] = [before.a, before.b, after.b];
  if (orientation(start, shared, end) !== 0) return false;
  return onSegment(start, end, shared) || onSegment(shared, start, end);
}

const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

// Indexed access, not every(): a sparse array's holes must count as missing values.
const isPair = (value: unknown): value is LatLng => Array.isArray(value) && value.length === 2 && isFiniteNumber(value[0]) && isFiniteNumber(value[1]);

/**
 * Validates a geofence polygon (contract section 4): [lat, lng] pairs forming a closed
 * ring, at least 4 and at most 10,000 pairs, coordinates in range, no repeated consecutive
 * point, no self-intersection. Returns every problem found, empty when the ring is valid.
 */
export function validateRing(value: unknown, field = 'geometric'): FieldError[] {
  const error = (message: string, code = 'invalid'): FieldError[] => [{ message, code, fields: field }];
  if (!Array.isArray(value)) return error('must be an array of [lat, lng] pairs');
  if (value.length < MIN_RING_POINTS) return error(`must have at least ${MIN_RING_POINTS} pairs (a closed ring of 3 corners)`);
  if (value.length > MAX_RING_POINTS) return error(`must have at most ${MAX_RING_POINTS} pairs`);
  const errors: FieldError[] = [];
  for (let index = 0; index < value.length; index += 1) {
    const pair: unknown = value[index];
    if (!isPair(pair)) {
      errors.push({ message: 'must be a [lat, lng] pair of finite numbers', code: 'invalid', fields: `${field}[${index}]`, value: pair });
      continue;
    }
    if (pair[0] < -90 || pair[0] > 90) errors.push({ message: 'latitude must be between -90 and 90', code: 'out_of_range', fields: `${field}[${index}][0]`, value: pair[0] });
    if (pair[1] < -180 || pair[1] > 180) errors.push({ message: 'longitude must be between -180 and 180', code: 'out_of_range', fields: `${field}[${index}][1]`, value: pair[1] });
  }
  if (errors.length > 0) return errors;
  const ring = value as LatLng[];
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (first[0] !== last[0] || first[1] !== last[1]) return error('the ring must be closed: the last pair must repeat the first', 'not_closed');
  for (let index = 1; index < ring.length; index += 1) {
    if (ring[index][0] === ring[index - 1][0] && ring[index][1] === ring[index - 1][1]) {
      return [{ message: 'consecutive pairs must differ', code: 'repeated_point', fields: `${field}[${index}]` }];
    }
  }
  if (new Set(ring.slice(0, -1).map(([lat, lng]) => `${lat},${lng}`)).size < 3) return error('the ring needs at least 3 distinct corners');
  const crossing = findSelfIntersection(ring);
  if (crossing) {
    return error(`the ring must not intersect itself (edges ${crossing[0]} and ${crossing[1]} touch or cross)`, 'self_intersection');
  }
  return [];
}
