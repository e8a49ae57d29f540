import { describe, expect, it } from 'vitest';
import { buildRouteGraph, type RouteFloor, type RouteLink, type RouteNode } from './graph';
import { ARRIVAL_DISTANCE_M, type FollowedRoute, followRoute, projectOntoRoute, startOf } from './progress';
import { type Route, route, type RoutePoint } from './route';

const WALK = 1.2;
const SETTINGS = { off_route_distance_m: 5, off_route_fixes: 3 };

/** Floor 1: a corridor from (0,0) to (50,0), then north to (50,40); a lift at (50,40) up to floor 2, a corridor there to (90,40). */
const FLOORS: RouteFloor[] = [
  { id: 1, level: 0, name: '0' },
  { id: 2, level: 1, name: '1' },
];
const NODES: RouteNode[] = [
  { id: 1, floor_id: 1, x: 0, y: 0 },
  { id: 2, floor_id: 1, x: 50, y: 0 },
  { id: 3, floor_id: 1, x: 50, y: 40 },
  { id: 13, floor_id: 2, x: 50, y: 40 },
  { id: 14, floor_id: 2, x: 90, y: 40 },
];
const LINKS: RouteLink[] = [
  { source: 1, target: 2 },
  { source: 2, target: 3 },
  { source: 3, target: 13, tags: ['lift'] },
  { source: 13, target: 14 },
];
const graph = buildRouteGraph(FLOORS, NODES, LINKS);
const at = (floor_id: number, x: number, y: number): RoutePoint => ({ floor_id, x, y });

function planned(from: RoutePoint, to: RoutePoint): { route: Route; followed: FollowedRoute } {
  const result = route(graph, from, to);
  if (!result.ok) throw new Error(result.failure.reason);
  const r = result.route;
  return { route: r, followed: { points: r.points, edges: r.edges, indicationPoints: r.indications.map((indication) => indication.point) } };
}

describe('following a route', () => {
  const { route: r, followed } = planned(at(1, 0, 0), at(2, 90, 40));
  const start = startOf(followed);

  it('starts with the whole route left: its edges, metres and seconds', () => {
    expect(start.distance_remaining).toBeCloseTo(130, 9);
    expect(start.duration_remaining).toBeCloseTo(r.duration, 9);
    expect(start).toMatchObject({ next_indication: 0, off_route_fixes: 0 });
  });

  it('projects a fix onto the nearest part of the route on its floor and counts what is left from there', () => {
    const progress = followRoute(followed, { floor_id: 1, x: 20, y: 2 }, start, SETTINGS);
    expect(progress.projection).toMatchObject({ edge: 0, point: at(1, 20, 0) });
    expect(progress.projection!.distance).toBeCloseTo(2, 9);
    expect(progress.distance_remaining).toBeCloseTo(110, 9);
    expect(progress.duration_remaining).toBeCloseTo(r.duration - 20 / WALK, 9);
    expect(progress).toMatchObject({ off_route: false, off_route_fixes: 0, reroute: false, arrived: false });
    // Ahead: the left turn at (50, 0).
    expect(r.indications[progress.next_indication].action).toBe('turn_left');
  });

  it('names the floor change next once past the turn, and the arrival on the last walk', () => {
    const north = followRoute(followed, { floor_id: 1, x: 51, y: 20 }, start, SETTINGS);
    expect(north.distance_remaining).toBeCloseTo(60, 9);
    expect(r.indications[north.next_indication].action).toBe('change_floor');
    const upstairs = followRoute(followed, { floor_id: 2, x: 60, y: 41 }, start, SETTINGS);
    expect(upstairs.distance_remaining).toBeCloseTo(30, 9);
    expect(upstairs.duration_remaining).toBeCloseTo(30 / WALK, 9);
    expect(r.indications[upstairs.next_indication].action).toBe('arrive');
  });

  it('counts off-route fixes in a row, farther than the setting, and asks for a new route at the third', () => {
    let previous = start;
    const steps = [
      { floor_id: 1, x: 20, y: 6 },
      { floor_id: 1, x: 20, y: 9 },
      { floor_id: 1, x: 20, y: 4 },
      { floor_id: 1, x: 20, y: 8 },
      { floor_id: 2, x: 0, y: 0 },
      { floor_id: null, x: null, y: null },
    ].map((fix) => {
      const progress = followRoute(followed, fix, previous, SETTINGS);
      previous = { ...progress };
      return progress;
    });
    expect(steps.map((progress) => progress.off_route)).toEqual([true, true, false, true, true, true]);
    expect(steps.map((progress) => progress.off_route_fixes)).toEqual([1, 2, 0, 1, 2, 3]);
    expect(steps.map((progress) => progress.reroute)).toEqual([false, false, false, false, false, true]);
    // Off every floor of the route, what is left stays what it was.
    expect(steps[5].projection).toBeNull();
    expect(steps[5].distance_remaining).toBeCloseTo(steps[4].distance_remaining, 9);
  });

  it('follows the settings: a wider corridor and a longer patience', () => {
    const wide = { off_route_distance_m: 10, off_route_fixes: 1 };
    expect(followRoute(followed, { floor_id: 1, x: 20, y: 9 }, start, wide)).toMatchObject({ off_route: false, reroute: false });
    expect(followRoute(followed, { floor_id: 1, x: 20, y: 11 }, start, wide)).toMatchObject({ off_route: true, reroute: true });
  });

  it(`arrives within ${ARRIVAL_DISTANCE_M} m of the destination on its floor, not on another floor`, () => {
    const near = followRoute(followed, { floor_id: 2, x: 88, y: 41.5 }, start, SETTINGS);
    expect(near).toMatchObject({ arrived: true, distance_remaining: 0, duration_remaining: 0, off_route: false, next_indication: r.indications.length - 1 });
    expect(followRoute(followed, { floor_id: 2, x: 86, y: 40 }, start, SETTINGS).arrived).toBe(false);
    expect(followRoute(followed, { floor_id: 1, x: 90, y: 40 }, start, SETTINGS).arrived).toBe(false);
  });

  it('projects onto the ends of a ride, and a route of no edge onto its one point', () => {
    expect(projectOntoRoute(followed, { floor_id: 2, x: 50, y: 38 })).toMatchObject({ point: at(2, 50, 40) });
    const still: FollowedRoute = { points: [at(1, 5, 5)], edges: [], indicationPoints: [0] };
    expect(projectOntoRoute(still, { floor_id: 1, x: 5, y: 9 })).toMatchObject({ edge: -1, distance: 4 });
    expect(followRoute(still, { floor_id: 1, x: 5, y: 9 }, startOf(still), SETTINGS)).toMatchObject({ distance_remaining: 0, next_indication: 0, arrived: false });
  });
});
