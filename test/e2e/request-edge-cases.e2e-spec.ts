import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, login } from '../support/admin';
import { asBasic, createOrganization, TestOrganization } from '../support/auth';
import { createBuilding, createFloor, createGeofence } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';
import { ApiPermission } from '../../src/access/permissions';
import { CredentialKind, Principal } from '../../src/access/principal';
import { Role } from '../../src/access/roles';
import { ScanPositioningService } from '../../src/infrastructure/scan-positioning.service';

/** Regressions found by the rev1 review (docs/decisions.md, "Review findings (rev1)"). */
describe('edge cases of sessions, rules of deleted fences, scans and webhook scopes', () => {
  let t: TestApp;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, 'Review rev1 org');
  });
  afterAll(async () => t?.close());

  async function sessionCookies(): Promise<{ header: string; csrf: string }> {
    const response = await t.http.post('/api/v1/auth/session').set(asBasic(org.email, org.password)).expect(201);
    const raw = response.headers['set-cookie'] as unknown as string[];
    const pairs = raw.map((c) => c.split(';')[0]);
    return { header: pairs.join('; '), csrf: pairs.find((p) => p.startsWith('cartograph_csrf='))!.split('=')[1] };
  }

  const BUILDING = { name: 'Forged', location: { lat: 42.87, lng: -8.56 }, dimensions: { width: 50, length: 30 }, rotation: 0 };

  describe('session cookie and headers', () => {
    /** Through Fastify's inject: supertest would send the no-break space as UTF-8, a browser's fetch sends the byte 0xA0. */
    const forgedWrite = async (cookies: { header: string }, extra: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/buildings',
        headers: { cookie: cookies.header, authorization: 'Bearer\u00a0', 'content-type': 'application/json', ...extra },
        payload: JSON.stringify(BUILDING),
      });

    it('a Bearer header the JWT extractor cannot parse does not fall back to the cookie (no CSRF bypass)', async () => {
      const cookies = await sessionCookies();
      // "Bearer" + a no-break space: /^bearer\s/ sees a Bearer header, passport-jwt finds no token in it.
      const forged = await forgedWrite(cookies);
      expect(forged.statusCode).toBe(401);
      const list = await t.http.get('/api/v1/buildings').set('Cookie', cookies.header).expect(200);
      expect(JSON.stringify(list.body)).not.toContain('"Forged"');
    });

    it('the same with a junk X-API-KEY beside it', async () => {
      const cookies = await sessionCookies();
      const forged = await forgedWrite(cookies, { 'x-api-key': 'junk' });
      expect(forged.statusCode).toBe(401);
    });

    it('an X-Forwarded-Host from a client that is not a trusted proxy does not make a foreign Origin look local', async () => {
      const cookies = await sessionCookies();
      const forged = await t.http
        .post('/api/v1/buildings')
        .set('Cookie', cookies.header)
        .set('X-CSRF-Token', cookies.csrf)
        .set('X-Forwarded-Host', 'evil.example')
        .set('Origin', 'https://evil.example')
        .send(BUILDING);
      expect(forged.status).toBe(403);
    });

    it('any Authorization header wins over the cookie, Basic included', async () => {
      const cookies = await sessionCookies();
      const response = await t.http.get('/api/v1/buildings').set('Cookie', cookies.header).set('Authorization', 'Basic Zm9vOmJhcg==');
      expect(response.status).toBe(401);
    });
  });

  describe('geofence rules of a deleted fence', () => {
    it('refuses to drop them (409) as it refuses to change them, and keeps them', async () => {
      const admin = (await login(t, org.email, org.password)).auth;
      const building = await createBuilding(t, admin);
      const floor = await createFloor(t, admin, building.id);
      const fence = await createGeofence(t, admin, { buildingId: building.id, floorId: floor.id });
      await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(admin).send({ buffer_m: 4 }).expect(200);
      await t.http.delete(`/api/v1/geofences/${fence.id}`).set(admin).expect(204);
      const dropped = await t.http.delete(`/api/v1/geofences/${fence.id}/rules`).set(admin);
      expect(dropped.status).toBe(409);
      expect(dropped.body).toMatchObject({ status: 409, code: 'conflict' });
      const rules = await t.http.get(`/api/v1/geofences/${fence.id}/rules`).set(admin).expect(200);
      expect(rules.body.overrides).toEqual({ buffer_m: 4 });
    });
  });

  describe('scan positioning: the building of a scan', () => {
    it('counts a transmitter listed in two buildings for both, not for whichever row came last', async () => {
      const admin = (await login(t, org.email, org.password)).auth;
      const place = async () => {
        const building = await createBuilding(t, admin);
        return { building, floor: await createFloor(t, admin, building.id) };
      };
      const b = await place();
      const a = await place();
      const ap = (floorId: number, bssid: string) => ({ floor_id: floorId, bssid, x: 5, y: 5 });
      // The same access point listed in both buildings (B first), and one more only in B.
      await t.http.post('/api/v1/infrastructure/wifi').set(admin).send(ap(b.floor.id, 'aa:bb:cc:00:00:01')).expect(201);
      await t.http.post('/api/v1/infrastructure/wifi').set(admin).send(ap(a.floor.id, 'aa:bb:cc:00:00:01')).expect(201);
      await t.http.post('/api/v1/infrastructure/wifi').set(admin).send(ap(b.floor.id, 'aa:bb:cc:00:00:02')).expect(201);
      const principal: Principal = {
        userId: org.adminId,
        organizationId: org.organizationId,
        email: org.email,
        role: Role.AdminOrg,
        permission: ApiPermission.Positioning,
        credential: CredentialKind.ApiKey,
        apiKeyId: null,
        sessionId: null,
        buildingIds: null,
      } as Principal;
      const result = await t.app.get(ScanPositioningService).estimateBatch(principal, [
        {
          device_id: 'tag',
          time: Date.now(),
          wifi: [
            { bssid: 'aa:bb:cc:00:00:01', rssi: -40 },
            { bssid: 'aa:bb:cc:00:00:02', rssi: -60 },
          ],
        },
      ]);
      expect(result.rejected).toEqual([]);
      expect(result.fixes[0]).toMatchObject({ building_id: b.building.id, floor_id: b.floor.id, transmitters_used: 2 });
    });
  });

  describe('webhooks and building restrictions', () => {
    it('a user restricted to some buildings cannot subscribe to, list or change the organization’s webhooks', async () => {
      const admin = (await login(t, org.email, org.password)).auth;
      const building = await createBuilding(t, admin);
      const user = await addUser(t, admin, { building_ids: [building.id] });
      const { auth } = await login(t, user.email, user.password);
      const hook = { url: 'http://127.0.0.1:9/hooks/rev1' };
      // Unfiltered, it would receive the events of buildings the user cannot see.
      const created = await t.http.post('/api/v1/webhooks').set(auth).send(hook);
      expect(created.status).toBe(403);
      expect(created.body).toMatchObject({ status: 403, code: 'forbidden' });
      const own = await t.http.post('/api/v1/webhooks').set(admin).send(hook).expect(201);
      expect((await t.http.get('/api/v1/webhooks').set(auth)).status).toBe(403);
      expect((await t.http.get(`/api/v1/webhooks/${own.body.id}`).set(auth)).status).toBe(403);
      expect((await t.http.put(`/api/v1/webhooks/${own.body.id}`).set(auth).send({ url: 'http://127.0.0.1:9/hooks/mine' })).status).toBe(403);
      expect((await t.http.post(`/api/v1/webhooks/${own.body.id}/rotate_secret`).set(auth)).status).toBe(403);
      expect((await t.http.delete(`/api/v1/webhooks/${own.body.id}`).set(auth)).status).toBe(403);
      const after = await t.http.get(`/api/v1/webhooks/${own.body.id}`).set(admin).expect(200);
      expect(after.body.url).toBe(hook.url);
      const list = await t.http.get('/api/v1/webhooks').set(admin).expect(200);
      expect(list.body.data).toHaveLength(1);
    });
  });
});

// Its own app, after the one above is closed (Passport's strategies are process-global).
describe('dashboard writes behind a trusted proxy', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await createTestApp({ env: { TRUSTED_PROXIES: '127.0.0.1,::1,::ffff:127.0.0.1' } });
  });
  afterAll(async () => proxied?.close());

  it('judges Origin against the host the browser used (X-Forwarded-Host from a trusted proxy), not the proxy’s upstream Host', async () => {
    const o = await createOrganization(proxied, 'Behind a proxy');
    const login = await proxied.http.post('/api/v1/auth/session').set(asBasic(o.email, o.password)).expect(201);
    const pairs = (login.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]);
    const cookie = pairs.join('; ');
    const csrf = pairs.find((p) => p.startsWith('cartograph_csrf='))!.split('=')[1];
    const building = { name: 'Via proxy', location: { lat: 42.87, lng: -8.56 }, dimensions: { width: 50, length: 30 }, rotation: 0 };
    const write = (forwardedHost: string, origin: string) =>
      proxied.http
        .post('/api/v1/buildings')
        .set('Cookie', cookie)
        .set('X-CSRF-Token', csrf)
        .set('Host', '127.0.0.1:3000')
        .set('X-Forwarded-Host', forwardedHost)
        .set('X-Forwarded-Proto', 'https')
        .set('Origin', origin)
        .send(building);
    expect((await write('cartograph.example', 'https://cartograph.example')).status).toBe(201);
    expect((await write('cartograph.example', 'https://evil.example')).status).toBe(403);
  });
});

describe('the webhook limit under concurrent creates', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ env: { WEBHOOK_MAX_ENDPOINTS: '2' } });
  });
  afterAll(async () => limited?.close());

  it('never lets concurrent creates pass WEBHOOK_MAX_ENDPOINTS', async () => {
    const o = await createOrganization(limited, 'Hook limit');
    const { auth } = await login(limited, o.email, o.password);
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        limited.http
          .post('/api/v1/webhooks')
          .set(auth)
          .send({ url: `http://127.0.0.1:9/hooks/${index}` }),
      ),
    );
    expect(responses.filter((response) => response.status === 201)).toHaveLength(2);
    for (const response of responses.filter((r) => r.status !== 201)) expect(response.body).toMatchObject({ status: 422, code: 'validation_failed' });
    const list = await limited.http.get('/api/v1/webhooks').set(auth).expect(200);
    expect(list.body.data).toHaveLength(2);
  });
});
