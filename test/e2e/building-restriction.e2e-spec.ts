import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { PathGraph } from '../../src/cartography/paths/path-graph.entity';
import { Poi } from '../../src/cartography/pois/poi.entity';
import { addPoi, addUser, ApiUser, login, putPaths } from '../support/admin';
import { asApiKey, asBearer, createApiKey } from '../support/auth';
import { buildingState, Cartographer, createGeofence, createSite, errorFields, expectError, expectStatus, GeofenceBody, signUp, Site, square } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Issue "Users, groups, roles": building_ids on a USER restrict what it (and its tokens and
 * keys) sees to those buildings and their floors, geofences, POIs and paths.
 */
describe('Building restriction', () => {
  let t: TestApp;
  let o: Cartographer;
  let siteA: Site;
  let siteB: Site;
  let siteC: Site;
  let geofenceA: GeofenceBody;
  let geofenceB: GeofenceBody;
  let deletedGeofenceB: GeofenceBody;
  let poiA: number;
  let poiB: number;
  let restricted: ApiUser;

  const ids = (response: Response) => (response.body as Array<{ id: number | string }>).map((item) => item.id);
  const pageIds = (response: Response) => (response.body.data as Array<{ id: string }>).map((item) => item.id);

  /** Everything stored about building B, to show that refused writes changed nothing. */
  const stateOfB = async () => ({
    ...(await buildingState(t, siteB.building.id)),
    pois: await t.dataSource.getRepository(Poi).find({ where: { buildingId: siteB.building.id }, order: { id: 'ASC' } }),
    paths: await t.dataSource.getRepository(PathGraph).findOneBy({ buildingId: siteB.building.id }),
  });

  beforeAll(async () => {
    t = await createTestApp();
    o = await signUp(t, 'Restricted');
    siteA = await createSite(t, o.auth, { name: 'Building A' });
    siteB = await createSite(t, o.auth, { name: 'Building B' });
    siteC = await createSite(t, o.auth, { name: 'Building C' });
    geofenceA = await createGeofence(t, o.auth, siteA.place, { name: 'Zone A' });
    geofenceB = await createGeofence(t, o.auth, siteB.place, { name: 'Zone B' });
    deletedGeofenceB = await createGeofence(t, o.auth, siteB.place, { name: 'Zone B deleted' });
    await t.http.delete(`/api/v1/geofences/${deletedGeofenceB.id}`).set(o.auth).expect(204);
    poiA = (await addPoi(t, o.auth, siteA.place, 'POI A')).id;
    poiB = (await addPoi(t, o.auth, siteB.place, 'POI B')).id;
    await putPaths(t, o.auth, siteA.place);
    await putPaths(t, o.auth, siteB.place);
    restricted = await addUser(t, o.auth, { full_name: 'Only A', building_ids: [siteA.building.id] });
  });
  afterAll(async () => t?.close());

  /**
   * What a caller restricted to building A reads: exactly what the admin reads of building
   * A, and nothing of building B (whose items the admin does see).
   */
  async function expectReadsRestrictedToA(auth: Record<string, string>): Promise<void> {
    const A = siteA.building.id;
    const B = siteB.building.id;
    const inA = (item: { building_id: number | string }) => String(item.building_id) === String(A);
    expect(ids(await t.http.get('/api/v1/buildings').set(auth).expect(200))).toEqual([A]);
    const detail = await t.http.get(`/api/v1/buildings/${A}`).set(auth).expect(200);
    expect(detail.body).toEqual((await t.http.get(`/api/v1/buildings/${A}`).set(o.auth).expect(200)).body);
    expect(detail.body.floors.map((floor: { id: number }) => floor.id)).toContain(siteA.floor.id);
    expect(detail.body.geofences.map((geofence: { id: string }) => geofence.id)).toContain(geofenceA.id);
    expect(detail.body.indoor_pois.map((poi: { id: number }) => poi.id)).toContain(poiA);

    // Building B and everything in it are 404 by id...
    for (const url of [
      `/api/v1/buildings/${B}`,
      `/api/v1/buildings/${B}/floors`,
      `/api/v1/buildings/${B}/pois`,
      `/api/v1/buildings/${B}/paths`,
      `/api/v1/floors/${siteB.floor.id}`,
      `/api/v1/geofences/${geofenceB.id}`,
      `/api/v1/geofences/${deletedGeofenceB.id}`,
      `/api/v1/pois/${poiB}`,
    ]) {
      expectError(await t.http.get(url).set(auth), 404, 'entity_not_found');
    }

    // ...and absent from every list and search, even when asked for by building.
    for (const url of ['/api/v1/floors', '/api/v1/pois']) {
      const everything = (await t.http.get(url).set(o.auth).expect(200)).body as Array<{ id: number; building_id: number }>;
      expect(
        everything.some((item) => String(item.building_id) === String(B)),
        url,
      ).toBe(true);
      const visible = everything.filter(inA).map((item) => item.id);
      expect(visible.length, url).toBeGreaterThan(0);
      expect(ids(await t.http.get(url).set(auth).expect(200)), url).toEqual(visible);
      expect(ids(await t.http.get(`${url}?building_id=${A}`).set(auth).expect(200)), url).toEqual(visible);
      expect(ids(await t.http.get(`${url}?building_id=${B}`).set(auth).expect(200)), url).toEqual([]);
    }
    expect(ids(await t.http.get(`/api/v1/buildings/${A}/floors`).set(auth).expect(200))).toEqual(ids(await t.http.get(`/api/v1/buildings/${A}/floors`).set(o.auth).expect(200)));
    const paths = await t.http.get('/api/v1/paths').set(auth).expect(200);
    expect(paths.body.map((graph: { building_id: number }) => graph.building_id)).toEqual([A]);
    expect((await t.http.get(`/api/v1/paths?building_id=${B}`).set(auth).expect(200)).body).toEqual([]);
    await t.http.get(`/api/v1/buildings/${A}/paths`).set(auth).expect(200);
    for (const query of [
      '',
      `building_ids=${B}`,
      `building_ids=${A},${B}`,
      `building_ids[]=${B}&building_ids[]=${A}`,
      `floor_ids=${siteB.floor.id}`,
      `floor_ids=${siteA.floor.id},${siteB.floor.id}`,
      'name=zone',
      'deleted=true',
      `deleted=true&building_ids=${B}`,
    ]) {
      const everything = await t.http.get(`/api/v1/geofences/search?size=1000&${query}`).set(o.auth).expect(200);
      const expected = (everything.body.data as GeofenceBody[]).filter(inA).map((geofence) => geofence.id);
      for (const path of ['/api/v1/geofences/search', '/api/v1/geofences']) {
        const response = await t.http.get(`${path}?size=1000&${query}`).set(auth);
        expectStatus(response, 200);
        expect(pageIds(response), `${path}?${query}`).toEqual(expected);
        expect(response.body.metadata.total_elements, `${path}?${query}`).toBe(expected.length);
      }
    }
    const unfiltered = await t.http.get('/api/v1/geofences/search').set(auth).expect(200);
    expect(pageIds(unfiltered)).toContain(geofenceA.id);
    expect(pageIds(unfiltered)).not.toContain(geofenceB.id);
  }

  /** What a caller restricted to building A may not write, and that nothing in B changes. */
  async function expectWritesRestrictedToA(auth: Record<string, string>): Promise<void> {
    const A = siteA.building.id;
    const B = siteB.building.id;
    const before = await stateOfB();
    const refusedBodies: Array<[string, string, Record<string, unknown>, string]> = [
      ['post', '/api/v1/floors', { building_id: B, level: 7, name: 'Sneaky' }, 'building_id'],
      ['post', '/api/v1/geofences', { name: 'Sneaky', building_id: B, floor_id: siteB.floor.id, geometric: square() }, 'building_id'],
      ['post', '/api/v1/geofences', { name: 'Sneaky', building_id: A, floor_id: siteB.floor.id, geometric: square() }, 'floor_id'],
      ['post', '/api/v1/pois', { building_id: B, name: 'Sneaky', position: { floor_id: siteB.floor.id, georeferences: { lat: 42.87, lng: -8.56 } } }, 'building_id'],
      ['post', '/api/v1/pois', { building_id: A, name: 'Sneaky', position: { floor_id: siteB.floor.id, georeferences: { lat: 42.87, lng: -8.56 } } }, 'position.floor_id'],
      ['put', `/api/v1/geofences/${geofenceA.id}`, { building_id: B, floor_id: siteB.floor.id }, 'building_id'],
      ['put', `/api/v1/pois/${poiA}`, { building_id: B, position: { floor_id: siteB.floor.id, georeferences: { lat: 42.87, lng: -8.56 } } }, 'building_id'],
    ];
    const bulk = await t.http
      .post('/api/v1/pois_bulk')
      .set(auth)
      .send([
        { building_id: A, name: 'Fine', position: { floor_id: siteA.floor.id, georeferences: { lat: 42.87, lng: -8.56 } } },
        { building_id: B, name: 'Sneaky', position: { floor_id: siteB.floor.id, georeferences: { lat: 42.87, lng: -8.56 } } },
      ]);
    expectError(bulk, 422, 'validation_failed');
    expect(errorFields(bulk)).toEqual(['[1].building_id']);
    for (const [method, url, body, field] of refusedBodies) {
      const response = await (method === 'post' ? t.http.post(url) : t.http.put(url)).set(auth).send(body);
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response), `${method} ${url} ${JSON.stringify(body)}`).toEqual([field]);
    }
    const hidden: Array<[string, string, Record<string, unknown>?]> = [
      ['put', `/api/v1/buildings/${B}`, { name: 'Hijacked' }],
      ['patch', `/api/v1/buildings/${B}`, { name: 'Hijacked' }],
      ['put', `/api/v1/floors/${siteB.floor.id}`, { name: 'Hijacked' }],
      ['put', `/api/v1/geofences/${geofenceB.id}`, { name: 'Hijacked' }],
      ['put', `/api/v1/pois/${poiB}`, { name: 'Hijacked' }],
      ['put', `/api/v1/buildings/${B}/paths`, { nodes: [], links: [] }],
      ['delete', `/api/v1/geofences/${geofenceB.id}`],
      ['delete', `/api/v1/pois/${poiB}`],
      ['delete', `/api/v1/floors/${siteB.floor.id}?cascade=true`],
      ['delete', `/api/v1/buildings/${B}?cascade=true`],
    ];
    for (const [method, url, body] of hidden) {
      const request = method === 'put' ? t.http.put(url) : method === 'patch' ? t.http.patch(url) : t.http.delete(url);
      const response = await (body ? request.set(auth).send(body) : request.set(auth));
      expectError(response, 404, 'entity_not_found');
    }
    expect(await stateOfB()).toEqual(before);
    expect((await t.http.get(`/api/v1/geofences/${geofenceA.id}`).set(o.auth).expect(200)).body.building_id).toBe(String(A));
  }

  describe('a USER restricted to building A', () => {
    let session: Awaited<ReturnType<typeof login>>;

    beforeAll(async () => {
      session = await login(t, restricted.email, restricted.password);
    });

    it('carries building_ids on the user object', async () => {
      expect(restricted.body.building_ids).toEqual([siteA.building.id]);
      expect((await t.http.get('/api/v1/users/me').set(session.auth).expect(200)).body.building_ids).toEqual([siteA.building.id]);
    });

    it('sees only building A and its floors, geofences, POIs and paths (token from its password)', async () => {
      await expectReadsRestrictedToA(session.auth);
    });

    it('cannot create, move, change or delete anything in building B: 422 when B is named in a body, 404 by id', async () => {
      await expectWritesRestrictedToA(session.auth);
    });

    it('still writes in building A', async () => {
      const geofence = await t.http
        .post('/api/v1/geofences')
        .set(session.auth)
        .send({ name: 'Allowed', building_id: siteA.building.id, floor_id: siteA.floor.id, geometric: square() });
      expectStatus(geofence, 201);
      await t.http.delete(`/api/v1/geofences/${geofence.body.id}`).set(session.auth).expect(204);
      const renamed = await t.http.put(`/api/v1/floors/${siteA.floor.id}`).set(session.auth).send({ name: 'Renamed by the user' });
      expectStatus(renamed, 200);
    });

    it('is restricted the same way through its API keys and the tokens made from them', async () => {
      const readWrite = await createApiKey(t, session.tokens.access_token, ApiPermission.ReadWrite);
      const cartography = await createApiKey(t, session.tokens.access_token, ApiPermission.CartographyReadWrite);
      const positioning = await createApiKey(t, session.tokens.access_token, ApiPermission.Positioning);
      const keyToken = (await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(readWrite.apikey)).expect(201)).body.access_token as string;
      for (const auth of [asApiKey(readWrite.apikey), asApiKey(cartography.apikey, restricted.email), asBearer(keyToken)]) {
        await expectReadsRestrictedToA(auth);
        await expectWritesRestrictedToA(auth);
      }
      await expectReadsRestrictedToA(asApiKey(positioning.apikey));
    });
  });

  describe('who is not restricted', () => {
    it('an ADMIN_ORG with building_ids still sees and changes everything', async () => {
      const admin = await addUser(t, o.auth, { role: 'ADMIN_ORG', building_ids: [siteA.building.id] });
      expect(admin.body).toMatchObject({ role: 'ADMIN_ORG', building_ids: [siteA.building.id] });
      const session = await login(t, admin.email, admin.password);
      const key = await createApiKey(t, session.tokens.access_token, ApiPermission.ReadOnly);
      for (const auth of [session.auth, asApiKey(key.apikey)]) {
        expect(ids(await t.http.get('/api/v1/buildings').set(auth).expect(200))).toEqual([siteA.building.id, siteB.building.id, siteC.building.id]);
        await t.http.get(`/api/v1/buildings/${siteB.building.id}`).set(auth).expect(200);
        await t.http.get(`/api/v1/floors/${siteB.floor.id}`).set(auth).expect(200);
        await t.http.get(`/api/v1/geofences/${geofenceB.id}`).set(auth).expect(200);
        await t.http.get(`/api/v1/pois/${poiB}`).set(auth).expect(200);
        await t.http.get(`/api/v1/buildings/${siteB.building.id}/paths`).set(auth).expect(200);
        const search = await t.http.get(`/api/v1/geofences/search?building_ids=${siteB.building.id}`).set(auth).expect(200);
        expect(pageIds(search)).toEqual([geofenceB.id]);
      }
      const floor = await t.http.post('/api/v1/floors').set(session.auth).send({ building_id: siteB.building.id, level: 3, name: 'Admin floor' });
      expectStatus(floor, 201);
    });

    it('a USER with no building_ids sees every building of the organization', async () => {
      const free = await addUser(t, o.auth);
      expect(free.body.building_ids).toEqual([]);
      const session = await login(t, free.email, free.password);
      expect(ids(await t.http.get('/api/v1/buildings').set(session.auth).expect(200))).toEqual([siteA.building.id, siteB.building.id, siteC.building.id]);
      expect(pageIds(await t.http.get(`/api/v1/geofences/search?building_ids=${siteB.building.id}`).set(session.auth).expect(200))).toEqual([geofenceB.id]);
      await t.http.get(`/api/v1/pois/${poiB}`).set(session.auth).expect(200);
    });
  });

  describe('changing the restriction', () => {
    it('applies at once to existing tokens and keys: restricting, widening to two buildings, clearing', async () => {
      const user = await addUser(t, o.auth);
      const session = await login(t, user.email, user.password);
      const key = await createApiKey(t, session.tokens.access_token, ApiPermission.ReadOnly);
      const all = [siteA.building.id, siteB.building.id, siteC.building.id];
      for (const auth of [session.auth, asApiKey(key.apikey)]) expect(ids(await t.http.get('/api/v1/buildings').set(auth).expect(200))).toEqual(all);

      await t.http
        .put(`/api/v1/users/${user.id}`)
        .set(o.auth)
        .send({ building_ids: [siteA.building.id] })
        .expect(200);
      for (const auth of [session.auth, asApiKey(key.apikey)]) await expectReadsRestrictedToA(auth);

      const widened = await t.http
        .put(`/api/v1/users/${user.id}`)
        .set(o.auth)
        .send({ building_ids: [siteC.building.id, siteA.building.id] });
      expectStatus(widened, 200);
      for (const auth of [session.auth, asApiKey(key.apikey)]) {
        expect(ids(await t.http.get('/api/v1/buildings').set(auth).expect(200))).toEqual([siteA.building.id, siteC.building.id]);
        expectError(await t.http.get(`/api/v1/buildings/${siteB.building.id}`).set(auth), 404, 'entity_not_found');
        await t.http.get(`/api/v1/floors/${siteC.floor.id}`).set(auth).expect(200);
      }

      const cleared = await t.http.put(`/api/v1/users/${user.id}`).set(o.auth).send({ building_ids: [] });
      expectStatus(cleared, 200);
      expect(cleared.body.building_ids).toEqual([]);
      for (const auth of [session.auth, asApiKey(key.apikey)]) {
        expect(ids(await t.http.get('/api/v1/buildings').set(auth).expect(200))).toEqual(all);
        await t.http.get(`/api/v1/buildings/${siteB.building.id}`).set(auth).expect(200);
        await t.http.get(`/api/v1/floors/${siteB.floor.id}`).set(auth).expect(200);
        await t.http.get(`/api/v1/geofences/${geofenceB.id}`).set(auth).expect(200);
        await t.http.get(`/api/v1/pois/${poiB}`).set(auth).expect(200);
        await t.http.get(`/api/v1/buildings/${siteB.building.id}/paths`).set(auth).expect(200);
        expect(pageIds(await t.http.get(`/api/v1/geofences/search?building_ids=${siteB.building.id}`).set(auth).expect(200))).toEqual([geofenceB.id]);
        expect(ids(await t.http.get(`/api/v1/pois?building_id=${siteB.building.id}`).set(auth).expect(200))).toEqual([poiB]);
      }
      const floor = await t.http.post('/api/v1/floors').set(session.auth).send({ building_id: siteB.building.id, level: 9, name: 'Now allowed' });
      expectStatus(floor, 201);
    });

    it('demoting an ADMIN_ORG that has building_ids restricts it at once; promoting lifts it', async () => {
      const admin = await addUser(t, o.auth, { role: 'ADMIN_ORG', building_ids: [siteA.building.id] });
      const session = await login(t, admin.email, admin.password);
      expect(ids(await t.http.get('/api/v1/buildings').set(session.auth).expect(200))).toHaveLength(3);
      await t.http.put(`/api/v1/users/${admin.id}`).set(o.auth).send({ role: 'USER' }).expect(200);
      await expectReadsRestrictedToA(session.auth);
      await t.http.put(`/api/v1/users/${admin.id}`).set(o.auth).send({ role: 'ADMIN_ORG' }).expect(200);
      expect(ids(await t.http.get('/api/v1/buildings').set(session.auth).expect(200))).toHaveLength(3);
    });

    it('a USER cannot lift its own restriction (403), and the restriction stays', async () => {
      const session = await login(t, restricted.email, restricted.password);
      expectError(await t.http.put(`/api/v1/users/${restricted.id}`).set(session.auth).send({ building_ids: [] }), 403, 'forbidden');
      expectError(
        await t.http
          .put(`/api/v1/users/${restricted.id}`)
          .set(session.auth)
          .send({ building_ids: [siteA.building.id, siteB.building.id] }),
        403,
        'forbidden',
      );
      expect((await t.http.get('/api/v1/users/me').set(session.auth).expect(200)).body.building_ids).toEqual([siteA.building.id]);
      expect(ids(await t.http.get('/api/v1/buildings').set(session.auth).expect(200))).toEqual([siteA.building.id]);
    });
  });

  it('a restricted USER cannot create buildings (it could not see them), an unrestricted one can', async () => {
    const session = await login(t, restricted.email, restricted.password);
    const before = ids(await t.http.get('/api/v1/buildings').set(o.auth).expect(200));
    const refused = await t.http
      .post('/api/v1/buildings')
      .set(session.auth)
      .send({ name: 'Sneaky', location: { lat: 1, lng: 1 }, dimensions: { width: 1, length: 1 } })
      .expect(403);
    expect(refused.body).toMatchObject({ status: 403, code: 'forbidden', errors: [] });
    expect(ids(await t.http.get('/api/v1/buildings').set(o.auth).expect(200))).toEqual(before);
    const free = await addUser(t, o.auth, { full_name: 'Anywhere' });
    const freeSession = await login(t, free.email, free.password);
    await t.http
      .post('/api/v1/buildings')
      .set(freeSession.auth)
      .send({ name: 'Allowed', location: { lat: 1, lng: 1 }, dimensions: { width: 1, length: 1 } })
      .expect(201);
  });

  it('keeps a deleted building in a restriction, and accepts the list sent back as it was read', async () => {
    const doomed = await createSite(t, o.auth, { name: 'Doomed' });
    const user = await addUser(t, o.auth, { full_name: 'Doomed only', building_ids: [doomed.building.id] });
    await t.http.delete(`/api/v1/buildings/${doomed.building.id}?cascade=true`).set(o.auth).expect(204);
    const read = await t.http.get(`/api/v1/users/${user.id}`).set(o.auth).expect(200);
    expect(read.body.building_ids).toEqual([doomed.building.id]);
    await t.http.put(`/api/v1/users/${user.id}`).set(o.auth).send({ building_ids: read.body.building_ids, full_name: 'Renamed' }).expect(200);
    // Still restricted (to a building that is gone): it sees no building at all.
    const session = await login(t, user.email, user.password);
    expect(ids(await t.http.get('/api/v1/buildings').set(session.auth).expect(200))).toEqual([]);
  });
});
