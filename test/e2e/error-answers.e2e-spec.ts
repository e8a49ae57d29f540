import SitumSDK from '@situm/sdk-js';
import jwt from 'jsonwebtoken';
import { execFile } from 'node:child_process';
import type { KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JWT_KEY } from '../../src/auth/jwt-key';
import { addPoi, addUser, login, putPaths } from '../support/admin';
import { asApiKey, asBearer, createOrganization, decodeJwt, TestOrganization } from '../support/auth';
import { createGeofence, createSite, errorFields, expectError, expectStatus, square } from '../support/cartography';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';

/** Issue 10, API level: what a client sees just off the README's path. */

const METRES_PER_DEGREE = (Math.PI / 180) * 6_371_008.8;

describe('error answers a client can act on', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'Usability');
    admin = (await login(t, org.email, org.password)).auth;
  });
  afterAll(async () => t?.close());

  describe('a wrong method on an existing route', () => {
    it.each([
      ['delete', '/api/v1/version', 'GET, HEAD'],
      ['post', '/api/v1/version/', 'GET, HEAD'],
      ['post', '/api/v1/buildings/12', 'GET, HEAD, PUT, PATCH, DELETE'],
      ['delete', '/api/v1/version?verbose=1', 'GET, HEAD'],
      ['put', '/api/v1/auth/access_tokens', 'POST'],
    ])('%s %s is 405 with Allow: %s, in the error shape', async (method, url, allow) => {
      const response = await (t.http as unknown as Record<string, (url: string) => import('supertest').Test>)[method](url).set(admin);
      expectError(response, 405, 'method_not_allowed');
      expect(response.headers.allow).toBe(allow);
      expect(response.body).toEqual({ status: 405, code: 'method_not_allowed', message: expect.stringContaining(allow), errors: [] });
    });

    it('answers 405 before asking for credentials (as an unknown route is 404 before), and 404 where nothing is served', async () => {
      const response = await t.http.delete('/api/v1/version');
      expectError(response, 405, 'method_not_allowed');
      expect(response.headers.allow).toBe('GET, HEAD');
      expectError(await t.http.get('/api/v1/nowhere').set(admin), 404, 'route_not_found');
      expectError(await t.http.delete('/api/v1/buildings/12/nowhere').set(admin), 404, 'route_not_found');
      // The served methods still work.
      expectStatus(await t.http.get('/api/v1/version').set(admin), 200);
    });
  });

  describe('a USER saving its own profile form', () => {
    it('sends back the whole user read before: unchanged admin-only fields are accepted, the change is stored', async () => {
      const member = await addUser(t, admin, { full_name: 'Ana', code: 'A-1' });
      const own = await login(t, member.email, member.password);
      const read = await t.http.get(`/api/v1/users/${member.id}`).set(own.auth);
      expectStatus(read, 200);
      const form = { ...read.body, full_name: 'Ana María', email: read.body.email.toUpperCase(), group_ids: [...read.body.group_ids].reverse() };
      const saved = await t.http.put(`/api/v1/users/${member.id}`).set(own.auth).send(form);
      expectStatus(saved, 200);
      expect(saved.body).toMatchObject({ full_name: 'Ana María', email: member.email, role: 'USER', code: 'A-1' });
      expect((await t.http.get(`/api/v1/users/${member.id}`).set(own.auth)).body.full_name).toBe('Ana María');
    });

    it('refuses an actual change of a field only administrators change, naming only that field, and stores nothing', async () => {
      const member = await addUser(t, admin, { full_name: 'Bea' });
      const own = await login(t, member.email, member.password);
      const read = (await t.http.get(`/api/v1/users/${member.id}`).set(own.auth)).body;
      for (const [change, field] of [
        [{ email: `changed-${member.email}` }, 'email'],
        [{ role: 'ADMIN_ORG' }, 'role'],
        [{ is_verified: !read.is_verified }, 'is_verified'],
        [{ building_ids: [123] }, 'building_ids'],
      ] as const) {
        const response = await t.http
          .put(`/api/v1/users/${member.id}`)
          .set(own.auth)
          .send({ ...read, full_name: 'Changed', ...change });
        expectError(response, 403, 'forbidden');
        expect(response.body.message).toBe(`Only administrators change ${field}`);
      }
      const after = (await t.http.get(`/api/v1/users/${member.id}`).set(own.auth)).body;
      expect(after).toMatchObject({ full_name: 'Bea', email: member.email, role: 'USER', building_ids: [] });
    });
  });

  describe('missing fields', () => {
    it('POST /geofences {} says each required field is missing, geometric included, and nothing about lengths', async () => {
      const response = await t.http.post('/api/v1/geofences').set(admin).send({});
      expectError(response, 422, 'validation_failed');
      expect(new Set(errorFields(response))).toEqual(new Set(['name', 'building_id', 'floor_id', 'geometric']));
      for (const error of response.body.errors) expect(error).toEqual({ message: `${error.fields} is required`, code: 'required', fields: error.fields });
      expect(JSON.stringify(response.body)).not.toMatch(/shorter|longer|must be an integer/);
    });

    it('a present but wrong field still gets its own message', async () => {
      const site = await createSite(t, admin);
      const response = await t.http
        .post('/api/v1/geofences')
        .set(admin)
        .send({ name: 'x'.repeat(300), building_id: site.building.id, floor_id: site.floor.id, geometric: square() });
      expectError(response, 422, 'validation_failed');
      expect(response.body.errors).toEqual([expect.objectContaining({ fields: 'name', message: 'name must be shorter than or equal to 255 characters' })]);
    });

    it.each([
      ['/api/v1/buildings', ['name', 'location', 'dimensions']],
      ['/api/v1/floors', ['building_id', 'level']],
      ['/api/v1/users', ['email', 'password']],
    ])('POST %s {} names its required fields as required', async (url, fields) => {
      const response = await t.http.post(url).set(admin).send({});
      expectError(response, 422, 'validation_failed');
      for (const field of fields) expect(response.body.errors).toContainEqual({ message: `${field} is required`, code: 'required', fields: field });
    });
  });

  describe('refused credentials each say why (401, one shape)', () => {
    const messageOf = async (headers: Record<string, string>) => {
      const response = await t.http.get('/api/v1/buildings').set(headers);
      expectError(response, 401, 'unauthorized');
      return response.body.message as string;
    };

    it('no credentials, an expired token, an invalid token, a tampered token and a wrong API key get distinct messages', async () => {
      const claims = decodeJwt(admin.Authorization.slice('Bearer '.length));
      const key = t.app.get<KeyObject>(JWT_KEY);
      const { iat: _iat, exp: _exp, ...rest } = claims;
      const expired = jwt.sign({ ...rest, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }, key, { algorithm: 'HS256' });
      const token = admin.Authorization.slice('Bearer '.length);
      const tampered = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;

      const none = await messageOf({});
      const expiredMessage = await messageOf(asBearer(expired));
      const invalid = await messageOf(asBearer('not-a-jwt'));
      const badSignature = await messageOf(asBearer(tampered));
      const badKey = await messageOf(asApiKey('cgk_not_a_real_key'));

      expect(none).toBe('Authentication is required');
      expect(expiredMessage).toMatch(/expired/);
      expect(invalid).toMatch(/invalid/);
      expect(badSignature).toBe(invalid);
      expect(badKey).toMatch(/API key/);
      expect(new Set([none, expiredMessage, invalid, badKey]).size).toBe(4);
      // The token itself still works: only its copies were refused.
      expectStatus(await t.http.get('/api/v1/buildings').set(admin), 200);
    });

    it('a token whose session was ended (password changed) is told it was revoked', async () => {
      const member = await addUser(t, admin);
      const session = await login(t, member.email, member.password);
      await t.http
        .put('/api/v1/users/me/password')
        .set(session.auth)
        .send({ current_password: member.password, new_password: `${member.password}-new` })
        .expect(204);
      const message = await messageOf(session.auth);
      expect(message).toMatch(/revoked/);
      expect(message).not.toBe('Authentication is required');
    });
  });

  describe('building corners', () => {
    it('every building answer carries the four corners, computed from location, dimensions and rotation', async () => {
      const created = await t.http
        .post('/api/v1/buildings')
        .set(admin)
        .send({ name: 'Cornered', location: { lat: 42.87, lng: -8.56 }, dimensions: { width: 40, length: 20 }, rotation: 0 });
      expectStatus(created, 201);
      const { lat, lng } = created.body.location;
      const dLat = 10 / METRES_PER_DEGREE;
      const dLng = 20 / (METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180));
      const expected = [
        { lat: lat - dLat, lng: lng - dLng },
        { lat: lat - dLat, lng: lng + dLng },
        { lat: lat + dLat, lng: lng + dLng },
        { lat: lat + dLat, lng: lng - dLng },
      ];
      const close = (corners: Array<{ lat: number; lng: number }>) =>
        corners.forEach((corner, index) => {
          expect(Object.keys(corner).sort()).toEqual(['lat', 'lng']);
          expect(corner.lat).toBeCloseTo(expected[index].lat, 9);
          expect(corner.lng).toBeCloseTo(expected[index].lng, 9);
        });
      close(created.body.corners);
      const id = created.body.id as number;
      close((await t.http.get(`/api/v1/buildings/${id}`).set(admin)).body.corners);
      close((await t.http.get('/api/v1/buildings').set(admin)).body.find((building: { id: number }) => building.id === id).corners);

      // Turned a quarter: the corners follow the rotation.
      const turned = await t.http
        .put(`/api/v1/buildings/${id}`)
        .set(admin)
        .send({ rotation: Math.PI / 2 });
      expectStatus(turned, 200);
      expect(turned.body.corners[0].lat).toBeCloseTo(lat - 20 / METRES_PER_DEGREE, 9);
      expect(turned.body.corners[0].lng).toBeCloseTo(lng + 10 / (METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180)), 9);
      expect((await t.http.get(`/api/v1/buildings/${id}`).set(admin)).body.corners).toEqual(turned.body.corners);
    });

    it('the official client reads corners as its Building type declares them (Coordinate[])', async () => {
      const sdk = new SitumSDK({ domain, auth: { username: org.email, password: org.password } });
      const site = await createSite(t, admin);
      const building = (await sdk.cartography.getBuildingById(site.building.id)) as unknown as { corners: Array<{ lat: number; lng: number }> };
      expect(building.corners).toHaveLength(4);
      for (const corner of building.corners) expect(corner).toEqual({ lat: expect.any(Number), lng: expect.any(Number) });
    });
  });

  describe("the README's SDK quick start", () => {
    it('runs as written against the server (only the domain and the credentials replaced)', async () => {
      const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
      const section = readme.slice(readme.indexOf('## SDK quick start'));
      const snippet = /```js\n([\s\S]*?)```/.exec(section)![1];
      const sdkEntry = pathToFileURL(join(__dirname, '..', '..', 'node_modules', '@situm', 'sdk-js', 'dist', 'es5', 'situm-sdk.js')).href;
      const script = snippet
        .replace("'@situm/sdk-js'", JSON.stringify(sdkEntry))
        .replace("'http://localhost:3000'", JSON.stringify(domain))
        .replace("'admin@cartograph.local'", JSON.stringify(org.email));
      expect(script).not.toBe(snippet);
      const dir = mkdtempSync(join(tmpdir(), 'cartograph-readme-'));
      try {
        writeFileSync(join(dir, 'quick-start.mjs'), script);
        const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'quick-start.mjs')], {
          env: { ...process.env, CARTOGRAPH_PASSWORD: org.password },
          timeout: 20_000,
        });
        expect(stdout).toContain("name: 'Warehouse'");
        expect(stdout).toMatch(/lat: -?\d+\.\d+/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const stored = (await t.http.get('/api/v1/buildings').set(admin)).body as Array<{ name: string; corners: unknown[] }>;
      expect(stored.find((building) => building.name === 'Warehouse')?.corners).toHaveLength(4);
    });
  });

  describe("the official client's deleteBuilding", () => {
    it('deletes a building with a path graph, POIs and geofences, as the hosted API does', async () => {
      const sdk = new SitumSDK({ domain, auth: { username: org.email, password: org.password } });
      const site = await createSite(t, admin);
      await putPaths(t, admin, site.place);
      const poi = await addPoi(t, admin, site.place);
      const geofence = await createGeofence(t, admin, site.place);

      await sdk.cartography.deleteBuilding(site.building.id);

      expectError(await t.http.get(`/api/v1/buildings/${site.building.id}`).set(admin), 404, 'entity_not_found');
      expectError(await t.http.get(`/api/v1/floors/${site.floor.id}`).set(admin), 404, 'entity_not_found');
      expectError(await t.http.get(`/api/v1/pois/${poi.id}`).set(admin), 404, 'entity_not_found');
      expect((await t.http.get(`/api/v1/geofences/${geofence.id}`).set(admin)).body.deleted).toBe(true);
      expectError(await t.http.get(`/api/v1/buildings/${site.building.id}/paths`).set(admin), 404, 'entity_not_found');
    });

    it('cascade=false still refuses while something remains', async () => {
      const site = await createSite(t, admin);
      await putPaths(t, admin, site.place);
      expectError(await t.http.delete(`/api/v1/buildings/${site.building.id}?cascade=false`).set(admin), 409, 'conflict');
      expectStatus(await t.http.get(`/api/v1/buildings/${site.building.id}`).set(admin), 200);
    });
  });
});
