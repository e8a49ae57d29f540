import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../src/geofencing/engine/rules';
import { GeofenceRuleSet } from '../../src/geofencing/rules/geofence-rule-set.entity';
import { GeofencingSettings } from '../../src/geofencing/rules/geofencing-settings.entity';
import { addUser, login } from '../support/admin';
import { asApiKey, createApiKey } from '../support/auth';
import {
  Cartographer,
  CARTOGRAPHY_KEY_LEVELS,
  countQueries,
  createFloor,
  createGeofence,
  createSite,
  errorFields,
  expectError,
  expectStatus,
  GeofenceBody,
  LatLng,
  MALFORMED_UUIDS,
  MISSING_INTEGER_ID,
  signUp,
  Site,
} from '../support/cartography';
import { createTestApp, freshDatabase, TestApp, testDatabaseKind } from '../support/test-app';

const METRE_LAT = 1 / 111_195.08;
const ORIGIN_LAT = 42.8723597;
const ORIGIN_LNG = -8.5633224;
const METRE_LNG = METRE_LAT / Math.cos((ORIGIN_LAT * Math.PI) / 180);

/** The point `east`, `north` metres from the sites' building location. */
const at = (east: number, north: number) => ({ lat: ORIGIN_LAT + north * METRE_LAT, lng: ORIGIN_LNG + east * METRE_LNG });

/** A closed square ring `side` metres wide with its south-west corner `east`, `north` metres from the building. */
function squareAt(east: number, north: number, side: number): LatLng[] {
  const sw = at(east, north);
  const ne = at(east + side, north + side);
  return [
    [sw.lat, sw.lng],
    [ne.lat, sw.lng],
    [ne.lat, ne.lng],
    [sw.lat, ne.lng],
    [sw.lat, sw.lng],
  ];
}

const containsUrl = (floorId: number, point: { lat: number; lng: number }, accuracy?: number) =>
  `/api/v1/geofencing/contains?lat=${point.lat}&lng=${point.lng}&floor_id=${floorId}${accuracy === undefined ? '' : `&accuracy=${accuracy}`}`;

type Match = { geofence_id: string; name: string; code: string; classification: string; overlap: number; distance_to_edge_m: number };
const matchedIds = (body: { inside: Match[]; possibly_inside: Match[] }) => [...body.inside, ...body.possibly_inside].map((match) => match.geofence_id).sort();

describe('geofencing: rules, settings and stateless queries (contract 7.2, 7.6)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let site: Site;
  let siteB: Site;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Geofencing A');
    b = await signUp(t, 'Geofencing B');
    site = await createSite(t, a.auth);
    siteB = await createSite(t, b.auth);
  });
  afterAll(async () => t?.close());

  const ownRow = (geofenceId: string) => t.dataSource.getRepository(GeofenceRuleSet).findOneBy({ geofenceId });
  const settingsRow = (organizationId: string) => t.dataSource.getRepository(GeofencingSettings).findOneBy({ organizationId });

  describe('rules of a geofence', () => {
    it('answers the defaults of 7.2 for a fence that sets nothing, with no overrides', async () => {
      const fence = await createGeofence(t, a.auth, site.place);
      const response = await t.http.get(`/api/v1/geofences/${fence.id}/rules`).set(a.auth);
      expectStatus(response, 200);
      expect(response.body).toEqual({ geofence_id: fence.id, ...DEFAULT_RULES, overrides: {} });
      expect(await ownRow(fence.id)).toBeNull();
    });

    it('PUT and PATCH set some fields and keep the others; null returns a field to the inherited value', async () => {
      const fence = await createGeofence(t, a.auth, site.place);
      const put = await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).send({ dwell_seconds: 60, enter_when: 'contains', unknown_key: 1 });
      expectStatus(put, 200);
      expect(put.body).toEqual({ geofence_id: fence.id, ...DEFAULT_RULES, dwell_seconds: 60, enter_when: 'contains', overrides: { enter_when: 'contains', dwell_seconds: 60 } });
      const patch = await t.http.patch(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).send({ min_dwell_seconds: 0, dwell_seconds: null, initial_trigger: true });
      expectStatus(patch, 200);
      expect(patch.body.overrides).toEqual({ enter_when: 'contains', min_dwell_seconds: 0, initial_trigger: true });
      expect(patch.body).toMatchObject({ dwell_seconds: DEFAULT_RULES.dwell_seconds, min_dwell_seconds: 0, initial_trigger: true, enter_when: 'contains' });
      expect((await t.http.get(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).expect(200)).body).toEqual(patch.body);
      expect((await ownRow(fence.id))!.rules).toEqual({ enter_when: 'contains', min_dwell_seconds: 0, initial_trigger: true });
    });

    it('inherits every field it does not set from the organization settings, live', async () => {
      const plain = await createGeofence(t, a.auth, site.place);
      const own = await createGeofence(t, a.auth, site.place);
      await t.http.put(`/api/v1/geofences/${own.id}/rules`).set(a.auth).send({ dwell_seconds: 30 }).expect(200);
      const settings = await t.http.put('/api/v1/geofencing/settings').set(a.auth).send({ dwell_seconds: 600, buffer_m: 2.5 });
      expectStatus(settings, 200);
      try {
        expect(settings.body).toEqual({
          organization_id: a.org.organizationId,
          ...DEFAULT_RULES,
          dwell_seconds: 600,
          buffer_m: 2.5,
          overrides: { buffer_m: 2.5, dwell_seconds: 600 },
        });
        expect((await t.http.get(`/api/v1/geofences/${plain.id}/rules`).set(a.auth).expect(200)).body).toEqual({
          geofence_id: plain.id,
          ...DEFAULT_RULES,
          dwell_seconds: 600,
          buffer_m: 2.5,
          overrides: {},
        });
        expect((await t.http.get(`/api/v1/geofences/${own.id}/rules`).set(a.auth).expect(200)).body).toMatchObject({
          dwell_seconds: 30,
          buffer_m: 2.5,
          overrides: { dwell_seconds: 30 },
        });
        // Another organization keeps the contract's defaults.
        expect((await t.http.get('/api/v1/geofencing/settings').set(b.auth).expect(200)).body).toEqual({ organization_id: b.org.organizationId, ...DEFAULT_RULES, overrides: {} });
      } finally {
        await t.http.patch('/api/v1/geofencing/settings').set(a.auth).send({ dwell_seconds: null, buffer_m: null }).expect(200);
      }
      expect((await settingsRow(a.org.organizationId))!.rules).toEqual({});
    });

    it('DELETE drops the fence’s own rules: 204, and it follows the organization again', async () => {
      const fence = await createGeofence(t, a.auth, site.place);
      await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).send({ cooldown_seconds: 60 }).expect(200);
      expectStatus(await t.http.delete(`/api/v1/geofences/${fence.id}/rules`).set(a.auth), 204);
      expect(await ownRow(fence.id)).toBeNull();
      expect((await t.http.get(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).expect(200)).body.overrides).toEqual({});
      expectStatus(await t.http.delete(`/api/v1/geofences/${fence.id}/rules`).set(a.auth), 204);
    });

    it.each([
      ['enabled', 'yes'],
      ['enter_when', 'inside'],
      ['exit_when', 'center'],
      ['accuracy_factor', -1],
      ['accuracy_factor', 11],
      ['max_accuracy_m', 0],
      ['max_accuracy_m', 1001],
      ['buffer_m', 101],
      ['min_dwell_seconds', 2.5],
      ['min_dwell_seconds', 3601],
      ['exit_grace_seconds', -1],
      ['dwell_seconds', 604801],
      ['cooldown_seconds', 86401],
      ['stale_after_seconds', 0],
      ['initial_trigger', 'true'],
    ])('refuses %s = %j with 422 naming the field, on rules and settings alike, storing nothing', async (field, value) => {
      const fence = await createGeofence(t, a.auth, site.place);
      await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).send({ buffer_m: 3 }).expect(200);
      for (const url of [`/api/v1/geofences/${fence.id}/rules`, '/api/v1/geofencing/settings']) {
        for (const method of ['put', 'patch'] as const) {
          const valid = field === 'exit_grace_seconds' ? { min_dwell_seconds: 1 } : { exit_grace_seconds: 5 };
          const response = await t.http[method](url)
            .set(a.auth)
            .send({ ...valid, [field]: value });
          expectError(response, 422, 'validation_failed');
          expect(errorFields(response)).toEqual([field]);
        }
      }
      expect((await ownRow(fence.id))!.rules).toEqual({ buffer_m: 3 });
      expect((await settingsRow(a.org.organizationId))?.rules ?? {}).toEqual({});
    });

    it('names every bad field at once, and refuses a body that is not an object', async () => {
      const fence = await createGeofence(t, a.auth, site.place);
      const response = await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).send({ buffer_m: -1, dwell_seconds: 'long', enabled: null });
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response).sort()).toEqual(['buffer_m', 'dwell_seconds']);
      const array = await t.http
        .put('/api/v1/geofencing/settings')
        .set(a.auth)
        .send([{ buffer_m: 1 }]);
      expectError(array, 422, 'validation_failed');
      expect(errorFields(array)).toEqual(['body']);
    });

    it('reads the rules of a deleted fence but refuses to change them (409)', async () => {
      const fence = await createGeofence(t, a.auth, site.place);
      await t.http.delete(`/api/v1/geofences/${fence.id}`).set(a.auth).expect(204);
      expectStatus(await t.http.get(`/api/v1/geofences/${fence.id}/rules`).set(a.auth), 200);
      expectError(await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).send({ buffer_m: 2 }), 409, 'conflict');
      expect(await ownRow(fence.id)).toBeNull();
    });

    it('is 404 for another organization’s fence and an unknown one, 400 for a malformed id', async () => {
      const fence = await createGeofence(t, a.auth, site.place);
      await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).send({ buffer_m: 4 }).expect(200);
      for (const id of [fence.id, randomUUID()]) {
        expectError(await t.http.get(`/api/v1/geofences/${id}/rules`).set(b.auth), 404, 'entity_not_found');
        expectError(await t.http.put(`/api/v1/geofences/${id}/rules`).set(b.auth).send({ buffer_m: 9 }), 404, 'entity_not_found');
        expectError(await t.http.delete(`/api/v1/geofences/${id}/rules`).set(b.auth), 404, 'entity_not_found');
      }
      expect((await ownRow(fence.id))!.rules).toEqual({ buffer_m: 4 });
      for (const id of MALFORMED_UUIDS) expectError(await t.http.get(`/api/v1/geofences/${id}/rules`).set(a.auth), 400, 'bad_request');
    });
  });

  describe('GET /api/v1/geofencing/contains', () => {
    let floor: number;
    let fence: GeofenceBody;

    beforeAll(async () => {
      floor = (await createFloor(t, a.auth, site.building.id)).id;
      // 10 × 10 m, its south-west corner 20 m east and 20 m north of the building's location.
      fence = await createGeofence(t, a.auth, { buildingId: site.building.id, floorId: floor }, { name: 'Dock', code: 'dock', geometric: squareAt(20, 20, 10) });
    });

    it('classifies a point deep inside as inside, with its distance to the edge and full overlap', async () => {
      const response = await t.http.get(containsUrl(floor, at(25, 25), 2)).set(a.auth);
      expectStatus(response, 200);
      expect(response.body).toEqual({
        inside: [{ geofence_id: fence.id, name: 'Dock', code: 'dock', classification: 'inside', overlap: 1, distance_to_edge_m: expect.closeTo(-5, 2) }],
        possibly_inside: [],
      });
    });

    it('classifies a point near the edge as possibly inside with the overlap of 7.1, and a far one not at all', async () => {
      const near = await t.http
        .get(containsUrl(floor, at(31, 25), 2))
        .set(a.auth)
        .expect(200);
      // d = 1, r = 2: h = 0.5.
      expect(near.body.inside).toEqual([]);
      expect(near.body.possibly_inside).toEqual([
        {
          geofence_id: fence.id,
          name: 'Dock',
          code: 'dock',
          classification: 'possibly_inside',
          overlap: expect.closeTo((Math.acos(0.5) - 0.5 * Math.sqrt(0.75)) / Math.PI, 3),
          distance_to_edge_m: expect.closeTo(1, 2),
        },
      ]);
      // Without accuracy the radius is 0.5 m.
      expect(
        (
          await t.http
            .get(containsUrl(floor, at(31, 25)))
            .set(a.auth)
            .expect(200)
        ).body,
      ).toEqual({ inside: [], possibly_inside: [] });
      expect(
        (
          await t.http
            .get(containsUrl(floor, at(60, 60), 5))
            .set(a.auth)
            .expect(200)
        ).body,
      ).toEqual({ inside: [], possibly_inside: [] });
    });

    it('uses each fence’s effective accuracy factor, and sees rule and settings changes at once', async () => {
      const point = containsUrl(floor, at(32.5, 25), 1);
      expect(matchedIds((await t.http.get(point).set(a.auth).expect(200)).body)).toEqual([]);
      await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).send({ accuracy_factor: 3 }).expect(200);
      expect(matchedIds((await t.http.get(point).set(a.auth).expect(200)).body)).toEqual([fence.id]);
      await t.http.delete(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).expect(204);
      expect(matchedIds((await t.http.get(point).set(a.auth).expect(200)).body)).toEqual([]);
      await t.http.put('/api/v1/geofencing/settings').set(a.auth).send({ accuracy_factor: 4 }).expect(200);
      try {
        expect(matchedIds((await t.http.get(point).set(a.auth).expect(200)).body)).toEqual([fence.id]);
      } finally {
        await t.http.put('/api/v1/geofencing/settings').set(a.auth).send({ accuracy_factor: null }).expect(200);
      }
      expect(matchedIds((await t.http.get(point).set(a.auth).expect(200)).body)).toEqual([]);
    });

    it('follows fences as they are created, moved and deleted; deleted fences and other floors never match', async () => {
      const otherFloor = (await createFloor(t, a.auth, site.building.id)).id;
      const place = { buildingId: site.building.id, floorId: floor };
      const point = containsUrl(floor, at(105, 105), 1);
      expect(matchedIds((await t.http.get(point).set(a.auth).expect(200)).body)).toEqual([]);
      const created = await createGeofence(t, a.auth, place, { geometric: squareAt(100, 100, 10) });
      await createGeofence(t, a.auth, { buildingId: site.building.id, floorId: otherFloor }, { geometric: squareAt(100, 100, 10) });
      expect(matchedIds((await t.http.get(point).set(a.auth).expect(200)).body)).toEqual([created.id]);
      await t.http
        .put(`/api/v1/geofences/${created.id}`)
        .set(a.auth)
        .send({ geometric: squareAt(200, 200, 10) })
        .expect(200);
      expect(matchedIds((await t.http.get(point).set(a.auth).expect(200)).body)).toEqual([]);
      expect(
        matchedIds(
          (
            await t.http
              .get(containsUrl(floor, at(205, 205)))
              .set(a.auth)
              .expect(200)
          ).body,
        ),
      ).toEqual([created.id]);
      await t.http.put(`/api/v1/geofences/${created.id}`).set(a.auth).send({ floor_id: otherFloor }).expect(200);
      expect(
        matchedIds(
          (
            await t.http
              .get(containsUrl(floor, at(205, 205)))
              .set(a.auth)
              .expect(200)
          ).body,
        ),
      ).toEqual([]);
      await t.http.delete(`/api/v1/geofences/${created.id}`).set(a.auth).expect(204);
      expect(
        matchedIds(
          (
            await t.http
              .get(containsUrl(otherFloor, at(205, 205)))
              .set(a.auth)
              .expect(200)
          ).body,
        ),
      ).toEqual([]);
    });

    it('answers from its cached index with one query per request', async () => {
      const url = containsUrl(floor, at(25, 25), 2);
      await t.http.get(url).set(a.auth).expect(200);
      const { result, queries } = await countQueries(t, () => t.http.get(url).set(a.auth));
      expectStatus(result, 200);
      // The credential check, then one read of the floor and its building's revision.
      expect(queries, queries.join('\n')).toHaveLength(2);
      expect(queries[1]).toMatch(/building_revisions/);
      // Moving the building moves the projection's origin: the index is rebuilt once, then cached again.
      await t.http
        .put(`/api/v1/buildings/${site.building.id}`)
        .set(a.auth)
        .send({ location: { lat: ORIGIN_LAT, lng: ORIGIN_LNG + 1e-7 } })
        .expect(200);
      const rebuilt = await countQueries(t, () => t.http.get(url).set(a.auth));
      expect(rebuilt.queries.filter((sql) => sql.includes('"geofences"'))).toHaveLength(1);
      expect(matchedIds(rebuilt.result.body)).toEqual([fence.id]);
      expect((await countQueries(t, () => t.http.get(url).set(a.auth))).queries).toHaveLength(2);
    });

    it('is 404 for another organization’s floor, a deleted floor and an unknown one', async () => {
      await createGeofence(t, b.auth, siteB.place, { geometric: squareAt(20, 20, 10) });
      expect(
        matchedIds(
          (
            await t.http
              .get(containsUrl(siteB.floor.id, at(25, 25)))
              .set(b.auth)
              .expect(200)
          ).body,
        ),
      ).toHaveLength(1);
      const deleted = (await createFloor(t, a.auth, site.building.id)).id;
      await t.http.delete(`/api/v1/floors/${deleted}`).set(a.auth).expect(204);
      for (const id of [siteB.floor.id, deleted, MISSING_INTEGER_ID]) expectError(await t.http.get(containsUrl(id, at(25, 25))).set(a.auth), 404, 'entity_not_found');
    });

    it.each([
      ['lat=abc&lng=1&floor_id=1'],
      ['lat=91&lng=1&floor_id=1'],
      ['lat=1&lng=-181&floor_id=1'],
      ['lat=1&lng=1'],
      ['lat=1&lng=1&floor_id=0'],
      ['lat=1&lng=1&floor_id=1&accuracy=-1'],
      ['lng=1&floor_id=1'],
    ])('refuses %s with 400', async (query) => {
      expectError(await t.http.get(`/api/v1/geofencing/contains?${query}`).set(a.auth), 400, 'bad_request');
    });
  });

  describe('POST /api/v1/geofencing/evaluate', () => {
    let floor1: number;
    let floor2: number;
    let fence1: GeofenceBody;
    let fence2: GeofenceBody;

    beforeAll(async () => {
      floor1 = (await createFloor(t, a.auth, site.building.id)).id;
      floor2 = (await createFloor(t, a.auth, site.building.id)).id;
      fence1 = await createGeofence(t, a.auth, { buildingId: site.building.id, floorId: floor1 }, { geometric: squareAt(0, 0, 10) });
      fence2 = await createGeofence(t, a.auth, { buildingId: site.building.id, floorId: floor2 }, { geometric: squareAt(0, 0, 20) });
    });

    it('answers each point as contains would, in the order sent', async () => {
      const points = [
        { ...at(5, 5), floor_id: floor1, accuracy: 1 },
        { ...at(15, 15), floor_id: floor1 },
        { ...at(15, 15), floor_id: floor2, accuracy: null },
        { ...at(10.5, 5), floor_id: floor1, accuracy: 2 },
      ];
      const response = await t.http.post('/api/v1/geofencing/evaluate').set(a.auth).send({ points });
      expectStatus(response, 200);
      expect(response.body.results.map(matchedIds)).toEqual([[fence1.id], [], [fence2.id], [fence1.id]]);
      for (const [position, point] of points.entries()) {
        const accuracy = 'accuracy' in point ? (point.accuracy ?? undefined) : undefined;
        const single = await t.http
          .get(containsUrl(point.floor_id, point, accuracy))
          .set(a.auth)
          .expect(200);
        expect(response.body.results[position]).toEqual(single.body);
      }
    });

    it('evaluates a thousand points in one request and refuses more', async () => {
      const points = Array.from({ length: 1000 }, (_, index) => ({ ...at(index % 30, 5), floor_id: index % 2 ? floor1 : floor2, accuracy: 1 }));
      const response = await t.http.post('/api/v1/geofencing/evaluate').set(a.auth).send({ points });
      expectStatus(response, 200);
      expect(response.body.results).toHaveLength(1000);
      // Point 5 is 5 m inside fence 1 (floor 1); point 6, at 6 m east on floor 2, 6 m inside fence 2.
      expect(response.body.results[5].inside.map((match: Match) => match.geofence_id)).toEqual([fence1.id]);
      expect(response.body.results[6].inside.map((match: Match) => match.geofence_id)).toEqual([fence2.id]);
      const tooMany = await t.http
        .post('/api/v1/geofencing/evaluate')
        .set(a.auth)
        .send({ points: [...points, points[0]] });
      expectError(tooMany, 422, 'validation_failed');
      expect(errorFields(tooMany)).toEqual(['points']);
    });

    it('names every bad point field, and every floor not of the caller’s organization, with 422', async () => {
      const bad = await t.http
        .post('/api/v1/geofencing/evaluate')
        .set(a.auth)
        .send({ points: [{ ...at(1, 1), floor_id: floor1 }, { lat: 'x', lng: 200, floor_id: floor1 }, { ...at(1, 1), floor_id: 1.5, accuracy: -2 }, 7] });
      expectError(bad, 422, 'validation_failed');
      expect(errorFields(bad)).toEqual(['points[1].lat', 'points[1].lng', 'points[2].floor_id', 'points[2].accuracy', 'points[3]']);
      for (const body of [{}, { points: [] }, { points: 'all' }, []]) {
        const response = await t.http.post('/api/v1/geofencing/evaluate').set(a.auth).send(body);
        expectError(response, 422, 'validation_failed');
      }
      const foreign = await t.http
        .post('/api/v1/geofencing/evaluate')
        .set(a.auth)
        .send({
          points: [
            { ...at(1, 1), floor_id: floor1 },
            { ...at(25, 25), floor_id: siteB.floor.id },
            { ...at(1, 1), floor_id: MISSING_INTEGER_ID },
          ],
        });
      expectError(foreign, 422, 'validation_failed');
      expect(errorFields(foreign)).toEqual(['points[1].floor_id', 'points[2].floor_id']);
    });
  });

  describe('a user restricted to some buildings', () => {
    it('evaluates only on floors of its buildings and cannot change the organization’s settings', async () => {
      const other = await createSite(t, a.auth, { name: 'Elsewhere' });
      const otherFence = await createGeofence(t, a.auth, other.place, { geometric: squareAt(0, 0, 10) });
      const mine = await createGeofence(t, a.auth, site.place, { geometric: squareAt(0, 0, 10) });
      const user = await addUser(t, a.auth, { building_ids: [site.building.id] });
      const { auth } = await login(t, user.email, user.password);
      expect(
        matchedIds(
          (
            await t.http
              .get(containsUrl(site.floor.id, at(5, 5)))
              .set(auth)
              .expect(200)
          ).body,
        ),
      ).toContain(mine.id);
      expectError(await t.http.get(containsUrl(other.floor.id, at(5, 5))).set(auth), 404, 'entity_not_found');
      expectError(await t.http.get(`/api/v1/geofences/${otherFence.id}/rules`).set(auth), 404, 'entity_not_found');
      const evaluated = await t.http
        .post('/api/v1/geofencing/evaluate')
        .set(auth)
        .send({ points: [{ ...at(5, 5), floor_id: other.floor.id }] });
      expectError(evaluated, 422, 'validation_failed');
      expectError(await t.http.put('/api/v1/geofencing/settings').set(auth).send({ buffer_m: 2 }), 403, 'forbidden');
      expect((await settingsRow(a.org.organizationId))?.rules ?? {}).toEqual({});
    });
  });

  describe('permissions (contract 2.3: rules and settings are cartography writes; queries and reads need read-only)', () => {
    const LEVELS = CARTOGRAPHY_KEY_LEVELS.map(([permission, canWrite]) => [permission, permission !== 'positioning', canWrite] as const);

    it.each(LEVELS)('a %s key: reads %s, writes %s', async (permission, canRead, canWrite) => {
      const key = await createApiKey(t, a.token, permission);
      const auth = asApiKey(key.apikey);
      const fence = await createGeofence(t, a.auth, site.place);
      const reads = [
        await t.http.get(`/api/v1/geofences/${fence.id}/rules`).set(auth),
        await t.http.get('/api/v1/geofencing/settings').set(auth),
        await t.http.get(containsUrl(site.floor.id, at(1, 1))).set(auth),
        await t.http
          .post('/api/v1/geofencing/evaluate')
          .set(auth)
          .send({ points: [{ ...at(1, 1), floor_id: site.floor.id }] }),
      ];
      for (const response of reads) {
        if (canRead) expectStatus(response, 200);
        else expectError(response, 403, 'forbidden');
      }
      const writes = [
        await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(auth).send({ buffer_m: 1.5 }),
        await t.http.patch(`/api/v1/geofences/${fence.id}/rules`).set(auth).send({ buffer_m: 1.5 }),
        await t.http.put('/api/v1/geofencing/settings').set(auth).send({ cooldown_seconds: 0 }),
        await t.http.patch('/api/v1/geofencing/settings').set(auth).send({ cooldown_seconds: null }),
      ];
      for (const response of writes) {
        if (canWrite) expectStatus(response, 200);
        else expectError(response, 403, 'forbidden');
      }
      const deleted = await t.http.delete(`/api/v1/geofences/${fence.id}/rules`).set(auth);
      if (canWrite) expectStatus(deleted, 204);
      else {
        expectError(deleted, 403, 'forbidden');
        expect(await ownRow(fence.id)).toBeNull();
      }
    });
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('geofencing: two instances on one PostgreSQL database', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    const database = await freshDatabase();
    // One secret, as instances behind one load balancer share it: a token works on both.
    const env = { JWT_SECRET: randomUUID() };
    first = await createTestApp({ database, env });
    second = await createTestApp({ database: { ...database, drop: async () => undefined }, env });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('rebuilds an instance’s cached floor index when another instance changes the floor’s fences or rules', async () => {
    const a = await signUp(first, 'Two instances');
    const site = await createSite(first, a.auth);
    const fence = await createGeofence(first, a.auth, site.place, { geometric: squareAt(0, 0, 10) });
    const url = containsUrl(site.floor.id, at(5, 5));
    expect(matchedIds((await first.http.get(url).set(a.auth).expect(200)).body)).toEqual([fence.id]);

    await second.http
      .put(`/api/v1/geofences/${fence.id}`)
      .set(a.auth)
      .send({ geometric: squareAt(50, 50, 10) })
      .expect(200);
    expect(matchedIds((await first.http.get(url).set(a.auth).expect(200)).body)).toEqual([]);

    const edge = containsUrl(site.floor.id, at(62.5, 55), 1);
    expect(matchedIds((await first.http.get(edge).set(a.auth).expect(200)).body)).toEqual([]);
    await second.http.put(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).send({ accuracy_factor: 3 }).expect(200);
    expect(matchedIds((await first.http.get(edge).set(a.auth).expect(200)).body)).toEqual([fence.id]);

    await second.http.delete(`/api/v1/geofences/${fence.id}`).set(a.auth).expect(204);
    expect(matchedIds((await first.http.get(edge).set(a.auth).expect(200)).body)).toEqual([]);
  });
});
