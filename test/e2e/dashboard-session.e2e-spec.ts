import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { asApiKey, asBasic, asBearer, createApiKey, createOrganization, passwordTokens, TestOrganization } from '../support/auth';
import { createTestApp, TestApp } from '../support/test-app';

interface SessionCookies {
  header: string;
  csrf: string;
  raw: string[];
}

/** The cookies a browser would keep from the login answer. */
function cookiesOf(setCookie: string[] | string | undefined): SessionCookies {
  const raw = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const pairs = raw.map((c) => c.split(';')[0]);
  const csrf = pairs.find((p) => p.startsWith('cartograph_csrf='))?.split('=')[1] ?? '';
  return { header: pairs.join('; '), csrf, raw };
}

const BUILDING = { name: 'HQ', location: { lat: 42.87, lng: -8.56 }, dimensions: { width: 50, length: 30 }, rotation: 0 };

describe('dashboard session', () => {
  let t: TestApp;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, 'Dashboard org');
  });
  afterAll(async () => t?.close());

  async function logIn(): Promise<SessionCookies> {
    const response = await t.http.post('/api/v1/auth/session').set(asBasic(org.email, org.password)).expect(201);
    expect(response.body).toMatchObject({ user: { email: org.email, role: 'ADMIN_ORG', organization_id: org.organizationId } });
    return cookiesOf(response.headers['set-cookie']);
  }

  it('sets an HttpOnly SameSite=Strict session cookie and a readable CSRF cookie, and no token in the body', async () => {
    const response = await t.http.post('/api/v1/auth/session').set(asBasic(org.email, org.password)).expect(201);
    const cookies = cookiesOf(response.headers['set-cookie']);
    const session = cookies.raw.find((c) => c.startsWith('cartograph_session='))!;
    const csrf = cookies.raw.find((c) => c.startsWith('cartograph_csrf='))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Strict/i);
    expect(session).toMatch(/Path=\//);
    expect(session).not.toMatch(/Secure/i); // plain HTTP here; Secure when the request came over HTTPS
    expect(csrf).not.toMatch(/HttpOnly/i);
    expect(csrf).toMatch(/SameSite=Strict/i);
    expect(JSON.stringify(response.body)).not.toContain(session.split(';')[0].split('=')[1]);
  });

  it('reads with the cookie alone, and tells who is logged in', async () => {
    const cookies = await logIn();
    const me = await t.http.get('/api/v1/auth/session').set('Cookie', cookies.header).expect(200);
    expect(me.body.user.email).toBe(org.email);
    expect(Date.parse(me.body.expires_at)).toBeGreaterThan(Date.now());
    await t.http.get('/api/v1/buildings').set('Cookie', cookies.header).expect(200);
  });

  it('refuses a write with the cookie but without the CSRF header, or with a wrong one, or from another origin', async () => {
    const cookies = await logIn();
    const missing = await t.http.post('/api/v1/buildings').set('Cookie', cookies.header).send(BUILDING).expect(403);
    expect(missing.body).toMatchObject({ status: 403, code: 'forbidden' });
    await t.http.post('/api/v1/buildings').set('Cookie', cookies.header).set('X-CSRF-Token', 'x'.repeat(43)).send(BUILDING).expect(403);
    await t.http.post('/api/v1/buildings').set('Cookie', cookies.header).set('X-CSRF-Token', cookies.csrf).set('Origin', 'https://evil.example').send(BUILDING).expect(403);
    const list = await t.http.get('/api/v1/buildings').set('Cookie', cookies.header).expect(200);
    expect(JSON.stringify(list.body)).not.toContain('"HQ"');
  });

  it('accepts a write with the session CSRF token (and a same-origin Origin)', async () => {
    const cookies = await logIn();
    const created = await t.http
      .post('/api/v1/buildings')
      .set('Cookie', cookies.header)
      .set('X-CSRF-Token', cookies.csrf)
      .set('Host', 'cartograph.example:8443')
      .set('Origin', 'https://cartograph.example:8443')
      .send(BUILDING)
      .expect(201);
    expect(created.body.name).toBe('HQ');
  });

  it("does not accept another session's CSRF token", async () => {
    const a = await logIn();
    const b = await logIn();
    expect(a.csrf).not.toBe(b.csrf);
    await t.http.post('/api/v1/buildings').set('Cookie', a.header).set('X-CSRF-Token', b.csrf).send(BUILDING).expect(403);
  });

  it('logs out: the cookie stops working at once and the cookies are cleared', async () => {
    const cookies = await logIn();
    const out = await t.http.delete('/api/v1/auth/session').set('Cookie', cookies.header).set('X-CSRF-Token', cookies.csrf).expect(204);
    const cleared = cookiesOf(out.headers['set-cookie']).raw;
    expect(cleared.some((c) => /^cartograph_session=;/.test(c) && /Expires=Thu, 01 Jan 1970|Max-Age=0/i.test(c))).toBe(true);
    const after = await t.http.get('/api/v1/buildings').set('Cookie', cookies.header).expect(401);
    expect(after.body).toMatchObject({ status: 401 });
  });

  it('logging out needs the CSRF token too (a cross-site page cannot log you out)', async () => {
    const cookies = await logIn();
    await t.http.delete('/api/v1/auth/session').set('Cookie', cookies.header).expect(403);
    await t.http.get('/api/v1/auth/session').set('Cookie', cookies.header).expect(200);
  });

  it('takes only a password: wrong ones are 401 invalid_credentials, and an API key cannot open a dashboard session', async () => {
    const wrong = await t.http.post('/api/v1/auth/session').set(asBasic(org.email, 'not the password')).expect(401);
    expect(wrong.body).toMatchObject({ status: 401, code: 'invalid_credentials' });
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const tokens = await passwordTokens(t, org.email, org.password);
    const key = await createApiKey(t, tokens.access_token, ApiPermission.ReadWrite);
    const viaKey = await t.http.post('/api/v1/auth/session').set(asApiKey(key.apikey)).expect(401);
    expect(viaKey.headers['set-cookie']).toBeUndefined();
    await t.http.post('/api/v1/auth/session').expect(401);
  });

  it('headers win over the cookie: a request with a Bearer token is judged by the token, without CSRF', async () => {
    const cookies = await logIn();
    const tokens = await passwordTokens(t, org.email, org.password);
    await t.http
      .post('/api/v1/buildings')
      .set('Cookie', cookies.header)
      .set(asBearer(tokens.access_token))
      .send({ ...BUILDING, name: 'Via token' })
      .expect(201);
    await t.http.get('/api/v1/buildings').set('Cookie', cookies.header).set(asBearer('not-a-token')).expect(401);
  });

  it('a garbage cookie is 401, never 500', async () => {
    await t.http.get('/api/v1/buildings').set('Cookie', 'cartograph_session=garbage').expect(401);
    await t.http.get('/api/v1/auth/session').set('Cookie', 'cartograph_session=%zz; other=1').expect(401);
  });
});

// Its own app, started after the one above is closed: Passport's strategy registry is
// process-global, so two apps alive in one process would share the last one's strategies.
describe('dashboard session behind a TLS-terminating proxy', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await createTestApp({ env: { TRUSTED_PROXIES: '127.0.0.1,::1,::ffff:127.0.0.1' } });
  });
  afterAll(async () => proxied?.close());

  it('marks the cookies Secure when the request came over HTTPS through a trusted proxy', async () => {
    const o = await createOrganization(proxied, 'Behind TLS');
    const response = await proxied.http.post('/api/v1/auth/session').set(asBasic(o.email, o.password)).set('X-Forwarded-Proto', 'https').expect(201);
    const cookies = cookiesOf(response.headers['set-cookie']).raw;
    expect(cookies).toHaveLength(2);
    for (const c of cookies) expect(c).toMatch(/Secure/i);
  });
});

describe('dashboard logout with the credential cache warm', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { CREDENTIAL_CACHE_MAX_AGE_SECONDS: '300' } });
  });
  afterAll(async () => t?.close());

  it('refuses the cookie at once after logout even though the cache had verified it', async () => {
    const o = await createOrganization(t, 'Cached');
    const cookies = cookiesOf((await t.http.post('/api/v1/auth/session').set(asBasic(o.email, o.password)).expect(201)).headers['set-cookie']);
    await t.http.get('/api/v1/buildings').set('Cookie', cookies.header).expect(200);
    await t.http.get('/api/v1/buildings').set('Cookie', cookies.header).expect(200);
    await t.http.delete('/api/v1/auth/session').set('Cookie', cookies.header).set('X-CSRF-Token', cookies.csrf).expect(204);
    await t.http.get('/api/v1/buildings').set('Cookie', cookies.header).expect(401);
  });
});
