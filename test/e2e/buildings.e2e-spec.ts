import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { Building } from '../../src/cartography/buildings/building.entity';
import { asApiKey, createApiKey } from '../support/auth';
import {
  BUILDING_DETAIL_KEYS,
  BUILDING_KEYS,
  BuildingBody,
  buildingInput,
  buildingPart,
  buildingRow,
  buildingState,
  Cartographer,
  CARTOGRAPHY_KEY_LEVELS,
  countQueries,
  createBuilding,
  createFloor,
  createGeofence,
  createSite,
  errorFields,
  expectError,
  expectStatus,
  floorRowsOf,
  geofenceRow,
  geofenceRowsOf,
  insertGeofences,
  keysOf,
  MALFORMED_INTEGER_IDS,
  MISSING_INTEGER_ID,
  signUp,
  TIMESTAMP,
} from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

const withoutDocument = buildingPart;

describe('buildings', () => {
  let t: TestApp;
  let a: Cartographer;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Buildings');
  });
  afterAll(async () => t?.close());

  describe('POST /api/v1/buildings', () => {
    it('creates a building: 201 with the full object, an ETag and the stored row; keys the caller may not set are ignored', async () => {
      const before = Date.now();
      const response = await t.http
        .post('/api/v1/buildings')
        .set(a.auth)
        .send({
          ...buildingInput({ name: '  Headquarters  ' }),
          id: 424242,
          created_at: '2000-01-01T00:00:00.000+00:00',
          updated_at: '2000-01-01T00:00:00.000+00:00',
          user_uuid: randomUUID(),
          organization_id: randomUUID(),
          legacy_key: 'ignored',
        });
      expectStatus(response, 201);
      const body = response.body as BuildingBody;
      expect(keysOf(body)).toEqual(BUILDING_KEYS);
      expect(body).toEqual({
        id: expect.any(Number),
        name: 'Headquarters',
        description: 'Main site',
        info: '<p>Open <b>9-17</b></p>',
        location: { lat: 42.8723597, lng: -8.5633224 },
        dimensions: { width: 120.5, length: 80 },
        rotation: 0.5,
        corners: expect.any(Array),
        custom_fields: [{ key: 'zone', value: 'A' }],
        user_uuid: a.org.adminId,
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      expect(Number.isInteger(body.id)).toBe(true);
      expect(body.id).not.toBe(424242);
      expect(body.updated_at).toBe(body.created_at);
      const createdAt = Date.parse(body.created_at);
      expect(createdAt).toBeGreaterThanOrEqual(before - 1000);
      expect(createdAt).toBeLessThanOrEqual(Date.now() + 1000);
      expect(response.headers.etag).toBe('"1"');

      const stored = await buildingRow(t, body.id);
      expect(stored).toMatchObject({
        organizationId: a.org.organizationId,
        createdBy: a.org.adminId,
        name: 'Headquarters',
        description: 'Main site',
        info: '<p>Open <b>9-17</b></p>',
        latitude: 42.8723597,
        longitude: -8.5633224,
        width: 120.5,
        length: 80,
        rotation: 0.5,
        customFields: [{ key: 'zone', value: 'A' }],
        version: 1,
        deletedAt: null,
      });
      expect(stored!.createdAt.toISOString()).toBe(body.created_at.replace('+00:00', 'Z'));
      expect(await t.dataSource.getRepository(Building).countBy({ organizationId: a.org.organizationId, name: 'Headquarters', id: 424242 })).toBe(0);
    });

    it('defaults the optional fields', async () => {
      const response = await t.http
        .post('/api/v1/buildings')
        .set(a.auth)
        .send({ name: 'Minimal', location: { lat: 0, lng: 0 }, dimensions: { width: 1, length: 2 } });
      expectStatus(response, 201);
      expect(response.body).toMatchObject({ name: 'Minimal', description: '', info: '', rotation: 0, custom_fields: [], location: { lat: 0, lng: 0 } });
    });

    it('names every invalid field in errors[] (422) and stores nothing', async () => {
      const before = await t.dataSource.getRepository(Building).count();
      const empty = await t.http.post('/api/v1/buildings').set(a.auth).send({});
      expectError(empty, 422, 'validation_failed');
      expect(errorFields(empty)).toEqual(expect.arrayContaining(['name', 'location', 'dimensions']));

      const invalid = await t.http
        .post('/api/v1/buildings')
        .set(a.auth)
        .send({ name: '   ', location: { lat: 91, lng: -181 }, dimensions: { width: -1, length: 'long' }, rotation: 'x', custom_fields: [{ key: 1 }] });
      expectError(invalid, 422, 'validation_failed');
      expect(errorFields(invalid)).toEqual(expect.arrayContaining(['name', 'location.lat', 'location.lng', 'dimensions.width', 'dimensions.length', 'rotation']));
      expect(errorFields(invalid).some((field) => field.startsWith('custom_fields'))).toBe(true);
      expect(await t.dataSource.getRepository(Building).count()).toBe(before);
    });

    it('answers 400 bad_request to malformed JSON', async () => {
      const response = await t.http.post('/api/v1/buildings').set(a.auth).set('Content-Type', 'application/json').send('{"name": ');
      expectError(response, 400, 'bad_request');
    });
  });

  describe('GET /api/v1/buildings', () => {
    it("lists the organization's live buildings as a bare array of full objects, with or without a trailing slash", async () => {
      const org = await signUp(t, 'Listing');
      const first = await createBuilding(t, org.auth, { name: 'First' });
      const second = await createBuilding(t, org.auth, { name: 'Second' });
      const gone = await createBuilding(t, org.auth, { name: 'Gone' });
      await t.http.delete(`/api/v1/buildings/${gone.id}`).set(org.auth).expect(204);

      for (const url of ['/api/v1/buildings', '/api/v1/buildings/']) {
        const response = await t.http.get(url).set(org.auth);
        expectStatus(response, 200);
        expect(Array.isArray(response.body)).toBe(true);
        const sorted = [...response.body].sort((x: BuildingBody, y: BuildingBody) => x.id - y.id);
        expect(sorted).toEqual([first, second]);
        for (const building of response.body) expect(keysOf(building)).toEqual(BUILDING_KEYS);
      }
    });
  });

  describe('GET /api/v1/buildings/{id}', () => {
    it('is the building with its floors and its live geofences, and an ETag', async () => {
      const site = await createSite(t, a.auth, { name: 'Document' });
      const upper = await createFloor(t, a.auth, site.building.id, { level: 1, name: 'Upper' });
      const kept = await createGeofence(t, a.auth, site.place, { name: 'Kept' });
      const upperZone = await createGeofence(t, a.auth, { buildingId: site.building.id, floorId: upper.id }, { name: 'Upper zone' });
      const removed = await createGeofence(t, a.auth, site.place, { name: 'Removed' });
      await t.http.delete(`/api/v1/geofences/${removed.id}`).set(a.auth).expect(204);
      const elsewhere = await createSite(t, a.auth, { name: 'Elsewhere' });
      await createGeofence(t, a.auth, elsewhere.place, { name: 'Elsewhere zone' });

      for (const url of [`/api/v1/buildings/${site.building.id}`, `/api/v1/buildings/${site.building.id}/`]) {
        const response = await t.http.get(url).set(a.auth);
        expectStatus(response, 200);
        // The building's own keys plus its floors and geofences (other parts of the document, such
        // as POIs and paths, belong to other resources).
        expect(keysOf(response.body)).toEqual(expect.arrayContaining(BUILDING_DETAIL_KEYS));
        expect(Array.isArray(response.body.floors) && Array.isArray(response.body.geofences)).toBe(true);
        expect(withoutDocument(response.body)).toEqual(site.building);
        // The document's tag: the building's version, then the revision of what it embeds.
        expect(response.headers.etag).toMatch(/^"1\.\d+"$/);
        const floors = [...response.body.floors].sort((x: { id: number }, y: { id: number }) => x.id - y.id);
        const floorBodies = await Promise.all([site.floor, upper].map(async (floor) => (await t.http.get(`/api/v1/floors/${floor.id}`).set(a.auth)).body));
        expect(floors).toEqual(floorBodies);
        const geofences = [...response.body.geofences].sort((x: { id: string }, y: { id: string }) => x.id.localeCompare(y.id));
        const geofenceBodies = await Promise.all([kept, upperZone].map(async (geofence) => (await t.http.get(`/api/v1/geofences/${geofence.id}`).set(a.auth)).body));
        expect(geofences).toEqual(geofenceBodies.sort((x, y) => x.id.localeCompare(y.id)));
      }
    });

    it('answers 404 entity_not_found to an unknown id and 400 bad_request to a malformed one', async () => {
      expectError(await t.http.get(`/api/v1/buildings/${MISSING_INTEGER_ID}`).set(a.auth), 404, 'entity_not_found');
      for (const id of MALFORMED_INTEGER_IDS) {
        expectError(await t.http.get(`/api/v1/buildings/${id}`).set(a.auth), 400, 'bad_request');
      }
    });
  });

  describe('PUT and PATCH /api/v1/buildings/{id}', () => {
    it.each(['put', 'patch'] as const)('%s is a partial update: only the fields sent change', async (method) => {
      const building = await createBuilding(t, a.auth, { name: `Partial ${method}` });
      const response = await t.http[method](`/api/v1/buildings/${building.id}`)
        .set(a.auth)
        .send({ name: `Renamed ${method}`, dimensions: { width: 10, length: 20 } });
      expectStatus(response, 200);
      expect(keysOf(response.body)).toEqual(BUILDING_KEYS);
      expect(response.body).toEqual({
        ...building,
        name: `Renamed ${method}`,
        dimensions: { width: 10, length: 20 },
        corners: expect.any(Array),
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      expect(response.body.corners).not.toEqual(building.corners);
      expect(Date.parse(response.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(building.updated_at));
      expect(response.headers.etag).toBe('"2"');

      const read = await t.http.get(`/api/v1/buildings/${building.id}`).set(a.auth).expect(200);
      expect(withoutDocument(read.body)).toEqual(response.body);
      expect(read.headers.etag).toMatch(/^"2\.\d+"$/);
      expect(await buildingRow(t, building.id)).toMatchObject({ name: `Renamed ${method}`, width: 10, length: 20, latitude: 42.8723597, info: building.info, version: 2 });
    });

    it('changes every writable field, and never id, user_uuid, created_at or the organization', async () => {
      const building = await createBuilding(t, a.auth);
      const changes = {
        name: 'All new',
        description: 'New description',
        info: '<p>New</p>',
        location: { lat: -33.5, lng: 151.25 },
        dimensions: { width: 1, length: 1.5 },
        rotation: -1.25,
        custom_fields: [
          { key: 'a', value: '1' },
          { key: 'b', value: '2' },
        ],
      };
      const response = await t.http
        .put(`/api/v1/buildings/${building.id}`)
        .set(a.auth)
        .send({ ...changes, id: building.id + 1000, user_uuid: randomUUID(), created_at: '2000-01-01T00:00:00.000+00:00', organization_id: randomUUID() });
      expectStatus(response, 200);
      expect(response.body).toEqual({ ...building, ...changes, corners: expect.any(Array), updated_at: expect.stringMatching(TIMESTAMP) });
      expect(await buildingRow(t, building.id)).toMatchObject({ organizationId: a.org.organizationId, createdBy: a.org.adminId });
    });

    it('refuses invalid values with 422 naming the field and leaves the row unchanged', async () => {
      const building = await createBuilding(t, a.auth);
      const before = await buildingRow(t, building.id);
      const response = await t.http
        .put(`/api/v1/buildings/${building.id}`)
        .set(a.auth)
        .send({ name: '', location: { lat: 12 } });
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response)).toEqual(expect.arrayContaining(['name', 'location.lng']));
      expect(await buildingRow(t, building.id)).toEqual(before);
    });

    it('refuses null for a required field with 422 naming it (never a 500) and leaves the row unchanged', async () => {
      const building = await createBuilding(t, a.auth);
      const before = await buildingRow(t, building.id);
      for (const field of ['name', 'location', 'dimensions']) {
        const response = await t.http
          .put(`/api/v1/buildings/${building.id}`)
          .set(a.auth)
          .send({ [field]: null });
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response)).toContain(field);
      }
      expect(await buildingRow(t, building.id)).toEqual(before);
    });

    it('null for an optional field is refused (422 naming it) or reset to its default, never a 500', async () => {
      const building = await createBuilding(t, a.auth);
      const defaults: Record<string, unknown> = { description: '', info: '', rotation: 0, custom_fields: [] };
      for (const [field, empty] of Object.entries(defaults)) {
        const response = await t.http
          .put(`/api/v1/buildings/${building.id}`)
          .set(a.auth)
          .send({ [field]: null });
        expect([200, 422], `${field}: ${response.status} ${JSON.stringify(response.body)}`).toContain(response.status);
        if (response.status === 422) expect(errorFields(response)).toContain(field);
        else expect(response.body[field]).toEqual(empty);
      }
    });

    it('answers 404 to an unknown id and 400 to a malformed one', async () => {
      expectError(await t.http.put(`/api/v1/buildings/${MISSING_INTEGER_ID}`).set(a.auth).send({ name: 'x' }), 404, 'entity_not_found');
      expectError(await t.http.patch(`/api/v1/buildings/${MISSING_INTEGER_ID}`).set(a.auth).send({ name: 'x' }), 404, 'entity_not_found');
      expectError(await t.http.put('/api/v1/buildings/abc').set(a.auth).send({ name: 'x' }), 400, 'bad_request');
    });
  });

  describe('ETag and If-Match', () => {
    it('a stale If-Match is 409 conflict and changes nothing; a matching one succeeds with the new ETag', async () => {
      const building = await createBuilding(t, a.auth);
      const first = await t.http.get(`/api/v1/buildings/${building.id}`).set(a.auth).expect(200);
      expect(first.headers.etag).toMatch(/^"1\.\d+"$/);

      const matching = await t.http.put(`/api/v1/buildings/${building.id}`).set(a.auth).set('If-Match', first.headers.etag).send({ name: 'v2' });
      expectStatus(matching, 200);
      expect(matching.headers.etag).toBe('"2"');
      const after = await buildingRow(t, building.id);

      const stale = await t.http.put(`/api/v1/buildings/${building.id}`).set(a.auth).set('If-Match', first.headers.etag).send({ name: 'lost' });
      expectError(stale, 409, 'conflict');
      const stalePatch = await t.http.patch(`/api/v1/buildings/${building.id}`).set(a.auth).set('If-Match', '"1"').send({ name: 'lost' });
      expectError(stalePatch, 409, 'conflict');
      expect(await buildingRow(t, building.id)).toEqual(after);

      const read = await t.http.get(`/api/v1/buildings/${building.id}`).set(a.auth).expect(200);
      expect(read.headers.etag).toMatch(/^"2\.\d+"$/);
      expect(read.body.name).toBe('v2');

      const patched = await t.http.patch(`/api/v1/buildings/${building.id}`).set(a.auth).set('If-Match', read.headers.etag).send({ name: 'v3' });
      expectStatus(patched, 200);
      expect(patched.headers.etag).toBe('"3"');
    });

    it('accepts * and a list of tags that names the current one', async () => {
      const building = await createBuilding(t, a.auth);
      await t.http.put(`/api/v1/buildings/${building.id}`).set(a.auth).set('If-Match', '*').send({ name: 'star' }).expect(200);
      const listed = await t.http.put(`/api/v1/buildings/${building.id}`).set(a.auth).set('If-Match', '"7", "2"').send({ name: 'listed' });
      expectStatus(listed, 200);
      expect(listed.headers.etag).toBe('"3"');
    });

    it('refuses a malformed If-Match like a stale one: 409 on a building, 404 on an unknown id', async () => {
      const building = await createBuilding(t, a.auth);
      for (const header of ['abc', '1', '"x"', 'W/']) {
        const response = await t.http.put(`/api/v1/buildings/${building.id}`).set(a.auth).set('If-Match', header).send({ name: 'nope' });
        expectError(response, 409, 'conflict');
        expect(response.body.message).toMatch(/stale If-Match/);
      }
      // A list with one current tag still matches, whatever else it holds.
      const current = (await t.http.get(`/api/v1/buildings/${building.id}`).set(a.auth).expect(200)).headers.etag;
      await t.http.put(`/api/v1/buildings/${building.id}`).set(a.auth).set('If-Match', `abc, ${current}`).send({ name: 'listed' }).expect(200);
      expectError(await t.http.put('/api/v1/buildings/999999').set(a.auth).set('If-Match', 'abc').send({ name: 'nope' }), 404, 'entity_not_found');
      expectError(await t.http.put('/api/v1/buildings/999999').set(a.auth).set('If-Match', '"1"').send({ name: 'nope' }), 404, 'entity_not_found');
      expect((await buildingRow(t, building.id))!.name).toBe('listed');
    });

    it('two concurrent writers with the same If-Match: one wins, the other gets 409', async () => {
      const building = await createBuilding(t, a.auth);
      const responses = await Promise.all(['left', 'right'].map((name) => t.http.put(`/api/v1/buildings/${building.id}`).set(a.auth).set('If-Match', '"1"').send({ name })));
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      const winner = responses.find((response) => response.status === 200)!;
      expect((await buildingRow(t, building.id))!).toMatchObject({ name: winner.body.name, version: 2 });
    });
  });

  describe('DELETE /api/v1/buildings/{id}', () => {
    it('deletes a building without geofences and hides it and its floors from every route', async () => {
      const site = await createSite(t, a.auth, { name: 'To delete' });
      const response = await t.http.delete(`/api/v1/buildings/${site.building.id}`).set(a.auth);
      expectStatus(response, 204);
      expect(response.text).toBe('');

      expectError(await t.http.get(`/api/v1/buildings/${site.building.id}`).set(a.auth), 404, 'entity_not_found');
      expectError(await t.http.put(`/api/v1/buildings/${site.building.id}`).set(a.auth).send({ name: 'x' }), 404, 'entity_not_found');
      expectError(await t.http.delete(`/api/v1/buildings/${site.building.id}`).set(a.auth), 404, 'entity_not_found');
      expectError(await t.http.get(`/api/v1/buildings/${site.building.id}/floors`).set(a.auth), 404, 'entity_not_found');
      expectError(await t.http.get(`/api/v1/floors/${site.floor.id}`).set(a.auth), 404, 'entity_not_found');
      const listed = await t.http.get('/api/v1/buildings').set(a.auth).expect(200);
      expect(listed.body.map((building: BuildingBody) => building.id)).not.toContain(site.building.id);
      const floors = await t.http.get('/api/v1/floors').set(a.auth).expect(200);
      expect(floors.body.map((floor: { id: number }) => floor.id)).not.toContain(site.floor.id);
      const byBuilding = await t.http.get(`/api/v1/floors?building_id=${site.building.id}`).set(a.auth).expect(200);
      expect(byBuilding.body).toEqual([]);
      // A geofence can no longer be placed in it.
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
      expect(errorFields(placed)).toContain('building_id');

      const stored = await buildingState(t, site.building.id);
      expect(stored.building!.deletedAt).toBeInstanceOf(Date);
      expect(stored.floors.every((floor) => floor.deletedAt instanceof Date)).toBe(true);
    });

    it('with cascade=false answers 409 conflict while live geofences remain, and changes nothing', async () => {
      const site = await createSite(t, a.auth, { name: 'Busy' });
      await createGeofence(t, a.auth, site.place);
      const before = await buildingState(t, site.building.id);
      for (const url of [`/api/v1/buildings/${site.building.id}?cascade=false`]) {
        expectError(await t.http.delete(url).set(a.auth), 409, 'conflict');
      }
      expect(await buildingState(t, site.building.id)).toEqual(before);
      await t.http.get(`/api/v1/buildings/${site.building.id}`).set(a.auth).expect(200);
    });

    it.each(['?cascade=true', ''])(
      'with %s (the default cascades, as the hosted API does) deletes it and soft-deletes its live geofences, which stay readable by id',
      async (query) => {
        const site = await createSite(t, a.auth, { name: 'Cascade' });
        const second = await createFloor(t, a.auth, site.building.id, { level: 1 });
        const live = [
          await createGeofence(t, a.auth, site.place, { name: 'Live one' }),
          await createGeofence(t, a.auth, { buildingId: site.building.id, floorId: second.id }, { name: 'Live two' }),
        ];
        const alreadyDeleted = await createGeofence(t, a.auth, site.place, { name: 'Already deleted' });
        await t.http.delete(`/api/v1/geofences/${alreadyDeleted.id}`).set(a.auth).expect(204);
        const alreadyDeletedRow = await geofenceRow(t, alreadyDeleted.id);
        const other = await createSite(t, a.auth, { name: 'Untouched' });
        const bystander = await createGeofence(t, a.auth, other.place);

        const response = await t.http.delete(`/api/v1/buildings/${site.building.id}${query}`).set(a.auth);
        expectStatus(response, 204);

        expectError(await t.http.get(`/api/v1/buildings/${site.building.id}`).set(a.auth), 404, 'entity_not_found');
        for (const geofence of live) {
          expect((await geofenceRow(t, geofence.id))!.deleted).toBe(true);
          const read = await t.http.get(`/api/v1/geofences/${geofence.id}`).set(a.auth).expect(200);
          expect(read.body).toMatchObject({ id: geofence.id, name: geofence.name, deleted: true });
        }
        expect(await geofenceRow(t, alreadyDeleted.id)).toEqual(alreadyDeletedRow);
        expect((await geofenceRow(t, bystander.id))!.deleted).toBe(false);
        const search = await t.http.get(`/api/v1/geofences?building_ids=${site.building.id}`).set(a.auth).expect(200);
        expect(search.body.data).toEqual([]);
        const deleted = await t.http.get(`/api/v1/geofences?building_ids=${site.building.id}&deleted=true`).set(a.auth).expect(200);
        expect(deleted.body.data.map((geofence: { id: string }) => geofence.id).sort()).toEqual([...live, alreadyDeleted].map((geofence) => geofence.id).sort());
        expect((await floorRowsOf(t, site.building.id)).every((floor) => floor.deletedAt !== null)).toBe(true);
      },
    );

    it('needs no cascade when every geofence is already deleted', async () => {
      const site = await createSite(t, a.auth);
      const geofence = await createGeofence(t, a.auth, site.place);
      await t.http.delete(`/api/v1/geofences/${geofence.id}`).set(a.auth).expect(204);
      expectStatus(await t.http.delete(`/api/v1/buildings/${site.building.id}`).set(a.auth), 204);
    });

    it.each(['?cascade=false', ''])('a building deletion (%s) racing geofence creations never leaves a live geofence in a deleted building', async (query) => {
      for (let round = 0; round < 10; round += 1) {
        const site = await createSite(t, a.auth);
        const [removal, ...creations] = await Promise.all([
          t.http.delete(`/api/v1/buildings/${site.building.id}${query}`).set(a.auth),
          ...Array.from({ length: 4 }, (_, index) =>
            t.http
              .post('/api/v1/geofences')
              .set(a.auth)
              .send({
                name: `Racer ${index}`,
                building_id: site.building.id,
                floor_id: site.floor.id,
                geometric: [
                  [1, 1],
                  [1, 2],
                  [2, 2],
                  [1, 1],
                ],
              }),
          ),
        ]);
        // The default cascades: it never refuses, and geofences created before it are soft-deleted with it.
        expect(query ? [204, 409] : [204]).toContain(removal.status);
        for (const creation of creations) expect([201, 422]).toContain(creation.status);
        const live = (await geofenceRowsOf(t, site.building.id)).filter((geofence) => !geofence.deleted);
        if (removal.status === 204) {
          expect(live, `round ${round}: building deleted with live geofences`).toEqual([]);
          if (query) expect(creations.filter((creation) => creation.status === 201)).toEqual([]);
        } else {
          expect(live.length).toBeGreaterThan(0);
          expect((await buildingRow(t, site.building.id))!.deletedAt).toBeNull();
        }
      }
    });

    it('answers 400 to a malformed cascade or id and 404 to an unknown id', async () => {
      const site = await createSite(t, a.auth);
      expectError(await t.http.delete(`/api/v1/buildings/${site.building.id}?cascade=maybe`).set(a.auth), 400, 'bad_request');
      expectError(await t.http.delete('/api/v1/buildings/abc').set(a.auth), 400, 'bad_request');
      expectError(await t.http.delete(`/api/v1/buildings/${MISSING_INTEGER_ID}`).set(a.auth), 404, 'entity_not_found');
      await t.http.get(`/api/v1/buildings/${site.building.id}`).set(a.auth).expect(200);
    });
  });

  describe('HTML in info', () => {
    it('removes scripts, event handlers and javascript: URLs and keeps plain formatting, on create and on update', async () => {
      const hostile =
        '<p onclick="steal()">Hello <b>bold</b> <i>it</i><script>alert(1)</script>' +
        '<a href="javascript:alert(2)">bad link</a> <a href="https://example.com/">good link</a>' +
        '<img src="x.png" onerror="alert(3)"></p><ul><li>item</li></ul>';
      const created = await createBuilding(t, a.auth, { info: hostile });
      const updated = (await t.http.put(`/api/v1/buildings/${created.id}`).set(a.auth).send({ info: hostile }).expect(200)).body;
      const stored = await buildingRow(t, created.id);
      for (const info of [created.info, updated.info, stored!.info]) {
        expect(info).not.toMatch(/<script/i);
        expect(info).not.toContain('alert(1)');
        expect(info).not.toMatch(/onclick|onerror/i);
        expect(info).not.toMatch(/javascript:/i);
        expect(info).toContain('<b>bold</b>');
        expect(info).toContain('<i>it</i>');
        expect(info).toContain('<a href="https://example.com/">good link</a>');
        expect(info).toContain('<ul><li>item</li></ul>');
        expect(info).toMatch(/^<p>Hello /);
        expect(info).toContain('bad link');
      }
    });
  });

  describe('query cost', () => {
    it('GET /api/v1/buildings/{id} costs the same number of queries for 1 floor and 1 geofence as for 10 floors and 100 geofences', async () => {
      const small = await createSite(t, a.auth, { name: 'Small' });
      await createGeofence(t, a.auth, small.place);
      const large = await createSite(t, a.auth, { name: 'Large' });
      for (let level = 1; level < 10; level += 1) await createFloor(t, a.auth, large.building.id, { level });
      const largeFloors = await floorRowsOf(t, large.building.id);
      expect(largeFloors).toHaveLength(10);
      for (const floor of largeFloors) await insertGeofences(t, a.org.organizationId, { buildingId: large.building.id, floorId: floor.id }, 10);

      // Warm up (connections, prepared statements) on a third building, so both counted reads build their document.
      const warmUp = await createSite(t, a.auth, { name: 'Warm-up' });
      await t.http.get(`/api/v1/buildings/${warmUp.building.id}`).set(a.auth).expect(200);
      const one = await countQueries(t, () => t.http.get(`/api/v1/buildings/${small.building.id}`).set(a.auth));
      const many = await countQueries(t, () => t.http.get(`/api/v1/buildings/${large.building.id}`).set(a.auth));
      expectStatus(one.result, 200);
      expectStatus(many.result, 200);
      expect(one.result.body.floors).toHaveLength(1);
      expect(one.result.body.geofences).toHaveLength(1);
      expect(many.result.body.floors).toHaveLength(10);
      expect(many.result.body.geofences).toHaveLength(100);
      expect(one.queries.length).toBeGreaterThan(0);
      expect(many.queries.length, many.queries.join('\n')).toBe(one.queries.length);

      // Unchanged since, the document comes from the cache: only the building and its revision are read.
      const again = await countQueries(t, () => t.http.get(`/api/v1/buildings/${large.building.id}`).set(a.auth));
      expect(again.result.body).toEqual(many.result.body);
      expect(again.queries.length).toBeLessThan(many.queries.length);

      // Any change to what the document shows is seen at once.
      const [floor] = largeFloors;
      await createGeofence(t, a.auth, { buildingId: large.building.id, floorId: floor.id });
      const changed = await t.http.get(`/api/v1/buildings/${large.building.id}`).set(a.auth).expect(200);
      expect(changed.body.geofences).toHaveLength(101);
    });
  });

  describe('permissions (contract 2.3)', () => {
    it.each(CARTOGRAPHY_KEY_LEVELS)('a %s key reads; writes only when it covers cartography (%s)', async (permission, canWrite) => {
      const key = await createApiKey(t, a.token, permission);
      const auth = asApiKey(key.apikey);
      const building = await createBuilding(t, a.auth, { name: `For ${permission}` });

      const list = await t.http.get('/api/v1/buildings').set(auth);
      expectStatus(list, 200);
      expect(list.body.map((item: BuildingBody) => item.id)).toContain(building.id);
      const read = await t.http.get(`/api/v1/buildings/${building.id}`).set(auth);
      expectStatus(read, 200);
      expect(withoutDocument(read.body)).toEqual(building);
      expectStatus(await t.http.get(`/api/v1/buildings/${building.id}/floors`).set(auth), 200);

      const count = () => t.dataSource.getRepository(Building).countBy({ organizationId: a.org.organizationId });
      const countBefore = await count();
      const before = await buildingRow(t, building.id);
      const post = await t.http
        .post('/api/v1/buildings')
        .set(auth)
        .send(buildingInput({ name: `By ${permission}` }));
      const put = await t.http
        .put(`/api/v1/buildings/${building.id}`)
        .set(auth)
        .send({ name: `Put by ${permission}` });
      const patch = await t.http.patch(`/api/v1/buildings/${building.id}`).set(auth).send({ rotation: 1 });
      if (canWrite) {
        expectStatus(post, 201);
        expect(post.body.name).toBe(`By ${permission}`);
        expectStatus(put, 200);
        expectStatus(patch, 200);
        expect(await buildingRow(t, building.id)).toMatchObject({ name: `Put by ${permission}`, rotation: 1 });
        expectStatus(await t.http.delete(`/api/v1/buildings/${building.id}`).set(auth), 204);
        expect((await buildingRow(t, building.id))!.deletedAt).not.toBeNull();
      } else {
        for (const response of [post, put, patch, await t.http.delete(`/api/v1/buildings/${building.id}`).set(auth)]) {
          expectError(response, 403, 'forbidden');
          expect(response.body.errors).toEqual([]);
        }
        expect(await count()).toBe(countBefore);
        expect(await buildingRow(t, building.id)).toEqual(before);
      }
    });

    it('a disabled key is refused even for reads', async () => {
      const key = await createApiKey(t, a.token, ApiPermission.Disabled);
      expectError(await t.http.get('/api/v1/buildings').set(asApiKey(key.apikey)), 401, 'unauthorized');
    });

    it('every route needs credentials', async () => {
      const building = await createBuilding(t, a.auth);
      for (const [method, url] of [
        ['get', '/api/v1/buildings'],
        ['post', '/api/v1/buildings'],
        ['get', `/api/v1/buildings/${building.id}`],
        ['put', `/api/v1/buildings/${building.id}`],
        ['patch', `/api/v1/buildings/${building.id}`],
        ['delete', `/api/v1/buildings/${building.id}`],
      ] as const) {
        expectError(await t.http[method](url), 401, 'unauthorized');
      }
      expect((await buildingRow(t, building.id))!.deletedAt).toBeNull();
      expect(await geofenceRowsOf(t, building.id)).toEqual([]);
    });
  });
});
