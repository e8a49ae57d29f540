/**
 * Following a route (issue 40, "Following a route"): where a new fix of a guided device is on the
 * route it follows, what is left of it, and whether the device has left it or arrived.
 *
 * - **Projection**: the fix goes to the nearest point of the route on its floor: a walk edge whose
 *   two ends are on that floor (the nearest point of the segment), or an end of a ride (a floor
 *   change is not walked on a floor). A fix on no floor of the route has no projection.
 * - **Remaining**: metres and seconds from the projection to the route's end (`to`, the snapped
 *   destination) along the route's edges; a part of an edge counts its share of both.
 * - **Next indication**: the first of the route's indications not behind the device (one at the
 *   point the device is at still lies ahead).
 * - **Off route**: farther than `off_route_distance_m` from the projection, or no projection; the
 *   count of off-route fixes in a row goes on from the one before, and reaching `off_route_fixes`
 *   asks for a new route from the fix.
 * - **Arrival**: within ARRIVAL_DISTANCE_M of the destination, on its floor.
 */
import type { ConnectorType } from './connectors';
import type { RoutePoint } from './route';

/** Within this many metres of the destination, on its floor, the device has arrived. */
export const ARRIVAL_DISTANCE_M = 3;

/** What following needs of a route: its points, its edges with their metres and seconds, where each indication applies. */
export interface FollowedRoute {
  points: readonly RoutePoint[];
  edges: ReadonlyArray<{ from: number; to: number; distance: number; duration: number; connector: ConnectorType | null }>;
  /** Per indication, in order, the index of the point where it applies. */
  indicationPoints: readonly number[];
}

export interface FollowSettings {
  /** A fix farther than this (metres) from the route is off it. */
  off_route_distance_m: number;
  /** This many off-route fixes in a row ask for a new route. */
  off_route_fixes: number;
}

/** A fix of the device: on a floor with floor metres, or nowhere the route can be (null). */
export interface FollowedFix {
  floor_id: number | null;
  x: number | null;
  y: number | null;
}

/** Where a fix lies on the route: on edge `edge` (-1: a route of no edge), `t` along it. */
export interface RouteProjection {
  edge: number;
  t: number;
  point: RoutePoint;
  /** Metres from the fix to that point. */
  distance: number;
}

/** What was known after the fix before (the start: the route whole, no fix off route). */
export interface PreviousProgress {
  distance_remaining: number;
  duration_remaining: number;
  next_indication: number;
  off_route_fixes: number;
}

export interface RouteProgress {
  distance_remaining: number;
  duration_remaining: number;
  /** An index into the route's indications. */
  next_indication: number;
  off_route: boolean;
  /** Off-route fixes in a row, this one included (0 when it is on the route). */
  off_route_fixes: number;
  /** Enough off-route fixes in a row: route again from the fix. */
  reroute: boolean;
  arrived: boolean;
  projection: RouteProjection | null;
}

/** The progress at the start of a route: all of it left, nothing off route. */
export function startOf(route: FollowedRoute): PreviousProgress {
  let distance = 0;
  let duration = 0;
  for (const edge of route.edges) {
    distance += edge.distance;
    duration += edge.duration;
  }
  return { distance_remaining: distance, duration_remaining: duration, next_indication: 0, off_route_fixes: 0 };
}

/** The nearest point of the route to the fix, on the fix's floor (ties: the one further along). */
export function projectOntoRoute(route: FollowedRoute, fix: FollowedFix): RouteProjection | null {
  if (fix.floor_id === null || fix.x === null || fix.y === null || !Number.isFinite(fix.x) || !Number.isFinite(fix.y)) return null;
  const { x, y, floor_id: floor } = fix;
  if (route.edges.length === 0) {
    const only = route.points[0];
    return only && only.floor_id === floor ? { edge: -1, t: 1, point: only, distance: Math.hypot(x - only.x, y - only.y) } : null;
  }
  let best: RouteProjection | null = null;
  const consider = (edge: number, t: number, px: number, py: number) => {
    const distance = Math.hypot(x - px, y - py);
    if (best === null || distance <= best.distance + 1e-9) best = { edge, t, point: { floor_id: floor, x: px, y: py }, distance };
  };
  route.edges.forEach((edge, index) => {
    const a = route.points[edge.from];
    const b = route.points[edge.to];
    if (edge.connector !== null || a.floor_id !== b.floor_id) {
      if (a.floor_id === floor) consider(index, 0, a.x, a.y);
      if (b.floor_id === floor) consider(index, 1, b.x, b.y);
      return;
    }
    if (a.floor_id !== floor) return;
    const ex = b.x - a.x;
    const ey = b.y - a.y;
    const length2 = ex * ex + ey * ey;
    let t = length2 > 0 ? ((x - a.x) * ex + (y - a.y) * ey) / length2 : 1;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    consider(index, t, a.x + t * ex, a.y + t * ey);
  });
  return best;
}

/** The progress after a fix (module comment). */
export function followRoute(route: FollowedRoute, fix: FollowedFix, previous: PreviousProgress, settings: FollowSettings): RouteProgress {
  const last = route.indicationPoints.length - 1;
  const destination = route.points[route.points.length - 1];
  if (destination && fix.floor_id === destination.floor_id && fix.x !== null && fix.y !== null && Math.hypot(fix.x - destination.x, fix.y - destination.y) <= ARRIVAL_DISTANCE_M) {
    const projection = projectOntoRoute(route, fix);
    return { distance_remaining: 0, duration_remaining: 0, next_indication: Math.max(0, last), off_route: false, off_route_fixes: 0, reroute: false, arrived: true, projection };
  }
  const projection = projectOntoRoute(route, fix);
  const off = projection === null || projection.distance > settings.off_route_distance_m;
  const count = off ? previous.off_route_fixes + 1 : 0;
  const common = { off_route: off, off_route_fixes: count, reroute: off && count >= settings.off_route_fixes, arrived: false, projection };
  if (projection === null) {
    return { distance_remaining: previous.distance_remaining, duration_remaining: previous.duration_remaining, next_indication: previous.next_indication, ...common };
  }
  let distance = 0;
  let duration = 0;
  if (projection.edge >= 0) {
    const edge = route.edges[projection.edge];
    distance = (1 - projection.t) * edge.distance;
    duration = (1 - projection.t) * edge.duration;
    for (let i = projection.edge + 1; i < route.edges.length; i += 1) {
      distance += route.edges[i].distance;
      duration += route.edges[i].duration;
    }
  }
  const reached = projection.edge < 0 ? route.points.length - 1 : projection.t === 0 ? route.edges[projection.edge].from : route.edges[projection.edge].to;
  let next = route.indicationPoints.findIndex((point) => point >= reached);
  if (next < 0) next = Math.max(0, last);
  return { distance_remaining: distance, duration_remaining: duration, next_indication: next, ...common };
}
