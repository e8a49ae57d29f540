import { describe, expect, it } from 'vitest';
import { connectorFromTags, floorLinkConnector } from './connectors';
import { buildRouteGraph, type RouteFloor, type RouteLink, type RouteNode, validatePaths } from './graph';
import { type Route, route, type RouteOptions, type RoutePoint, type RouteResult } from './route';

const WALK = 1.2;

function ok(result: RouteResult): Route {
  if (!result.ok) throw new Error(`expected a route, got ${JSON.stringify(result.failure)}`);
  return result.route;
}

const actions = (r: Route) => r.indications.map((indication) => indication.action);
const connectors = (r: Route) => r.edges.map((edge) => edge.connector).filter((c) => c !== null);

/**
 * Two floors (ids 1 and 2, levels 0 and 1): one corridor each from x 0 to x 100 (nodes at 0, 50,
 * 100), stairs at x 0 (not accessible) and a lift at x 100.
 */
const TWO_FLOORS: RouteFloor[] = [
  { id: 2, level: 1, name: '1' },
  { id: 1, level: 0, name: '0' },
];
const TWO_NODES: RouteNode[] = [
  { id: 1, floor_id: 1, x: 0, y: 0 },
  { id: 2, floor_id: 1, x: 50, y: 0 },
  { id: 3, floor_id: 1, x: 100, y: 0 },
  { id: 11, floor_id: 2, x: 0, y: 0 },
  { id: 12, floor_id: 2, x: 50, y: 0 },
  { id: 13, floor_id: 2, x: 100, y: 0 },
];
const STAIRS: RouteLink = { source: 1, target: 11, origin: 'both', tags: ['Stairs'], accessible: false };
const LIFT: RouteLink = { source: 3, target: 13, origin: 'both', tags: ['lift'], accessible: true };
const CORRIDORS: RouteLink[] = [
  { source: 1, target: 2, origin: 'both', tags: ['public'], accessible: true },
  { source: 2, target: 3, origin: 'both', tags: ['public'], accessible: true },
  { source: 11, target: 12, origin: 'both', tags: ['public'], accessible: true },
  { source: 12, target: 13, origin: 'both', tags: ['public'], accessible: true },
];
const twoFloors = buildRouteGraph(TWO_FLOORS, TWO_NODES, [...CORRIDORS, STAIRS, LIFT]);
const liftOnly = buildRouteGraph(TWO_FLOORS, TWO_NODES, [...CORRIDORS, LIFT]);
const at = (floor_id: number, x: number, y = 0): RoutePoint => ({ floor_id, x, y });

describe('a two-floor building with stairs and a lift', () => {
  it('takes the quicker stairs by default, counting time and distance as documented', () => {
    const r = ok(route(twoFloors, at(1, 40), at(2, 40)));
    expect(connectors(r)).toEqual(['stairs']);
    // 80 m walked (the stairs link has no horizontal length), 15 s for the storey.
    expect(r.distance).toBeCloseTo(80, 9);
    expect(r.duration).toBeCloseTo(80 / WALK + 15, 9);
    expect(r.cost).toBeCloseTo(r.duration, 9);
    expect(r.floor_changes).toBe(1);
    expect(r.from).toEqual(at(1, 40));
    expect(r.to).toEqual(at(2, 40));
    expect(r.points).toEqual([at(1, 40), at(1, 0), at(2, 0), at(2, 40)]);
    expect(r.edges.map(({ from, to, floor_id, connector }) => ({ from, to, floor_id, connector }))).toEqual([
      { from: 0, to: 1, floor_id: 1, connector: null },
      { from: 1, to: 2, floor_id: 1, connector: 'stairs' },
      { from: 2, to: 3, floor_id: 2, connector: null },
    ]);
    expect(r.edges[1].link).toBe(4);
    expect(r.segments).toEqual([
      { floor_id: 1, points: [at(1, 40), at(1, 0)] },
      { floor_id: 2, points: [at(2, 0), at(2, 40)] },
    ]);
    expect(r.lines).toEqual([
      {
        floor_id: 1,
        coordinates: [
          [40, 0],
          [0, 0],
        ],
      },
      {
        floor_id: 2,
        coordinates: [
          [0, 0],
          [40, 0],
        ],
      },
    ]);
    expect(r.indications.map(({ action, distance, floor_id, next_floor_id, text }) => ({ action, distance, floor_id, next_floor_id, text }))).toEqual([
      { action: 'go_ahead', distance: 40, floor_id: 1, next_floor_id: null, text: 'Go ahead for 40 m' },
      { action: 'change_floor', distance: 0, floor_id: 1, next_floor_id: 2, text: 'Go up the stairs to floor 1' },
      { action: 'go_ahead', distance: 40, floor_id: 2, next_floor_id: null, text: 'Go ahead for 40 m' },
      { action: 'arrive', distance: 0, floor_id: 2, next_floor_id: null, text: 'You have arrived at your destination' },
    ]);
    expect(r.avoided).toEqual([]);
  });

  it('goes down the stairs the other way', () => {
    const r = ok(route(twoFloors, at(2, 40), at(1, 40)));
    expect(r.indications[1].text).toBe('Go down the stairs to floor 0');
  });

  it('ONLY_ACCESSIBLE takes the lift, waiting once', () => {
    const r = ok(route(twoFloors, at(1, 40), at(2, 40), { accessibility_mode: 'ONLY_ACCESSIBLE' }));
    expect(connectors(r)).toEqual(['elevator']);
    expect(r.distance).toBeCloseTo(120, 9);
    expect(r.duration).toBeCloseTo(120 / WALK + 30 + 5, 9);
    expect(r.indications.find((i) => i.action === 'change_floor')).toMatchObject({ next_floor_id: 2, text: 'Take the elevator to floor 1' });
  });

  it('ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES takes the stairs where the lift is quicker', () => {
    expect(connectors(ok(route(twoFloors, at(1, 90), at(2, 90))))).toEqual(['elevator']);
    const r = ok(route(twoFloors, at(1, 90), at(2, 90), { accessibility_mode: 'ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES' }));
    expect(connectors(r)).toEqual(['stairs']);
    expect(r.distance).toBeCloseTo(180, 9);
  });

  it('ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES fails where only a lift leads there, naming both floors', () => {
    const result = route(liftOnly, at(1, 40), at(2, 40), { accessibility_mode: 'ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES' });
    expect(result).toEqual({
      ok: false,
      failure: { code: 'no_route', from_floor_id: 1, to_floor_id: 2, reason: 'no route from floor 0 to floor 1 without an accessible floor change (lift or ramp)' },
    });
    // Within the floor it still walks.
    expect(ok(route(liftOnly, at(1, 40), at(1, 90), { accessibility_mode: 'ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES' })).distance).toBeCloseTo(50, 9);
  });

  it('ONLY_ACCESSIBLE fails with the accessible reason where only stairs lead there', () => {
    const stairsOnly = buildRouteGraph(TWO_FLOORS, TWO_NODES, [...CORRIDORS, STAIRS]);
    const result = route(stairsOnly, at(1, 40), at(2, 40), { accessibility_mode: 'ONLY_ACCESSIBLE' });
    expect(result.ok || result.failure).toMatchObject({ code: 'no_route', reason: 'no accessible route from floor 0 to floor 1' });
  });

  it('exclude never uses the connector, and fails when nothing else is left', () => {
    expect(connectors(ok(route(twoFloors, at(1, 40), at(2, 40), { exclude: ['stairs'] })))).toEqual(['elevator']);
    const result = route(twoFloors, at(1, 40), at(2, 40), { exclude: ['elevator', 'stairs'] });
    expect(result.ok || result.failure).toMatchObject({ code: 'no_route', reason: 'no route from floor 0 to floor 1 without stairs or elevators' });
  });

  it('avoid costs avoid_factor times the time, and names what the route still uses in avoided', () => {
    // Stairs: 80 m + 15 s × 10 = 216.7 s; the lift: 135 s.
    const r = ok(route(twoFloors, at(1, 40), at(2, 40), { avoid: ['stairs'] }));
    expect(connectors(r)).toEqual(['elevator']);
    expect(r.avoided).toEqual([]);
    const forced = ok(route(twoFloors, at(1, 40), at(2, 40), { avoid: ['stairs'], accessibility_mode: 'ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES' }));
    expect(connectors(forced)).toEqual(['stairs']);
    expect(forced.avoided).toEqual(['stairs']);
    expect(forced.cost).toBeCloseTo(80 / WALK + 150, 9);
    expect(forced.duration).toBeCloseTo(80 / WALK + 15, 9);
    const smaller = ok(route(twoFloors, at(1, 40), at(2, 40), { avoid: ['stairs'], avoid_factor: 2 }));
    expect(connectors(smaller)).toEqual(['stairs']);
    expect(smaller.avoided).toEqual(['stairs']);
  });

  it('walks at the requested speed', () => {
    const r = ok(route(twoFloors, at(1, 40), at(1, 90), { speed_m_s: 2 }));
    expect(r.duration).toBeCloseTo(25, 9);
  });

  it('fails naming the end that is farther than the snap distance from every usable link', () => {
    expect(route(twoFloors, at(1, 40, 20), at(2, 40))).toEqual({
      ok: false,
      failure: { code: 'end_unreachable', end: 'from', floor_id: 1, reason: 'the start is not within 10 m of a usable path on floor 0' },
    });
    expect(route(twoFloors, at(1, 40), at(2, 40, -10.5))).toEqual({
      ok: false,
      failure: { code: 'end_unreachable', end: 'to', floor_id: 2, reason: 'the destination is not within 10 m of a usable path on floor 1' },
    });
    expect(route(twoFloors, at(7, 0), at(2, 40))).toMatchObject({ ok: false, failure: { end: 'from', reason: 'the start is not on a floor with paths (floor #7 has none)' } });
    expect(route(twoFloors, at(1, 0), [])).toMatchObject({ ok: false, failure: { end: 'to', reason: 'no destination was given' } });
    // Within 10 m snaps, and the leg counts.
    const r = ok(route(twoFloors, at(1, 40, 10), at(2, 40, -6)));
    expect(r.snap_distance).toEqual({ from: 10, to: 6 });
    expect(r.distance).toBeCloseTo(96, 9);
    expect(r.indications.reduce((sum, i) => sum + i.distance, 0)).toBeCloseTo(96, 9);
    // The building's setting.
    const far = buildRouteGraph(TWO_FLOORS, TWO_NODES, [...CORRIDORS, STAIRS, LIFT], { snap_distance_m: 30 });
    expect(ok(route(far, at(1, 40, 20), at(2, 40))).distance).toBeCloseTo(100, 9);
  });

  it('snaps to a usable link only', () => {
    const r = ok(route(twoFloors, at(1, 100, 1), at(1, 60, 1)));
    expect(r.from).toEqual(at(1, 100));
    // No link carries the tag: none is usable, not even to snap to.
    const none = route(twoFloors, at(1, 40), at(1, 60), { included_tags: ['nothing'] });
    expect(none).toMatchObject({ ok: false, failure: { code: 'end_unreachable', end: 'from' } });
  });

  it('goes to the cheapest of several destinations in one search', () => {
    const candidates = [at(2, 100), at(1, 0, 5), at(1, 90)];
    const r = ok(route(twoFloors, at(1, 40), candidates));
    expect(r.target).toBe(1);
    expect(r.to).toEqual(at(1, 0));
    expect(r.distance).toBeCloseTo(45, 9);
    const each = candidates.map((candidate) => ok(route(twoFloors, at(1, 40), candidate)).cost);
    expect(r.cost).toBeCloseTo(Math.min(...each), 9);
    // Destinations out of reach are left out; all of them: the end that cannot be reached.
    expect(ok(route(twoFloors, at(1, 40), [at(1, 0, 50), at(2, 60)])).target).toBe(1);
    expect(route(twoFloors, at(1, 40), [at(1, 0, 50), at(2, 60, 50)])).toMatchObject({
      ok: false,
      failure: { end: 'to', reason: 'none of the 2 destinations is within 10 m of a usable path' },
    });
    expect(route(liftOnly, at(1, 40), [at(2, 0), at(2, 60)], { exclude: ['elevator'] })).toMatchObject({
      ok: false,
      failure: { code: 'no_route', from_floor_id: 1, to_floor_id: 2, reason: 'no route from floor 0 to floor 1 without elevators' },
    });
  });
});

/** One floor: P (0, 0) to Q (100, 0) straight (tag staff), or by S (50, 20) (tag public). */
function oneFloor(origin: RouteLink['origin'] = 'both') {
  return buildRouteGraph(
    [{ id: 1, level: 0, name: 'Ground' }],
    [
      { id: 1, floor_id: 1, x: 0, y: 0 },
      { id: 2, floor_id: 1, x: 100, y: 0 },
      { id: 3, floor_id: 1, x: 50, y: 20 },
    ],
    [
      { source: 1, target: 2, origin, tags: ['staff'] },
      { source: 1, target: 3, tags: ['public'] },
      { source: 3, target: 2, tags: ['Public'] },
    ],
  );
}
const AROUND = 2 * Math.hypot(50, 20);

describe('tags and directions on one floor', () => {
  const graph = oneFloor();

  it('included_tags uses only links carrying one of them, excluded_tags none carrying one (case-insensitively)', () => {
    expect(ok(route(graph, at(1, 0), at(1, 100))).distance).toBeCloseTo(100, 9);
    expect(ok(route(graph, at(1, 0), at(1, 100), { excluded_tags: ['STAFF'] })).distance).toBeCloseTo(AROUND, 9);
    expect(ok(route(graph, at(1, 0), at(1, 100), { included_tags: ['public'] })).distance).toBeCloseTo(AROUND, 9);
    expect(ok(route(graph, at(1, 0), at(1, 100), { included_tags: ['public', 'staff'] })).distance).toBeCloseTo(100, 9);
    expect(ok(route(graph, at(1, 0), at(1, 100), { included_tags: ['public', 'staff'], excluded_tags: ['staff'] })).distance).toBeCloseTo(AROUND, 9);
    const blocked = route(graph, at(1, 100, 1), at(1, 40, 1), { included_tags: ['staff'], excluded_tags: ['public'] });
    expect(ok(blocked).distance).toBeCloseTo(62, 9);
  });

  it("walks a one-way link only its way ('source': from source to target, 'target': back)", () => {
    const forward = oneFloor('source');
    expect(ok(route(forward, at(1, 0), at(1, 100))).distance).toBeCloseTo(100, 9);
    expect(ok(route(forward, at(1, 100), at(1, 0))).distance).toBeCloseTo(AROUND, 9);
    const backward = oneFloor('target');
    expect(ok(route(backward, at(1, 0), at(1, 100))).distance).toBeCloseTo(AROUND, 9);
    expect(ok(route(backward, at(1, 100), at(1, 0))).distance).toBeCloseTo(100, 9);
  });

  it('walks part of one link when start and end snap onto it, its way only', () => {
    const forward = oneFloor('source');
    const along = ok(route(forward, at(1, 20, 1), at(1, 60, 1)));
    expect(along.points).toEqual([at(1, 20), at(1, 60)]);
    expect(along.edges).toEqual([{ from: 0, to: 1, distance: 40, floor_id: 1, connector: null, link: 0, duration: expect.closeTo(40 / 1.2, 9) }]);
    expect(along.distance).toBeCloseTo(42, 9);
    expect(actions(along)).toEqual(['go_ahead', 'arrive']);
    // Back along it is not allowed: on to Q, around by S, and from P to the end.
    const back = ok(route(forward, at(1, 60, 1), at(1, 20, 1)));
    expect(back.distance).toBeCloseTo(1 + 40 + AROUND + 20 + 1, 9);
    expect(back.points).toEqual([at(1, 60), at(1, 100), at(1, 50, 20), at(1, 0), at(1, 20)]);
    // Both ways: straight back.
    expect(ok(route(graph, at(1, 60, 1), at(1, 20, 1))).distance).toBeCloseTo(42, 9);
    // One place.
    const still = ok(route(graph, at(1, 30, 2), at(1, 30, -1)));
    expect(still.distance).toBeCloseTo(3, 9);
    expect(still.points).toEqual([at(1, 30)]);
    expect(actions(still)).toEqual(['go_ahead', 'arrive']);
  });

  it('uses the floor name in texts, with "floor" before a number', () => {
    const failure = route(graph, at(1, 0), at(1, 100), { included_tags: ['public'], excluded_tags: ['public'] });
    expect(failure).toMatchObject({ ok: false, failure: { reason: 'the start is not within 10 m of a usable path on Ground' } });
  });
});

describe('indications', () => {
  const corridor = (points: Array<[number, number]>) =>
    buildRouteGraph(
      [{ id: 1, level: 0, name: '0' }],
      points.map(([x, y], i) => ({ id: i + 1, floor_id: 1, x, y })),
      points.slice(1).map((_, i) => ({ source: i + 1, target: i + 2 })),
    );

  it('turns left when y grows to the left of the way walked (the frame is counter-clockwise)', () => {
    const r = ok(
      route(
        corridor([
          [0, 0],
          [10, 0],
          [10, 10],
        ]),
        at(1, 0),
        at(1, 10, 10),
      ),
    );
    expect(r.indications.map(({ action, distance, text, point }) => ({ action, distance, text, point }))).toEqual([
      { action: 'go_ahead', distance: 10, text: 'Go ahead for 10 m', point: 0 },
      { action: 'turn_left', distance: 10, text: 'Turn left and go ahead for 10 m', point: 1 },
      { action: 'arrive', distance: 0, text: 'You have arrived at your destination', point: 2 },
    ]);
    expect(
      actions(
        ok(
          route(
            corridor([
              [0, 0],
              [10, 0],
              [10, -10],
            ]),
            at(1, 0),
            at(1, 10, -10),
          ),
        ),
      ),
    ).toEqual(['go_ahead', 'turn_right', 'arrive']);
    expect(
      ok(
        route(
          corridor([
            [0, 0],
            [10, 0],
            [0, -1],
          ]),
          at(1, 0),
          at(1, 0, -1),
        ),
      ).indications[1].text,
    ).toMatch(/^Turn sharp right/);
  });

  it('merges bends under 30° into one go_ahead', () => {
    const r = ok(
      route(
        corridor([
          [0, 0],
          [10, 0],
          [20, 3],
          [30, 3],
          [40, 8],
        ]),
        at(1, 0),
        at(1, 40, 8),
      ),
    );
    expect(actions(r)).toEqual(['go_ahead', 'arrive']);
    expect(r.indications[0].distance).toBeCloseTo(r.distance, 9);
  });
});

/**
 * Three floors (levels 0, 1, 2; ids 1, 2, 3), each a corridor x 0, 10, 100: stairs from floor 0 to
 * 1 at x 0 and from 1 to 2 at x 10 (two rides, walking 10 m between), and a lift at x 100 stopping
 * at every floor (one ride from 0 to 2).
 */
const THREE_FLOORS: RouteFloor[] = [0, 1, 2].map((level) => ({ id: level + 1, level, name: String(level) }));
const threeNodes: RouteNode[] = [];
const threeLinks: RouteLink[] = [];
for (const floor of [1, 2, 3]) {
  [0, 10, 100].forEach((x, i) => threeNodes.push({ id: floor * 100 + i, floor_id: floor, x, y: 0 }));
  threeLinks.push({ source: floor * 100, target: floor * 100 + 1 }, { source: floor * 100 + 1, target: floor * 100 + 2 });
}
threeLinks.push(
  { source: 100, target: 200, tags: ['staircase'], accessible: false },
  { source: 201, target: 301, tags: ['staircase'], accessible: false },
  { source: 102, target: 202, connector: 'elevator' },
  { source: 202, target: 302, connector: 'elevator' },
);
const threeFloors = buildRouteGraph(THREE_FLOORS, threeNodes, threeLinks);

describe('floor changes', () => {
  it('takes two quick stairs by default', () => {
    const r = ok(route(threeFloors, at(1, 0), at(3, 10)));
    expect(connectors(r)).toEqual(['stairs', 'stairs']);
    expect(r.floor_changes).toBe(2);
    expect(r.duration).toBeCloseTo(15 + 10 / WALK + 15, 9);
    expect(r.indications.map((i) => [i.action, i.next_floor_id, i.text])).toEqual([
      ['change_floor', 2, 'Go up the stairs to floor 1'],
      ['go_ahead', null, 'Go ahead for 10 m'],
      ['change_floor', 3, 'Go up the stairs to floor 2'],
      ['arrive', null, 'You have arrived at your destination'],
    ]);
  });

  it('minimize_floor_changes takes one ride of the lift across three floors over two stairs, one change_floor naming the last floor', () => {
    const r = ok(route(threeFloors, at(1, 0), at(3, 10), { minimize_floor_changes: true }));
    expect(connectors(r)).toEqual(['elevator', 'elevator']);
    expect(r.floor_changes).toBe(1);
    expect(r.distance).toBeCloseTo(190, 9);
    // One wait for the ride, 5 s per storey.
    expect(r.duration).toBeCloseTo(190 / WALK + 30 + 10, 9);
    const changes = r.indications.filter((i) => i.action === 'change_floor');
    expect(changes).toEqual([{ action: 'change_floor', distance: 0, floor_id: 1, next_floor_id: 3, text: 'Take the elevator to floor 2', point: 2 }]);
    // Floor 1 is only passed through: no segment.
    expect(r.segments.map((s) => [s.floor_id, s.points.length])).toEqual([
      [1, 3],
      [3, 2],
    ]);
  });

  it('counts storeys by the order of levels, and waits once in a ride of one link', () => {
    const skip = buildRouteGraph(THREE_FLOORS, threeNodes, [...threeLinks.slice(0, 6), { source: 102, target: 302, tags: ['Elevator'] }]);
    const r = ok(route(skip, at(1, 100), at(3, 100)));
    expect(r.duration).toBeCloseTo(30 + 10, 9);
    expect(r.indications[0]).toMatchObject({ action: 'change_floor', next_floor_id: 3, text: 'Take the elevator to floor 2' });
  });

  it('snaps onto a lone landing (a node with no walk link) by its floor link', () => {
    const graph = buildRouteGraph(TWO_FLOORS, [...TWO_NODES.slice(0, 3), { id: 13, floor_id: 2, x: 100, y: 0 }], [...CORRIDORS.slice(0, 2), LIFT]);
    const r = ok(route(graph, at(1, 50), at(2, 103, 4)));
    expect(r.to).toEqual(at(2, 100));
    expect(r.snap_distance.to).toBeCloseTo(5, 9);
    expect(r.distance).toBeCloseTo(55, 9);
    expect(route(graph, at(1, 50), at(2, 100), { exclude: ['elevator'] })).toMatchObject({ ok: false, failure: { end: 'to' } });
  });
});

describe('the search bound (A*)', () => {
  // Start S (0, 0) on floor 0, end (100, 0) on floor 1; the quickest way first walks 10 m away from
  // the end to R (0, 10), then takes a link quicker than walking; a slower link goes straight there.
  const nodes: RouteNode[] = [
    { id: 1, floor_id: 1, x: 0, y: 0 },
    { id: 2, floor_id: 1, x: 0, y: 10 },
    { id: 11, floor_id: 2, x: 100, y: 0 },
  ];
  const detour = Math.hypot(100, 10);

  it('never overestimates over links quicker than walking (speed factors above 1)', () => {
    const links: RouteLink[] = [
      { source: 1, target: 2 },
      { source: 2, target: 11, connector: 'ramp' },
      { source: 1, target: 11, connector: 'stairs' },
    ];
    const graph = buildRouteGraph(TWO_FLOORS, nodes, links, { ramp_speed_factor: 2, stairs_speed_factor: 1.5, stairs_s_per_floor: 0 });
    const r = ok(route(graph, at(1, 0), at(2, 100)));
    expect(connectors(r)).toEqual(['ramp']);
    expect(r.cost).toBeCloseTo(10 / WALK + detour / (2 * WALK), 9);
  });

  it('never overestimates where avoid_factor is below 1', () => {
    const links: RouteLink[] = [
      { source: 1, target: 2 },
      { source: 2, target: 11, connector: 'stairs' },
      { source: 1, target: 11, connector: 'elevator' },
    ];
    const graph = buildRouteGraph(TWO_FLOORS, nodes, links, { stairs_speed_factor: 1, stairs_s_per_floor: 0, elevator_wait_s: 0, elevator_s_per_floor: 0 });
    const r = ok(route(graph, at(1, 0), at(2, 100), { avoid: ['stairs'], avoid_factor: 0.5 }));
    expect(connectors(r)).toEqual(['stairs']);
    expect(r.cost).toBeCloseTo(10 / WALK + (0.5 * detour) / WALK, 9);
  });
});

describe('connector types', () => {
  it('come from the explicit field, else the tags word by word, else accessible: elevator, not: stairs', () => {
    expect(connectorFromTags(['Staircase-B'])).toBe('stairs');
    expect(connectorFromTags(['wheelchair lift'])).toBe('elevator');
    expect(connectorFromTags(['Lift_2'])).toBe('elevator');
    expect(connectorFromTags(['ESCALATOR'])).toBe('escalator');
    expect(connectorFromTags(['vip', 'ramps', 'stairs'])).toBe('ramp');
    expect(connectorFromTags(['liftoff'])).toBeNull();
    expect(floorLinkConnector({ connector: 'escalator', tags: ['stairs'] })).toBe('escalator');
    expect(floorLinkConnector({ connector: null, tags: ['stairs'], accessible: true })).toBe('stairs');
    expect(floorLinkConnector({ tags: [], accessible: true })).toBe('elevator');
    expect(floorLinkConnector({ accessible: false })).toBe('stairs');
    expect(floorLinkConnector({})).toBe('elevator');
  });

  it('are never a walk within a floor: exclude does not block a link tagged stairs on one floor', () => {
    const graph = buildRouteGraph([{ id: 1, level: 0, name: '0' }], TWO_NODES.slice(0, 2), [{ source: 1, target: 2, tags: ['stairs'] }]);
    const r = ok(route(graph, at(1, 0), at(1, 50), { exclude: ['stairs'] }));
    expect(r.edges[0].connector).toBeNull();
  });

  it('take the time of their type', () => {
    const graph = (link: Partial<RouteLink>) =>
      buildRouteGraph(TWO_FLOORS, [TWO_NODES[0], { id: 11, floor_id: 2, x: 8, y: 0 }], [{ source: 1, target: 11, ...link }], { ramp_speed_factor: 0.5, escalator_s_per_floor: 12 });
    const time = (link: Partial<RouteLink>) => ok(route(graph(link), at(1, 0), at(2, 8))).duration;
    expect(time({ connector: 'stairs' })).toBeCloseTo(8 / (WALK * 0.5) + 15, 9);
    expect(time({ connector: 'elevator' })).toBeCloseTo(8 / WALK + 30 + 5, 9);
    expect(time({ connector: 'escalator' })).toBeCloseTo(8 / WALK + 12, 9);
    expect(time({ connector: 'ramp' })).toBeCloseTo(8 / (WALK * 0.5), 9);
    expect(ok(route(graph({ connector: 'ramp' }), at(1, 0), at(2, 8))).distance).toBeCloseTo(8, 9);
  });
});

describe('validatePaths', () => {
  it('names every problem by its index', () => {
    const nodes: RouteNode[] = [
      { id: 1, floor_id: 1, x: 0, y: 0 },
      { id: 2, floor_id: 1, x: 5, y: 0 },
      { id: 1, floor_id: 2, x: 0, y: 0 },
      { id: 3, floor_id: 9, x: 0, y: 0 },
    ];
    const links: RouteLink[] = [
      { source: 1, target: 2 },
      { source: 1, target: 7 },
      { source: 8, target: 2 },
      { source: 2, target: 2 },
      { source: 1, target: 2, connector: 'elevator' },
      { source: 1, target: 3, connector: 'stairs' },
      { source: 1, target: 3, connector: 'lift' as never },
      { source: 1, target: 3, connector: null },
    ];
    expect(validatePaths(nodes, links, TWO_FLOORS)).toEqual([
      'nodes[2]: node id 1 is already the id of nodes[0]',
      'nodes[3]: floor 9 is not a floor of the building',
      'links[1]: target 7 is not a node of the graph',
      'links[2]: source 8 is not a node of the graph',
      'links[3]: links node 2 to itself',
      'links[4]: connector elevator links nodes 1 and 2 of one floor (1); a connector changes floors',
      'links[6]: connector "lift" is not one of stairs, elevator, escalator, ramp',
    ]);
    expect(validatePaths(TWO_NODES, [...CORRIDORS, STAIRS, LIFT])).toEqual([]);
  });

  it('builds a graph from bad input all the same, leaving out what it names', () => {
    const graph = buildRouteGraph(TWO_FLOORS, [...TWO_NODES, { id: 2, floor_id: 1, x: 500, y: 500 }], [...CORRIDORS, { source: 1, target: 99 }, { source: 2, target: 2 }, STAIRS]);
    expect(graph.linkCount).toBe(5);
    expect(graph.nodeCount).toBe(6);
    const r = ok(route(graph, at(1, 40), at(2, 40)));
    expect(r.edges[1].link).toBe(6);
  });

  it('refuses settings and options that are no positive numbers', () => {
    expect(() => buildRouteGraph(TWO_FLOORS, TWO_NODES, CORRIDORS, { snap_distance_m: -1 })).toThrow(RangeError);
    expect(() => buildRouteGraph(TWO_FLOORS, TWO_NODES, CORRIDORS, { stairs_speed_factor: 0 })).toThrow(RangeError);
    const bad: Array<Partial<RouteOptions>> = [{ speed_m_s: 0 }, { avoid_factor: Number.NaN }, { accessibility_mode: 'FASTEST' as never }];
    for (const options of bad) expect(() => route(twoFloors, at(1, 0), at(1, 50), options)).toThrow(RangeError);
  });
});
