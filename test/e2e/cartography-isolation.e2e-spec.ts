import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Building } from '../../src/cartography/buildings/building.entity';
import { Floor } from '../../src/cartography/floors/floor.entity';
import { Geofence } from '../../src/cartography/geofences/geofence.entity';
import {
  BuildingBody,
  buildingInput,
  buildingRow,
  buildingState,
  Cartographer,
  createFloor,
  createGeofence,
  createSite,
  errorFields,
  expectError,
  expectStatus,
  FloorBody,
  floorRow,
  GeofenceBody,
  geofenceRow,
  MALFORMED_INTEGER_IDS,
  MALFORMED_UUIDS,
  MISSING_INTEGER_ID,
  signUp,
  square,
  uploadImage,
} from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

/** One organization's cartography: a building, a floor and a geofence on it. */
interface World {
  building: BuildingBody;
  floor: FloorBody;
  geofence: GeofenceBody;
}

type Kind = 'building' | 'floor' | 'geofence';
type Method = 'get' | 'put' | 'patch' | 'delete';

interface Route {
  label: string;
  method: Method;
  kind: Kind;
  url: (id: string | number) => string;
  body?: Record<string, unknown>;
  ok: number;
  /** Makes the caller's own row ready for a 2xx (e.g. a plain DELETE needs no live geofences). */
  prepareOwn?: (t: TestApp, c: Cartographer, world: World) => Promise<void>;
}

const deleteGeofence = async (t: TestApp, c: Cartographer, world: World) => {
  await t.http.delete(`/api/v1/geofences/${world.geofence.id}`).set(c.auth).expect(204);
};

const ROUTES: Route[] = [
  { label: 'GET /buildings/{id}', method: 'get', kind: 'building', url: (id) => `/api/v1/buildings/${id}`, ok: 200 },
  { label: 'PUT /buildings/{id}', method: 'put', kind: 'building', url: (id) => `/api/v1/buildings/${id}`, body: { name: 'Hijacked' }, ok: 200 },
  { label: 'PATCH /buildings/{id}', method: 'patch', kind: 'building', url: (id) => `/api/v1/buildings/${id}`, body: { name: 'Hijacked' }, ok: 200 },
  { label: 'DELETE /buildings/{id}', method: 'delete', kind: 'building', url: (id) => `/api/v1/buildings/${id}`, ok: 204, prepareOwn: deleteGeofence },
  { label: 'DELETE /buildings/{id}?cascade=true', method: 'delete', kind: 'building', url: (id) => `/api/v1/buildings/${id}?cascade=true`, ok: 204 },
  { label: 'GET /buildings/{id}/floors', method: 'get', kind: 'building', url: (id) => `/api/v1/buildings/${id}/floors`, ok: 200 },
  { label: 'GET /floors/{id}', method: 'get', kind: 'floor', url: (id) => `/api/v1/floors/${id}`, ok: 200 },
  { label: 'PUT /floors/{id}', method: 'put', kind: 'floor', url: (id) => `/api/v1/floors/${id}`, body: { name: 'Hijacked', level: 77 }, ok: 200 },
  { label: 'PATCH /floors/{id}', method: 'patch', kind: 'floor', url: (id) => `/api/v1/floors/${id}`, body: { name: 'Hijacked' }, ok: 200 },
  { label: 'DELETE /floors/{id}', method: 'delete', kind: 'floor', url: (id) => `/api/v1/floors/${id}`, ok: 204, prepareOwn: deleteGeofence },
  { label: 'DELETE /floors/{id}?cascade=true', method: 'delete', kind: 'floor', url: (id) => `/api/v1/floors/${id}?cascade=true`, ok: 204 },
  { label: 'GET /geofences/{id}', method: 'get', kind: 'geofence', url: (id) => `/api/v1/geofences/${id}`, ok: 200 },
  { label: 'PUT /geofences/{id}', method: 'put', kind: 'geofence', url: (id) => `/api/v1/geofences/${id}`, body: { name: 'Hijacked', geometric: square(1, 1) }, ok: 200 },
  { label: 'PATCH /geofences/{id}', method: 'patch', kind: 'geofence', url: (id) => `/api/v1/geofences/${id}`, body: { code: 'hijacked' }, ok: 200 },
  { label: 'DELETE /geofences/{id}', method: 'delete', kind: 'geofence', url: (id) => `/api/v1/geofences/${id}`, ok: 204 },
];

const idOf = (world: World, kind: Kind): string | number => world[kind].id;
const readUrl = (kind: Kind, id: string | number) => `/api/v1/${kind === 'building' ? 'buildings' : kind === 'floor' ? 'floors' : 'geofences'}/${id}`;

describe('organization isolation of buildings, floors and geofences', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Organization A');
    b = await signUp(t, 'Organization B');
  });
  afterAll(async () => t?.close());

  async function world(c: Cartographer): Promise<World> {
    const site = await createSite(t, c.auth);
    const geofence = await createGeofence(t, c.auth, site.place);
    return { building: site.building, floor: site.floor, geofence };
  }

  function send(route: Route, c: Cartographer, id: string | number): Promise<Response> {
    const request = t.http[route.method](route.url(id)).set(c.auth);
    return route.body ? request.send(route.body) : request;
  }

  describe('every route by id, with the credentials of A', () => {
    it.each(ROUTES.map((route) => [route.label, route] as const))('%s', async (_label, route) => {
      const own = await world(a);
      await route.prepareOwn?.(t, a, own);
      const theirs = await world(b);
      const before = await buildingState(t, theirs.building.id);

      // Own id: 2xx.
      const mine = await send(route, a, idOf(own, route.kind));
      expectStatus(mine, route.ok);

      // B's id: 404 entity_not_found, as if it did not exist, and nothing of B's changes.
      const foreign = await send(route, a, idOf(theirs, route.kind));
      expectError(foreign, 404, 'entity_not_found');
      expect(foreign.body.errors).toEqual([]);
      expect(foreign.headers.etag).toBeUndefined();
      expect(await buildingState(t, theirs.building.id)).toEqual(before);
      const stillThere = await t.http.get(readUrl(route.kind, idOf(theirs, route.kind))).set(b.auth);
      expectStatus(stillThere, 200);
      if (route.kind === 'geofence') expect(stillThere.body).toEqual(theirs.geofence);
      if (route.kind === 'floor') expect(stillThere.body).toEqual(theirs.floor);

      // An id nobody has: 404; a malformed id: 400.
      const missingId = route.kind === 'geofence' ? randomUUID() : MISSING_INTEGER_ID;
      expectError(await send(route, a, missingId), 404, 'entity_not_found');
      for (const malformed of route.kind === 'geofence' ? MALFORMED_UUIDS : MALFORMED_INTEGER_IDS) {
        expectError(await send(route, a, malformed), 400, 'bad_request');
      }
    });

    it("B's deleted geofence is just as invisible to A", async () => {
      const theirs = await world(b);
      await t.http.delete(`/api/v1/geofences/${theirs.geofence.id}`).set(b.auth).expect(204);
      const before = await geofenceRow(t, theirs.geofence.id);
      expectError(await t.http.get(`/api/v1/geofences/${theirs.geofence.id}`).set(a.auth), 404, 'entity_not_found');
      expectError(await t.http.put(`/api/v1/geofences/${theirs.geofence.id}`).set(a.auth).send({ name: 'x' }), 404, 'entity_not_found');
      expectError(await t.http.delete(`/api/v1/geofences/${theirs.geofence.id}`).set(a.auth), 404, 'entity_not_found');
      expect(await geofenceRow(t, theirs.geofence.id)).toEqual(before);
    });
  });

  describe('lists and searches', () => {
    it("never show B's rows to A, whatever the filters", async () => {
      const mine = await world(a);
      const theirs = await world(b);
      const theirDeleted = await createGeofence(t, b.auth, { buildingId: theirs.building.id, floorId: theirs.floor.id });
      await t.http.delete(`/api/v1/geofences/${theirDeleted.id}`).set(b.auth).expect(204);
      const theirIds = new Set<string | number>([theirs.building.id, theirs.floor.id, theirs.geofence.id, theirDeleted.id]);
      const leaks = (items: Array<{ id: string | number }>) => items.filter((item) => theirIds.has(item.id));

      const buildings = await t.http.get('/api/v1/buildings').set(a.auth).expect(200);
      expect(buildings.body.map((item: BuildingBody) => item.id)).toContain(mine.building.id);
      expect(leaks(buildings.body)).toEqual([]);
      const floors = await t.http.get('/api/v1/floors').set(a.auth).expect(200);
      expect(floors.body.map((item: FloorBody) => item.id)).toContain(mine.floor.id);
      expect(leaks(floors.body)).toEqual([]);
      expect((await t.http.get(`/api/v1/floors?building_id=${theirs.building.id}`).set(a.auth).expect(200)).body).toEqual([]);

      for (const path of ['/api/v1/geofences', '/api/v1/geofences/search']) {
        const all = await t.http.get(`${path}?size=1000`).set(a.auth).expect(200);
        expect(all.body.data.map((item: GeofenceBody) => item.id)).toContain(mine.geofence.id);
        expect(leaks(all.body.data)).toEqual([]);
        expect(all.body.data.every((item: GeofenceBody) => item.organization_id === a.org.organizationId)).toBe(true);
        for (const query of [
          `building_ids=${theirs.building.id}`,
          `floor_ids=${theirs.floor.id}`,
          `building_ids=${theirs.building.id}&deleted=true`,
          `building_ids=${theirs.building.id},${mine.building.id}&floor_ids[]=${theirs.floor.id}`,
          'deleted=true&size=1000',
          'name=zone&size=1000',
        ]) {
          const response = await t.http.get(`${path}?${query}`).set(a.auth);
          expectStatus(response, 200);
          expect(leaks(response.body.data), query).toEqual([]);
          expect(
            response.body.data.every((item: GeofenceBody) => item.organization_id === a.org.organizationId),
            query,
          ).toBe(true);
        }
        // Their organization named: 404, as any of their resources.
        for (const query of [`organization_id=${b.org.organizationId}`, `organization_id=${b.org.organizationId}&building_ids=${theirs.building.id}`]) {
          expectError(await t.http.get(`${path}?${query}`).set(a.auth), 404, 'entity_not_found');
        }
        const theirsOnly = await t.http.get(`${path}?building_ids=${theirs.building.id}`).set(a.auth).expect(200);
        expect(theirsOnly.body.metadata.total_elements).toBe(0);
      }

      const document = await t.http.get(`/api/v1/buildings/${mine.building.id}`).set(a.auth).expect(200);
      expect(document.body.floors.map((floor: FloorBody) => floor.id)).toEqual([mine.floor.id]);
      expect(document.body.geofences.map((geofence: GeofenceBody) => geofence.id)).toEqual([mine.geofence.id]);
    });
  });

  describe('references in bodies', () => {
    it("refuses a floor in B's building (422 naming building_id) and stores nothing", async () => {
      const theirs = await world(b);
      const before = await t.dataSource.getRepository(Floor).countBy({ buildingId: theirs.building.id });
      const response = await t.http.post('/api/v1/floors').set(a.auth).send({ building_id: theirs.building.id, level: 50 });
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response)).toEqual(['building_id']);
      expect(await t.dataSource.getRepository(Floor).countBy({ buildingId: theirs.building.id })).toBe(before);
    });

    it("refuses a floor plan (map_id) that is B's image, on POST and PUT (422 naming map_id)", async () => {
      const mine = await world(a);
      const theirPlan = await uploadImage(t, b.auth);
      const created = await t.http.post('/api/v1/floors').set(a.auth).send({ building_id: mine.building.id, level: 60, map_id: theirPlan.id });
      expectError(created, 422, 'validation_failed');
      expect(errorFields(created)).toEqual(['map_id']);
      const before = await floorRow(t, mine.floor.id);
      const updated = await t.http.put(`/api/v1/floors/${mine.floor.id}`).set(a.auth).send({ map_id: theirPlan.id });
      expectError(updated, 422, 'validation_failed');
      expect(errorFields(updated)).toEqual(['map_id']);
      expect(await floorRow(t, mine.floor.id)).toEqual(before);
    });

    it("refuses a geofence naming B's building or floor (422 naming the field) and stores nothing", async () => {
      const mine = await world(a);
      const theirs = await world(b);
      const count = () => t.dataSource.getRepository(Geofence).count();
      const before = await count();
      const cases: Array<[number, number, string]> = [
        [theirs.building.id, theirs.floor.id, 'building_id'],
        [mine.building.id, theirs.floor.id, 'floor_id'],
        [theirs.building.id, mine.floor.id, 'building_id'],
      ];
      for (const [buildingId, floorId, field] of cases) {
        const response = await t.http.post('/api/v1/geofences').set(a.auth).send({ name: 'Intruder', building_id: buildingId, floor_id: floorId, geometric: square() });
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response), `${buildingId}/${floorId}`).toEqual([field]);
      }
      expect(await count()).toBe(before);
    });

    it("refuses to move A's geofence into B's building or floor, and changes nothing", async () => {
      const mine = await world(a);
      const theirs = await world(b);
      const before = await geofenceRow(t, mine.geofence.id);
      for (const [body, field] of [
        [{ building_id: theirs.building.id, floor_id: theirs.floor.id }, 'building_id'],
        [{ floor_id: theirs.floor.id }, 'floor_id'],
        [{ building_id: theirs.building.id }, 'building_id'],
      ] as const) {
        const response = await t.http.put(`/api/v1/geofences/${mine.geofence.id}`).set(a.auth).send(body);
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response), JSON.stringify(body)).toContain(field);
      }
      expect(await geofenceRow(t, mine.geofence.id)).toEqual(before);
      expect((await t.http.get(`/api/v1/buildings/${theirs.building.id}`).set(b.auth).expect(200)).body.geofences).toEqual([theirs.geofence]);
    });

    it("ignores B's organization_id in POST and PUT bodies: the rows stay in A", async () => {
      const foreign = { organization_id: b.org.organizationId, organizationId: b.org.organizationId };
      const building = await t.http
        .post('/api/v1/buildings')
        .set(a.auth)
        .send({ ...buildingInput(), ...foreign });
      expectStatus(building, 201);
      const floor = await t.http
        .post('/api/v1/floors')
        .set(a.auth)
        .send({ building_id: building.body.id, level: 0, ...foreign });
      expectStatus(floor, 201);
      const geofence = await t.http
        .post('/api/v1/geofences')
        .set(a.auth)
        .send({ name: 'Mine', building_id: building.body.id, floor_id: floor.body.id, geometric: square(), ...foreign });
      expectStatus(geofence, 201);
      expect(geofence.body.organization_id).toBe(a.org.organizationId);

      expectStatus(
        await t.http
          .put(`/api/v1/buildings/${building.body.id}`)
          .set(a.auth)
          .send({ name: 'Still mine', ...foreign }),
        200,
      );
      expectStatus(
        await t.http
          .patch(`/api/v1/floors/${floor.body.id}`)
          .set(a.auth)
          .send({ name: 'Still mine', ...foreign }),
        200,
      );
      const updated = await t.http
        .put(`/api/v1/geofences/${geofence.body.id}`)
        .set(a.auth)
        .send({ name: 'Still mine', ...foreign });
      expectStatus(updated, 200);
      expect(updated.body.organization_id).toBe(a.org.organizationId);

      expect((await buildingRow(t, building.body.id))!.organizationId).toBe(a.org.organizationId);
      expect((await floorRow(t, floor.body.id))!.organizationId).toBe(a.org.organizationId);
      expect((await geofenceRow(t, geofence.body.id))!.organizationId).toBe(a.org.organizationId);
      expect(await t.dataSource.getRepository(Building).countBy({ organizationId: b.org.organizationId, name: 'Still mine' })).toBe(0);

      for (const url of [`/api/v1/buildings/${building.body.id}`, `/api/v1/floors/${floor.body.id}`, `/api/v1/geofences/${geofence.body.id}`]) {
        expectStatus(await t.http.get(url).set(a.auth), 200);
        expectError(await t.http.get(url).set(b.auth), 404, 'entity_not_found');
      }
      const theirSearch = await t.http.get('/api/v1/geofences?size=1000').set(b.auth).expect(200);
      expect(theirSearch.body.data.map((item: GeofenceBody) => item.id)).not.toContain(geofence.body.id);
    });
  });

  describe('deletion does not reach across organizations', () => {
    it("deleting A's building with cascade leaves B's geofences, floors and building alone", async () => {
      const mine = await world(a);
      const theirs = await world(b);
      const before = await buildingState(t, theirs.building.id);
      expectStatus(await t.http.delete(`/api/v1/buildings/${mine.building.id}?cascade=true`).set(a.auth), 204);
      const other = await createSite(t, a.auth);
      const extra = await createFloor(t, a.auth, other.building.id);
      await createGeofence(t, a.auth, { buildingId: other.building.id, floorId: extra.id });
      expectStatus(await t.http.delete(`/api/v1/floors/${extra.id}?cascade=true`).set(a.auth), 204);
      expect(await buildingState(t, theirs.building.id)).toEqual(before);
    });
  });
});
