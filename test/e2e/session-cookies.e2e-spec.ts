import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asBasic, createOrganization, TestOrganization } from '../support/auth';
import { createTestApp, TestApp } from '../support/test-app';

describe('dashboard session cookies against forged writes', () => {
  let t: TestApp;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, 'Session cookies org');
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
