import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { DeviceNavigation } from '../../src/navigation/device-navigation.entity';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, countQueries, createSite, errorFields, expectError, expectStatus, keysOf, signUp, Site } from '../support/cartography';
import { putPaths } from '../support/pois';
import { fix, report } from '../support/positions';
import { SseClient } from '../support/sse-client';
import { createTestApp, TestApp, testDatabaseKind, TwoInstances, twoInstances } from '../support/test-app';

type Loose = Record<string, any>;

const WALK = 1.2;
const NAVIGATION_KEYS = [
  'arrived',
  'building_id',
  'destination',
  'device_id',
  'distance_remaining',
  'duration_remaining',
  'next_indication',
  'off_route',
  'route',
  'started_at',
  'updated_at',
];
const STREAM = '/api/v1/realtime/stream';

/**
 * One floor, a square ring of corridors 40 m a side: 1 (0,0) – 2 (40,0) – 3 (40,40) – 4 (0,40) – 1.
 * The destination (40,30) is 65 m from (5,0) by 2, 95 m by 4: the route goes east, then left.
 */
function ring(floorId: number, settings: Record<string, number> = {}) {
  return {
    nodes: [
      { id: 1, floor_id: floorId, x: 0, y: 0 },
      { id: 2, floor_id: floorId, x: 40, y: 0 },
      { id: 3, floor_id: floorId, x: 40, y: 40 },
      { id: 4, floor_id: floorId, x: 0, y: 40 },
    ],
    links: [
      { source: 1, target: 2 },
      { source: 2, target: 3 },
      { source: 3, target: 4 },
      { source: 4, target: 1 },
    ],
    settings,
  };
}

/** Fixes one second apart, ending about now (a live position is at most a minute old). */
function clock() {
  let time = Date.now() - 40_000;
  return () => new Date((time += 1000)).toISOString();
}

const navigationOf = (t: TestApp, organizationId: string, deviceId: string) => t.dataSource.getRepository(DeviceNavigation).findOneBy({ organizationId, deviceId });

/** A fix on the floor at x/y (its building follows from the floor). */
const at = (deviceId: string, floorId: number, x: number, y: number, time: string) => ({ ...fix(deviceId, { lat: undefined, lng: undefined, floor_id: floorId, x, y }), time });

describe('following a route (PUT/GET/DELETE /api/v1/devices/{id}/navigation)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let site: Site;
  let far: Site;
  const next = clock();

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Navigation A');
    b = await signUp(t, 'Navigation B');
    site = await createSite(t, a.auth);
    far = await createSite(t, a.auth, { name: 'Far' });
    await putPaths(t, a.auth, site.building.id, ring(site.floor.id));
  });
  afterAll(async () => t?.close());

  const navigation = (deviceId: string) => `/api/v1/devices/${deviceId}/navigation`;
  const start = (deviceId: string, body: unknown, auth = a.auth) =>
    t.http
      .put(navigation(deviceId))
      .set(auth)
      .send(body as object);
  const read = (deviceId: string, auth = a.auth) => t.http.get(navigation(deviceId)).set(auth);
  const to = (x: number, y: number) => ({ to: { floor_id: site.floor.id, x, y } });
  const move = (deviceId: string, x: number, y: number, auth = a.auth, floorId = site.floor.id) => report(t, auth, [at(deviceId, floorId, x, y, next())]);

  it('starts from the live position: the route as directions answer it, and the progress at the start, stored', async () => {
    await move('walker', 5, 1);
    const started = await start('walker', to(40, 30));
    expectStatus(started, 200);
    const body = started.body as Loose;
    expect(keysOf(body)).toEqual(NAVIGATION_KEYS);
    expect(body).toMatchObject({ device_id: 'walker', building_id: site.building.id, off_route: false, arrived: false });
    expect(body.destination).toMatchObject({ floor_id: site.floor.id, x: 40, y: 30 });
    expect(body.destination).toEqual(body.route.to);
    // The route is the directions answer from the same place.
    const directions = await t.http
      .post(`/api/v1/buildings/${site.building.id}/directions`)
      .set(a.auth)
      .send({ from: { floor_id: site.floor.id, x: 5, y: 1 }, ...to(40, 30) });
    expectStatus(directions, 200);
    expect(body.route).toEqual(directions.body);
    expect(body.distance_remaining).toBeCloseTo(65, 6);
    expect(body.duration_remaining).toBeCloseTo(65 / WALK, 6);
    expect(body.next_indication).toEqual(body.route.indications[0]);
    expect(body.started_at).toEqual(body.updated_at);
    expect((await read('walker')).body).toEqual(body);
    const stored = await navigationOf(t, a.org.organizationId, 'walker');
    expect(stored).toMatchObject({ buildingId: site.building.id, request: to(40, 30), arrivedAt: null, progress: { off_route: false, off_route_fixes: 0 } });
  });

  it('moves on as fixes arrive: what is left, the next indication', async () => {
    await move('walker', 20, 1);
    const progress = (await read('walker')).body as Loose;
    expect(progress.distance_remaining).toBeCloseTo(50, 6);
    expect(progress.duration_remaining).toBeCloseTo(50 / WALK, 6);
    expect(progress.next_indication).toMatchObject({ action: 'turn_left' });
    expect(progress.off_route).toBe(false);
    await move('walker', 41, 10);
    const north = (await read('walker')).body as Loose;
    expect(north.distance_remaining).toBeCloseTo(20, 6);
    expect(north.next_indication).toMatchObject({ action: 'arrive' });
  });

  it('is off route farther than 5 m, and after 3 such fixes in a row routes again from where the device is', async () => {
    await move('lost', 5, 1);
    const first = (await start('lost', to(40, 30))).body as Loose;
    expect(first.route.edges.map((edge: Loose) => first.route.points[edge.to].x)).toEqual([40, 40]);
    await move('lost', 0, 10);
    const once = (await read('lost')).body as Loose;
    expect(once.off_route).toBe(true);
    expect(once.route).toEqual(first.route);
    // Back on the route: the count starts again.
    await move('lost', 6, 2);
    expect((await read('lost')).body.off_route).toBe(false);
    await move('lost', 0, 10);
    await move('lost', 0, 20);
    const twice = (await read('lost')).body as Loose;
    expect(twice.off_route).toBe(true);
    expect(twice.route).toEqual(first.route);
    expect((await navigationOf(t, a.org.organizationId, 'lost'))!.progress.off_route_fixes).toBe(2);
    await move('lost', 0, 30);
    const again = (await read('lost')).body as Loose;
    // From (0, 30): north to 4, east to 3, south to the destination.
    expect(again.off_route).toBe(false);
    expect(again.route.from).toMatchObject({ x: 0, y: 30 });
    expect(again.route.to).toEqual(first.route.to);
    expect(again.distance_remaining).toBeCloseTo(60, 6);
    expect(again.route.distance).toBeCloseTo(60, 6);
    expect(again.started_at).toBe(first.started_at);
    expect((await navigationOf(t, a.org.organizationId, 'lost'))!.progress.off_route_fixes).toBe(0);
  });

  it('follows the building settings: a wider corridor, more patience', async () => {
    const other = await createSite(t, a.auth, { name: 'Patient' });
    await putPaths(t, a.auth, other.building.id, ring(other.floor.id, { off_route_distance_m: 15, off_route_fixes: 4 }));
    const go = (x: number, y: number) => report(t, a.auth, [at('patient', other.floor.id, x, y, next())]);
    await go(5, 1);
    expectStatus(await start('patient', { to: { floor_id: other.floor.id, x: 40, y: 30 } }), 200);
    await go(0, 10);
    expect((await read('patient')).body.off_route).toBe(false);
    for (const y of [20, 25, 30]) await go(0, y);
    const still = (await read('patient')).body as Loose;
    expect(still.off_route).toBe(true);
    expect(still.route.from).toMatchObject({ x: 5, y: 0 });
    await go(0, 35);
    expect((await read('patient')).body.route.from).toMatchObject({ x: 0, y: 35 });
  });

  it('ends on arrival: GET and DELETE answer 404, the stream says it arrived, the next fix clears it', async () => {
    const stream = await SseClient.open(t.app.getHttpServer(), STREAM, a.auth);
    try {
      await stream.until((c) => c.frames.length > 0);
      const frames = () => stream.events<Loose>('position').filter((feature) => feature.id === 'arriving');
      await move('arriving', 5, 1);
      expectStatus(await start('arriving', to(40, 30)), 200);
      await move('arriving', 20, 1);
      await stream.until(() => frames().some((feature) => feature.properties.navigation?.distance_remaining < 51));
      const moving = frames().find((feature) => feature.properties.navigation?.distance_remaining < 51)!;
      expect(moving.properties.navigation).toEqual((await read('arriving')).body);
      await move('arriving', 41, 31);
      await stream.until(() => frames().some((feature) => feature.properties.navigation?.arrived === true));
      const arrived = frames().find((feature) => feature.properties.navigation?.arrived === true)!;
      expect(arrived.properties.navigation).toMatchObject({ device_id: 'arriving', arrived: true, distance_remaining: 0, duration_remaining: 0, off_route: false });
      expect(arrived.properties.navigation.next_indication).toMatchObject({ action: 'arrive' });
      expectError(await read('arriving'), 404, 'entity_not_found');
      expectError(await t.http.delete(navigation('arriving')).set(a.auth), 404, 'entity_not_found');
      // A device that is not guided: no navigation in its frames.
      await move('arriving', 30, 1);
      await stream.until(() => frames().some((feature) => feature.properties.local_coordinates?.[0] === 30));
      expect(frames().find((feature) => feature.properties.local_coordinates?.[0] === 30)!.properties).not.toHaveProperty('navigation');
      expect(await navigationOf(t, a.org.organizationId, 'arriving')).toBeNull();
    } finally {
      stream.close();
    }
  });

  it('reads device_navigations once per batch, on its key: a batch without a guided device costs that one read', async () => {
    await move('counted', 5, 1);
    expectStatus(await start('counted', to(40, 30)), 200);
    const ofNavigations = (queries: string[]) => queries.filter((sql) => /device_navigations/i.test(sql)).map((sql) => sql.trim().split(/\s+/)[0].toUpperCase());
    const unguided = await countQueries(t, () =>
      report(
        t,
        a.auth,
        ['plain-1', 'plain-2', 'plain-3'].map((id, i) => at(id, site.floor.id, 5 + i, 1, next())),
      ),
    );
    expect(ofNavigations(unguided.queries)).toEqual(['SELECT']);
    const guided = await countQueries(t, () => report(t, a.auth, [at('counted', site.floor.id, 20, 1, next()), at('plain-1', site.floor.id, 6, 1, next())]));
    expect(ofNavigations(guided.queries)).toEqual(['SELECT', 'UPDATE']);
    expect((await read('counted')).body.distance_remaining).toBeCloseTo(50, 6);
  });

  it('DELETE ends it: 204, then 404 on a repeat; fixes then move nothing', async () => {
    await move('stopping', 5, 1);
    expectStatus(await start('stopping', to(40, 30)), 200);
    const ended = await t.http.delete(navigation('stopping')).set(a.auth);
    expect(ended.status).toBe(204);
    expect(ended.text).toBe('');
    expectError(await t.http.delete(navigation('stopping')).set(a.auth), 404, 'entity_not_found');
    expectError(await read('stopping'), 404, 'entity_not_found');
    await move('stopping', 20, 1);
    expect(await navigationOf(t, a.org.organizationId, 'stopping')).toBeNull();
  });

  it('PUT again replaces the guidance: a new destination, the progress from the start', async () => {
    await move('changing', 5, 1);
    expectStatus(await start('changing', to(40, 30)), 200);
    const replaced = await start('changing', to(20, 0));
    expectStatus(replaced, 200);
    expect(replaced.body.destination).toMatchObject({ x: 20, y: 0 });
    expect(replaced.body.distance_remaining).toBeCloseTo(15, 6);
    expect((await read('changing')).body).toEqual(replaced.body);
  });

  describe('refusals', () => {
    it('404 for a device the organization does not have, or of another organization; GET 404 when not guided', async () => {
      expectError(await start('nobody', to(40, 30)), 404, 'entity_not_found');
      await report(t, b.auth, [fix('theirs')]);
      expectError(await start('theirs', to(40, 30)), 404, 'entity_not_found');
      await move('idle', 5, 1);
      expectError(await read('idle'), 404, 'entity_not_found');
      expectError(await read('nobody'), 404, 'entity_not_found');
    });

    it('422 with from: the navigation starts where the device is', async () => {
      await move('with-from', 5, 1);
      const response = await start('with-from', { from: { floor_id: site.floor.id, x: 5, y: 1 }, ...to(40, 30) });
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response)).toEqual(['from']);
      expect(await navigationOf(t, a.org.organizationId, 'with-from')).toBeNull();
    });

    it('422 naming device_id for a device without a live position on a floor, and its reason', async () => {
      await report(t, a.auth, [fix('outdoors')]);
      const outdoors = await start('outdoors', to(40, 30));
      expectError(outdoors, 422, 'validation_failed');
      expect(errorFields(outdoors)).toEqual(['device_id']);
      expect(outdoors.body.errors[0].message).toMatch(/not on a floor/);
      await report(t, a.auth, [{ ...fix('stale', { lat: undefined, lng: undefined, floor_id: site.floor.id, x: 5, y: 1 }, 3600) }]);
      const stale = await start('stale', to(40, 30));
      expectError(stale, 422, 'validation_failed');
      expect(errorFields(stale)).toEqual(['device_id']);
      expect(stale.body.errors[0].message).toMatch(/no live position/);
    });

    it('422 for a destination that cannot be reached, naming the end; and for a device too far from every path', async () => {
      await move('unreachable', 5, 1);
      const response = await start('unreachable', to(40, 80));
      expectError(response, 422, 'end_unreachable');
      expect(errorFields(response)).toEqual(['to']);
      // A building without paths: the device's end cannot be reached.
      await report(t, a.auth, [at('pathless', far.floor.id, 5, 1, next())]);
      const pathless = await start('pathless', { to: { floor_id: far.floor.id, x: 10, y: 10 } });
      expectError(pathless, 422, 'end_unreachable');
      expect(errorFields(pathless)).toEqual(['device_id']);
      expect(pathless.body.message).toMatch(/^device pathless: /);
      expect(await navigationOf(t, a.org.organizationId, 'unreachable')).toBeNull();
    });

    it('422 naming the field for an invalid body', async () => {
      await move('invalid', 5, 1);
      for (const [body, field] of [
        [{}, 'to'],
        [{ ...to(40, 30), speed_m_s: 0 }, 'speed_m_s'],
        [{ to: { floor_id: site.floor.id } }, 'to'],
      ] as const) {
        const response = await start('invalid', body);
        expectError(response, 422, 'validation_failed');
        expect([...new Set(errorFields(response))]).toEqual([field]);
      }
    });
  });

  it('keeps organizations apart: another organization neither reads, ends nor moves a guidance, even with a device of the same id', async () => {
    await move('shared-id', 5, 1);
    const started = (await start('shared-id', to(40, 30))).body as Loose;
    expectError(await read('shared-id', b.auth), 404, 'entity_not_found');
    expectError(await t.http.delete(navigation('shared-id')).set(b.auth), 404, 'entity_not_found');
    const theirSite = await createSite(t, b.auth);
    await report(t, b.auth, [at('shared-id', theirSite.floor.id, 30, 1, next())]);
    expect((await read('shared-id')).body).toEqual(started);
    expect(await navigationOf(t, b.org.organizationId, 'shared-id')).toBeNull();
  });

  it('permissions: a positioning key starts, reads and ends a navigation; a read-only key reads only', async () => {
    const positioning = asApiKey((await createApiKey(t, a.token, ApiPermission.Positioning)).apikey);
    const readOnly = asApiKey((await createApiKey(t, a.token, ApiPermission.ReadOnly)).apikey);
    const cartography = asApiKey((await createApiKey(t, a.token, ApiPermission.CartographyReadWrite)).apikey);
    await report(t, positioning, [at('app', site.floor.id, 5, 1, next())]);
    expectStatus(await start('app', to(40, 30), positioning), 200);
    expectStatus(await read('app', positioning), 200);
    expectStatus(await read('app', readOnly), 200);
    expectError(await start('app', to(40, 30), readOnly), 403, 'forbidden');
    expectError(await start('app', to(40, 30), cartography), 403, 'forbidden');
    expectError(await t.http.delete(navigation('app')).set(readOnly), 403, 'forbidden');
    expect((await t.http.delete(navigation('app')).set(positioning)).status).toBe(204);
  });

  it('a deleted device takes its guidance with it', async () => {
    await move('deleted', 5, 1);
    expectStatus(await start('deleted', to(40, 30)), 200);
    expect((await t.http.delete('/api/v1/devices/deleted').set(a.auth)).status).toBe(204);
    expect(await navigationOf(t, a.org.organizationId, 'deleted')).toBeNull();
  });
});

/** Issue 40: a navigation started through one instance is moved on, routed again and ended by fixes through the other. */
describe.runIf(testDatabaseKind() === 'postgres')('following a route across instances (PostgreSQL)', () => {
  let instances: TwoInstances | undefined;

  beforeAll(async () => {
    instances = await twoInstances();
  }, 60_000);
  afterAll(async () => instances?.close());

  it("instance A starts it; instance B's fixes advance it, route it again and end it", async () => {
    const { a, b } = instances!;
    const owner = await signUp(a, 'Two instances navigation');
    const site = await createSite(a, owner.auth);
    await putPaths(a, owner.auth, site.building.id, ring(site.floor.id));
    const next = clock();
    const move = (x: number, y: number) => report(b, owner.auth, [at('courier', site.floor.id, x, y, next())]);
    const read = async (on: TestApp) => on.http.get('/api/v1/devices/courier/navigation').set(owner.auth);
    await move(5, 1);
    const started = await a.http
      .put('/api/v1/devices/courier/navigation')
      .set(owner.auth)
      .send({ to: { floor_id: site.floor.id, x: 40, y: 30 } });
    expectStatus(started, 200);
    await move(20, 1);
    const moved = (await read(a)).body as Loose;
    expect(moved.distance_remaining).toBeCloseTo(50, 6);
    for (const y of [10, 20, 30]) await move(0, y);
    const rerouted = (await read(a)).body as Loose;
    expect(rerouted.route.from).toMatchObject({ x: 0, y: 30 });
    expect(rerouted.distance_remaining).toBeCloseTo(60, 6);
    expect((await read(b)).body).toEqual(rerouted);
    await move(40, 31);
    expectError(await read(a), 404, 'entity_not_found');
    expectError(await read(b), 404, 'entity_not_found');
  });
});
