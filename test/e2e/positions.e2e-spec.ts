import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { Role } from '../../src/access/roles';
import { toCartesian } from '../../src/common/geometry/cartesian';
import { Device } from '../../src/devices/device.entity';
import { asApiKey, asBearer, createApiKey, passwordTokens } from '../support/auth';
import { Cartographer, createFloor, createSite, expectError, expectStatus, keysOf, signUp, Site } from '../support/cartography';
import { createPoi, poiInput } from '../support/pois';
import { DEVICE_INFO_KEYS, deviceIdsOf, FEATURE_KEYS, FEATURE_PROPERTY_KEYS, fix, historyOf, realtime, REALTIME, REALTIME_TIME, report } from '../support/positions';
import { createUser } from '../support/users';
import { createTestApp, TestApp } from '../support/test-app';

describe('realtime positions: ingest and live read (contract 6.1, 6.2)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let siteA: Site;
  let siteB: Site;
  let frameA: { latitude: number; longitude: number; width: number; length: number; rotation: number };

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Org A');
    b = await signUp(t, 'Org B');
    siteA = await createSite(t, a.auth);
    siteB = await createSite(t, b.auth);
    await t.http.put(`/api/v1/floors/${siteA.floor.id}`).set(a.auth).send({ level_height: 3.5 }).expect(200);
    const building = siteA.building;
    frameA = {
      latitude: building.location.lat,
      longitude: building.location.lng,
      width: building.dimensions.width,
      length: building.dimensions.length,
      rotation: building.rotation,
    };
  });
  afterAll(async () => t?.close());

  it('accepts {"positions":[...]}, stores the history and serves the latest fix in the exact 6.1 shape', async () => {
    const at = { lat: 42.87236, lng: -8.56332 };
    const time = new Date(Date.now() - 2000);
    const answer = await report(t, a.auth, {
      positions: [
        fix('shape-1', { ...at, time: time.getTime() - 5000, building_id: siteA.building.id, floor_id: siteA.floor.id, accuracy: 4 }),
        fix('shape-1', { ...at, time: time.toISOString(), building_id: siteA.building.id, floor_id: siteA.floor.id, accuracy: 3.39, yaw: 1.866, device_code: 'SM-G980F' }),
      ],
    });
    expect(answer).toEqual({ accepted: 2, rejected: [], events: [] });

    const body = await realtime(t, a.auth, '?device_ids=shape-1');
    expect(keysOf(body)).toEqual(['devicesInfo', 'features', 'type']);
    expect(body.type).toBe('FeatureCollection');
    expect(body.features).toHaveLength(1);
    const [feature] = body.features;
    expect(keysOf(feature)).toEqual(FEATURE_KEYS);
    expect(keysOf(feature.properties)).toEqual(FEATURE_PROPERTY_KEYS);
    const expected = toCartesian(frameA, at);
    expect(feature).toEqual({
      type: 'Feature',
      id: 'shape-1',
      userId: a.org.adminId,
      geometry: { type: 'Point', coordinates: [at.lat, at.lng] },
      properties: {
        time: time.toISOString(),
        yaw: 1.866,
        local_coordinates: [expect.closeTo(expected.x, 6), expect.closeTo(expected.y, 6)],
        floor_id: siteA.floor.id,
        building_id: siteA.building.id,
        level_height: 3.5,
        accuracy: 3.39,
        poi_id: null,
      },
    });
    expect(feature.properties.time).toMatch(REALTIME_TIME);
    expect(keysOf(body.devicesInfo[0])).toEqual(DEVICE_INFO_KEYS);
    expect(body.devicesInfo[0]).toMatchObject({
      id: 'shape-1',
      code: 'SM-G980F',
      organization: a.org.organizationId,
      organization_id: a.org.organizationId,
      user: a.org.adminId,
      user_id: a.org.adminId,
      groups: [],
      group_ids: [],
      buildings: [],
      building_ids: [],
    });
    const history = await historyOf(t, a.org.organizationId, 'shape-1');
    expect(history.map((row) => row.time.getTime())).toEqual([time.getTime() - 5000, time.getTime()]);
    expect(history[1]).toMatchObject({ userId: a.org.adminId, buildingId: siteA.building.id, floorId: siteA.floor.id, lat: at.lat, lng: at.lng, accuracy: 3.39, yaw: 1.866 });
  });

  it('accepts a bare array and a FeatureCollection (a captured answer replayed)', async () => {
    expect(await report(t, a.auth, [fix('bare-1'), fix('bare-2')])).toMatchObject({ accepted: 2, rejected: [] });
    const captured = await realtime(t, a.auth, '?device_ids=shape-1');
    // Replayed under another device id, a second later.
    captured.features[0].id = 'replayed-1';
    captured.devicesInfo[0].id = 'replayed-1';
    captured.features[0].properties.time = new Date(Date.now() - 1000).toISOString();
    expect(await report(t, a.auth, captured)).toEqual({ accepted: 1, rejected: [], events: [] });
    const replayed = (await realtime(t, a.auth, '?device_ids=replayed-1')).features[0];
    const original = (await realtime(t, a.auth, '?device_ids=shape-1')).features[0];
    expect(replayed.geometry).toEqual(original.geometry);
    expect(replayed.properties).toMatchObject({ floor_id: siteA.floor.id, building_id: siteA.building.id, accuracy: 3.39, yaw: 1.866 });
    expect((await realtime(t, a.auth, '?device_ids=replayed-1')).devicesInfo[0].code).toBe('SM-G980F');
    expect(deviceIdsOf(await realtime(t, a.auth, '?device_ids=bare-1,bare-2'))).toEqual(['bare-1', 'bare-2']);
  });

  it('converts floor x/y through the building frame, exactly as POIs do', async () => {
    const poi = await createPoi(t, a.auth, { building_id: siteA.building.id, name: 'Desk', position: { floor_id: siteA.floor.id, cartesians: { x: 12.5, y: 30.25 } } });
    await report(t, a.auth, [fix('xy-1', { lat: undefined, lng: undefined, x: 12.5, y: 30.25, floor_id: siteA.floor.id })]);
    const [feature] = (await realtime(t, a.auth, '?device_ids=xy-1')).features;
    const poiPosition = poi.position as unknown as { lat: number; lng: number };
    expect(feature.geometry.coordinates[0]).toBeCloseTo(poiPosition.lat, 10);
    expect(feature.geometry.coordinates[1]).toBeCloseTo(poiPosition.lng, 10);
    expect(feature.properties.local_coordinates![0]).toBeCloseTo(12.5, 6);
    expect(feature.properties.local_coordinates![1]).toBeCloseTo(30.25, 6);
    // The building was taken from the floor.
    expect(feature.properties.building_id).toBe(siteA.building.id);
    await t.http.delete(`/api/v1/pois/${poi.id}`).set(a.auth).expect(204);
  });

  it('rejects bad items one by one with the reason, and stores the rest', async () => {
    const otherFloor = await createFloor(t, a.auth, (await createSite(t, a.auth)).building.id);
    const items = [
      fix('ok-1'),
      'not an object',
      fix('', {}),
      fix('bad-time', { time: 'yesterday' }),
      fix('future', { time: new Date(Date.now() + 120_000).toISOString() }),
      fix('too-old', { time: Date.now() - 8 * 86_400_000 }),
      fix('bad-lat', { lat: 91 }),
      fix('bad-lng', { lng: 'east' }),
      fix('no-coords', { lat: undefined, lng: undefined }),
      fix('xy-no-building', { lat: undefined, lng: undefined, x: 1, y: 2 }),
      fix('bad-accuracy', { accuracy: 10_001 }),
      fix('no-accuracy', { accuracy: undefined }),
      fix('foreign-floor', { floor_id: siteB.floor.id }),
      fix('foreign-building', { building_id: siteB.building.id }),
      fix('floor-elsewhere', { building_id: siteA.building.id, floor_id: otherFloor.id }),
      fix('missing-floor', { floor_id: 2_147_483_000 }),
      fix('bad-yaw', { yaw: 'north' }),
      fix('indoor-no-floor', { indoor: true }),
      fix('ok-2', { building_id: siteA.building.id }),
    ];
    const answer = await report(t, a.auth, { positions: items });
    expect(answer.accepted).toBe(2);
    expect(answer.events).toEqual([]);
    expect(answer.rejected.map(({ index, code, fields }) => [index, code, fields])).toEqual([
      [1, 'invalid', '[1]'],
      [2, 'invalid', 'device_id'],
      [3, 'invalid', 'time'],
      [4, 'out_of_range', 'time'],
      [5, 'out_of_range', 'time'],
      [6, 'invalid', 'lat'],
      [7, 'invalid', 'lng'],
      [8, 'required', 'lat,lng'],
      [9, 'required', 'building_id'],
      [10, 'invalid', 'accuracy'],
      [11, 'required', 'accuracy'],
      [12, 'not_found', 'floor_id'],
      [13, 'not_found', 'building_id'],
      [14, 'invalid', 'floor_id'],
      [15, 'not_found', 'floor_id'],
      [16, 'invalid', 'yaw'],
      [17, 'required', 'floor_id'],
    ]);
    for (const rejection of answer.rejected) expect(rejection.message).toEqual(expect.any(String));
    const stored = await t.dataSource.getRepository(Device).findBy({ organizationId: a.org.organizationId });
    const ids = stored.map((device) => device.id);
    expect(ids).toEqual(expect.arrayContaining(['ok-1', 'ok-2']));
    for (const rejected of ['bad-time', 'future', 'too-old', 'foreign-floor', 'foreign-building', 'floor-elsewhere']) expect(ids).not.toContain(rejected);
  });

  it('answers 422 with the list in errors when every item is rejected, and stores nothing', async () => {
    const before = (await historyOf(t, a.org.organizationId)).length;
    const response = await t.http
      .post(REALTIME)
      .set(a.auth)
      .send([fix('all-bad-1', { lat: 200 }), fix('all-bad-2', { accuracy: -1 })]);
    expectError(response, 422, 'validation_failed');
    expect(response.body.errors).toEqual([
      { index: 0, code: 'invalid', fields: 'lat', message: expect.any(String) },
      { index: 1, code: 'invalid', fields: 'accuracy', message: expect.any(String) },
    ]);
    expect(await historyOf(t, a.org.organizationId)).toHaveLength(before);
    expectError(await t.http.post(REALTIME).set(a.auth).send({ positions: [] }), 422, 'validation_failed');
    expectError(await t.http.post(REALTIME).set(a.auth).send({ something: 'else' }), 422, 'validation_failed');
  });

  it('refuses more than 1000 items or 1 MiB with 413', async () => {
    const many = Array.from({ length: 1001 }, (_, index) => fix(`many-${index}`));
    expectError(await t.http.post(REALTIME).set(a.auth).send(many), 413, 'payload_too_large');
    const big = [fix('big', { device_code: 'x'.repeat(200) }), ...Array.from({ length: 999 }, () => ({ padding: 'y'.repeat(1100) }))];
    expectError(await t.http.post(REALTIME).set(a.auth).send(big), 413, 'payload_too_large');
    expect(await t.dataSource.getRepository(Device).findOneBy({ organizationId: a.org.organizationId, id: 'many-0' })).toBeNull();
    // 1000 is the limit, not over it.
    const base = Date.now() - 1000;
    const thousand = Array.from({ length: 1000 }, (_, index) => fix(`thousand-${index % 10}`, { time: base - index }));
    expect((await report(t, a.auth, thousand)).accepted).toBe(1000);
  });

  it('orders by device and time, drops duplicates, and never moves the latest fix backwards', async () => {
    const now = Date.now();
    const answer = await report(t, a.auth, [
      fix('order-1', { time: now - 1000, lat: 10 }),
      fix('order-1', { time: now - 3000, lat: 30 }),
      fix('order-1', { time: now - 1000, lat: 11 }),
      fix('order-1', { time: now - 2000, lat: 20 }),
    ]);
    expect(answer.accepted).toBe(3);
    expect(answer.rejected).toEqual([{ index: 2, code: 'duplicate', fields: 'device_id,time', message: expect.any(String) }]);
    const history = await historyOf(t, a.org.organizationId, 'order-1');
    expect(history.map((row) => row.lat)).toEqual([30, 20, 10]);
    expect((await realtime(t, a.auth, '?device_ids=order-1')).features[0].geometry.coordinates[0]).toBe(10);

    // A late batch with an older fix is kept as history but leaves the live position alone.
    await report(t, a.auth, [fix('order-1', { time: now - 5000, lat: 50 })]);
    expect((await realtime(t, a.auth, '?device_ids=order-1')).features[0].geometry.coordinates[0]).toBe(10);
    expect(await historyOf(t, a.org.organizationId, 'order-1')).toHaveLength(4);

    // A batch sent again (a retry after a lost answer) stores nothing twice.
    await report(t, a.auth, [fix('order-1', { time: now - 3000, lat: 30 })]);
    expect(await historyOf(t, a.org.organizationId, 'order-1')).toHaveLength(4);
  });

  it('accepts epoch milliseconds and reports for another user only with ADMIN_ORG credentials', async () => {
    const user = await createUser(t, a.org.organizationId, Role.User);
    const userAuth = asBearer((await passwordTokens(t, user.email, user.password)).access_token);
    expect(await report(t, userAuth, [fix('user-own', { time: Date.now() - 500 })])).toMatchObject({ accepted: 1 });
    expect((await realtime(t, a.auth, '?device_ids=user-own')).features[0].userId).toBe(user.id);

    const denied = await t.http
      .post(REALTIME)
      .set(userAuth)
      .send([fix('user-other', { user_id: a.org.adminId })]);
    expectError(denied, 422, 'validation_failed');
    expect(denied.body.errors[0]).toMatchObject({ code: 'forbidden', fields: 'user_id' });

    expect(await report(t, a.auth, [fix('admin-for-user', { user_id: user.id })])).toMatchObject({ accepted: 1 });
    expect((await realtime(t, a.auth, '?device_ids=admin-for-user')).features[0].userId).toBe(user.id);
    const foreignUser = await t.http
      .post(REALTIME)
      .set(a.auth)
      .send([fix('admin-foreign', { user_id: b.org.adminId })]);
    expect(foreignUser.body.errors[0]).toMatchObject({ code: 'not_found', fields: 'user_id' });
  });

  it('computes poi_id at read time: the POI whose radius holds the fix, nearest first', async () => {
    const site = await createSite(t, a.auth);
    const place = (x: number, y: number, radius: number, name: string) =>
      createPoi(t, a.auth, { building_id: site.building.id, name, position: { floor_id: site.floor.id, cartesians: { x, y }, radius } });
    const far = await place(10, 10, 8, 'Far');
    const near = await place(14, 10, 8, 'Near');
    await place(40, 40, 1, 'Elsewhere');
    await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id)); // no radius: never contains
    await report(t, a.auth, [
      fix('poi-1', { lat: undefined, lng: undefined, x: 13, y: 10, floor_id: site.floor.id }),
      fix('poi-2', { lat: undefined, lng: undefined, x: 5, y: 10, floor_id: site.floor.id }),
      fix('poi-3', { lat: undefined, lng: undefined, x: 30, y: 30, floor_id: site.floor.id }),
    ]);
    const body = await realtime(t, a.auth, `?building_ids=${site.building.id}`);
    const poiOf = Object.fromEntries(body.features.map((feature) => [feature.id, feature.properties.poi_id]));
    expect(poiOf).toEqual({ 'poi-1': near.id, 'poi-2': far.id, 'poi-3': null });
    // Volatile: a POI moved away no longer contains the device, with no new fix.
    await t.http
      .put(`/api/v1/pois/${near.id}`)
      .set(a.auth)
      .send({ position: { cartesians: { x: 90, y: 70 } } })
      .expect(200);
    expect((await realtime(t, a.auth, '?device_ids=poi-1')).features[0].properties.poi_id).toBe(far.id);
  });

  describe('filters (6.1)', () => {
    let site2: Site;
    let user: { id: string };
    beforeAll(async () => {
      site2 = await createSite(t, a.auth);
      user = await createUser(t, a.org.organizationId, Role.User);
      await report(t, a.auth, [
        fix('f-indoor-1', { floor_id: siteA.floor.id }),
        fix('f-indoor-2', { floor_id: site2.floor.id, user_id: user.id }),
        fix('f-outdoor', { user_id: user.id }),
        fix('f-stale', { floor_id: site2.floor.id }, 600),
      ]);
    });
    const ids = async (query: string) => deviceIdsOf(await realtime(t, a.auth, query)).filter((id) => id.startsWith('f-'));

    it('sends every recent device with no query string, within the default 60 s', async () => {
      expect(await ids('')).toEqual(['f-indoor-1', 'f-indoor-2', 'f-outdoor']);
    });

    it('takes building_ids, user_ids and device_ids in every list form', async () => {
      const both = [siteA.building.id, site2.building.id];
      for (const query of [
        `?building_ids=${both.join(',')}`,
        `?building_ids=${both.join('%2C')}`,
        `?building_ids=${both[0]}&building_ids=${both[1]}`,
        `?building_ids[]=${both[0]}&building_ids[]=${both[1]}`,
      ]) {
        expect(await ids(query), query).toEqual(['f-indoor-1', 'f-indoor-2']);
      }
      expect(await ids(`?building_ids=${site2.building.id}`)).toEqual(['f-indoor-2']);
      expect(await ids(`?user_ids=${user.id}`)).toEqual(['f-indoor-2', 'f-outdoor']);
      expect(await ids(`?user_ids=${user.id.toUpperCase()}%2C${a.org.adminId}`)).toEqual(['f-indoor-1', 'f-indoor-2', 'f-outdoor']);
      expect(await ids('?device_ids=f-outdoor%2Cf-indoor-1')).toEqual(['f-indoor-1', 'f-outdoor']);
      expect(await ids(`?device_ids=f-outdoor&user_ids=${a.org.adminId}`)).toEqual([]);
    });

    it('takes indoor and max_sec_threshold', async () => {
      expect(await ids('?indoor=true')).toEqual(['f-indoor-1', 'f-indoor-2']);
      expect(await ids('?indoor=false')).toEqual(['f-outdoor']);
      expect(await ids('?max_sec_threshold=3600')).toEqual(['f-indoor-1', 'f-indoor-2', 'f-outdoor', 'f-stale']);
      expect(await ids('?max_sec_threshold=86400&indoor=true')).toEqual(['f-indoor-1', 'f-indoor-2', 'f-stale']);
      expect(await ids('?max_sec_threshold=0')).toEqual([]);
    });

    it('answers 400 naming the parameter for invalid values', async () => {
      const cases: Array<[string, string]> = [
        ['?max_sec_threshold=86401', 'max_sec_threshold'],
        ['?max_sec_threshold=-1', 'max_sec_threshold'],
        ['?max_sec_threshold=soon', 'max_sec_threshold'],
        ['?indoor=maybe', 'indoor'],
        ['?building_ids=1,abc', 'building_ids'],
        ['?user_ids=not-a-uuid', 'user_ids'],
        [`?device_ids=${'d'.repeat(65)}`, 'device_ids'],
      ];
      for (const [query, field] of cases) {
        const response = await t.http.get(`${REALTIME}${query}`).set(a.auth);
        expectError(response, 400, 'bad_request');
        expect(
          response.body.errors.map((error: { fields: string }) => error.fields),
          query,
        ).toContain(field);
      }
    });

    it('serves the same answer on the legacy routes, 404 for other organizations', async () => {
      const legacyBuilding = await t.http.get(`/api/v1/realtime/building/${site2.building.id}`).set(a.auth);
      expectStatus(legacyBuilding, 200);
      expect(deviceIdsOf(legacyBuilding.body)).toEqual(['f-indoor-2']);
      const legacyOrganization = await t.http.get(`/api/v1/realtime/organization/${a.org.organizationId}?indoor=false`).set(a.auth);
      expectStatus(legacyOrganization, 200);
      expect(legacyOrganization.body).toEqual(await realtime(t, a.auth, '?indoor=false'));
      expectError(await t.http.get(`/api/v1/realtime/building/${siteB.building.id}`).set(a.auth), 404, 'entity_not_found');
      expectError(await t.http.get(`/api/v1/realtime/organization/${b.org.organizationId}`).set(a.auth), 404, 'entity_not_found');
      expectError(await t.http.get('/api/v1/realtime/organization/not-a-uuid').set(a.auth), 400, 'bad_request');
    });
  });

  it('keeps organizations apart: no device or position of one is visible to the other', async () => {
    await report(t, b.auth, [fix('shared-id', { floor_id: siteB.floor.id, lat: 1 })]);
    await report(t, a.auth, [fix('shared-id', { lat: 2 })]);
    const seenByA = await realtime(t, a.auth, '?max_sec_threshold=86400');
    const seenByB = await realtime(t, b.auth, '?max_sec_threshold=86400');
    expect(deviceIdsOf(seenByB)).toEqual(['shared-id']);
    expect(seenByB.features[0].geometry.coordinates[0]).toBe(1);
    expect(seenByA.features.find((feature) => feature.id === 'shared-id')!.geometry.coordinates[0]).toBe(2);
    for (const info of seenByB.devicesInfo) expect(info.organization_id).toBe(b.org.organizationId);
    expect(seenByA.features.every((feature) => feature.userId !== b.org.adminId)).toBe(true);
    expect((await realtime(t, b.auth, `?building_ids=${siteA.building.id}`)).features).toEqual([]);
  });

  it('two-organization matrix: every route answers 404 or leaves the other organization out', async () => {
    await report(t, a.auth, [fix('matrix-a', { floor_id: siteA.floor.id })]);
    const range = `from_date=${new Date(Date.now() - 3_600_000).toISOString()}&to_date=${new Date(Date.now() + 60_000).toISOString()}`;
    const notFound: Array<[string, string]> = [
      ['get', '/api/v1/devices/matrix-a'],
      ['put', '/api/v1/devices/matrix-a'],
      ['patch', '/api/v1/devices/matrix-a'],
      ['delete', '/api/v1/devices/matrix-a'],
      ['get', `/api/v1/realtime/building/${siteA.building.id}`],
      ['get', `/api/v1/realtime/organization/${a.org.organizationId}`],
      ['get', `/api/v1/reports/user_positions.json?${range}&building_id=${siteA.building.id}`],
      ['get', `/api/v1/reports/user_positions.csv?${range}&building_id=${siteA.building.id}`],
    ];
    for (const [method, url] of notFound) {
      const request = t.http[method as 'get'](url).set(b.auth);
      expectError(await (method === 'put' || method === 'patch' ? request.send({ name: 'taken' }) : request), 404, 'entity_not_found');
    }
    const absent = [
      `${REALTIME}?max_sec_threshold=86400`,
      `${REALTIME}?device_ids=matrix-a`,
      `${REALTIME}?building_ids=${siteA.building.id}`,
      `${REALTIME}?user_ids=${a.org.adminId}`,
    ];
    for (const url of absent) {
      const body = (await t.http.get(url).set(b.auth).expect(200)).body;
      expect(
        body.features.map((feature: { id: string }) => feature.id),
        url,
      ).not.toContain('matrix-a');
      expect(
        body.devicesInfo.every((info: { organization_id: string }) => info.organization_id === b.org.organizationId),
        url,
      ).toBe(true);
    }
    const devicesOfB = (await t.http.get('/api/v1/devices?size=1000').set(b.auth).expect(200)).body.data as Array<{ id: string; organization_id: string }>;
    expect(devicesOfB.every((device) => device.organization_id === b.org.organizationId)).toBe(true);
    // Writes naming A's places from B are rejected item by item; A's device is untouched.
    const answer = await t.http
      .post(REALTIME)
      .set(b.auth)
      .send([fix('matrix-a', { floor_id: siteA.floor.id }), fix('matrix-a', { building_id: siteA.building.id }, 2)]);
    expect(answer.body.errors.map((error: { code: string; fields: string }) => [error.code, error.fields])).toEqual([
      ['not_found', 'floor_id'],
      ['not_found', 'building_id'],
    ]);
    expect((await t.http.get('/api/v1/devices/matrix-a').set(a.auth).expect(200)).body.last_position.floor_id).toBe(siteA.floor.id);
  });

  it('shows a user restricted to some buildings only the devices last seen in them', async () => {
    const second = await createSite(t, a.auth);
    const user = await createUser(t, a.org.organizationId, Role.User);
    await t.http
      .put(`/api/v1/users/${user.id}`)
      .set(a.auth)
      .send({ building_ids: [second.building.id] })
      .expect(200);
    const userAuth = asBearer((await passwordTokens(t, user.email, user.password)).access_token);
    await report(t, a.auth, [fix('restricted-in', { floor_id: second.floor.id }), fix('restricted-out', { floor_id: siteA.floor.id }), fix('restricted-outdoor')]);
    const ids = (body: { features: Array<{ id: string }> }) => body.features.map((feature) => feature.id).filter((id) => id.startsWith('restricted-'));
    expect(ids(await realtime(t, userAuth))).toEqual(['restricted-in']);
    expect(ids(await realtime(t, userAuth, `?building_ids=${siteA.building.id}`))).toEqual([]);
    expect((await t.http.get('/api/v1/devices').set(userAuth).expect(200)).body.data.map((device: { id: string }) => device.id)).toEqual(['restricted-in']);
    expectError(await t.http.get('/api/v1/devices/restricted-out').set(userAuth), 404, 'entity_not_found');
    expectError(await t.http.get(`/api/v1/realtime/building/${siteA.building.id}`).set(userAuth), 404, 'entity_not_found');
    const rejected = await t.http
      .post(REALTIME)
      .set(userAuth)
      .send([fix('restricted-user-report', { floor_id: siteA.floor.id })]);
    expect(rejected.body.errors[0]).toMatchObject({ code: 'not_found', fields: 'floor_id' });
  });

  it('answers identical reads sent together each with what its own caller may see, and sees a report made before it', async () => {
    const second = await createSite(t, a.auth);
    const user = await createUser(t, a.org.organizationId, Role.User);
    await t.http
      .put(`/api/v1/users/${user.id}`)
      .set(a.auth)
      .send({ building_ids: [second.building.id] })
      .expect(200);
    const userAuth = asBearer((await passwordTokens(t, user.email, user.password)).access_token);
    await report(t, a.auth, [fix('together-in', { floor_id: second.floor.id }), fix('together-out', { floor_id: siteA.floor.id })]);
    await report(t, b.auth, [fix('together-b', { floor_id: siteB.floor.id })]);
    const query = '?device_ids=together-in,together-out,together-b,together-late';
    const callers = [a.auth, b.auth, userAuth, a.auth, a.auth, b.auth, userAuth];
    const expected = [
      ['together-in', 'together-out'],
      ['together-b'],
      ['together-in'],
      ['together-in', 'together-out'],
      ['together-in', 'together-out'],
      ['together-b'],
      ['together-in'],
    ];
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(callers.map((auth) => realtime(t, auth, query)));
      expect(answers.map(deviceIdsOf)).toEqual(expected);
      for (const [index, answer] of answers.entries()) {
        const organization = callers[index] === b.auth ? b.org.organizationId : a.org.organizationId;
        expect(answer.devicesInfo.every((info) => info.organization_id === organization)).toBe(true);
      }
    }
    await report(t, a.auth, [fix('together-late', { floor_id: second.floor.id })]);
    const after = await Promise.all(callers.map((auth) => realtime(t, auth, query)));
    expect(after.map(deviceIdsOf)).toEqual(expected.map((ids) => (ids.includes('together-in') ? ['together-in', 'together-late', ...ids.slice(1)] : ids)));
  });

  it('applies the permission table: positioning reports only, read-only reads only', async () => {
    const keys = Object.fromEntries(
      await Promise.all(
        [ApiPermission.Positioning, ApiPermission.ReadOnly, ApiPermission.CartographyReadWrite, ApiPermission.ReadWrite].map(async (permission) => [
          permission,
          asApiKey((await createApiKey(t, a.token, permission)).apikey),
        ]),
      ),
    ) as Record<ApiPermission, Record<string, string>>;
    const reads = [REALTIME, `/api/v1/realtime/building/${siteA.building.id}`, `/api/v1/realtime/organization/${a.org.organizationId}`, '/api/v1/devices', '/api/v1/devices/ok-1'];
    const table: Array<[ApiPermission, number, number]> = [
      [ApiPermission.Positioning, 200, 403],
      [ApiPermission.ReadOnly, 403, 200],
      [ApiPermission.CartographyReadWrite, 403, 200],
      [ApiPermission.ReadWrite, 200, 200],
    ];
    for (const [permission, writeStatus, readStatus] of table) {
      const response = await t.http
        .post(REALTIME)
        .set(keys[permission])
        .send([fix(`perm-${permission}`)]);
      expect(response.status, `${permission} POST`).toBe(writeStatus);
      for (const path of reads) expect((await t.http.get(path).set(keys[permission])).status, `${permission} GET ${path}`).toBe(readStatus);
    }
    expectError(await t.http.get(REALTIME), 401, 'unauthorized');
    expectError(await t.http.post(REALTIME).send([fix('anonymous')]), 401, 'unauthorized');
  });
});
