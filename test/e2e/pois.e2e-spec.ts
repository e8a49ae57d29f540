import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { Poi } from '../../src/cartography/pois/poi.entity';
import { asApiKey, createApiKey } from '../support/auth';
import {
  Cartographer,
  CARTOGRAPHY_KEY_LEVELS,
  createBuilding,
  createFloor,
  createSite,
  errorFields,
  expectError,
  expectStatus,
  keysOf,
  MALFORMED_INTEGER_IDS,
  MISSING_INTEGER_ID,
  signUp,
  Site,
  TIMESTAMP,
} from '../support/cartography';
import {
  centreOf,
  createCategory,
  createPoi,
  expectConsistentPosition,
  metresBetween,
  POI_KEYS,
  POI_POSITION_KEYS,
  PoiBody,
  poiCount,
  poiInput,
  poiRow,
  poiRowsOf,
} from '../support/pois';
import { createTestApp, TestApp } from '../support/test-app';

/** The default building of buildingInput(): 120.5 x 80 m, rotated 0.5 rad, centred here. */
const CENTRE = { lat: 42.8723597, lng: -8.5633224 };
const CM = 0.01;

describe('POIs', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'POIs A');
    b = await signUp(t, 'POIs B');
  });
  afterAll(async () => t?.close());

  const get = (c: Cartographer, url: string) => t.http.get(url).set(c.auth);

  describe('POST /api/v1/pois', () => {
    it('creates an indoor POI at the building centre: 201, the exact object (x = width/2, y = length/2), an ETag and the stored row', async () => {
      const site = await createSite(t, a.auth);
      const category = await createCategory(t, a.auth, 'Information');
      const before = Date.now();
      const response = await t.http
        .post('/api/v1/pois')
        .set(a.auth)
        .send({
          ...poiInput(site.building.id, site.floor.id, { category_id: category.id }, CENTRE),
          id: 424242,
          created_at: '2000-01-01T00:00:00.000+00:00',
          organization_id: b.org.organizationId,
          legacy_key: 'ignored',
        });
      expectStatus(response, 201);
      const body = response.body as PoiBody;
      expect(keysOf(body)).toEqual(POI_KEYS);
      expect(keysOf(body.position)).toEqual(POI_POSITION_KEYS);
      const centre = centreOf(site.building);
      expect(centre).toEqual({ x: 60.25, y: 40 });
      expect(body).toEqual({
        id: expect.any(Number),
        building_id: site.building.id,
        name: 'Reception',
        info: '<p>Ask here</p>',
        info_unsafe: '<p>Ask here</p>',
        category_id: category.id,
        category_name: 'Information',
        custom_fields: [{ key: 'desk', value: '1' }],
        type: 'indoor',
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
        position: {
          floor_id: site.floor.id,
          lat: CENTRE.lat,
          lng: CENTRE.lng,
          x: expect.any(Number),
          y: expect.any(Number),
          georeferences: CENTRE,
          cartesians: { x: expect.any(Number), y: expect.any(Number) },
          radius: null,
        },
      });
      expect(body.position.x).toBeCloseTo(centre.x, 9);
      expect(body.position.y).toBeCloseTo(centre.y, 9);
      expectConsistentPosition(body.position);
      expect(Number.isInteger(body.id)).toBe(true);
      expect(body.id).not.toBe(424242);
      expect(body.updated_at).toBe(body.created_at);
      expect(Date.parse(body.created_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(body.created_at)).toBeLessThanOrEqual(Date.now() + 1000);
      expect(response.headers.etag).toBe('"1"');

      const stored = await poiRow(t, body.id);
      expect(stored).toMatchObject({
        organizationId: a.org.organizationId,
        buildingId: site.building.id,
        floorId: site.floor.id,
        categoryId: category.id,
        name: 'Reception',
        latitude: CENTRE.lat,
        longitude: CENTRE.lng,
        version: 1,
      });
      expect(stored!.createdAt.toISOString()).toBe(body.created_at.replace('+00:00', 'Z'));
      expect(await t.dataSource.getRepository(Poi).countBy({ id: 424242 })).toBe(0);

      const read = await get(a, `/api/v1/pois/${body.id}`);
      expectStatus(read, 200);
      expect(read.body).toEqual(body);
      expect(read.headers.etag).toBe('"1"');
      expectStatus(await get(a, `/api/v1/pois/${body.id}/`), 200);
    });

    it('defaults the optional fields (no info, category or custom fields; a radius is kept)', async () => {
      const site = await createSite(t, a.auth);
      const created = await createPoi(t, a.auth, {
        building_id: site.building.id,
        name: 'Bare',
        position: { floor_id: site.floor.id, georeferences: CENTRE, radius: 2.5 },
      });
      expect(created).toMatchObject({ info: '', info_unsafe: '', category_id: null, category_name: '', custom_fields: [], type: 'indoor' });
      expect(created.position.radius).toBe(2.5);
    });

    it('an outdoor POI (floor_id absent or null) has position.floor_id null and type "outdoor"', async () => {
      const site = await createSite(t, a.auth);
      const outside = { lat: CENTRE.lat + 0.001, lng: CENTRE.lng - 0.001 };
      const withNull = await createPoi(t, a.auth, poiInput(site.building.id, null, { name: 'Parking' }, outside));
      const withoutFloor = await createPoi(t, a.auth, {
        building_id: site.building.id,
        name: 'Gate',
        position: { georeferences: outside },
      });
      for (const poi of [withNull, withoutFloor]) {
        expect(keysOf(poi)).toEqual(POI_KEYS);
        expect(poi.type).toBe('outdoor');
        expect(poi.position.floor_id).toBeNull();
        expect(poi.position.georeferences).toEqual(outside);
        expectConsistentPosition(poi.position);
        expect((await poiRow(t, poi.id))!.floorId).toBeNull();
      }
      // Outside the building: ~111 m north and ~82 m west of the centre, so well away from it on the plan.
      expect(Math.hypot(withNull.position.x - 60.25, withNull.position.y - 40)).toBeCloseTo(metresBetween(CENTRE, outside), 1);
    });

    it('derives lat/lng from cartesians (exact distances in metres) and they round-trip through georeferences', async () => {
      const site = await createSite(t, a.auth);
      const origin = await createPoi(t, a.auth, {
        building_id: site.building.id,
        name: 'Corner',
        position: { floor_id: site.floor.id, cartesians: { x: 0, y: 0 } },
      });
      const far = await createPoi(t, a.auth, {
        building_id: site.building.id,
        name: 'Far',
        position: { floor_id: site.floor.id, cartesians: { x: 30, y: 40 } },
      });
      expect(origin.position).toMatchObject({ x: 0, y: 0, cartesians: { x: 0, y: 0 }, floor_id: site.floor.id });
      expect(far.position).toMatchObject({ x: 30, y: 40 });
      expectConsistentPosition(origin.position);
      expectConsistentPosition(far.position);
      // Metres on the plan are metres on the ground, whatever the rotation.
      expect(Math.abs(metresBetween(origin.position, far.position) - 50)).toBeLessThan(CM);
      expect(Math.abs(metresBetween(origin.position, CENTRE) - Math.hypot(60.25, 40))).toBeLessThan(CM);
      expect(Math.abs(metresBetween(far.position, CENTRE) - Math.hypot(60.25 - 30, 40 - 40))).toBeLessThan(CM);

      // Round trip: the derived lat/lng, sent back as georeferences, give the same x/y.
      const back = await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id, { name: 'Back' }, { lat: origin.position.lat, lng: origin.position.lng }));
      expect(back.position.x).toBeCloseTo(0, 6);
      expect(back.position.y).toBeCloseTo(0, 6);
      const backFar = await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id, { name: 'Back far' }, far.position.georeferences));
      expect(backFar.position.x).toBeCloseTo(30, 6);
      expect(backFar.position.y).toBeCloseTo(40, 6);

      // The building's rotation is applied: another rotation puts the same corner elsewhere, at the same distance.
      const turned = await createSite(t, a.auth, { rotation: 0.5 + Math.PI / 2 });
      const turnedOrigin = await createPoi(t, a.auth, {
        building_id: turned.building.id,
        name: 'Corner',
        position: { floor_id: turned.floor.id, cartesians: { x: 0, y: 0 } },
      });
      expect(metresBetween(turnedOrigin.position, origin.position)).toBeGreaterThan(10);
      expect(Math.abs(metresBetween(turnedOrigin.position, CENTRE) - Math.hypot(60.25, 40))).toBeLessThan(CM);
    });

    it('keeps info as sent in info_unsafe and sanitizes info', async () => {
      const site = await createSite(t, a.auth);
      const hostile = '<p onclick="steal()">Hi <b>there</b><script>alert(1)</script><a href="javascript:alert(2)">x</a><img src="y.png" onerror="alert(3)"></p>';
      const created = await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id, { info: hostile }));
      expect(created.info_unsafe).toBe(hostile);
      for (const info of [created.info, (await poiRow(t, created.id))!.info]) {
        expect(info).not.toMatch(/<script|alert\(1\)|onclick|onerror|javascript:/i);
        expect(info).toContain('<b>there</b>');
        expect(info).toMatch(/^<p>Hi /);
      }
      expect((await poiRow(t, created.id))!.infoUnsafe).toBe(hostile);
      const updated = await t.http
        .put(`/api/v1/pois/${created.id}`)
        .set(a.auth)
        .send({ info: `<i>new</i>${hostile}` });
      expectStatus(updated, 200);
      expect(updated.body.info_unsafe).toBe(`<i>new</i>${hostile}`);
      expect(updated.body.info).toMatch(/^<i>new<\/i><p>Hi /);
      expect(updated.body.info).not.toMatch(/<script|onclick|onerror|javascript:/i);
    });

    it('names every invalid field in errors[] (422 validation_failed) and stores nothing', async () => {
      const site = await createSite(t, a.auth);
      const otherBuilding = await createSite(t, a.auth);
      const before = await poiCount(t);
      const cases: Array<[string, Record<string, unknown>, string[]]> = [
        ['empty body', {}, ['building_id', 'name', 'position']],
        [
          'bad values',
          {
            building_id: 'x',
            name: '   ',
            category_id: 'abc',
            custom_fields: 'nope',
            position: { floor_id: 'abc', georeferences: { lat: 91, lng: -181 } },
          },
          ['building_id', 'name', 'category_id', 'custom_fields', 'position.floor_id', 'position.georeferences.lat', 'position.georeferences.lng'],
        ],
        [
          'bad cartesians',
          poiInput(site.building.id, site.floor.id, { position: { floor_id: site.floor.id, cartesians: { x: 'a', y: 1e9 } } }),
          ['position.cartesians.x', 'position.cartesians.y'],
        ],
        ['neither georeferences nor cartesians', poiInput(site.building.id, site.floor.id, { position: { floor_id: site.floor.id } }), ['position']],
        ['an unknown floor', poiInput(site.building.id, MISSING_INTEGER_ID), ['position.floor_id']],
        ['a floor of another building', poiInput(site.building.id, otherBuilding.floor.id), ['position.floor_id']],
        ['an unknown building', poiInput(MISSING_INTEGER_ID, null), ['building_id']],
        ['an unknown category', poiInput(site.building.id, site.floor.id, { category_id: MISSING_INTEGER_ID }), ['category_id']],
        ['a latitude out of range', poiInput(site.building.id, site.floor.id, {}, { lat: -90.5, lng: 0 }), ['position.georeferences.lat']],
      ];
      for (const [label, body, fields] of cases) {
        const response = await t.http.post('/api/v1/pois').set(a.auth).send(body);
        expectError(response, 422, 'validation_failed');
        for (const field of fields) expect(errorFields(response), label).toContain(field);
        expect(
          errorFields(response).every((field) => fields.some((expected) => field === expected || field.startsWith(`${expected}.`) || field.startsWith(`${expected}[`))),
          `${label}: ${errorFields(response)}`,
        ).toBe(true);
      }
      expect(await poiCount(t)).toBe(before);
    });

    it('refuses null for a required field with 422 naming it (never a 500)', async () => {
      const site = await createSite(t, a.auth);
      const before = await poiCount(t);
      for (const field of ['building_id', 'name', 'position']) {
        const response = await t.http
          .post('/api/v1/pois')
          .set(a.auth)
          .send(poiInput(site.building.id, site.floor.id, { [field]: null }));
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response)).toContain(field);
      }
      const nullGeo = await t.http
        .post('/api/v1/pois')
        .set(a.auth)
        .send(poiInput(site.building.id, site.floor.id, { position: { floor_id: site.floor.id, georeferences: { lat: null, lng: 1 } } }));
      expectError(nullGeo, 422, 'validation_failed');
      expect(errorFields(nullGeo)).toContain('position.georeferences.lat');
      expect(await poiCount(t)).toBe(before);
    });

    it('a text the database cannot store (NUL in name or info) is stored as sent or refused with 422 naming it, never a 500', async () => {
      const site = await createSite(t, a.auth);
      for (const field of ['name', 'info']) {
        const before = await poiCount(t);
        const response = await t.http
          .post('/api/v1/pois')
          .set(a.auth)
          .send(poiInput(site.building.id, site.floor.id, { [field]: 'a\u0000b' }));
        expect([201, 422], `${field}: ${response.status} ${JSON.stringify(response.body)}`).toContain(response.status);
        if (response.status === 422) {
          expectError(response, 422, 'validation_failed');
          expect(errorFields(response)).toContain(field);
          expect(await poiCount(t)).toBe(before);
        } else {
          expect(response.body[field === 'name' ? 'name' : 'info_unsafe']).toBe('a\u0000b');
        }
      }
    });

    it('answers 400 bad_request to malformed JSON and 422 to a body that is not an object', async () => {
      expectError(await t.http.post('/api/v1/pois').set(a.auth).set('Content-Type', 'application/json').send('{"name": '), 400, 'bad_request');
      const array = await t.http
        .post('/api/v1/pois')
        .set(a.auth)
        .send([{ name: 'x' }]);
      expectError(array, 422, 'validation_failed');
    });
  });

  describe('references under concurrency', () => {
    it('creating POIs that name a category while it is deleted: never a 500, never a POI naming a deleted category', async () => {
      const site = await createSite(t, a.auth);
      for (let round = 0; round < 8; round += 1) {
        const category = await createCategory(t, a.auth, `Racing ${round}`);
        const [removal, ...creations] = await Promise.all([
          t.http.delete(`/api/v1/poi_categories/${category.id}`).set(a.auth),
          ...Array.from({ length: 3 }, () =>
            t.http
              .post('/api/v1/pois')
              .set(a.auth)
              .send(poiInput(site.building.id, site.floor.id, { category_id: category.id })),
          ),
          t.http
            .post('/api/v1/pois_bulk')
            .set(a.auth)
            .send([poiInput(site.building.id, site.floor.id, { category_id: category.id })]),
        ]);
        const statuses = `round ${round}: ${[removal, ...creations].map((response) => `${response.status} ${JSON.stringify(response.body)}`).join(' | ')}`;
        expect([204, 409], statuses).toContain(removal.status);
        for (const creation of creations) expect([201, 422], statuses).toContain(creation.status);
        for (const creation of creations.filter((response) => response.status === 422)) {
          expect(
            errorFields(creation).every((field) => field.endsWith('category_id')),
            statuses,
          ).toBe(true);
        }
        const users = await t.dataSource.getRepository(Poi).countBy({ categoryId: category.id });
        const created = creations.filter((response) => response.status === 201).length;
        if (removal.status === 204) expect(users, statuses).toBe(0);
        else expect(users, statuses).toBe(created);
      }
    });
  });

  describe('GET /api/v1/pois and /api/v1/buildings/{id}/pois', () => {
    it("lists the organization's POIs as a bare array in id order, filtered by building_id and type", async () => {
      const c = await signUp(t, 'POI lists');
      const one = await createSite(t, c.auth, { name: 'One' });
      const two = await createSite(t, c.auth, { name: 'Two' });
      const empty = await createBuilding(t, c.auth, { name: 'Empty' });
      const indoorOne = await createPoi(t, c.auth, poiInput(one.building.id, one.floor.id, { name: 'Indoor one' }));
      const outdoorOne = await createPoi(t, c.auth, poiInput(one.building.id, null, { name: 'Outdoor one' }));
      const indoorTwo = await createPoi(t, c.auth, poiInput(two.building.id, two.floor.id, { name: 'Indoor two' }));
      const outdoorTwo = await createPoi(t, c.auth, poiInput(two.building.id, null, { name: 'Outdoor two' }));

      const cases: Array<[string, PoiBody[]]> = [
        ['/api/v1/pois', [indoorOne, outdoorOne, indoorTwo, outdoorTwo]],
        ['/api/v1/pois/', [indoorOne, outdoorOne, indoorTwo, outdoorTwo]],
        ['/api/v1/pois?type=indoor', [indoorOne, indoorTwo]],
        ['/api/v1/pois?type=outdoor', [outdoorOne, outdoorTwo]],
        [`/api/v1/pois?building_id=${one.building.id}`, [indoorOne, outdoorOne]],
        [`/api/v1/pois?building_id=${two.building.id}&type=outdoor`, [outdoorTwo]],
        [`/api/v1/pois?building_id=${empty.id}`, []],
        [`/api/v1/pois?building_id=${MISSING_INTEGER_ID}`, []],
        [`/api/v1/buildings/${one.building.id}/pois`, [indoorOne, outdoorOne]],
        [`/api/v1/buildings/${one.building.id}/pois/`, [indoorOne, outdoorOne]],
        [`/api/v1/buildings/${one.building.id}/pois?type=indoor`, [indoorOne]],
        [`/api/v1/buildings/${two.building.id}/pois?type=outdoor`, [outdoorTwo]],
        [`/api/v1/buildings/${empty.id}/pois`, []],
      ];
      for (const [url, expected] of cases) {
        const response = await get(c, url);
        expectStatus(response, 200);
        expect(Array.isArray(response.body), url).toBe(true);
        expect(response.body, url).toEqual(expected);
      }
    });

    it('answers 400 to a malformed filter or building id and 404 to an unknown building', async () => {
      expectError(await get(a, '/api/v1/pois?type=both'), 400, 'bad_request');
      expectError(await get(a, '/api/v1/pois?building_id=abc'), 400, 'bad_request');
      const site = await createSite(t, a.auth);
      expectError(await get(a, `/api/v1/buildings/${site.building.id}/pois?type=sideways`), 400, 'bad_request');
      expectError(await get(a, `/api/v1/buildings/${MISSING_INTEGER_ID}/pois`), 404, 'entity_not_found');
      for (const id of MALFORMED_INTEGER_IDS) expectError(await get(a, `/api/v1/buildings/${id}/pois`), 400, 'bad_request');
    });

    it('GET /api/v1/pois/{id}: 404 entity_not_found for an unknown id, 400 for a malformed one', async () => {
      expectError(await get(a, `/api/v1/pois/${MISSING_INTEGER_ID}`), 404, 'entity_not_found');
      for (const id of MALFORMED_INTEGER_IDS) expectError(await get(a, `/api/v1/pois/${id}`), 400, 'bad_request');
    });
  });

  describe('PUT and PATCH /api/v1/pois/{id}', () => {
    it.each(['put', 'patch'] as const)('%s is partial: changing only the name keeps the position and everything else', async (method) => {
      const site = await createSite(t, a.auth);
      const category = await createCategory(t, a.auth, 'Desk');
      const poi = await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id, { category_id: category.id }, { lat: CENTRE.lat + 0.0001, lng: CENTRE.lng }));
      const response = await t.http[method](`/api/v1/pois/${poi.id}`)
        .set(a.auth)
        .send({ name: `Renamed by ${method}` });
      expectStatus(response, 200);
      expect(keysOf(response.body)).toEqual(POI_KEYS);
      expect(response.body).toEqual({ ...poi, name: `Renamed by ${method}`, updated_at: expect.stringMatching(TIMESTAMP) });
      expect(Date.parse(response.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(poi.updated_at));
      expect(response.headers.etag).toBe('"2"');
      const read = await get(a, `/api/v1/pois/${poi.id}`);
      expect(read.body).toEqual(response.body);
      expect(read.headers.etag).toBe('"2"');
      expect(await poiRow(t, poi.id)).toMatchObject({ name: `Renamed by ${method}`, floorId: site.floor.id, latitude: poi.position.lat, x: poi.position.x, version: 2 });
    });

    it('moves a POI to another floor of the same building and outdoors, and refuses a floor of another building', async () => {
      const site = await createSite(t, a.auth);
      const upper = await createFloor(t, a.auth, site.building.id, { level: 1 });
      const poi = await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id));

      const moved = await t.http
        .put(`/api/v1/pois/${poi.id}`)
        .set(a.auth)
        .send({ position: { floor_id: upper.id, georeferences: poi.position.georeferences } });
      expectStatus(moved, 200);
      expect(moved.body).toEqual({ ...poi, position: { ...poi.position, floor_id: upper.id }, updated_at: expect.stringMatching(TIMESTAMP) });
      expect((await poiRow(t, poi.id))!.floorId).toBe(upper.id);
      expect((await get(a, `/api/v1/pois?building_id=${site.building.id}&type=indoor`)).body.map((item: PoiBody) => item.position.floor_id)).toEqual([upper.id]);

      const byCartesians = await t.http
        .patch(`/api/v1/pois/${poi.id}`)
        .set(a.auth)
        .send({ position: { floor_id: site.floor.id, cartesians: { x: 10, y: 20 } } });
      expectStatus(byCartesians, 200);
      expect(byCartesians.body.position).toMatchObject({ floor_id: site.floor.id, x: 10, y: 20 });
      expect(Math.abs(metresBetween(byCartesians.body.position, CENTRE) - Math.hypot(60.25 - 10, 40 - 20))).toBeLessThan(CM);

      const outdoors = await t.http
        .put(`/api/v1/pois/${poi.id}`)
        .set(a.auth)
        .send({ position: { floor_id: null, georeferences: CENTRE } });
      expectStatus(outdoors, 200);
      expect(outdoors.body).toMatchObject({ type: 'outdoor', position: { floor_id: null, lat: CENTRE.lat, lng: CENTRE.lng } });
      expect(outdoors.body.position.x).toBeCloseTo(60.25, 9);

      const elsewhere = await createSite(t, a.auth);
      const before = await poiRow(t, poi.id);
      const refused = await t.http
        .put(`/api/v1/pois/${poi.id}`)
        .set(a.auth)
        .send({ position: { floor_id: elsewhere.floor.id, georeferences: CENTRE } });
      expectError(refused, 422, 'validation_failed');
      expect(errorFields(refused)).toEqual(['position.floor_id']);
      // Moving to another building keeps its floor, which is not in that building.
      const otherBuilding = await t.http
        .put(`/api/v1/pois/${poi.id}`)
        .set(a.auth)
        .send({ building_id: elsewhere.building.id, position: { floor_id: site.floor.id, georeferences: CENTRE } });
      expectError(otherBuilding, 422, 'validation_failed');
      expect(errorFields(otherBuilding)).toEqual(['position.floor_id']);
      expect(await poiRow(t, poi.id)).toEqual(before);
    });

    it('changes every writable field and never id, created_at or the organization', async () => {
      const site = await createSite(t, a.auth);
      const other = await createSite(t, a.auth);
      const category = await createCategory(t, a.auth, 'Shop');
      const poi = await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id));
      const response = await t.http
        .put(`/api/v1/pois/${poi.id}`)
        .set(a.auth)
        .send({
          building_id: other.building.id,
          name: 'All new',
          info: '<p>New</p>',
          category_id: category.id,
          custom_fields: [{ key: 'a', value: '1' }],
          position: { floor_id: other.floor.id, cartesians: { x: 5, y: 6 }, radius: 3 },
          id: poi.id + 1000,
          created_at: '2000-01-01T00:00:00.000+00:00',
          organization_id: b.org.organizationId,
        });
      expectStatus(response, 200);
      expect(response.body).toMatchObject({
        id: poi.id,
        building_id: other.building.id,
        name: 'All new',
        info: '<p>New</p>',
        info_unsafe: '<p>New</p>',
        category_id: category.id,
        category_name: 'Shop',
        custom_fields: [{ key: 'a', value: '1' }],
        type: 'indoor',
        created_at: poi.created_at,
        position: { floor_id: other.floor.id, x: 5, y: 6, radius: 3 },
      });
      expectConsistentPosition(response.body.position);
      expect(await poiRow(t, poi.id)).toMatchObject({ organizationId: a.org.organizationId, buildingId: other.building.id, categoryId: category.id });

      const cleared = await t.http.put(`/api/v1/pois/${poi.id}`).set(a.auth).send({ category_id: null });
      expectStatus(cleared, 200);
      expect(cleared.body).toMatchObject({ category_id: null, category_name: '' });
    });

    it('category_name follows a rename of the category (GET, lists and the building document)', async () => {
      const site = await createSite(t, a.auth);
      const category = await createCategory(t, a.auth, 'Toilets');
      const poi = await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id, { category_id: category.id }));
      expect(poi.category_name).toBe('Toilets');
      expectStatus(await t.http.put(`/api/v1/poi_categories/${category.id}`).set(a.auth).send({ name_en: 'Restrooms' }), 200);
      expect((await get(a, `/api/v1/pois/${poi.id}`)).body.category_name).toBe('Restrooms');
      expect((await get(a, `/api/v1/pois?building_id=${site.building.id}`)).body.map((item: PoiBody) => item.category_name)).toEqual(['Restrooms']);
      expect((await get(a, `/api/v1/buildings/${site.building.id}/pois`)).body[0].category_name).toBe('Restrooms');
      const document = await get(a, `/api/v1/buildings/${site.building.id}`);
      expectStatus(document, 200);
      expect(document.body.indoor_pois.map((item: PoiBody) => [item.id, item.category_name])).toEqual([[poi.id, 'Restrooms']]);
    });

    it('refuses null for a required field with 422 naming it and leaves the row unchanged', async () => {
      const site = await createSite(t, a.auth);
      const poi = await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id));
      const before = await poiRow(t, poi.id);
      for (const field of ['name', 'building_id', 'position']) {
        for (const method of ['put', 'patch'] as const) {
          const response = await t.http[method](`/api/v1/pois/${poi.id}`)
            .set(a.auth)
            .send({ [field]: null });
          expectError(response, 422, 'validation_failed');
          expect(errorFields(response)).toContain(field);
        }
      }
      expect(await poiRow(t, poi.id)).toEqual(before);
    });

    it('refuses invalid values with 422 naming each field and leaves the row unchanged', async () => {
      const site = await createSite(t, a.auth);
      const poi = await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id));
      const before = await poiRow(t, poi.id);
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{ name: '' }, ['name']],
        [{ position: { floor_id: site.floor.id, georeferences: { lat: 91, lng: 0 } } }, ['position.georeferences.lat']],
        [{ position: { floor_id: MISSING_INTEGER_ID } }, ['position.floor_id']],
        [{ position: { floor_id: MISSING_INTEGER_ID, georeferences: CENTRE } }, ['position.floor_id']],
        [{ category_id: MISSING_INTEGER_ID }, ['category_id']],
        [{ building_id: MISSING_INTEGER_ID }, ['building_id']],
      ];
      for (const [body, fields] of cases) {
        const response = await t.http.put(`/api/v1/pois/${poi.id}`).set(a.auth).send(body);
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response), JSON.stringify(body)).toEqual(fields);
      }
      expect(await poiRow(t, poi.id)).toEqual(before);
    });

    it('answers 404 to an unknown id and 400 to a malformed one', async () => {
      expectError(await t.http.put(`/api/v1/pois/${MISSING_INTEGER_ID}`).set(a.auth).send({ name: 'x' }), 404, 'entity_not_found');
      expectError(await t.http.patch(`/api/v1/pois/${MISSING_INTEGER_ID}`).set(a.auth).send({ name: 'x' }), 404, 'entity_not_found');
      expectError(await t.http.put('/api/v1/pois/abc').set(a.auth).send({ name: 'x' }), 400, 'bad_request');
    });
  });

  describe('ETag and If-Match', () => {
    it('a stale If-Match is 409 conflict and changes nothing; a matching one succeeds with the next ETag', async () => {
      const site = await createSite(t, a.auth);
      const poi = await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id));
      const first = await get(a, `/api/v1/pois/${poi.id}`);
      expect(first.headers.etag).toBe('"1"');
      const matching = await t.http.put(`/api/v1/pois/${poi.id}`).set(a.auth).set('If-Match', first.headers.etag).send({ name: 'v2' });
      expectStatus(matching, 200);
      expect(matching.headers.etag).toBe('"2"');
      const after = await poiRow(t, poi.id);
      for (const method of ['put', 'patch'] as const) {
        const stale = await t.http[method](`/api/v1/pois/${poi.id}`).set(a.auth).set('If-Match', '"1"').send({ name: 'lost' });
        expectError(stale, 409, 'conflict');
      }
      expect(await poiRow(t, poi.id)).toEqual(after);
      const read = await get(a, `/api/v1/pois/${poi.id}`);
      expect(read.headers.etag).toBe('"2"');
      expect(read.body.name).toBe('v2');
      expectError(await t.http.put(`/api/v1/pois/${poi.id}`).set(a.auth).set('If-Match', 'abc').send({ name: 'x' }), 409, 'conflict');
    });
  });

  describe('DELETE /api/v1/pois/{id}', () => {
    it('deletes the POI: 204, gone from every route and from the database', async () => {
      const site = await createSite(t, a.auth);
      const poi = await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id));
      const kept = await createPoi(t, a.auth, poiInput(site.building.id, null, { name: 'Kept' }));
      const response = await t.http.delete(`/api/v1/pois/${poi.id}`).set(a.auth);
      expectStatus(response, 204);
      expect(response.text).toBe('');
      expect(await poiRow(t, poi.id)).toBeNull();
      expectError(await get(a, `/api/v1/pois/${poi.id}`), 404, 'entity_not_found');
      expectError(await t.http.put(`/api/v1/pois/${poi.id}`).set(a.auth).send({ name: 'x' }), 404, 'entity_not_found');
      expectError(await t.http.delete(`/api/v1/pois/${poi.id}`).set(a.auth), 404, 'entity_not_found');
      expect((await get(a, `/api/v1/buildings/${site.building.id}/pois`)).body).toEqual([kept]);
      expect((await get(a, `/api/v1/buildings/${site.building.id}`)).body.indoor_pois).toEqual([]);
      expectError(await t.http.delete('/api/v1/pois/abc').set(a.auth), 400, 'bad_request');
    });
  });

  describe('organization isolation', () => {
    type Method = 'get' | 'put' | 'patch' | 'delete';
    const routes: Array<[Method, Record<string, unknown> | undefined, number]> = [
      ['get', undefined, 200],
      ['put', { name: 'Hijacked' }, 200],
      ['patch', { name: 'Hijacked' }, 200],
      ['delete', undefined, 204],
    ];

    async function world(c: Cartographer): Promise<{ site: Site; poi: PoiBody }> {
      const site = await createSite(t, c.auth);
      const category = await createCategory(t, c.auth, 'Theirs');
      return { site, poi: await createPoi(t, c.auth, poiInput(site.building.id, site.floor.id, { category_id: category.id })) };
    }

    it.each(routes)("%s /api/v1/pois/{id}: own id 2xx, the other organization's, an unknown or a malformed one not", async (method, body, ok) => {
      const own = await world(a);
      const theirs = await world(b);
      const send = (id: string | number): Promise<Response> => {
        const request = t.http[method](`/api/v1/pois/${id}`).set(a.auth);
        return body ? request.send(body) : request;
      };
      expectStatus(await send(own.poi.id), ok);
      const before = await poiRow(t, theirs.poi.id);
      const foreign = await send(theirs.poi.id);
      expectError(foreign, 404, 'entity_not_found');
      expect(foreign.body.errors).toEqual([]);
      expect(foreign.headers.etag).toBeUndefined();
      expect(await poiRow(t, theirs.poi.id)).toEqual(before);
      expect((await get(b, `/api/v1/pois/${theirs.poi.id}`)).body).toEqual(theirs.poi);
      expectError(await send(MISSING_INTEGER_ID), 404, 'entity_not_found');
      for (const malformed of MALFORMED_INTEGER_IDS) expectError(await send(malformed), 400, 'bad_request');
    });

    it("lists never show the other organization's POIs; its building's POI route is 404", async () => {
      const mine = await world(a);
      const theirs = await world(b);
      const all = await get(a, '/api/v1/pois');
      expectStatus(all, 200);
      expect(all.body.map((poi: PoiBody) => poi.id)).toContain(mine.poi.id);
      expect(all.body.map((poi: PoiBody) => poi.id)).not.toContain(theirs.poi.id);
      for (const url of [`/api/v1/pois?building_id=${theirs.site.building.id}`, `/api/v1/pois?building_id=${theirs.site.building.id}&type=indoor`]) {
        expect((await get(a, url)).body, url).toEqual([]);
      }
      expectError(await get(a, `/api/v1/buildings/${theirs.site.building.id}/pois`), 404, 'entity_not_found');
      const document = await get(a, `/api/v1/buildings/${mine.site.building.id}`);
      expect(document.body.indoor_pois.map((poi: PoiBody) => poi.id)).toEqual([mine.poi.id]);
    });

    it("refuses references to the other organization's building, floor or category (422 naming the field) on POST and PUT, storing nothing", async () => {
      const mine = await world(a);
      const theirs = await world(b);
      const theirCategory = theirs.poi.category_id!;
      const before = await poiCount(t);
      const cases: Array<[Record<string, unknown>, string]> = [
        [poiInput(theirs.site.building.id, theirs.site.floor.id), 'building_id'],
        [poiInput(theirs.site.building.id, null), 'building_id'],
        [poiInput(mine.site.building.id, theirs.site.floor.id), 'position.floor_id'],
        [poiInput(mine.site.building.id, mine.site.floor.id, { category_id: theirCategory }), 'category_id'],
      ];
      for (const [body, field] of cases) {
        const response = await t.http.post('/api/v1/pois').set(a.auth).send(body);
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response), JSON.stringify(body)).toEqual([field]);
      }
      expect(await poiCount(t)).toBe(before);

      const row = await poiRow(t, mine.poi.id);
      const updates: Array<[Record<string, unknown>, string]> = [
        [{ building_id: theirs.site.building.id, position: { floor_id: theirs.site.floor.id, georeferences: CENTRE } }, 'building_id'],
        [{ position: { floor_id: theirs.site.floor.id, georeferences: CENTRE } }, 'position.floor_id'],
        [{ category_id: theirCategory }, 'category_id'],
      ];
      for (const [body, field] of updates) {
        const response = await t.http.put(`/api/v1/pois/${mine.poi.id}`).set(a.auth).send(body);
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response), JSON.stringify(body)).toEqual([field]);
      }
      expect(await poiRow(t, mine.poi.id)).toEqual(row);
      expect((await poiRowsOf(t, theirs.site.building.id)).map((poi) => poi.id)).toEqual([theirs.poi.id]);
    });
  });

  describe('permissions (contract 2.3)', () => {
    it.each(CARTOGRAPHY_KEY_LEVELS)('a %s key reads POIs; writes them only when it covers cartography (%s)', async (permission, canWrite) => {
      const key = await createApiKey(t, a.token, permission);
      const auth = asApiKey(key.apikey);
      const site = await createSite(t, a.auth);
      const poi = await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id));

      for (const url of ['/api/v1/pois', `/api/v1/pois?building_id=${site.building.id}`, `/api/v1/buildings/${site.building.id}/pois`]) {
        const list = await t.http.get(url).set(auth);
        expectStatus(list, 200);
        if (url === '/api/v1/pois') expect(list.body).toContainEqual(poi);
        else expect(list.body).toEqual([poi]);
      }
      const read = await t.http.get(`/api/v1/pois/${poi.id}`).set(auth);
      expectStatus(read, 200);
      expect(read.body).toEqual(poi);

      const countBefore = await poiCount(t, a.org.organizationId);
      const rowBefore = await poiRow(t, poi.id);
      const post = await t.http
        .post('/api/v1/pois')
        .set(auth)
        .send(poiInput(site.building.id, site.floor.id, { name: `By ${permission}` }));
      const bulk = await t.http
        .post('/api/v1/pois_bulk')
        .set(auth)
        .send([poiInput(site.building.id, null, { name: `Bulk by ${permission}` })]);
      const put = await t.http
        .put(`/api/v1/pois/${poi.id}`)
        .set(auth)
        .send({ name: `Put by ${permission}` });
      const patch = await t.http.patch(`/api/v1/pois/${poi.id}`).set(auth).send({ custom_fields: [] });
      if (canWrite) {
        expectStatus(post, 201);
        expect(post.body.name).toBe(`By ${permission}`);
        expectStatus(bulk, 201);
        expect(bulk.body.map((item: PoiBody) => item.name)).toEqual([`Bulk by ${permission}`]);
        expectStatus(put, 200);
        expectStatus(patch, 200);
        expect(await poiRow(t, poi.id)).toMatchObject({ name: `Put by ${permission}`, customFields: [] });
        expect(await poiCount(t, a.org.organizationId)).toBe(countBefore + 2);
        expectStatus(await t.http.delete(`/api/v1/pois/${poi.id}`).set(auth), 204);
        expect(await poiRow(t, poi.id)).toBeNull();
      } else {
        for (const response of [post, bulk, put, patch, await t.http.delete(`/api/v1/pois/${poi.id}`).set(auth)]) {
          expectError(response, 403, 'forbidden');
          expect(response.body.errors).toEqual([]);
        }
        expect(await poiCount(t, a.org.organizationId)).toBe(countBefore);
        expect(await poiRow(t, poi.id)).toEqual(rowBefore);
      }
    });

    it('a disabled key is refused even for reads, and every route needs credentials', async () => {
      const key = await createApiKey(t, a.token, ApiPermission.Disabled);
      expectError(await t.http.get('/api/v1/pois').set(asApiKey(key.apikey)), 401, 'unauthorized');
      const site = await createSite(t, a.auth);
      const poi = await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id));
      const before = await poiCount(t);
      for (const [method, url] of [
        ['get', '/api/v1/pois'],
        ['get', `/api/v1/buildings/${site.building.id}/pois`],
        ['post', '/api/v1/pois'],
        ['post', '/api/v1/pois_bulk'],
        ['get', `/api/v1/pois/${poi.id}`],
        ['put', `/api/v1/pois/${poi.id}`],
        ['patch', `/api/v1/pois/${poi.id}`],
        ['delete', `/api/v1/pois/${poi.id}`],
      ] as const) {
        expectError(await t.http[method](url), 401, 'unauthorized');
      }
      expect(await poiCount(t)).toBe(before);
      expect(await poiRow(t, poi.id)).not.toBeNull();
    });
  });
});
