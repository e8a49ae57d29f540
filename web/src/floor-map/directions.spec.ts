import { describe, expect, it } from 'vitest';
import {
  DEFAULT_OPTIONS,
  directionsBody,
  type DirectionsRoute,
  formatDistance,
  formatDuration,
  indicationRows,
  navigationView,
  poiNear,
  remainingRoute,
  routeFloors,
  routeOnFloor,
} from './directions';

const point = (floor_id: number, x: number) => ({ floor_id, x, y: 0, lat: 42 + floor_id / 1000, lng: -8 + x / 1000 });

/** Floor 1 from x 0 to 10, a lift ride through floor 2 to floor 3, then x 10 to 20 on floor 3. */
function route(): DirectionsRoute {
  const points = [point(1, 0), point(1, 10), point(2, 10), point(3, 10), point(3, 20)];
  return {
    distance: 20,
    duration: 60,
    from: points[0],
    to: points[4],
    to_poi_id: null,
    points,
    edges: [
      { from: 0, to: 1, distance: 10, floor_id: 1, connector: null },
      { from: 1, to: 2, distance: 0, floor_id: 1, connector: 'elevator' },
      { from: 2, to: 3, distance: 0, floor_id: 2, connector: 'elevator' },
      { from: 3, to: 4, distance: 10, floor_id: 3, connector: null },
    ],
    segments: [
      { floor_id: 1, points: points.slice(0, 2) },
      { floor_id: 3, points: points.slice(3, 5) },
    ],
    indications: [
      { action: 'go_ahead', distance: 10, floor_id: 1, next_floor_id: null, text: 'Go ahead for 10 m' },
      { action: 'change_floor', distance: 0, floor_id: 1, next_floor_id: 3, text: 'Take the elevator up to Top' },
      { action: 'go_ahead', distance: 10, floor_id: 3, next_floor_id: null, text: 'Go ahead for 10 m' },
      { action: 'arrive', distance: 0, floor_id: 3, next_floor_id: null, text: 'You have arrived' },
    ],
    avoided: [],
    geojson: { type: 'FeatureCollection', features: [] },
  };
}
const ll = (p: { lat: number; lng: number }) => [p.lng, p.lat];

describe('directions request', () => {
  it('sends a clicked point by floor and lat/lng, a POI by id, and the connector choices as avoid and exclude', () => {
    const body = directionsBody(
      { kind: 'point', floorId: 4, lngLat: [-8.5, 42.8] },
      { kind: 'poi', poiId: 9, floorId: 5, name: 'Café', lngLat: [0, 0] },
      {
        ...DEFAULT_OPTIONS,
        accessibilityMode: 'ONLY_ACCESSIBLE',
        minimizeFloorChanges: true,
        connectors: { stairs: 'exclude', elevator: 'use', escalator: 'avoid', ramp: 'avoid' },
        speedMS: 0.8,
      },
    );
    expect(body).toEqual({
      from: { floor_id: 4, lat: 42.8, lng: -8.5 },
      to: { poi_id: 9 },
      accessibility_mode: 'ONLY_ACCESSIBLE',
      minimize_floor_changes: true,
      avoid: ['escalator', 'ramp'],
      exclude: ['stairs'],
      speed_m_s: 0.8,
    });
  });

  it('takes the nearest POI within the radius on screen, none beyond it', () => {
    const pois = [
      { id: 1, position: { lat: 0, lng: 10 } },
      { id: 2, position: { lat: 0, lng: 4 } },
    ];
    const project = ([lng, lat]: [number, number]) => ({ x: lng, y: lat });
    expect(poiNear(pois, [0, 0], project, 5)?.id).toBe(2);
    expect(poiNear(pois, [8, 0], project, 5)?.id).toBe(1);
    expect(poiNear(pois, [0, 0], project, 3)).toBeUndefined();
  });
});

describe('a route on a floor', () => {
  it('draws the start floor: its segment, the start, and where the ride leaves for the floor it ends on', () => {
    const r = route();
    expect(routeOnFloor(r, 1)).toEqual({
      lines: [[ll(r.points[0]), ll(r.points[1])]],
      markers: [
        { kind: 'start', lngLat: ll(r.points[0]) },
        { kind: 'leave', lngLat: ll(r.points[1]), otherFloorId: 3 },
      ],
    });
  });

  it('draws nothing on a floor the ride passes through', () => {
    expect(routeOnFloor(route(), 2)).toEqual({ lines: [], markers: [] });
  });

  it('draws the end floor: where the ride arrives from the start floor, its segment, the end', () => {
    const r = route();
    expect(routeOnFloor(r, 3)).toEqual({
      lines: [[ll(r.points[3]), ll(r.points[4])]],
      markers: [
        { kind: 'arrive', lngLat: ll(r.points[3]), otherFloorId: 1 },
        { kind: 'end', lngLat: ll(r.points[4]) },
      ],
    });
    expect(routeFloors(r)).toEqual([1, 2, 3]);
  });

  it('lists the indications with their metres, a change of floor naming the floor it leads to and showing it', () => {
    const names: Record<number, string> = { 1: 'Ground', 2: 'Middle', 3: 'Top' };
    const rows = indicationRows(route().indications, (id) => names[id]);
    expect(rows.map((r) => [r.text, r.distance, r.floorName, r.targetFloorName, r.showFloorId])).toEqual([
      ['Go ahead for 10 m', '10 m', 'Ground', undefined, 1],
      ['Take the elevator up to Top', '0 m', 'Ground', 'Top', 3],
      ['Go ahead for 10 m', '10 m', 'Top', undefined, 3],
      ['You have arrived', '0 m', 'Top', undefined, 3],
    ]);
  });

  it('says distances and durations in words', () => {
    expect([formatDistance(12.4), formatDistance(1234)]).toEqual(['12 m', '1.2 km']);
    expect([formatDuration(44.6), formatDuration(120), formatDuration(125), formatDuration(3780)]).toEqual(['45 s', '2 min', '2 min 5 s', '1 h 3 min']);
  });
});

describe('what is left of a route', () => {
  it('is all of it before a metre is walked', () => {
    const r = route();
    expect(remainingRoute(r, 20)).toBe(r);
    expect(remainingRoute(r, 25)).toBe(r);
  });

  it('starts where the metres left begin, on the floor walked, and keeps the ride after it', () => {
    const r = route();
    const left = remainingRoute(r, 15);
    expect(left.from).toMatchObject({ floor_id: 1, x: 5 });
    expect(left.points.map((p) => [p.floor_id, p.x])).toEqual([
      [1, 5],
      [1, 10],
      [2, 10],
      [3, 10],
      [3, 20],
    ]);
    expect(left.edges.map((e) => [e.from, e.to, e.distance, e.connector])).toEqual([
      [0, 1, 5, null],
      [1, 2, 0, 'elevator'],
      [2, 3, 0, 'elevator'],
      [3, 4, 10, null],
    ]);
    expect(left.segments.map((s) => [s.floor_id, s.points.length])).toEqual([
      [1, 2],
      [3, 2],
    ]);
    expect(routeOnFloor(left, 1).markers.map((m) => m.kind)).toEqual(['start', 'leave']);
  });

  it('past the ride: nothing left on the start floor', () => {
    const left = remainingRoute(route(), 4);
    expect(left.from).toMatchObject({ floor_id: 3, x: 16 });
    expect(routeOnFloor(left, 1)).toEqual({ lines: [], markers: [] });
    expect(routeOnFloor(left, 3).lines).toHaveLength(1);
  });
});

describe("a device's live navigation", () => {
  const item = (navigation: unknown, where: 'top' | 'properties' = 'properties') => ({
    type: 'Feature',
    id: 'dev-1',
    ...(where === 'top' && { navigation }),
    properties: { time: '2026-12-06T10:00:00.000Z', floor_id: 1, ...(where === 'properties' && { navigation }) },
  });
  const navigation = (over: Record<string, unknown> = {}) => {
    const r = route();
    return {
      destination: r.to,
      distance_remaining: 18.4,
      duration_remaining: 75,
      next_indication: r.indications[1],
      off_route: false,
      route: r,
      ...over,
    };
  };

  it('is nothing for an item without navigation, or with a malformed one', () => {
    expect(navigationView(item(undefined), 1)).toBeNull();
    expect(navigationView(item({ off_route: true }), 1)).toBeNull();
  });

  it('draws the remaining route on the floor shown, and says the progress', () => {
    const r = route();
    const view = navigationView(item(navigation()), 1)!;
    expect(view).toMatchObject({
      deviceId: 'dev-1',
      time: Date.parse('2026-12-06T10:00:00.000Z'),
      distanceRemaining: '18 m',
      durationRemaining: '1 min 15 s',
      nextIndication: 'Take the elevator up to Top',
      offRoute: false,
      arrived: false,
      destinationFloorId: 3,
    });
    // 20 m of edges, 18.4 left: the line starts 1.6 m along the first edge.
    expect(view.drawing.lines).toHaveLength(1);
    const [start, end] = view.drawing.lines[0];
    expect(start[0]).toBeCloseTo(r.points[0].lng + (r.points[1].lng - r.points[0].lng) * 0.16, 12);
    expect(start[1]).toBeCloseTo(r.points[0].lat, 12);
    expect(end).toEqual(ll(r.points[1]));
    // The device's dot is its start: no start marker; the destination is on floor 3.
    expect(view.drawing.markers).toEqual([{ kind: 'leave', lngLat: ll(r.points[1]), otherFloorId: 3 }]);
    expect(navigationView(item(navigation()), 3)!.drawing.markers.map((m) => m.kind)).toEqual(['arrive', 'end']);
  });

  it('reads navigation at the top of the item too, and shows off route and arrival', () => {
    expect(navigationView(item(navigation({ off_route: true }), 'top'), 1)!.offRoute).toBe(true);
    const arrived = navigationView(item(navigation({ arrived: true, distance_remaining: 0, next_indication: null }), 'top'), 3)!;
    expect(arrived).toMatchObject({ arrived: true, nextIndication: null, distanceRemaining: '0 m' });
    expect(arrived.drawing).toEqual({ lines: [], markers: [{ kind: 'end', lngLat: ll(route().to) }] });
  });
});
