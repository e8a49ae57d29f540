import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Floor } from '../../src/cartography/floors/floor.entity';
import { Geofence } from '../../src/cartography/geofences/geofence.entity';
import { asApiKey, createApiKey } from '../support/auth';
import {
  buildingRow,
  Cartographer,
  CARTOGRAPHY_KEY_LEVELS,
  createBuilding,
  createFloor,
  createGeofence,
  createSite,
  errorFields,
  expectError,
  expectStatus,
  FLOOR_KEYS,
  FLOOR_MAPS_KEYS,
  FloorBody,
  floorRow,
  floorRowsOf,
  geofenceRow,
  keysOf,
  MALFORMED_INTEGER_IDS,
  MISSING_INTEGER_ID,
  signUp,
  TIMESTAMP,
  uploadImage,
} from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

const byId = (x: { id: number }, y: { id: number }) => x.id - y.id;

describe('floors', () => {
  let t: TestApp;
  let a: Cartographer;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Floors');
  });
  afterAll(async () => t?.close());

  describe('POST /api/v1/floors', () => {
    it('creates a floor: 201 with the full object, an ETag and the stored row; keys the caller may not set are ignored', async () => {
      const building = await createBuilding(t, a.auth);
      const plan = await uploadImage(t, a.auth);
      const before = Date.now();
      const response = await t.http
        .post('/api/v1/floors')
        .set(a.auth)
        .send({
          building_id: building.id,
          level: 2,
          level_height: 3.5,
          name: '  Second floor ',
          map_id: plan.id,
          scale: 12.25,
          custom_fields: [{ key: 'wing', value: 'north' }],
          id: 777777,
          created_at: '2000-01-01T00:00:00.000+00:00',
          organization_id: randomUUID(),
          legacy: true,
        });
      expectStatus(response, 201);
      const body = response.body as FloorBody;
      expect(keysOf(body)).toEqual(FLOOR_KEYS);
      expect(keysOf(body.maps)).toEqual(FLOOR_MAPS_KEYS);
      expect(body).toEqual({
        id: expect.any(Number),
        building_id: building.id,
        level: 2,
        level_height: 3.5,
        name: 'Second floor',
        custom_fields: [{ key: 'wing', value: 'north' }],
        maps: { scale: 12.25, map_id: plan.id, map_url: `/api/v1/images/${plan.id}` },
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      expect(Number.isInteger(body.id)).toBe(true);
      expect(body.id).not.toBe(777777);
      expect(body.updated_at).toBe(body.created_at);
      expect(Date.parse(body.created_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(body.created_at)).toBeLessThanOrEqual(Date.now() + 1000);
      expect(response.headers.etag).toBe('"1"');

      expect(await floorRow(t, body.id)).toMatchObject({
        organizationId: a.org.organizationId,
        buildingId: building.id,
        level: 2,
        levelHeight: 3.5,
        name: 'Second floor',
        mapId: plan.id,
        scale: 12.25,
        customFields: [{ key: 'wing', value: 'north' }],
        version: 1,
        deletedAt: null,
      });
    });

    it('defaults the optional fields; an unset map URL is "" (never null)', async () => {
      const building = await createBuilding(t, a.auth);
      const response = await t.http
        .post('/api/v1/floors')
        .set(a.auth)
        .send({ building_id: String(building.id), level: -1 });
      expectStatus(response, 201);
      expect(response.body).toEqual({
        id: expect.any(Number),
        building_id: building.id,
        level: -1,
        level_height: null,
        name: '',
        custom_fields: [],
        maps: { scale: null, map_id: '', map_url: '' },
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
      });
    });

    it('names every invalid field in errors[] (422) and stores nothing', async () => {
      const building = await createBuilding(t, a.auth);
      const empty = await t.http.post('/api/v1/floors').set(a.auth).send({});
      expectError(empty, 422, 'validation_failed');
      expect(errorFields(empty)).toEqual(expect.arrayContaining(['building_id', 'level']));
      const invalid = await t.http
        .post('/api/v1/floors')
        .set(a.auth)
        .send({ building_id: building.id, level: 1.5, level_height: -2, map_id: '../etc/passwd', scale: 'big', name: 7 });
      expectError(invalid, 422, 'validation_failed');
      expect(errorFields(invalid)).toEqual(expect.arrayContaining(['level', 'level_height', 'map_id', 'scale', 'name']));
      expect(await floorRowsOf(t, building.id)).toEqual([]);
    });

    it('refuses a map_id that names no image of the organization (422 naming map_id)', async () => {
      const building = await createBuilding(t, a.auth);
      for (const mapId of [randomUUID(), 'plan-2']) {
        const response = await t.http.post('/api/v1/floors').set(a.auth).send({ building_id: building.id, level: 0, map_id: mapId });
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response)).toEqual(['map_id']);
      }
      const site = await createSite(t, a.auth);
      const before = await floorRow(t, site.floor.id);
      const response = await t.http.put(`/api/v1/floors/${site.floor.id}`).set(a.auth).send({ map_id: randomUUID() });
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response)).toEqual(['map_id']);
      expect(await floorRow(t, site.floor.id)).toEqual(before);
      expect(await floorRowsOf(t, building.id)).toEqual([]);
    });

    it('refuses a building that does not exist or is deleted with 422 naming building_id', async () => {
      const deleted = await createBuilding(t, a.auth);
      await t.http.delete(`/api/v1/buildings/${deleted.id}`).set(a.auth).expect(204);
      for (const buildingId of [MISSING_INTEGER_ID, deleted.id]) {
        const response = await t.http.post('/api/v1/floors').set(a.auth).send({ building_id: buildingId, level: 0 });
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response)).toEqual(['building_id']);
      }
      expect(await floorRowsOf(t, deleted.id)).toEqual([]);
    });

    it('answers 409 conflict to a second live floor at the same level; other buildings and deleted floors do not count', async () => {
      const building = await createBuilding(t, a.auth);
      const other = await createBuilding(t, a.auth);
      const ground = await createFloor(t, a.auth, building.id, { level: 0, name: 'Ground' });
      const taken = await t.http.post('/api/v1/floors').set(a.auth).send({ building_id: building.id, level: 0, name: 'Again' });
      expectError(taken, 409, 'conflict');
      expect((await floorRowsOf(t, building.id)).map((floor) => floor.name)).toEqual(['Ground']);

      await createFloor(t, a.auth, other.id, { level: 0 });
      await t.http.delete(`/api/v1/floors/${ground.id}`).set(a.auth).expect(204);
      const reused = await createFloor(t, a.auth, building.id, { level: 0, name: 'New ground' });
      expect(reused.level).toBe(0);
    });

    it('lets exactly one of several concurrent creations at the same level through', async () => {
      const building = await createBuilding(t, a.auth);
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          t.http
            .post('/api/v1/floors')
            .set(a.auth)
            .send({ building_id: building.id, level: 4, name: `Racer ${index}` }),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
      for (const response of responses.filter((item) => item.status === 409)) expectError(response, 409, 'conflict');
      const live = (await floorRowsOf(t, building.id)).filter((floor) => floor.deletedAt === null);
      expect(live).toHaveLength(1);
    });
  });

  describe('listing', () => {
    it("GET /api/v1/floors lists the organization's live floors, optionally of one building", async () => {
      const org = await signUp(t, 'Floor listing');
      const first = await createBuilding(t, org.auth);
      const second = await createBuilding(t, org.auth);
      const f1 = await createFloor(t, org.auth, first.id, { level: 0 });
      const f2 = await createFloor(t, org.auth, first.id, { level: 1 });
      const f3 = await createFloor(t, org.auth, second.id, { level: 0 });
      const gone = await createFloor(t, org.auth, second.id, { level: 1 });
      await t.http.delete(`/api/v1/floors/${gone.id}`).set(org.auth).expect(204);

      for (const url of ['/api/v1/floors', '/api/v1/floors/']) {
        const all = await t.http.get(url).set(org.auth);
        expectStatus(all, 200);
        expect([...all.body].sort(byId)).toEqual([f1, f2, f3]);
        for (const floor of all.body) expect(keysOf(floor)).toEqual(FLOOR_KEYS);
      }
      const ofFirst = await t.http.get(`/api/v1/floors?building_id=${first.id}`).set(org.auth).expect(200);
      expect([...ofFirst.body].sort(byId)).toEqual([f1, f2]);
      const ofSecond = await t.http.get(`/api/v1/floors/?building_id=${second.id}`).set(org.auth).expect(200);
      expect(ofSecond.body).toEqual([f3]);
      const ofMissing = await t.http.get(`/api/v1/floors?building_id=${MISSING_INTEGER_ID}`).set(org.auth).expect(200);
      expect(ofMissing.body).toEqual([]);
      expectError(await t.http.get('/api/v1/floors?building_id=abc').set(org.auth), 400, 'bad_request');
    });

    it('GET /api/v1/buildings/{id}/floors lists the floors of that building only', async () => {
      const building = await createBuilding(t, a.auth);
      const other = await createBuilding(t, a.auth);
      const low = await createFloor(t, a.auth, building.id, { level: -1 });
      const high = await createFloor(t, a.auth, building.id, { level: 3 });
      await createFloor(t, a.auth, other.id, { level: 0 });
      for (const url of [`/api/v1/buildings/${building.id}/floors`, `/api/v1/buildings/${building.id}/floors/`]) {
        const response = await t.http.get(url).set(a.auth);
        expectStatus(response, 200);
        expect([...response.body].sort(byId)).toEqual([low, high]);
      }
      const empty = await createBuilding(t, a.auth);
      expect((await t.http.get(`/api/v1/buildings/${empty.id}/floors`).set(a.auth).expect(200)).body).toEqual([]);
      expectError(await t.http.get(`/api/v1/buildings/${MISSING_INTEGER_ID}/floors`).set(a.auth), 404, 'entity_not_found');
      for (const id of MALFORMED_INTEGER_IDS) {
        expectError(await t.http.get(`/api/v1/buildings/${id}/floors`).set(a.auth), 400, 'bad_request');
      }
    });
  });

  describe('GET /api/v1/floors/{id}', () => {
    it('is the floor with an ETag, with or without a trailing slash', async () => {
      const site = await createSite(t, a.auth);
      for (const url of [`/api/v1/floors/${site.floor.id}`, `/api/v1/floors/${site.floor.id}/`]) {
        const response = await t.http.get(url).set(a.auth);
        expectStatus(response, 200);
        expect(response.body).toEqual(site.floor);
        expect(response.headers.etag).toBe('"1"');
      }
    });

    it('answers 404 to an unknown id and 400 bad_request to a malformed one', async () => {
      expectError(await t.http.get(`/api/v1/floors/${MISSING_INTEGER_ID}`).set(a.auth), 404, 'entity_not_found');
      for (const id of MALFORMED_INTEGER_IDS) expectError(await t.http.get(`/api/v1/floors/${id}`).set(a.auth), 400, 'bad_request');
    });
  });

  describe('PUT and PATCH /api/v1/floors/{id}', () => {
    it.each(['put', 'patch'] as const)('%s is a partial update: only the fields sent change', async (method) => {
      const site = await createSite(t, a.auth);
      const plan = await uploadImage(t, a.auth);
      const response = await t.http[method](`/api/v1/floors/${site.floor.id}`)
        .set(a.auth)
        .send({ name: `Renamed ${method}`, map_id: plan.id, organization_id: randomUUID(), id: 1, created_at: '2000-01-01T00:00:00.000+00:00' });
      expectStatus(response, 200);
      expect(keysOf(response.body)).toEqual(FLOOR_KEYS);
      expect(response.body).toEqual({
        ...site.floor,
        name: `Renamed ${method}`,
        maps: { ...site.floor.maps, map_id: plan.id, map_url: `/api/v1/images/${plan.id}` },
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      expect(Date.parse(response.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(site.floor.updated_at));
      expect(response.headers.etag).toBe('"2"');
      const read = await t.http.get(`/api/v1/floors/${site.floor.id}`).set(a.auth).expect(200);
      expect(read.body).toEqual(response.body);
      expect(read.headers.etag).toBe('"2"');
      expect(await floorRow(t, site.floor.id)).toMatchObject({ organizationId: a.org.organizationId, name: `Renamed ${method}`, mapId: plan.id, version: 2 });
    });

    it('changes every writable field', async () => {
      const site = await createSite(t, a.auth);
      const plan = await uploadImage(t, a.auth);
      const changes = { level: 9, level_height: 4.25, name: 'Top', custom_fields: [{ key: 'k', value: 'v' }], map_id: plan.id, scale: 2 };
      const response = await t.http
        .put(`/api/v1/floors/${site.floor.id}`)
        .set(a.auth)
        .send({ ...changes, building_id: site.building.id });
      expectStatus(response, 200);
      expect(response.body).toEqual({
        ...site.floor,
        level: 9,
        level_height: 4.25,
        name: 'Top',
        custom_fields: [{ key: 'k', value: 'v' }],
        maps: { scale: 2, map_id: plan.id, map_url: `/api/v1/images/${plan.id}` },
        updated_at: expect.stringMatching(TIMESTAMP),
      });
    });

    it('answers 409 when moving to a level another live floor of the building has, and changes nothing', async () => {
      const site = await createSite(t, a.auth);
      const upper = await createFloor(t, a.auth, site.building.id, { level: 1 });
      const before = await floorRow(t, upper.id);
      expectError(await t.http.put(`/api/v1/floors/${upper.id}`).set(a.auth).send({ level: 0 }), 409, 'conflict');
      expectError(await t.http.patch(`/api/v1/floors/${upper.id}`).set(a.auth).send({ level: 0, name: 'x' }), 409, 'conflict');
      expect(await floorRow(t, upper.id)).toEqual(before);
      // Its own level is not a conflict.
      expectStatus(await t.http.put(`/api/v1/floors/${upper.id}`).set(a.auth).send({ level: 1, name: 'Same level' }), 200);
    });

    it('keeps the floor in its building: another building_id is 422 naming building_id', async () => {
      const site = await createSite(t, a.auth);
      const other = await createBuilding(t, a.auth);
      const before = await floorRow(t, site.floor.id);
      const response = await t.http.put(`/api/v1/floors/${site.floor.id}`).set(a.auth).send({ building_id: other.id, name: 'Moved' });
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response)).toEqual(['building_id']);
      expect(await floorRow(t, site.floor.id)).toEqual(before);
    });

    it('refuses null for a required field with 422 naming it (never a 500) and leaves the row unchanged', async () => {
      const site = await createSite(t, a.auth);
      const before = await floorRow(t, site.floor.id);
      for (const field of ['level']) {
        const response = await t.http
          .put(`/api/v1/floors/${site.floor.id}`)
          .set(a.auth)
          .send({ [field]: null });
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response)).toContain(field);
      }
      expect(await floorRow(t, site.floor.id)).toEqual(before);
    });

    it('null for an optional field is refused (422 naming it) or reset to its default, never a 500', async () => {
      const site = await createSite(t, a.auth);
      const defaults: Array<[string, (body: FloorBody) => unknown, unknown]> = [
        ['name', (body) => body.name, ''],
        ['level_height', (body) => body.level_height, null],
        ['map_id', (body) => body.maps.map_id, ''],
        ['scale', (body) => body.maps.scale, null],
        ['custom_fields', (body) => body.custom_fields, []],
      ];
      for (const [field, read, empty] of defaults) {
        const response = await t.http
          .put(`/api/v1/floors/${site.floor.id}`)
          .set(a.auth)
          .send({ [field]: null });
        expect([200, 422], `${field}: ${response.status} ${JSON.stringify(response.body)}`).toContain(response.status);
        if (response.status === 422) expect(errorFields(response)).toContain(field);
        else expect(read(response.body)).toEqual(empty);
      }
    });

    it('answers 404 to an unknown id and 400 to a malformed one', async () => {
      expectError(await t.http.put(`/api/v1/floors/${MISSING_INTEGER_ID}`).set(a.auth).send({ name: 'x' }), 404, 'entity_not_found');
      expectError(await t.http.patch(`/api/v1/floors/${MISSING_INTEGER_ID}`).set(a.auth).send({ name: 'x' }), 404, 'entity_not_found');
      expectError(await t.http.put('/api/v1/floors/x1').set(a.auth).send({ name: 'x' }), 400, 'bad_request');
    });
  });

  describe('ETag and If-Match', () => {
    it('a stale If-Match is 409 and changes nothing; a matching one succeeds with the new ETag; a malformed one is refused like a stale one (409)', async () => {
      const site = await createSite(t, a.auth);
      const url = `/api/v1/floors/${site.floor.id}`;
      const first = await t.http.get(url).set(a.auth).expect(200);
      expect(first.headers.etag).toBe('"1"');
      const matching = await t.http.put(url).set(a.auth).set('If-Match', first.headers.etag).send({ name: 'v2' });
      expectStatus(matching, 200);
      expect(matching.headers.etag).toBe('"2"');
      const after = await floorRow(t, site.floor.id);

      expectError(await t.http.put(url).set(a.auth).set('If-Match', '"1"').send({ name: 'lost' }), 409, 'conflict');
      expectError(await t.http.patch(url).set(a.auth).set('If-Match', '"1"').send({ name: 'lost' }), 409, 'conflict');
      expectError(await t.http.put(url).set(a.auth).set('If-Match', 'v2').send({ name: 'lost' }), 409, 'conflict');
      expect(await floorRow(t, site.floor.id)).toEqual(after);

      const read = await t.http.get(url).set(a.auth).expect(200);
      expect(read.headers.etag).toBe('"2"');
      const patched = await t.http.patch(url).set(a.auth).set('If-Match', read.headers.etag).send({ name: 'v3' });
      expectStatus(patched, 200);
      expect(patched.headers.etag).toBe('"3"');
      expect((await floorRow(t, site.floor.id))!.name).toBe('v3');
    });
  });

  describe('DELETE /api/v1/floors/{id}', () => {
    it('deletes a floor without geofences: it disappears from every route and the building document', async () => {
      const site = await createSite(t, a.auth);
      const keep = await createFloor(t, a.auth, site.building.id, { level: 1 });
      expectStatus(await t.http.delete(`/api/v1/floors/${site.floor.id}`).set(a.auth), 204);

      expectError(await t.http.get(`/api/v1/floors/${site.floor.id}`).set(a.auth), 404, 'entity_not_found');
      expectError(await t.http.put(`/api/v1/floors/${site.floor.id}`).set(a.auth).send({ name: 'x' }), 404, 'entity_not_found');
      expectError(await t.http.delete(`/api/v1/floors/${site.floor.id}`).set(a.auth), 404, 'entity_not_found');
      expect((await t.http.get(`/api/v1/buildings/${site.building.id}/floors`).set(a.auth).expect(200)).body).toEqual([keep]);
      expect((await t.http.get(`/api/v1/floors?building_id=${site.building.id}`).set(a.auth).expect(200)).body).toEqual([keep]);
      expect((await t.http.get(`/api/v1/buildings/${site.building.id}`).set(a.auth).expect(200)).body.floors).toEqual([keep]);
      expect((await floorRow(t, site.floor.id))!.deletedAt).toBeInstanceOf(Date);
      expect((await buildingRow(t, site.building.id))!.deletedAt).toBeNull();
      const placed = await t.http
        .post('/api/v1/geofences')
        .set(a.auth)
        .send({
          name: 'Late',
          building_id: site.building.id,
          floor_id: site.floor.id,
          geometric: [
            [1, 1],
            [1, 2],
            [2, 2],
            [1, 1],
          ],
        });
      expectError(placed, 422, 'validation_failed');
      expect(errorFields(placed)).toEqual(['floor_id']);
    });

    it('answers 409 conflict while live geofences remain, and changes nothing', async () => {
      const site = await createSite(t, a.auth);
      const geofence = await createGeofence(t, a.auth, site.place);
      const floorBefore = await floorRow(t, site.floor.id);
      const geofenceBefore = await geofenceRow(t, geofence.id);
      for (const url of [`/api/v1/floors/${site.floor.id}`, `/api/v1/floors/${site.floor.id}?cascade=false`]) {
        expectError(await t.http.delete(url).set(a.auth), 409, 'conflict');
      }
      expect(await floorRow(t, site.floor.id)).toEqual(floorBefore);
      expect(await geofenceRow(t, geofence.id)).toEqual(geofenceBefore);
    });

    it("with cascade=true deletes it and soft-deletes its live geofences only (not the sibling floor's)", async () => {
      const site = await createSite(t, a.auth);
      const sibling = await createFloor(t, a.auth, site.building.id, { level: 1 });
      const doomed = [await createGeofence(t, a.auth, site.place), await createGeofence(t, a.auth, site.place)];
      const spared = await createGeofence(t, a.auth, { buildingId: site.building.id, floorId: sibling.id });
      const spareBefore = await geofenceRow(t, spared.id);

      expectStatus(await t.http.delete(`/api/v1/floors/${site.floor.id}?cascade=true`).set(a.auth), 204);
      for (const geofence of doomed) {
        expect((await geofenceRow(t, geofence.id))!.deleted).toBe(true);
        expect((await t.http.get(`/api/v1/geofences/${geofence.id}`).set(a.auth).expect(200)).body.deleted).toBe(true);
      }
      expect(await geofenceRow(t, spared.id)).toEqual(spareBefore);
      expect((await floorRow(t, site.floor.id))!.deletedAt).not.toBeNull();
      const documentGeofences = (await t.http.get(`/api/v1/buildings/${site.building.id}`).set(a.auth).expect(200)).body.geofences;
      expect(documentGeofences.map((geofence: { id: string }) => geofence.id)).toEqual([spared.id]);
    });

    it('a floor deletion racing geofence creations never leaves a live geofence on a deleted floor', async () => {
      const building = await createBuilding(t, a.auth);
      for (let round = 0; round < 10; round += 1) {
        const floor = await createFloor(t, a.auth, building.id);
        const [removal, ...creations] = await Promise.all([
          t.http.delete(`/api/v1/floors/${floor.id}`).set(a.auth),
          ...Array.from({ length: 4 }, (_, index) =>
            t.http
              .post('/api/v1/geofences')
              .set(a.auth)
              .send({
                name: `Racer ${index}`,
                building_id: building.id,
                floor_id: floor.id,
                geometric: [
                  [1, 1],
                  [1, 2],
                  [2, 2],
                  [1, 1],
                ],
              }),
          ),
        ]);
        expect([204, 409]).toContain(removal.status);
        for (const creation of creations) expect([201, 422]).toContain(creation.status);
        const live = await t.dataSource.getRepository(Geofence).countBy({ floorId: floor.id, deleted: false });
        if (removal.status === 204) {
          expect(live, `round ${round}: floor deleted with live geofences`).toBe(0);
          expect(creations.filter((creation) => creation.status === 201)).toEqual([]);
        } else {
          expect(live).toBeGreaterThan(0);
          expect((await floorRow(t, floor.id))!.deletedAt).toBeNull();
        }
      }
    });

    it('answers 400 to a malformed id or cascade and 404 to an unknown id', async () => {
      const site = await createSite(t, a.auth);
      expectError(await t.http.delete(`/api/v1/floors/${site.floor.id}?cascade=yes`).set(a.auth), 400, 'bad_request');
      expectError(await t.http.delete('/api/v1/floors/abc').set(a.auth), 400, 'bad_request');
      expectError(await t.http.delete(`/api/v1/floors/${MISSING_INTEGER_ID}`).set(a.auth), 404, 'entity_not_found');
      expect((await floorRow(t, site.floor.id))!.deletedAt).toBeNull();
    });
  });

  describe('permissions (contract 2.3)', () => {
    it.each(CARTOGRAPHY_KEY_LEVELS)('a %s key reads; writes only when it covers cartography (%s)', async (permission, canWrite) => {
      const key = await createApiKey(t, a.token, permission);
      const auth = asApiKey(key.apikey);
      const site = await createSite(t, a.auth);

      expect((await t.http.get('/api/v1/floors').set(auth).expect(200)).body.map((floor: FloorBody) => floor.id)).toContain(site.floor.id);
      expect((await t.http.get(`/api/v1/floors?building_id=${site.building.id}`).set(auth).expect(200)).body).toEqual([site.floor]);
      expect((await t.http.get(`/api/v1/buildings/${site.building.id}/floors`).set(auth).expect(200)).body).toEqual([site.floor]);
      expect((await t.http.get(`/api/v1/floors/${site.floor.id}`).set(auth).expect(200)).body).toEqual(site.floor);

      const before = await floorRow(t, site.floor.id);
      const post = await t.http.post('/api/v1/floors').set(auth).send({ building_id: site.building.id, level: 5 });
      const put = await t.http.put(`/api/v1/floors/${site.floor.id}`).set(auth).send({ name: 'Put' });
      const patch = await t.http.patch(`/api/v1/floors/${site.floor.id}`).set(auth).send({ level_height: 9 });
      if (canWrite) {
        expectStatus(post, 201);
        expectStatus(put, 200);
        expectStatus(patch, 200);
        expect(await floorRow(t, site.floor.id)).toMatchObject({ name: 'Put', levelHeight: 9 });
        expectStatus(await t.http.delete(`/api/v1/floors/${site.floor.id}`).set(auth), 204);
        expect((await floorRow(t, site.floor.id))!.deletedAt).not.toBeNull();
      } else {
        for (const response of [post, put, patch, await t.http.delete(`/api/v1/floors/${site.floor.id}`).set(auth)]) {
          expectError(response, 403, 'forbidden');
        }
        expect(await floorRow(t, site.floor.id)).toEqual(before);
        expect(await t.dataSource.getRepository(Floor).countBy({ buildingId: site.building.id })).toBe(1);
      }
    });
  });
});
