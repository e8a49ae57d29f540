import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { RouteGraphCache } from '../../src/cartography/paths/route-graphs';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, createFloor, createSite, errorFields, expectError, expectStatus, FloorBody, keysOf, MISSING_INTEGER_ID, signUp, Site } from '../support/cartography';
import { createCategory, createPoi, metresBetween, PathsBody, putPaths } from '../support/pois';
import { fix, report } from '../support/positions';
import { createTestApp, TestApp, testDatabaseKind, TwoInstances, twoInstances } from '../support/test-app';

type Loose = Record<string, any>;

const WALK = 1.2;
const RESPONSE_KEYS = ['avoided', 'distance', 'duration', 'edges', 'from', 'geojson', 'indications', 'points', 'segments', 'to', 'to_poi_id'];
const POINT_KEYS = ['floor_id', 'lat', 'lng', 'x', 'y'];
const EDGE_KEYS = ['connector', 'distance', 'floor_id', 'from', 'to'];
const INDICATION_KEYS = ['action', 'distance', 'floor_id', 'next_floor_id', 'text'];

/**
 * Three floors: a corridor on floors 0 and 1 from x 10 to 90 (nodes at 10, 50, 90; y 10), one on
 * floor 2 from 50 to 90. Floors 0-1: stairs at x 10 (tag Stairs, not accessible), an escalator at
 * x 50 (explicit, not accessible), a lift at x 90 (tag lift). Floors 1-2: stairs at x 50 and the
 * lift at x 90, so the lift rides 0 to 2 in one.
 */
function building(f0: number, f1: number, f2: number) {
  const corridor = (a: number, b: number) => ({ source: a, target: b, tags: ['public'] });
  return {
    nodes: [
      { id: 1, floor_id: f0, x: 10, y: 10 },
      { id: 2, floor_id: f0, x: 50, y: 10 },
      { id: 3, floor_id: f0, x: 90, y: 10 },
      { id: 11, floor_id: f1, x: 10, y: 10 },
      { id: 12, floor_id: f1, x: 50, y: 10 },
      { id: 13, floor_id: f1, x: 90, y: 10 },
      { id: 21, floor_id: f2, x: 50, y: 10 },
      { id: 23, floor_id: f2, x: 90, y: 10 },
    ],
    links: [
      corridor(1, 2),
      corridor(2, 3),
      corridor(11, 12),
      corridor(12, 13),
      corridor(21, 23),
      { source: 1, target: 11, tags: ['Stairs'], accessible: false },
      { source: 2, target: 12, connector: 'escalator', accessible: false },
      { source: 3, target: 13, tags: ['lift'] },
      { source: 12, target: 21, tags: ['stairs'], accessible: false },
      { source: 13, target: 23, tags: ['lift'] },
    ],
  };
}

describe('directions (POST /api/v1/buildings/{id}/directions)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let site: Site;
  let f1: FloorBody;
  let f2: FloorBody;
  let empty: FloorBody;
  let paths: PathsBody;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Directions A');
    b = await signUp(t, 'Directions B');
    site = await createSite(t, a.auth);
    f1 = await createFloor(t, a.auth, site.building.id, { level: 1, name: '1' });
    f2 = await createFloor(t, a.auth, site.building.id, { level: 2, name: 'Mezzanine' });
    empty = await createFloor(t, a.auth, site.building.id, { level: 3, name: 'Roof' });
    paths = await putPaths(t, a.auth, site.building.id, building(site.floor.id, f1.id, f2.id));
  });
  afterAll(async () => t?.close());

  const directions = (body: unknown, auth = a.auth, buildingId = site.building.id) =>
    t.http
      .post(`/api/v1/buildings/${buildingId}/directions`)
      .set(auth)
      .send(body as object);
  const at = (floor_id: number, x: number, y = 10) => ({ floor_id, x, y });
  const ok = async (body: unknown, auth = a.auth): Promise<Loose> => {
    const response = await directions(body, auth);
    expectStatus(response, 200);
    return response.body as Loose;
  };
  const connectors = (route: Loose) => (route.edges as Loose[]).map((edge) => edge.connector).filter((c) => c !== null);

  it('answers the route in the wire shape: snapped ends, points with lat/lng, edges into points, segments, indications, GeoJSON per floor', async () => {
    const route = await ok({ from: at(site.floor.id, 40, 12), to: at(f1.id, 40, 10) });
    expect(keysOf(route)).toEqual(RESPONSE_KEYS);
    // The quickest: 10 m to the escalator, 20 s on it, 10 m on floor 1; the start snaps 2 m.
    expect(connectors(route)).toEqual(['escalator']);
    expect(route.distance).toBeCloseTo(22, 6);
    expect(route.duration).toBeCloseTo(22 / WALK + 20, 6);
    expect(route.from).toMatchObject(at(site.floor.id, 40, 10));
    expect(route.to).toMatchObject(at(f1.id, 40, 10));
    expect(route.to_poi_id).toBeNull();
    expect(route.avoided).toEqual([]);
    for (const point of route.points) expect(keysOf(point)).toEqual(POINT_KEYS);
    // lat/lng are the building frame's, as the paths API derives them for its nodes.
    const node2 = paths.nodes.find((node) => node.id === 2)!;
    const atNode2 = (route.points as Loose[]).find((point) => point.floor_id === site.floor.id && point.x === 50)!;
    expect(atNode2.lat).toBeCloseTo(node2.lat, 10);
    expect(atNode2.lng).toBeCloseTo(node2.lng, 10);
    expect(Math.abs(metresBetween(route.points[0] as { lat: number; lng: number }, atNode2 as { lat: number; lng: number }) - 10)).toBeLessThan(0.01);
    for (const edge of route.edges) {
      expect(keysOf(edge)).toEqual(EDGE_KEYS);
      expect(edge.to).toBe(edge.from + 1);
      expect(route.points[edge.from].floor_id).toBe(edge.floor_id);
    }
    expect(route.edges.map((edge: Loose) => edge.connector)).toEqual([null, 'escalator', null]);
    expect(route.segments.map((segment: Loose) => segment.floor_id)).toEqual([site.floor.id, f1.id]);
    for (const indication of route.indications) expect(keysOf(indication)).toEqual(INDICATION_KEYS);
    const change = route.indications.find((indication: Loose) => indication.action === 'change_floor');
    expect(change).toMatchObject({ floor_id: site.floor.id, next_floor_id: f1.id, text: 'Take the escalator up to floor 1' });
    expect(route.indications.at(-1)).toMatchObject({ action: 'arrive', floor_id: f1.id, next_floor_id: null });
    const walked = (route.indications as Loose[]).reduce((sum, indication) => sum + indication.distance, 0);
    expect(walked).toBeCloseTo(route.distance, 6);
    expect(route.geojson.type).toBe('FeatureCollection');
    expect(route.geojson.features.map((feature: Loose) => feature.properties.floor_id)).toEqual([site.floor.id, f1.id]);
    const first = route.geojson.features[0];
    expect(first.type).toBe('Feature');
    expect(first.geometry.type).toBe('LineString');
    expect(first.geometry.coordinates[0]).toEqual([route.points[0].lng, route.points[0].lat]);
  });

  it('takes a point by lat/lng as by x/y', async () => {
    const byXy = await ok({ from: at(site.floor.id, 40), to: at(f1.id, 40) });
    const byGeo = await ok({ from: { floor_id: site.floor.id, lat: byXy.from.lat, lng: byXy.from.lng }, to: { floor_id: f1.id, lat: byXy.to.lat, lng: byXy.to.lng } });
    expect(byGeo.distance).toBeCloseTo(byXy.distance, 6);
    expect(byGeo.edges.map((edge: Loose) => edge.connector)).toEqual(byXy.edges.map((edge: Loose) => edge.connector));
  });

  describe('options', () => {
    let between: { from: ReturnType<typeof at>; to: ReturnType<typeof at> };
    beforeAll(() => {
      between = { from: at(site.floor.id, 40), to: at(f1.id, 40) };
    });

    it('exclude never uses a connector type', async () => {
      const route = await ok({ ...between, exclude: ['escalator'] });
      expect(connectors(route)).toEqual(['stairs']);
      expect(route.indications.find((indication: Loose) => indication.action === 'change_floor').text).toBe('Go up the stairs to floor 1');
      expect(connectors(await ok({ ...between, exclude: ['escalator', 'stairs'] }))).toEqual(['elevator']);
    });

    it('avoid multiplies its time by avoid_factor (default 10) and lists in avoided what the route still uses', async () => {
      const avoided = await ok({ ...between, avoid: ['escalator'] });
      expect(connectors(avoided)).toEqual(['stairs']);
      expect(avoided.avoided).toEqual([]);
      const still = await ok({ ...between, avoid: ['escalator'], avoid_factor: 1 });
      expect(connectors(still)).toEqual(['escalator']);
      expect(still.avoided).toEqual(['escalator']);
      // The duration is the time taken, not the cost minimised.
      expect(still.duration).toBeCloseTo(20 / WALK + 20, 6);
    });

    it('ONLY_ACCESSIBLE never uses a link marked not accessible', async () => {
      const route = await ok({ ...between, accessibility_mode: 'ONLY_ACCESSIBLE' });
      expect(connectors(route)).toEqual(['elevator']);
      expect(route.indications.find((indication: Loose) => indication.action === 'change_floor')).toMatchObject({ next_floor_id: f1.id, text: 'Take the elevator to floor 1' });
      // 50 m to the lift, 30 s waiting, 5 s for the storey, 50 m back.
      expect(route.duration).toBeCloseTo(100 / WALK + 35, 6);
      expect((await ok({ ...between, accessibility_mode: 'CHOOSE_SHORTEST' })).distance).toBeCloseTo(20, 6);
    });

    it('ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES never uses an accessible floor link, and is a 422 where only such a route exists', async () => {
      const route = await ok({ ...between, accessibility_mode: 'ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES', exclude: ['escalator'] });
      expect(connectors(route)).toEqual(['stairs']);
      const refused = await directions({ ...between, accessibility_mode: 'ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES', exclude: ['escalator', 'stairs'] });
      expectError(refused, 422, 'no_route');
      expect(refused.body.message).toBe('no route from Floor to floor 1 without an accessible floor change (lift or ramp), without stairs or escalators');
      expect(refused.body.errors).toEqual([]);
    });

    it('minimize_floor_changes takes the fewest rides (a lift across two floors is one), then the quickest', async () => {
      const quick = await ok({ from: at(site.floor.id, 40), to: at(f2.id, 60) });
      expect(connectors(quick)).toEqual(['escalator', 'stairs']);
      const fewest = await ok({ from: at(site.floor.id, 40), to: at(f2.id, 60), minimize_floor_changes: true });
      expect(connectors(fewest)).toEqual(['elevator', 'elevator']);
      const changes = (fewest.indications as Loose[]).filter((indication) => indication.action === 'change_floor');
      expect(changes).toHaveLength(1);
      expect(changes[0]).toMatchObject({ floor_id: site.floor.id, next_floor_id: f2.id, text: 'Take the elevator to Mezzanine' });
      expect(fewest.duration).toBeGreaterThan(quick.duration);
      // One wait for the whole ride: 80 m walked, 30 s, two storeys of 5 s.
      expect(fewest.duration).toBeCloseTo(80 / WALK + 40, 6);
    });

    it('included_tags uses only links carrying one; excluded_tags never a link carrying one (any case)', async () => {
      expect((await ok({ from: at(site.floor.id, 20), to: at(site.floor.id, 80), included_tags: ['PUBLIC'] })).distance).toBeCloseTo(60, 6);
      expectError(await directions({ ...between, included_tags: ['public'] }), 422, 'no_route');
      const route = await ok({ ...between, excluded_tags: ['stairs'], exclude: ['escalator'] });
      expect(connectors(route)).toEqual(['elevator']);
    });

    it('speed_m_s sets the walking pace', async () => {
      const slow = await ok({ from: at(site.floor.id, 20), to: at(site.floor.id, 80) });
      const fast = await ok({ from: at(site.floor.id, 20), to: at(site.floor.id, 80), speed_m_s: 2.4 });
      expect(slow.duration).toBeCloseTo(60 / WALK, 6);
      expect(fast.duration).toBeCloseTo(60 / 2.4, 6);
      expect(fast.distance).toBeCloseTo(slow.distance, 9);
    });
  });

  describe('ends', () => {
    it('from and to a POI; to the nearest POI of a category, saying which (to_poi_id)', async () => {
      const start = await createPoi(t, a.auth, { building_id: site.building.id, name: 'Entrance', position: { floor_id: site.floor.id, cartesians: { x: 30, y: 12 } } });
      const desk = await createPoi(t, a.auth, { building_id: site.building.id, name: 'Desk', position: { floor_id: f1.id, cartesians: { x: 70, y: 10 } } });
      const route = await ok({ from: { poi_id: start.id }, to: { poi_id: desk.id } });
      expect(route.to_poi_id).toBe(desk.id);
      expect(route.from).toMatchObject(at(site.floor.id, 30, 10));
      expect(route.to).toMatchObject(at(f1.id, 70, 10));

      const toilets = await createCategory(t, a.auth, 'Toilets');
      const far = await createPoi(t, a.auth, {
        building_id: site.building.id,
        name: 'WC far',
        category_id: toilets.id,
        position: { floor_id: f1.id, cartesians: { x: 15, y: 10 } },
      });
      const near = await createPoi(t, a.auth, {
        building_id: site.building.id,
        name: 'WC near',
        category_id: toilets.id,
        position: { floor_id: f1.id, cartesians: { x: 85, y: 10 } },
      });
      await createPoi(t, a.auth, {
        building_id: site.building.id,
        name: 'WC outside',
        category_id: toilets.id,
        position: { floor_id: null, georeferences: { lat: 42.87, lng: -8.56 } },
      });
      const nearest = await ok({ from: at(f1.id, 70), to: { poi_category_id: toilets.id } });
      expect(nearest.to_poi_id).toBe(near.id);
      expect(nearest.distance).toBeCloseTo(15, 6);
      expect((await ok({ from: at(f1.id, 20), to: { poi_category_id: toilets.id } })).to_poi_id).toBe(far.id);

      const unused = await createCategory(t, a.auth, 'Unused');
      const none = await directions({ from: at(f1.id, 20), to: { poi_category_id: unused.id } });
      expectError(none, 422, 'end_unreachable');
      expect(errorFields(none)).toEqual(['to.poi_category_id']);
    });

    it("from a device's live position; 404 for a device it does not know, 422 for one not live in the building", async () => {
      await report(t, a.auth, [fix('directions-device', { lat: undefined, lng: undefined, x: 45, y: 11, floor_id: site.floor.id })]);
      const route = await ok({ from: { device_id: 'directions-device' }, to: at(site.floor.id, 80) });
      expect(route.from).toMatchObject(at(site.floor.id, 45, 10));
      expect(route.distance).toBeCloseTo(36, 6);
      expectError(await directions({ from: { device_id: 'no-such-device' }, to: at(site.floor.id, 80) }), 404, 'entity_not_found');
      // Another organization's device of the same id is not this one.
      await report(t, b.auth, [fix('their-device')]);
      expectError(await directions({ from: { device_id: 'their-device' }, to: at(site.floor.id, 80) }), 404, 'entity_not_found');
      await report(t, a.auth, [fix('outdoor-device')]);
      const outdoor = await directions({ from: { device_id: 'outdoor-device' }, to: at(site.floor.id, 80) });
      expectError(outdoor, 422, 'validation_failed');
      expect(errorFields(outdoor)).toEqual(['from.device_id']);
      await report(t, a.auth, [fix('stale-device', { lat: undefined, lng: undefined, x: 45, y: 11, floor_id: site.floor.id }, 3600)]);
      const stale = await directions({ from: { device_id: 'stale-device' }, to: at(site.floor.id, 80) });
      expectError(stale, 422, 'validation_failed');
      expect(errorFields(stale)).toEqual(['from.device_id']);
    });

    it('end_unreachable (422) names the end farther than 10 m from a usable path, or on a floor without paths', async () => {
      const far = await directions({ from: at(site.floor.id, 40, 25), to: at(f1.id, 40) });
      expectError(far, 422, 'end_unreachable');
      expect(errorFields(far)).toEqual(['from']);
      expect(far.body.message).toMatch(/within 10 m/);
      const farTo = await directions({ from: at(site.floor.id, 40), to: at(f1.id, 40, 30) });
      expectError(farTo, 422, 'end_unreachable');
      expect(errorFields(farTo)).toEqual(['to']);
      const roof = await directions({ from: at(site.floor.id, 40), to: at(empty.id, 40) });
      expectError(roof, 422, 'end_unreachable');
      expect(roof.body.message).toMatch(/Roof has none/);
      // Within 10 m it snaps, and the snap counts into the distance.
      expect((await ok({ from: at(site.floor.id, 40, 19), to: at(site.floor.id, 60) })).distance).toBeCloseTo(29, 6);
    });
  });

  describe('access', () => {
    it('a positioning key may call it (a read); a disabled one may not', async () => {
      const key = await createApiKey(t, a.token, ApiPermission.Positioning);
      await ok({ from: at(site.floor.id, 40), to: at(f1.id, 40) }, asApiKey(key.apikey));
      const readOnly = await createApiKey(t, a.token, ApiPermission.ReadOnly);
      await ok({ from: at(site.floor.id, 40), to: at(f1.id, 40) }, asApiKey(readOnly.apikey));
    });

    it('404 for a building, POI or category of another organization, and for an unknown building', async () => {
      const theirs = await createSite(t, b.auth);
      const body = { from: at(site.floor.id, 40), to: at(f1.id, 40) };
      expectError(await directions(body, b.auth), 404, 'entity_not_found');
      expectError(await directions(body, a.auth, theirs.building.id), 404, 'entity_not_found');
      expectError(await directions(body, a.auth, MISSING_INTEGER_ID), 404, 'entity_not_found');
      const theirPoi = await createPoi(t, b.auth, { building_id: theirs.building.id, name: 'Theirs', position: { floor_id: theirs.floor.id, cartesians: { x: 10, y: 10 } } });
      expectError(await directions({ from: at(site.floor.id, 40), to: { poi_id: theirPoi.id } }), 404, 'entity_not_found');
      expectError(await directions({ from: { poi_id: theirPoi.id }, to: at(f1.id, 40) }), 404, 'entity_not_found');
      const theirCategory = await createCategory(t, b.auth, 'Theirs');
      expectError(await directions({ from: at(site.floor.id, 40), to: { poi_category_id: theirCategory.id } }), 404, 'entity_not_found');
      // Their floor in a point of this building is a field that names nothing here.
      const floor = await directions({ from: at(theirs.floor.id, 40), to: at(f1.id, 40) });
      expectError(floor, 422, 'validation_failed');
      expect(errorFields(floor)).toEqual(['from.floor_id']);
      // A POI of another building of the same organization is not an end here.
      const sibling = await createSite(t, a.auth);
      const elsewhere = await createPoi(t, a.auth, { building_id: sibling.building.id, name: 'Elsewhere', position: { floor_id: sibling.floor.id, cartesians: { x: 10, y: 10 } } });
      const misplaced = await directions({ from: at(site.floor.id, 40), to: { poi_id: elsewhere.id } });
      expectError(misplaced, 422, 'validation_failed');
      expect(errorFields(misplaced)).toEqual(['to.poi_id']);
    });
  });

  describe('validation: 422 naming the field', () => {
    const valid = () => ({
      from: at(site.floor.id, 40),
      to: at(f1.id, 40),
      accessibility_mode: 'CHOOSE_SHORTEST',
      minimize_floor_changes: false,
      avoid: ['stairs'],
      exclude: ['ramp'],
      avoid_factor: 10,
      included_tags: [],
      excluded_tags: [],
      speed_m_s: 1.2,
    });

    it('accepts every option at once', async () => {
      await ok(valid());
    });

    it('null for any field', async () => {
      const fields = ['accessibility_mode', 'minimize_floor_changes', 'avoid', 'exclude', 'avoid_factor', 'included_tags', 'excluded_tags', 'speed_m_s', 'from', 'to'];
      for (const field of fields) {
        const response = await directions({ ...valid(), [field]: null });
        expectError(response, 422, 'validation_failed');
        expect([...new Set(errorFields(response))], field).toEqual([field]);
      }
      for (const [end, field] of [
        ['from', 'floor_id'],
        ['from', 'x'],
        ['from', 'y'],
        ['from', 'lat'],
        ['from', 'poi_id'],
        ['from', 'device_id'],
        ['to', 'lng'],
        ['to', 'poi_category_id'],
      ] as const) {
        const body = valid() as Loose;
        body[end] = { ...body[end], [field]: null };
        const response = await directions(body);
        expectError(response, 422, 'validation_failed');
        expect([...new Set(errorFields(response))], `${end}.${field}`).toEqual([`${end}.${field}`]);
      }
    });

    it.each([
      ['accessibility_mode', 'ONLY_STAIRS'],
      ['minimize_floor_changes', 'yes'],
      ['avoid', ['lift']],
      ['avoid', 'stairs'],
      ['exclude', ['wheelchair_lift']],
      ['avoid_factor', 0.5],
      ['avoid_factor', '10'],
      ['included_tags', [1]],
      ['excluded_tags', 'stairs'],
      ['speed_m_s', 0],
      ['speed_m_s', 100],
      ['from', 'here'],
      ['to', [1, 2]],
    ])('%s: %j', async (field, value) => {
      const response = await directions({ ...valid(), [field]: value });
      expectError(response, 422, 'validation_failed');
      // An array in place of an end also names its items (to[0]).
      expect([...new Set(errorFields(response).map((name) => name.replace(/\[\d+\]$/, '')))]).toEqual([field]);
    });

    it.each([
      ['two forms', { floor_id: 0, x: 1, y: 1, poi_id: 5 }, ['from']],
      ['no form', {}, ['from']],
      ['x without y', { floor_id: 0, x: 1 }, ['from']],
      ['x/y and lat/lng', { floor_id: 0, x: 1, y: 1, lat: 42, lng: -8 }, ['from']],
      ['no floor', { x: 1, y: 1 }, ['from.floor_id']],
      ['an unknown floor', { floor_id: MISSING_INTEGER_ID, x: 1, y: 1 }, ['from.floor_id']],
      ['a wrong type', { floor_id: 0, x: '1', y: 1 }, ['from.x']],
      ['a category as a start', { poi_category_id: 1 }, ['from']],
    ])('from with %s', async (_label, from, fields) => {
      const floorId = (from as Loose).floor_id === 0 ? site.floor.id : (from as Loose).floor_id;
      const response = await directions({ ...valid(), from: { ...from, ...(floorId === undefined ? {} : { floor_id: floorId }) } });
      expectError(response, 422, 'validation_failed');
      expect([...new Set(errorFields(response))]).toEqual(fields);
    });

    it('to with a device is no form of to', async () => {
      const response = await directions({ ...valid(), to: { device_id: 'directions-device' } });
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response)).toEqual(['to']);
    });
  });

  describe("the building's routing settings (PUT /buildings/{id}/paths settings)", () => {
    it('time the floor changes and bound the snap as set', async () => {
      const own = await createSite(t, a.auth);
      const upper = await createFloor(t, a.auth, own.building.id, { level: 1, name: '1' });
      const top = await createFloor(t, a.auth, own.building.id, { level: 2, name: '2' });
      const graph = building(own.floor.id, upper.id, top.id);
      await putPaths(t, a.auth, own.building.id, graph);
      const far = { from: at(own.floor.id, 40, 25), to: at(upper.id, 40), accessibility_mode: 'ONLY_ACCESSIBLE' };
      expectError(await directions(far, a.auth, own.building.id), 422, 'end_unreachable');
      await putPaths(t, a.auth, own.building.id, { ...graph, settings: { snap_distance_m: 20, elevator_wait_s: 0, elevator_s_per_floor: 2 } });
      const response = await directions(far, a.auth, own.building.id);
      expectStatus(response, 200);
      // 15 m snapped, 50 m to the lift, no wait, 2 s, 50 m back.
      expect(response.body.distance).toBeCloseTo(115, 6);
      expect(response.body.duration).toBeCloseTo(115 / WALK + 2, 6);
      const failed = await directions({ ...far, from: at(own.floor.id, 40, 31) }, a.auth, own.building.id);
      expectError(failed, 422, 'end_unreachable');
      expect(failed.body.message).toMatch(/within 20 m/);
    });
  });

  describe('the route graph cache', () => {
    it('routes over the new paths at once after a change (and after a floor is renamed)', async () => {
      const own = await createSite(t, a.auth);
      const upper = await createFloor(t, a.auth, own.building.id, { level: 1, name: '1' });
      const top = await createFloor(t, a.auth, own.building.id, { level: 2, name: '2' });
      await putPaths(t, a.auth, own.building.id, building(own.floor.id, upper.id, top.id));
      const body = { from: at(own.floor.id, 40), to: at(upper.id, 40) };
      const call = () => directions(body, a.auth, own.building.id);
      const before = await call();
      expectStatus(before, 200);
      expect(connectors(before.body)).toEqual(['escalator']);
      const cached = t.app.get(RouteGraphCache).size;
      expectStatus(await call(), 200);
      expect(t.app.get(RouteGraphCache).size).toBe(cached);

      const graph = building(own.floor.id, upper.id, top.id);
      await putPaths(t, a.auth, own.building.id, { ...graph, links: graph.links.filter((link) => (link as Loose).connector !== 'escalator') });
      const after = await call();
      expectStatus(after, 200);
      expect(connectors(after.body)).toEqual(['stairs']);

      await t.http.put(`/api/v1/floors/${upper.id}`).set(a.auth).send({ name: 'First' }).expect(200);
      const renamed = await call();
      expect(renamed.body.indications.find((indication: Loose) => indication.action === 'change_floor').text).toBe('Go up the stairs to First');
    });
  });
});

/** Issue 40: two instances on one PostgreSQL database, each with its own route graph cache. */
describe.runIf(testDatabaseKind() === 'postgres')('directions across instances (PostgreSQL)', () => {
  let instances: TwoInstances | undefined;

  beforeAll(async () => {
    instances = await twoInstances();
  }, 60_000);
  afterAll(async () => instances?.close());

  it("a paths change through instance A is in instance B's next route", async () => {
    const { a, b } = instances!;
    const owner = await signUp(a, 'Two instances');
    const site = await createSite(a, owner.auth);
    const upper = await createFloor(a, owner.auth, site.building.id, { level: 1, name: '1' });
    const top = await createFloor(a, owner.auth, site.building.id, { level: 2, name: '2' });
    const graph = building(site.floor.id, upper.id, top.id);
    await putPaths(a, owner.auth, site.building.id, graph);
    const body = { from: { floor_id: site.floor.id, x: 40, y: 10 }, to: { floor_id: upper.id, x: 40, y: 10 } };
    const route = (on: TestApp) => on.http.post(`/api/v1/buildings/${site.building.id}/directions`).set(owner.auth).send(body);
    const connectorsOn = async (on: TestApp) => {
      const response = await route(on);
      expectStatus(response, 200);
      return (response.body.edges as Loose[]).map((edge) => edge.connector).filter((c) => c !== null);
    };
    // Both instances hold the graph.
    expect(await connectorsOn(a)).toEqual(['escalator']);
    expect(await connectorsOn(b)).toEqual(['escalator']);
    expect(b.app.get(RouteGraphCache).size).toBeGreaterThan(0);

    await putPaths(a, owner.auth, site.building.id, { ...graph, links: graph.links.filter((link) => (link as Loose).connector !== 'escalator') });
    expect(await connectorsOn(b)).toEqual(['stairs']);
    const stairs = (link: Loose) => link.connector === 'escalator' || (link.tags ?? []).some((tag: string) => tag.toLowerCase() === 'stairs');
    await putPaths(a, owner.auth, site.building.id, { ...graph, links: graph.links.filter((link) => !stairs(link)) });
    expect(await connectorsOn(b)).toEqual(['elevator']);
    expect(await connectorsOn(a)).toEqual(['elevator']);
  });
});
