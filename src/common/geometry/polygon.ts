import { FieldError } from '../errors/api-error';

/** A [lat, lng] pair in decimal degrees. */
export type LatLng = [number, number];
type Point = readonly [number, number];

export const MIN_RING_POINTS = 4;
export const MAX_RING_POINTS = 10_000;

/** An edge of the ring as the sweep sees it: `left` comes first in (lat, lng) order. */
interface Segment {
  index: number;
  /** The edge as drawn, from ring[index] to ring[index + 1]. */
  a: Point;
  b: Point;
  left: Point;
  right: Point;
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

/** Lexicographic (lat, then lng) order: the sweep's order, which also orders points on a vertical line. */
const comesBefore = (p: Point, q: Point): boolean => p[0] < q[0] || (p[0] === q[0] && p[1] < q[1]);

/** 1 when p is above the line of s (counter-clockwise of left→right), -1 below, 0 on it. */
function side(s: Segment, p: Point): number {
  const value = (s.right[0] - s.left[0]) * (p[1] - s.left[1]) - (s.right[1] - s.left[1]) * (p[0] - s.left[0]);
  return value > 0 ? 1 : value < 0 ? -1 : 0;
}

/**
 * The order of two edges on the sweep line while both are on it (negative: `x` below `y`),
 * judged from the edge that starts later against the line of the other. Consistent as long
 * as no two edges cross, which holds until the sweep reports the first intersection.
 */
function compareOnSweep(x: Segment, y: Segment): number {
  if (x === y) return 0;
  const [later, earlier, sign] = comesBefore(y.left, x.left) ? [x, y, 1] : [y, x, -1];
  const bySide = side(earlier, later.left) || side(earlier, later.right);
  return bySide !== 0 ? sign * bySide : x.index - y.index;
}

interface SweepNode {
  segment: Segment;
  priority: number;
  left: SweepNode | null;
  right: SweepNode | null;
  parent: SweepNode | null;
}

/**
 * The edges crossing the sweep line, bottom to top, as a treap (a randomized balanced search
 * tree): insertion, removal and neighbours in O(log n) expected. Priorities come from a fixed
 * xorshift sequence, so a ring is always checked the same way.
 */
class SweepLine {
  private root: SweepNode | null = null;
  private seed = 0x9e3779b9;

  insert(segment: Segment): SweepNode {
    this.seed ^= this.seed << 13;
    this.seed ^= this.seed >>> 17;
    this.seed ^= this.seed << 5;
    const node: SweepNode = { segment, priority: this.seed >>> 0, left: null, right: null, parent: null };
    if (!this.root) {
      this.root = node;
      return node;
    }
    let current = this.root;
    for (;;) {
      const goLeft = compareOnSweep(segment, current.segment) < 0;
      const child = goLeft ? current.left : current.right;
      if (!child) {
        if (goLeft) current.left = node;
        else current.right = node;
        node.parent = current;
        break;
      }
      current = child;
    }
    while (node.parent && node.priority < node.parent.priority) this.rotateUp(node);
    return node;
  }

  remove(node: SweepNode): void {
    while (node.left || node.right) {
      const child = !node.left ? node.right! : !node.right ? node.left : node.left.priority < node.right.priority ? node.left : node.right;
      this.rotateUp(child);
    }
    if (!node.parent) this.root = null;
    else if (node.parent.left === node) node.parent.left = null;
    else node.parent.right = null;
    node.parent = null;
  }

  next(node: SweepNode): SweepNode | null {
    if (node.right) {
      let current = node.right;
      while (current.left) current = current.left;
      return current;
    }
    let current = node;
    while (current.parent && current.parent.right === current) current = current.parent;
    return current.parent;
  }

  previous(node: SweepNode): SweepNode | null {
    if (node.left) {
      let current = node.left;
      while (current.right) current = current.right;
      return current;
    }
    let current = node;
    while (current.parent && current.parent.left === current) current = current.parent;
    return current.parent;
  }

  /** Lifts `node` above its parent, keeping the in-order (bottom-to-top) sequence. */
  private rotateUp(node: SweepNode): void {
    const parent = node.parent!;
    const grandparent = parent.parent;
    if (parent.left === node) {
      parent.left = node.right;
      if (node.right) node.right.parent = parent;
      node.right = parent;
    } else {
      parent.right = node.left;
      if (node.left) node.left.parent = parent;
      node.left = parent;
    }
    parent.parent = node;
    node.parent = grandparent;
    if (!grandparent) this.root = node;
    else if (grandparent.left === parent) grandparent.left = node;
    else grandparent.right = node;
  }
}

/** The ring-adjacent edges share a vertex; any other contact between two edges is an intersection. */
function edgesMeet(x: Segment, y: Segment, edgeCount: number): boolean {
  const gap = Math.abs(x.index - y.index);
  if (gap === 1 || gap === edgeCount - 1) {
    // Lower index first, except that the last edge runs into edge 0.
    const lowFirst = gap === 1 ? x.index < y.index : x.index > y.index;
    return lowFirst ? foldsBack(x, y) : foldsBack(y, x);
  }
  return segmentsIntersect(x.a, x.b, y.a, y.b);
}

/**
 * Finds two edges of a closed ring that touch or cross (ring-adjacent edges only when one
 * folds back onto the other), or null when the ring is simple. A Shamos–Hoey sweep: only
 * edges that are neighbours on the sweep line are ever tested against each other, and the
 * sweep line is a balanced tree, so it takes O(n log n) whatever the ring's shape (sawtooths
 * and combs included).
 */
export function findSelfIntersection(ring: readonly Point[]): [number, number] | null {
  const edgeCount = ring.length - 1;
  const events: Array<{ point: Point; segment: Segment; start: boolean }> = [];
  for (let index = 0; index < edgeCount; index += 1) {
    const a = ring[index];
    const b = ring[index + 1];
    const [left, right] = comesBefore(b, a) ? [b, a] : [a, b];
    const segment: Segment = { index, a, b, left, right };
    events.push({ point: left, segment, start: true }, { point: right, segment, start: false });
  }
  // At one point, edges starting there join the sweep before edges ending there leave it,
  // so that edges meeting end to end are compared.
  events.sort((x, y) => x.point[0] - y.point[0] || x.point[1] - y.point[1] || (x.start === y.start ? 0 : x.start ? -1 : 1));

  const sweep = new SweepLine();
  const nodes = new Map<Segment, SweepNode>();
  const found = (x: Segment, y: Segment): [number, number] => (x.index < y.index ? [x.index, y.index] : [y.index, x.index]);

  for (const { segment, start } of events) {
    if (start) {
      const node = sweep.insert(segment);
      nodes.set(segment, node);
      const below = sweep.previous(node)?.segment;
      const above = sweep.next(node)?.segment;
      if (below && edgesMeet(below, segment, edgeCount)) return found(below, segment);
      if (above && edgesMeet(segment, above, edgeCount)) return found(segment, above);
    } else {
      const node = nodes.get(segment)!;
      const below = sweep.previous(node)?.segment;
      const above = sweep.next(node)?.segment;
      sweep.remove(node);
      if (below && above && edgesMeet(below, above, edgeCount)) return found(below, above);
    }
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
