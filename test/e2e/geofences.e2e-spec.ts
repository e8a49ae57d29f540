import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialCacheService } from '../../src/auth/credential-cache.service';
import { Geofence } from '../../src/cartography/geofences/geofence.entity';
import { asApiKey, createApiKey } from '../support/auth';
import {
  Cartographer,
  CARTOGRAPHY_KEY_LEVELS,
  circle,
  countQueries,
  createFloor,
  createGeofence,
  createGeofences,
  createSite,
  errorFields,
  expectError,
  expectStatus,
  GEOFENCE_KEYS,
  GEOFENCE_TIMESTAMP,
  GeofenceBody,
  geofenceRow,
  insertGeofences,
  keysOf,
  LatLng,
  MALFORMED_UUIDS,
  PAGE_METADATA_KEYS,
  Placement,
  signUp,
  Site,
  square,
} from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

const RING: LatLng[] = [
  [42.8723597, -8.5633224],
  [42.8724068, -8.5632165],
  [42.8723292, -8.5631467],
  [42.8723597, -8.5633224],
];

const ids = (response: Response): string[] => (response.body.data as GeofenceBody[]).map((geofence) => geofence.id);
const sortedIds = (items: Array<{ id: string }>): string[] => items.map((item) => item.id).sort();

describe('geofences', () => {
  let t: TestApp;
  let a: Cartographer;
  let site: Site;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Geofences');
    site = await createSite(t, a.auth);
  });
  afterAll(async () => t?.close());

  const count = () => t.dataSource.getRepository(Geofence).countBy({ organizationId: a.org.organizationId });

  describe('POST /api/v1/geofences', () => {
    it('creates a geofence: 201 with the contract object, an ETag and the stored row; keys the caller may not set are ignored', async () => {
      const before = Date.now();
      const response = await t.http
        .post('/api/v1/geofences')
        .set(a.auth)
        .send({
          name: '  Area ',
          code: 'geo4',
          building_id: site.building.id,
          floor_id: site.floor.id,
          geometric: RING,
          info: '<p>Data</p>',
          custom_fields: [{ key: 'zone', value: 'A' }],
          id: '16d0ab76-d23a-486d-99b6-08d8e1a995a5',
          organization_id: randomUUID(),
          deleted: true,
          created_at: '2020-05-08T10:26:34.801Z[UTC]',
          level_id: 12345,
          legacy: 'x',
        });
      expectStatus(response, 201);
      const body = response.body as GeofenceBody;
      expect(keysOf(body)).toEqual(GEOFENCE_KEYS);
      expect(body).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        created_at: expect.stringMatching(GEOFENCE_TIMESTAMP),
        updated_at: expect.stringMatching(GEOFENCE_TIMESTAMP),
        custom_fields: [{ key: 'zone', value: 'A' }],
        code: 'geo4',
        name: 'Area',
        organization_id: a.org.organizationId,
        info: '<p>Data</p>',
        description: '<p>Data</p>',
        type: 'POLYGON',
        geometric: RING,
        floor_id: site.floor.id,
        level_id: site.floor.id,
        building_id: String(site.building.id),
        deleted: false,
      });
      expect(body.building_id).toMatch(/^\d+$/);
      expect(body.id).not.toBe('16d0ab76-d23a-486d-99b6-08d8e1a995a5');
      expect(body.updated_at).toBe(body.created_at);
      const createdAt = Date.parse(body.created_at.replace('[UTC]', ''));
      expect(createdAt).toBeGreaterThanOrEqual(before - 1000);
      expect(createdAt).toBeLessThanOrEqual(Date.now() + 1000);
      expect(response.headers.etag).toBe('"1"');

      const stored = await geofenceRow(t, body.id);
      expect(stored).toMatchObject({
        organizationId: a.org.organizationId,
        buildingId: site.building.id,
        floorId: site.floor.id,
        name: 'Area',
        code: 'geo4',
        info: '<p>Data</p>',
        type: 'POLYGON',
        geometric: RING,
        customFields: [{ key: 'zone', value: 'A' }],
        deleted: false,
        version: 1,
      });
      expect(`${stored!.createdAt.toISOString()}[UTC]`).toBe(body.created_at);
    });

    it('takes building_id and floor_id as numbers or strings of digits; defaults code, info, type and custom_fields', async () => {
      const response = await t.http
        .post('/api/v1/geofences')
        .set(a.auth)
        .send({ name: 'Minimal', building_id: String(site.building.id), floor_id: String(site.floor.id), geometric: RING });
      expectStatus(response, 201);
      expect(response.body).toMatchObject({
        name: 'Minimal',
        code: '',
        info: '',
        description: '',
        type: 'POLYGON',
        custom_fields: [],
        building_id: String(site.building.id),
        floor_id: site.floor.id,
        level_id: site.floor.id,
      });
    });

    it('takes description as the info when info is absent', async () => {
      const geofence = await createGeofence(t, a.auth, site.place, { description: '<p>From description</p>' });
      expect(geofence).toMatchObject({ info: '<p>From description</p>', description: '<p>From description</p>' });
    });

    it('names every missing or invalid field in errors[] (422) and stores nothing', async () => {
      const before = await count();
      const empty = await t.http.post('/api/v1/geofences').set(a.auth).send({});
      expectError(empty, 422, 'validation_failed');
      expect(errorFields(empty)).toEqual(expect.arrayContaining(['name', 'building_id', 'floor_id']));

      const missingRing = await t.http.post('/api/v1/geofences').set(a.auth).send({ name: 'No ring', building_id: site.building.id, floor_id: site.floor.id });
      expectError(missingRing, 422, 'validation_failed');
      expect(errorFields(missingRing)).toEqual(['geometric']);

      const invalid = await t.http
        .post('/api/v1/geofences')
        .set(a.auth)
        .send({ name: 'Bad', building_id: site.building.id, floor_id: site.floor.id, geometric: RING, type: 'CIRCLE', code: 5, custom_fields: 'x' });
      expectError(invalid, 422, 'validation_failed');
      expect(errorFields(invalid)).toEqual(expect.arrayContaining(['type', 'code', 'custom_fields']));
      expect(await count()).toBe(before);
    });

    it('refuses a floor that is not in the given building, or a building or floor that does not exist or is deleted (422 naming the field)', async () => {
      const other = await createSite(t, a.auth);
      const deletedFloor = await createFloor(t, a.auth, site.building.id);
      await t.http.delete(`/api/v1/floors/${deletedFloor.id}`).set(a.auth).expect(204);
      const before = await count();
      const cases: Array<[Placement, string]> = [
        [{ buildingId: site.building.id, floorId: other.floor.id }, 'floor_id'],
        [{ buildingId: other.building.id, floorId: site.floor.id }, 'floor_id'],
        [{ buildingId: 2_147_483_000, floorId: site.floor.id }, 'building_id'],
        [{ buildingId: site.building.id, floorId: 2_147_483_000 }, 'floor_id'],
        [{ buildingId: site.building.id, floorId: deletedFloor.id }, 'floor_id'],
      ];
      for (const [place, field] of cases) {
        const response = await t.http.post('/api/v1/geofences').set(a.auth).send({ name: 'Misplaced', building_id: place.buildingId, floor_id: place.floorId, geometric: RING });
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response), JSON.stringify(place)).toEqual([field]);
      }
      expect(await count()).toBe(before);
    });
  });

  describe('geometry validation', () => {
    const closedTriangle = (lat: number, lng: number): LatLng[] => [
      [lat, lng],
      [lat + 0.001, lng],
      [lat, lng + 0.001],
      [lat, lng],
    ];
    const cases: Array<[string, unknown, string[]]> = [
      [
        'an open ring',
        [
          [1, 1],
          [1, 2],
          [2, 2],
          [2, 1],
        ],
        ['geometric'],
      ],
      [
        'fewer than 4 pairs',
        [
          [1, 1],
          [1, 2],
          [1, 1],
        ],
        ['geometric'],
      ],
      ['an empty array', [], ['geometric']],
      ['not an array', 'POLYGON((1 1, 1 2, 2 2, 1 1))', ['geometric']],
      ['null', null, ['geometric']],
      [
        'a latitude above 90',
        [
          [1, 1],
          [91, 2],
          [2, 2],
          [1, 1],
        ],
        ['geometric[1][0]'],
      ],
      [
        'a latitude below -90',
        [
          [-90.5, 1],
          [1, 2],
          [2, 2],
          [-90.5, 1],
        ],
        ['geometric[0][0]', 'geometric[3][0]'],
      ],
      [
        'a longitude above 180',
        [
          [1, 1],
          [1, 2],
          [2, 180.1],
          [1, 1],
        ],
        ['geometric[2][1]'],
      ],
      [
        'a longitude below -180',
        [
          [1, 1],
          [1, -181],
          [2, 2],
          [1, 1],
        ],
        ['geometric[1][1]'],
      ],
      [
        'a latitude and a longitude out of range',
        [
          [1, 1],
          [95, 2],
          [2, 200],
          [1, 1],
        ],
        ['geometric[1][0]', 'geometric[2][1]'],
      ],
      [
        'a pair that is not two numbers',
        [
          [1, 1],
          [1, '2'],
          [2, 2],
          [1, 1],
        ],
        ['geometric[1]'],
      ],
      [
        'a pair of three numbers',
        [
          [1, 1],
          [1, 2, 3],
          [2, 2],
          [1, 1],
        ],
        ['geometric[1]'],
      ],
      [
        'a self-intersecting ring (bow tie)',
        [
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
          [0, 0],
        ],
        ['geometric'],
      ],
      ['more than 10,000 pairs', circle(10_001), ['geometric']],
    ];

    it.each(cases)('refuses %s with 422 naming the field, on POST and on PUT, and stores nothing', async (_name, geometric, fields) => {
      const before = await count();
      const created = await t.http.post('/api/v1/geofences').set(a.auth).send({ name: 'Shape', building_id: site.building.id, floor_id: site.floor.id, geometric });
      expectError(created, 422, 'validation_failed');
      expect([...new Set(errorFields(created))].sort()).toEqual([...fields].sort());
      expect(await count()).toBe(before);

      const geofence = await createGeofence(t, a.auth, site.place);
      const stored = await geofenceRow(t, geofence.id);
      const updated = await t.http.put(`/api/v1/geofences/${geofence.id}`).set(a.auth).send({ geometric, name: 'Changed' });
      expectError(updated, 422, 'validation_failed');
      expect([...new Set(errorFields(updated))].sort()).toEqual([...fields].sort());
      expect(await geofenceRow(t, geofence.id)).toEqual(stored);
    });

    it('accepts a ring of exactly 10,000 pairs and the extreme coordinates', async () => {
      const big = circle(10_000);
      const response = await t.http.post('/api/v1/geofences').set(a.auth).send({ name: 'Big', building_id: site.building.id, floor_id: site.floor.id, geometric: big });
      expectStatus(response, 201);
      expect(response.body.geometric).toHaveLength(10_000);
      expect((await geofenceRow(t, response.body.id))!.geometric).toEqual(big);
      const edges: LatLng[] = [
        [-90, -180],
        [-90, 180],
        [90, 180],
        [90, -180],
        [-90, -180],
      ];
      expectStatus(await t.http.post('/api/v1/geofences').set(a.auth).send({ name: 'World', building_id: site.building.id, floor_id: site.floor.id, geometric: edges }), 201);
      expectStatus(
        await t.http
          .post('/api/v1/geofences')
          .set(a.auth)
          .send({ name: 'Triangle', building_id: site.building.id, floor_id: site.floor.id, geometric: closedTriangle(10, 10) }),
        201,
      );
    });
  });

  describe('HTML in info', () => {
    it('removes scripts, event handlers and javascript: URLs, keeps plain formatting, and description mirrors it (POST, PUT, description-only)', async () => {
      const hostile =
        '<div onmouseover="x()"><p>Hello <strong>strong</strong> <em>em</em></p><script>alert(1)</script>' +
        '<a href="javascript:alert(2)" onclick="y()">bad</a> <a href="https://example.com/a">good</a>' +
        '<img src="https://example.com/i.png" onerror="alert(3)"><br></div>';
      const viaInfo = await createGeofence(t, a.auth, site.place, { info: hostile });
      const viaDescription = await createGeofence(t, a.auth, site.place, { description: hostile });
      const plain = await createGeofence(t, a.auth, site.place);
      const viaPut = (await t.http.put(`/api/v1/geofences/${plain.id}`).set(a.auth).send({ info: hostile }).expect(200)).body as GeofenceBody;
      for (const geofence of [viaInfo, viaDescription, viaPut]) {
        const stored = await geofenceRow(t, geofence.id);
        expect(geofence.description).toBe(geofence.info);
        for (const info of [geofence.info, stored!.info]) {
          expect(info).not.toMatch(/<script/i);
          expect(info).not.toContain('alert(1)');
          expect(info).not.toMatch(/onmouseover|onclick|onerror/i);
          expect(info).not.toMatch(/javascript:/i);
          expect(info).toContain('<p>Hello <strong>strong</strong> <em>em</em></p>');
          expect(info).toContain('<a href="https://example.com/a">good</a>');
          expect(info).toContain('bad');
          expect(info).toMatch(/^<div>/);
        }
      }
    });
  });

  describe('GET /api/v1/geofences/{id}', () => {
    it('is the geofence with an ETag, with or without a trailing slash', async () => {
      const geofence = await createGeofence(t, a.auth, site.place, { code: 'read' });
      for (const url of [`/api/v1/geofences/${geofence.id}`, `/api/v1/geofences/${geofence.id}/`]) {
        const response = await t.http.get(url).set(a.auth);
        expectStatus(response, 200);
        expect(response.body).toEqual(geofence);
        expect(response.headers.etag).toBe('"1"');
      }
    });

    it('reads an upper-case UUID as the same id (UUIDs are case-insensitive), whatever the database', async () => {
      const geofence = await createGeofence(t, a.auth, site.place);
      const response = await t.http.get(`/api/v1/geofences/${geofence.id.toUpperCase()}`).set(a.auth);
      expectStatus(response, 200);
      expect(response.body).toEqual(geofence);
    });

    it('answers 404 entity_not_found to an unknown id and 400 bad_request to a malformed one', async () => {
      expectError(await t.http.get(`/api/v1/geofences/${randomUUID()}`).set(a.auth), 404, 'entity_not_found');
      for (const id of MALFORMED_UUIDS) expectError(await t.http.get(`/api/v1/geofences/${id}`).set(a.auth), 400, 'bad_request');
    });
  });

  describe('PUT and PATCH /api/v1/geofences/{id}', () => {
    it.each(['put', 'patch'] as const)('%s is a partial update: only the fields sent change', async (method) => {
      const geofence = await createGeofence(t, a.auth, site.place, { code: 'before', info: '<p>kept</p>', custom_fields: [{ key: 'k', value: 'v' }] });
      const response = await t.http[method](`/api/v1/geofences/${geofence.id}`)
        .set(a.auth)
        .send({ name: `Renamed ${method}` });
      expectStatus(response, 200);
      expect(keysOf(response.body)).toEqual(GEOFENCE_KEYS);
      expect(response.body).toEqual({ ...geofence, name: `Renamed ${method}`, updated_at: expect.stringMatching(GEOFENCE_TIMESTAMP) });
      expect(Date.parse(response.body.updated_at.replace('[UTC]', ''))).toBeGreaterThanOrEqual(Date.parse(geofence.updated_at.replace('[UTC]', '')));
      expect(response.headers.etag).toBe('"2"');
      const read = await t.http.get(`/api/v1/geofences/${geofence.id}`).set(a.auth).expect(200);
      expect(read.body).toEqual(response.body);
      expect(read.headers.etag).toBe('"2"');
      expect(await geofenceRow(t, geofence.id)).toMatchObject({ name: `Renamed ${method}`, code: 'before', info: '<p>kept</p>', version: 2 });
    });

    it('changes every writable field and never id, organization_id, created_at or deleted', async () => {
      const second = await createFloor(t, a.auth, site.building.id);
      const geofence = await createGeofence(t, a.auth, site.place);
      const ring = square(10, 20, 0.5);
      const response = await t.http
        .put(`/api/v1/geofences/${geofence.id}`)
        .set(a.auth)
        .send({
          name: 'All new',
          code: 'new',
          info: '<p>new</p>',
          type: 'POLYGON',
          geometric: ring,
          custom_fields: [{ key: 'x', value: 'y' }],
          floor_id: second.id,
          id: randomUUID(),
          organization_id: randomUUID(),
          created_at: '2000-01-01T00:00:00.000Z[UTC]',
          deleted: true,
        });
      expectStatus(response, 200);
      expect(response.body).toEqual({
        ...geofence,
        name: 'All new',
        code: 'new',
        info: '<p>new</p>',
        description: '<p>new</p>',
        geometric: ring,
        custom_fields: [{ key: 'x', value: 'y' }],
        floor_id: second.id,
        level_id: second.id,
        updated_at: expect.stringMatching(GEOFENCE_TIMESTAMP),
      });
      expect(await geofenceRow(t, geofence.id)).toMatchObject({ organizationId: a.org.organizationId, floorId: second.id, deleted: false });
    });

    it('moves to a floor of another building only together with that building_id', async () => {
      const other = await createSite(t, a.auth);
      const geofence = await createGeofence(t, a.auth, site.place);
      const stored = await geofenceRow(t, geofence.id);
      for (const body of [{ building_id: other.building.id }, { floor_id: other.floor.id }]) {
        const refused = await t.http.put(`/api/v1/geofences/${geofence.id}`).set(a.auth).send(body);
        expectError(refused, 422, 'validation_failed');
        expect(errorFields(refused)).toEqual(['floor_id']);
      }
      expect(await geofenceRow(t, geofence.id)).toEqual(stored);
      const moved = await t.http
        .patch(`/api/v1/geofences/${geofence.id}`)
        .set(a.auth)
        .send({ building_id: String(other.building.id), floor_id: other.floor.id });
      expectStatus(moved, 200);
      expect(moved.body).toMatchObject({ building_id: String(other.building.id), floor_id: other.floor.id, level_id: other.floor.id });
    });

    it('refuses null for a required field with 422 naming it (never a 500) and leaves the row unchanged', async () => {
      const geofence = await createGeofence(t, a.auth, site.place);
      const stored = await geofenceRow(t, geofence.id);
      for (const field of ['name', 'geometric']) {
        const response = await t.http
          .put(`/api/v1/geofences/${geofence.id}`)
          .set(a.auth)
          .send({ [field]: null });
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response)).toContain(field);
      }
      expect(await geofenceRow(t, geofence.id)).toEqual(stored);
    });

    it('null for an optional field is refused (422 naming it) or reset to its default, never a 500', async () => {
      const geofence = await createGeofence(t, a.auth, site.place, { code: 'c', info: '<p>i</p>', custom_fields: [{ key: 'k', value: 'v' }] });
      const defaults: Record<string, unknown> = { code: '', info: '', type: 'POLYGON', custom_fields: [] };
      for (const [field, empty] of Object.entries(defaults)) {
        const response = await t.http
          .put(`/api/v1/geofences/${geofence.id}`)
          .set(a.auth)
          .send({ [field]: null });
        expect([200, 422], `${field}: ${response.status} ${JSON.stringify(response.body)}`).toContain(response.status);
        if (response.status === 422) expect(errorFields(response)).toContain(field);
        else expect(response.body[field]).toEqual(empty);
      }
    });

    it('answers 404 to an unknown id and 400 to a malformed one', async () => {
      expectError(await t.http.put(`/api/v1/geofences/${randomUUID()}`).set(a.auth).send({ name: 'x' }), 404, 'entity_not_found');
      expectError(await t.http.patch(`/api/v1/geofences/${randomUUID()}`).set(a.auth).send({ name: 'x' }), 404, 'entity_not_found');
      expectError(await t.http.put('/api/v1/geofences/123').set(a.auth).send({ name: 'x' }), 400, 'bad_request');
    });
  });

  describe('ETag and If-Match', () => {
    it('a stale If-Match is 409 and changes nothing; a matching one succeeds with the new ETag; a malformed one is refused like a stale one (409)', async () => {
      const geofence = await createGeofence(t, a.auth, site.place);
      const url = `/api/v1/geofences/${geofence.id}`;
      const first = await t.http.get(url).set(a.auth).expect(200);
      expect(first.headers.etag).toBe('"1"');
      const matching = await t.http.put(url).set(a.auth).set('If-Match', first.headers.etag).send({ name: 'v2' });
      expectStatus(matching, 200);
      expect(matching.headers.etag).toBe('"2"');
      const after = await geofenceRow(t, geofence.id);

      expectError(await t.http.put(url).set(a.auth).set('If-Match', '"1"').send({ name: 'lost' }), 409, 'conflict');
      expectError(await t.http.patch(url).set(a.auth).set('If-Match', '"1"').send({ code: 'lost' }), 409, 'conflict');
      for (const header of ['2', 'W/', '"two"']) {
        expectError(await t.http.put(url).set(a.auth).set('If-Match', header).send({ name: 'lost' }), 409, 'conflict');
      }
      expect(await geofenceRow(t, geofence.id)).toEqual(after);

      const read = await t.http.get(url).set(a.auth).expect(200);
      expect(read.headers.etag).toBe('"2"');
      const patched = await t.http.patch(url).set(a.auth).set('If-Match', read.headers.etag).send({ name: 'v3' });
      expectStatus(patched, 200);
      expect(patched.headers.etag).toBe('"3"');
      expect((await t.http.get(url).set(a.auth).expect(200)).headers.etag).toBe('"3"');
    });

    it('10 concurrent PUTs changing different fields: each succeeds or is 409, and the stored row has every successful change', async () => {
      const second = await createFloor(t, a.auth, site.building.id);
      const geofence = await createGeofence(t, a.auth, site.place, { code: 'c0', info: '<p>i0</p>' });
      const original = (await geofenceRow(t, geofence.id))!;
      type Change = { body: Record<string, unknown>; check: (row: Geofence) => unknown; expected: unknown; field: string };
      const changes: Change[] = [
        { field: 'name', body: { name: 'N0' }, check: (row) => row.name, expected: 'N0' },
        { field: 'code', body: { code: 'C1' }, check: (row) => row.code, expected: 'C1' },
        { field: 'info', body: { info: '<p>I2</p>' }, check: (row) => row.info, expected: '<p>I2</p>' },
        { field: 'geometric', body: { geometric: square(1, 1) }, check: (row) => row.geometric, expected: square(1, 1) },
        { field: 'custom_fields', body: { custom_fields: [{ key: 'k4', value: 'v4' }] }, check: (row) => row.customFields, expected: [{ key: 'k4', value: 'v4' }] },
        { field: 'floor', body: { building_id: site.building.id, floor_id: second.id }, check: (row) => row.floorId, expected: second.id },
        { field: 'name', body: { name: 'N6' }, check: (row) => row.name, expected: 'N6' },
        { field: 'code', body: { code: 'C7' }, check: (row) => row.code, expected: 'C7' },
        { field: 'geometric', body: { geometric: square(2, 2) }, check: (row) => row.geometric, expected: square(2, 2) },
        { field: 'custom_fields', body: { custom_fields: [{ key: 'k9', value: 'v9' }] }, check: (row) => row.customFields, expected: [{ key: 'k9', value: 'v9' }] },
      ];
      const responses = await Promise.all(changes.map((change) => t.http.put(`/api/v1/geofences/${geofence.id}`).set(a.auth).send(change.body)));
      for (const response of responses) {
        expect([200, 409], JSON.stringify(response.body)).toContain(response.status);
        if (response.status === 409) expectError(response, 409, 'conflict');
      }
      const succeeded = changes
        .map((change, index) => ({ change, response: responses[index] }))
        .filter(({ response }) => response.status === 200)
        .map(({ change, response }) => ({ change, version: Number(/^"(\d+)"$/.exec(response.headers.etag)![1]) }));
      expect(succeeded.length).toBeGreaterThan(0);
      // Each success made its own version: 2, 3, ... in some order.
      expect(succeeded.map(({ version }) => version).sort((x, y) => x - y)).toEqual(succeeded.map((_, index) => index + 2));

      const final = (await geofenceRow(t, geofence.id))!;
      expect(final.version).toBe(1 + succeeded.length);
      for (const field of new Set(changes.map((change) => change.field))) {
        const writers = succeeded.filter(({ change }) => change.field === field).sort((x, y) => y.version - x.version);
        const probe = changes.find((change) => change.field === field)!;
        // The last successful write of each field is what is stored; a field nobody changed is as it was.
        expect(probe.check(final), field).toEqual(writers.length > 0 ? writers[0].change.expected : probe.check(original));
      }
      const read = await t.http.get(`/api/v1/geofences/${geofence.id}`).set(a.auth).expect(200);
      expect(read.headers.etag).toBe(`"${final.version}"`);
    });

    it('a DELETE racing PUTs is never lost: once it answered 204, the geofence is deleted', async () => {
      // A race: each round gives it another chance to show (SQLite runs writes one at a time).
      const geofences = await createGeofences(t, a.auth, site.place, 20);
      for (const geofence of geofences) {
        const url = `/api/v1/geofences/${geofence.id}`;
        const put = (index: number) =>
          t.http
            .put(url)
            .set(a.auth)
            .send({ code: `race-${index}` });
        // The DELETE goes out amid the PUTs, so that some commit between its read and its write.
        const [before, removal, after] = await Promise.all([Promise.all([0, 1, 2, 3].map(put)), t.http.delete(url).set(a.auth), Promise.all([4, 5, 6, 7].map(put))]);
        const updates = [...before, ...after];
        expectStatus(removal, 204);
        for (const update of updates) expect([200, 409]).toContain(update.status);
        expect((await geofenceRow(t, geofence.id))!.deleted, `geofence ${geofence.id}`).toBe(true);
        expect((await t.http.get(url).set(a.auth).expect(200)).body.deleted).toBe(true);
      }
    });
  });

  describe('DELETE /api/v1/geofences/{id}', () => {
    it('soft-deletes: 204, still readable by id with deleted: true, left out of searches and the building document unless deleted=true', async () => {
      const org = await signUp(t, 'Soft delete');
      const own = await createSite(t, org.auth);
      const kept = await createGeofence(t, org.auth, own.place, { name: 'Kept' });
      const removed = await createGeofence(t, org.auth, own.place, { name: 'Removed' });
      const response = await t.http.delete(`/api/v1/geofences/${removed.id}`).set(org.auth);
      expectStatus(response, 204);
      expect(response.text).toBe('');

      const read = await t.http.get(`/api/v1/geofences/${removed.id}`).set(org.auth);
      expectStatus(read, 200);
      expect(read.body).toEqual({ ...removed, deleted: true, updated_at: expect.stringMatching(GEOFENCE_TIMESTAMP) });
      expect(await geofenceRow(t, removed.id)).toMatchObject({ deleted: true, name: 'Removed' });

      for (const path of ['/api/v1/geofences', '/api/v1/geofences/search']) {
        expect(ids(await t.http.get(path).set(org.auth).expect(200))).toEqual([kept.id]);
        expect(ids(await t.http.get(`${path}?deleted=false`).set(org.auth).expect(200))).toEqual([kept.id]);
        expect(ids(await t.http.get(`${path}?deleted=true`).set(org.auth).expect(200))).toEqual([removed.id]);
      }
      expect((await t.http.get(`/api/v1/buildings/${own.building.id}`).set(org.auth).expect(200)).body.geofences.map((g: GeofenceBody) => g.id)).toEqual([kept.id]);

      // Deleting again is fine; updating a deleted one is a conflict.
      expectStatus(await t.http.delete(`/api/v1/geofences/${removed.id}`).set(org.auth), 204);
      expectError(await t.http.put(`/api/v1/geofences/${removed.id}`).set(org.auth).send({ name: 'Revived' }), 409, 'conflict');
      expect(await geofenceRow(t, removed.id)).toMatchObject({ deleted: true, name: 'Removed' });
    });

    it('answers 404 to an unknown id and 400 to a malformed one', async () => {
      expectError(await t.http.delete(`/api/v1/geofences/${randomUUID()}`).set(a.auth), 404, 'entity_not_found');
      for (const id of MALFORMED_UUIDS) expectError(await t.http.delete(`/api/v1/geofences/${id}`).set(a.auth), 400, 'bad_request');
    });
  });

  describe('search', () => {
    let org: Cartographer;
    let b1: number;
    let b2: number;
    let f1: number;
    let f2: number;
    let f3: number;
    const g: Record<string, GeofenceBody> = {};

    beforeAll(async () => {
      org = await signUp(t, 'Search');
      const first = await createSite(t, org.auth);
      b1 = first.building.id;
      f1 = first.floor.id;
      f2 = (await createFloor(t, org.auth, b1, { level: 1 })).id;
      const second = await createSite(t, org.auth);
      b2 = second.building.id;
      f3 = second.floor.id;
      const specs: Array<[string, string, string, number, number]> = [
        ['bay', 'Loading Bay', 'lb', b1, f1],
        ['dock', 'loading dock', 'ld', b1, f2],
        ['percent', '100% Cotton', 'pct', b1, f1],
        ['x100', '100x Cotton', 'x', b2, f3],
        ['underscore', 'snake_case', 'us', b2, f3],
        ['snakeX', 'snakeXcase', 'lb', b2, f3],
        ['backslash', 'back\\slash', 'bs', b1, f1],
        ['gone', 'Loading Zone', 'lz', b1, f1],
      ];
      for (const [key, name, code, buildingId, floorId] of specs) g[key] = await createGeofence(t, org.auth, { buildingId, floorId }, { name, code });
      await t.http.delete(`/api/v1/geofences/${g.gone.id}`).set(org.auth).expect(204);
      g.gone = (await t.http.get(`/api/v1/geofences/${g.gone.id}`).set(org.auth).expect(200)).body;
    });

    const live = () => ['bay', 'dock', 'percent', 'x100', 'underscore', 'snakeX', 'backslash'];
    const expectFound = async (query: string, keys: string[]) => {
      for (const path of ['/api/v1/geofences', '/api/v1/geofences/search']) {
        const response = await t.http.get(`${path}?${query}`).set(org.auth);
        expectStatus(response, 200);
        expect(keysOf(response.body)).toEqual(['data', 'metadata']);
        expect(keysOf(response.body.metadata)).toEqual(PAGE_METADATA_KEYS);
        expect([...ids(response)].sort(), `${path}?${query}`).toEqual(keys.map((key) => g[key].id).sort());
        expect(response.body.metadata).toMatchObject({ total_elements: keys.length, number_of_elements: keys.length, number: 1, first: true, last: true });
        for (const item of response.body.data as GeofenceBody[]) {
          const key = Object.keys(g).find((name) => g[name].id === item.id)!;
          expect(item).toEqual(g[key]);
        }
      }
    };

    it('without filters lists every live geofence of the organization (both routes, with a trailing slash too)', async () => {
      await expectFound('', live());
      for (const path of ['/api/v1/geofences/', '/api/v1/geofences/search/']) {
        expect([...ids(await t.http.get(path).set(org.auth).expect(200))].sort()).toEqual(sortedIds(live().map((key) => g[key])));
      }
    });

    it('filters by building_ids in each list form', async () => {
      await expectFound(`building_ids=${b1}`, ['bay', 'dock', 'percent', 'backslash']);
      await expectFound(`building_ids=${b2}`, ['x100', 'underscore', 'snakeX']);
      for (const query of [
        `building_ids=${b1},${b2}`,
        `building_ids=${b1}&building_ids=${b2}`,
        `building_ids[]=${b1}&building_ids[]=${b2}`,
        `building_ids%5B%5D=${b1}&building_ids%5B%5D=${b2}`,
      ]) {
        await expectFound(query, live());
      }
      await expectFound(`building_ids=${2_147_483_000}`, []);
    });

    it('filters by floor_ids in each list form', async () => {
      await expectFound(`floor_ids=${f1}`, ['bay', 'percent', 'backslash']);
      await expectFound(`floor_ids[]=${f2}`, ['dock']);
      for (const query of [`floor_ids=${f2},${f3}`, `floor_ids=${f2}&floor_ids=${f3}`, `floor_ids[]=${f2}&floor_ids[]=${f3}`]) {
        await expectFound(query, ['dock', 'x100', 'underscore', 'snakeX']);
      }
    });

    it('filters by name: a case-insensitive substring', async () => {
      await expectFound('name=loading', ['bay', 'dock']);
      await expectFound('name=LOADING', ['bay', 'dock']);
      await expectFound('name=Ding%20B', ['bay']);
      await expectFound('name=cotton', ['percent', 'x100']);
      await expectFound('name=nothing-like-it', []);
    });

    it('takes % and _ in the name literally (no wildcards)', async () => {
      await expectFound(`name=${encodeURIComponent('%')}`, ['percent']);
      await expectFound(`name=${encodeURIComponent('100%')}`, ['percent']);
      await expectFound(`name=${encodeURIComponent('0% c')}`, ['percent']);
      await expectFound('name=_', ['underscore']);
      await expectFound('name=e_c', ['underscore']);
      await expectFound(`name=${encodeURIComponent('\\')}`, ['backslash']);
      await expectFound(`name=${encodeURIComponent('k\\s')}`, ['backslash']);
      await expectFound(`name=${encodeURIComponent('%_%')}`, []);
    });

    it('filters by code (exact)', async () => {
      await expectFound('code=lb', ['bay', 'snakeX']);
      await expectFound('code=pct', ['percent']);
      await expectFound('code=l', []);
    });

    it('deleted=true lists only deleted geofences, deleted=false (the default) only live ones', async () => {
      await expectFound('deleted=true', ['gone']);
      await expectFound('deleted=false', live());
      await expectFound('deleted=true&name=loading', ['gone']);
      await expectFound(`deleted=true&building_ids=${b2}`, []);
    });

    it('combines filters', async () => {
      await expectFound(`building_ids=${b1}&floor_ids=${f1}&name=cotton`, ['percent']);
      await expectFound(`building_ids=${b2}&code=lb`, ['snakeX']);
      await expectFound(`building_ids=${b1}&floor_ids=${f3}`, []);
      await expectFound(`floor_ids=${f1},${f2}&name=loading&code=ld`, ['dock']);
      await expectFound(`building_ids[]=${b1}&building_ids[]=${b2}&name=snake`, ['underscore', 'snakeX']);
    });

    it("accepts the caller's own organization_id (the official client sends it); another organization's is 404, as an unknown one", async () => {
      await expectFound(`organization_id=${org.org.organizationId}`, live());
      await expectFound(`organization_id=${org.org.organizationId.toUpperCase()}`, live());
      await expectFound(`organization_id=${org.org.organizationId}&page=0&size=50&building_ids=${b2}`, ['x100', 'underscore', 'snakeX']);
      for (const path of ['/api/v1/geofences', '/api/v1/geofences/search']) {
        const theirs = await t.http.get(`${path}?organization_id=${a.org.organizationId}`).set(org.auth);
        expectError(theirs, 404, 'entity_not_found');
        const nobodys = await t.http.get(`${path}?organization_id=${randomUUID()}`).set(org.auth);
        expectError(nobodys, 404, 'entity_not_found');
        // Their organization is not told to exist: the same answer, but for the id it repeats.
        expect(theirs.body).toEqual({ ...nobodys.body, message: `Organization ${a.org.organizationId} not found` });
      }
      // The analytics take the same rule.
      expectError(await t.http.get(`/api/v1/geofencing/analytics?organization_id=${a.org.organizationId}`).set(org.auth), 404, 'entity_not_found');
    });

    it('answers 400 bad_request to malformed parameters', async () => {
      for (const query of [
        'building_ids=abc',
        'building_ids=1,x',
        'floor_ids=-1',
        'floor_ids[]=1.5',
        'deleted=maybe',
        'organization_id=not-a-uuid',
        'page=-1',
        'page=x',
        'size=0',
        'size=1001',
        'size=ten',
        'sort=unknown',
        'sort=-',
        'sort=organization_id',
      ]) {
        for (const path of ['/api/v1/geofences', '/api/v1/geofences/search']) {
          expectError(await t.http.get(`${path}?${query}`).set(org.auth), 400, 'bad_request');
        }
      }
    });
  });

  describe('pagination and sorting', () => {
    let org: Cartographer;
    let all: GeofenceBody[];

    beforeAll(async () => {
      org = await signUp(t, 'Pages');
      const own = await createSite(t, org.auth);
      all = await createGeofences(t, org.auth, own.place, 55, (index) => ({ name: `Page ${String(index).padStart(2, '0')}` }));
      // Distinct creation and update times, in an order that differs from the names'.
      const repository = t.dataSource.getRepository(Geofence);
      const base = Date.parse('2024-01-01T00:00:00.000Z');
      await Promise.all(
        all.map((geofence, index) =>
          repository.update({ id: geofence.id }, { createdAt: new Date(base + ((index * 7) % 55) * 1000), updatedAt: new Date(base + ((index * 13) % 55) * 60_000) }),
        ),
      );
      all = await Promise.all(all.map(async (geofence) => (await t.http.get(`/api/v1/geofences/${geofence.id}`).set(org.auth).expect(200)).body));
    });

    const page = (query: string) => t.http.get(`/api/v1/geofences/search?${query}`).set(org.auth);

    it('defaults to page 1 of size 50, with the metadata of contract section 1', async () => {
      const response = await page('');
      expectStatus(response, 200);
      expect(response.body.data).toHaveLength(50);
      expect(response.body.metadata).toEqual({ first: true, last: false, total_pages: 2, total_elements: 55, number_of_elements: 50, size: 50, number: 1 });
      const second = await page('page=2');
      expectStatus(second, 200);
      expect(second.body.metadata).toEqual({ first: false, last: true, total_pages: 2, total_elements: 55, number_of_elements: 5, size: 50, number: 2 });
      expect([...ids(response), ...ids(second)].sort()).toEqual(sortedIds(all));
    });

    it('reads page=0 as the first page (the official client sends it)', async () => {
      const zero = await page('page=0&size=10');
      const one = await page('page=1&size=10');
      expectStatus(zero, 200);
      expect(zero.body).toEqual(one.body);
      expect(zero.body.metadata).toMatchObject({ first: true, number: 1 });
    });

    it('walks every page without gaps or repeats', async () => {
      const seen: string[] = [];
      for (let number = 1; number <= 6; number += 1) {
        const response = await page(`page=${number}&size=10&sort=name`);
        expectStatus(response, 200);
        expect(response.body.metadata).toEqual({
          first: number === 1,
          last: number === 6,
          total_pages: 6,
          total_elements: 55,
          number_of_elements: number === 6 ? 5 : 10,
          size: 10,
          number,
        });
        seen.push(...ids(response));
      }
      expect(seen).toEqual([...all].sort((x, y) => x.name.localeCompare(y.name)).map((geofence) => geofence.id));
    });

    it('answers an empty page beyond the end', async () => {
      const response = await page('page=7&size=10');
      expectStatus(response, 200);
      expect(response.body).toEqual({
        data: [],
        metadata: { first: false, last: true, total_pages: 6, total_elements: 55, number_of_elements: 0, size: 10, number: 7 },
      });
    });

    it('answers a page far beyond the end with an empty page or 400, never a 500', async () => {
      for (const query of ['page=2147483648', 'page=99999999999&size=1000', 'page=99999999999999999999&size=1000']) {
        const response = await page(query);
        expect([200, 400], `${query}: ${response.status} ${JSON.stringify(response.body)}`).toContain(response.status);
        if (response.status === 400) expectError(response, 400, 'bad_request');
        else expect(response.body.data).toEqual([]);
      }
    });

    it('serves up to 1000 per page', async () => {
      const response = await page('size=1000');
      expectStatus(response, 200);
      expect(response.body.data).toHaveLength(55);
      expect(response.body.metadata).toEqual({ first: true, last: true, total_pages: 1, total_elements: 55, number_of_elements: 55, size: 1000, number: 1 });
      expectError(await page('size=1001'), 400, 'bad_request');
    });

    it('answers an empty first page when nothing matches', async () => {
      const response = await page('name=no-such-geofence');
      expect(response.body).toEqual({
        data: [],
        metadata: { first: true, last: true, total_pages: 0, total_elements: 0, number_of_elements: 0, size: 50, number: 1 },
      });
    });

    const fields: Array<[string, (geofence: GeofenceBody) => string]> = [
      ['name', (geofence) => geofence.name],
      ['code', (geofence) => geofence.code],
      ['created_at', (geofence) => geofence.created_at],
      ['updated_at', (geofence) => geofence.updated_at],
    ];
    it.each(fields)('sorts by %s, ascending and descending', async (field, value) => {
      // Codes are all "", so code sorts fall back to a stable order; give them distinct codes first.
      if (field === 'code') {
        await Promise.all(
          all.map((geofence, index) => t.dataSource.getRepository(Geofence).update({ id: geofence.id }, { code: `c${String((index * 17) % 55).padStart(2, '0')}` })),
        );
        // Read back through a search: written behind the API's back, the rows changed without the
        // announcement that drops the bodies GET by id keeps.
        const stored = new Map(((await page('size=1000').expect(200)).body.data as GeofenceBody[]).map((geofence) => [geofence.id, geofence]));
        all = all.map((geofence) => stored.get(geofence.id)!);
      }
      const ascending = [...all].sort((x, y) => (value(x) < value(y) ? -1 : value(x) > value(y) ? 1 : 0)).map((geofence) => geofence.id);
      expect(new Set(all.map(value)).size).toBe(all.length);
      const up = await page(`sort=${field}&size=1000`);
      expectStatus(up, 200);
      expect(ids(up)).toEqual(ascending);
      const down = await page(`sort=-${field}&size=1000`);
      expectStatus(down, 200);
      expect(ids(down)).toEqual([...ascending].reverse());
      // The sort applies before paging.
      const firstOfDown = await page(`sort=-${field}&size=5&page=2`);
      expect(ids(firstOfDown)).toEqual([...ascending].reverse().slice(5, 10));
    });
  });

  describe('query cost', () => {
    it('backs every search filter with an index that starts with the organization', async () => {
      // Column order as the database keeps it (TypeORM's getTable does not preserve it on PostgreSQL).
      const indexes: string[][] =
        t.dataSource.options.type === 'postgres'
          ? ((await t.dataSource.query(`SELECT indexdef FROM pg_indexes WHERE tablename = 'geofences'`)) as Array<{ indexdef: string }>).map((row) =>
              /\(([^)]*)\)/
                .exec(row.indexdef)![1]
                .split(',')
                .map((column) => column.trim().replace(/"/g, '')),
            )
          : await Promise.all(
              ((await t.dataSource.query(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'geofences'`)) as Array<{ name: string }>).map(async ({ name }) =>
                ((await t.dataSource.query(`PRAGMA index_info("${name}")`)) as Array<{ seqno: number; name: string }>)
                  .sort((a, b) => a.seqno - b.seqno)
                  .map((column) => column.name),
              ),
            );
      for (const column of ['building_id', 'floor_id', 'code', 'name_lower', 'deleted']) {
        expect(
          indexes.some((columns) => columns[0] === 'organization_id' && columns.includes(column)),
          `${column}: ${JSON.stringify(indexes)}`,
        ).toBe(true);
      }
    });

    it('a search costs the same number of queries over 5 geofences as over 200 (authentication included)', async () => {
      const few = await signUp(t, 'Few');
      const many = await signUp(t, 'Many');
      const fewSite = await createSite(t, few.auth);
      const manySite = await createSite(t, many.auth);
      await insertGeofences(t, few.org.organizationId, fewSite.place, 5);
      await insertGeofences(t, many.org.organizationId, manySite.place, 200);

      // TypeORM leaves out the COUNT when the first page is not full, so each search is run
      // with a page that is full for both sets, or not full for either: the shapes match.
      const queries = ['size=5', 'size=1000', 'page=2&size=2&sort=code', `building_ids=$B&floor_ids=$F&name=bulk&sort=-name&size=3`, 'code=bulk-1&deleted=false'];
      for (const template of queries) {
        const query = (who: Site) => template.replace('$B', String(who.building.id)).replace('$F', String(who.floor.id));
        await t.http
          .get(`/api/v1/geofences/search?${query(fewSite)}`)
          .set(few.auth)
          .expect(200);
        await t.http
          .get(`/api/v1/geofences/search?${query(manySite)}`)
          .set(many.auth)
          .expect(200);
        // Both authenticate from the database: a cache hit on one side only (the cache serves nothing
        // while the notification listener misses a heartbeat on a loaded machine) is not a search cost.
        const credentials = t.app.get(CredentialCacheService);
        credentials.flush();
        const small = await countQueries(t, () => t.http.get(`/api/v1/geofences/search?${query(fewSite)}`).set(few.auth));
        credentials.flush();
        const large = await countQueries(t, () => t.http.get(`/api/v1/geofences/search?${query(manySite)}`).set(many.auth));
        expectStatus(small.result, 200);
        expectStatus(large.result, 200);
        if (template === 'size=1000') {
          expect(small.result.body.data).toHaveLength(5);
          expect(large.result.body.data).toHaveLength(200);
        }
        expect(small.queries.length).toBeGreaterThan(0);
        expect(large.queries.length, `${template}\nsmall:\n${small.queries.join('\n')}\nlarge:\n${large.queries.join('\n')}`).toBe(small.queries.length);
        // The session lookup, the page and at most one COUNT.
        expect(small.queries.length, small.queries.join('\n')).toBeLessThanOrEqual(3);
      }
      // The default page (50) is full for one set only; the cost stays within the same bound.
      const large = await countQueries(t, () => t.http.get('/api/v1/geofences/search').set(many.auth));
      expect(large.result.body.metadata.total_elements).toBe(200);
      expect(large.queries.length, large.queries.join('\n')).toBeLessThanOrEqual(3);
    });
  });

  describe('permissions (contract 2.3)', () => {
    it.each(CARTOGRAPHY_KEY_LEVELS)('a %s key reads; writes only when it covers cartography (%s)', async (permission, canWrite) => {
      const key = await createApiKey(t, a.token, permission);
      const auth = asApiKey(key.apikey);
      const geofence = await createGeofence(t, a.auth, site.place, { name: `For ${permission}` });

      expect((await t.http.get(`/api/v1/geofences/${geofence.id}`).set(auth).expect(200)).body).toEqual(geofence);
      for (const path of ['/api/v1/geofences', '/api/v1/geofences/search']) {
        const listed = await t.http.get(`${path}?name=${encodeURIComponent(`For ${permission}`)}`).set(auth);
        expectStatus(listed, 200);
        expect(ids(listed)).toEqual([geofence.id]);
      }

      const before = await count();
      const stored = await geofenceRow(t, geofence.id);
      const post = await t.http.post('/api/v1/geofences').set(auth).send({ name: 'By key', building_id: site.building.id, floor_id: site.floor.id, geometric: RING });
      const put = await t.http.put(`/api/v1/geofences/${geofence.id}`).set(auth).send({ name: 'Put by key' });
      const patch = await t.http.patch(`/api/v1/geofences/${geofence.id}`).set(auth).send({ code: 'patched' });
      if (canWrite) {
        expectStatus(post, 201);
        expect(post.body.organization_id).toBe(a.org.organizationId);
        expectStatus(put, 200);
        expectStatus(patch, 200);
        expect(await geofenceRow(t, geofence.id)).toMatchObject({ name: 'Put by key', code: 'patched' });
        expectStatus(await t.http.delete(`/api/v1/geofences/${geofence.id}`).set(auth), 204);
        expect((await geofenceRow(t, geofence.id))!.deleted).toBe(true);
      } else {
        for (const response of [post, put, patch, await t.http.delete(`/api/v1/geofences/${geofence.id}`).set(auth)]) {
          expectError(response, 403, 'forbidden');
        }
        expect(await count()).toBe(before);
        expect(await geofenceRow(t, geofence.id)).toEqual(stored);
      }
    });
  });
});
