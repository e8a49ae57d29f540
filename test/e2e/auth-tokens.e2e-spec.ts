import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asBasic, asBearer, createOrganization, decodeJwt, passwordTokens, TestOrganization } from '../support/auth';
import { createTestApp, TestApp } from '../support/test-app';

const UNAUTHORIZED = { status: 401, code: 'unauthorized', errors: [] };

function signJwt(header: object, payload: object, secret: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode(header)}.${encode(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

describe('POST /api/v1/auth/access_tokens and refresh_access_tokens', () => {
  let t: TestApp;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_FAILURE_LIMIT: '3', TRUSTED_PROXIES: 'loopback' } });
    org = await createOrganization(t, 'Tokens');
  });
  afterAll(async () => t?.close());

  it('issues a JWT with the contract claims from Basic credentials (e-mail case-insensitive)', async () => {
    const response = await t.http.post('/api/v1/auth/access_tokens').set(asBasic(org.email.toUpperCase(), org.password)).set('Content-Type', 'application/json').expect(201);
    expect(Object.keys(response.body).sort()).toEqual(['access_token', 'refresh_token']);
    const claims = decodeJwt(response.body.access_token);
    expect(claims).toMatchObject({
      sub: org.adminId,
      email: org.email,
      organization_uuid: org.organizationId,
      role: 'ADMIN_ORG',
      api_permission: 'read-write',
    });
    expect(typeof claims.jti).toBe('string');
    expect((claims.exp as number) - (claims.iat as number)).toBe(345600);
    const header = JSON.parse(Buffer.from(response.body.access_token.split('.')[0], 'base64url').toString());
    expect(header.alg).toBe('HS256');
    await t.http.get('/api/v1/version').set(asBearer(response.body.access_token)).expect(200);
  });

  it('answers a wrong password and an unknown e-mail alike', async () => {
    const wrongPassword = await t.http.post('/api/v1/auth/access_tokens').set('X-Forwarded-For', '10.0.0.1').set(asBasic(org.email, 'wrong-password-123')).expect(401);
    const unknownEmail = await t.http.post('/api/v1/auth/access_tokens').set('X-Forwarded-For', '10.0.0.2').set(asBasic('nobody@example.test', 'wrong-password-123')).expect(401);
    expect(wrongPassword.body).toEqual({ status: 401, code: 'invalid_credentials', message: 'Invalid e-mail or password', errors: [] });
    expect(unknownEmail.body).toEqual(wrongPassword.body);
  });

  it('refuses requests without credentials, with a Bearer token only, or with a malformed Basic header', async () => {
    const none = await t.http.post('/api/v1/auth/access_tokens').expect(401);
    expect(none.body).toMatchObject(UNAUTHORIZED);
    const tokens = await passwordTokens(t, org.email, org.password);
    await t.http.post('/api/v1/auth/access_tokens').set(asBearer(tokens.access_token)).expect(401);
    await t.http.post('/api/v1/auth/access_tokens').set('Authorization', 'Basic !!!notbase64').expect(401);
  });

  describe('JWT verification', () => {
    it.each([
      [
        'alg none',
        (claims: object) => `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`,
      ],
      ['a wrong signature', (claims: object) => signJwt({ alg: 'HS256', typ: 'JWT' }, claims, 'another-secret-that-is-long-enough-000')],
      [
        'HS512 with the right secret',
        (claims: object) => {
          const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
          const unsigned = `${encode({ alg: 'HS512', typ: 'JWT' })}.${encode(claims)}`;
          return `${unsigned}.${createHmac('sha512', t.env.JWT_SECRET).update(unsigned).digest('base64url')}`;
        },
      ],
    ])('refuses a token with %s', async (_label, forge) => {
      const tokens = await passwordTokens(t, org.email, org.password);
      const claims = decodeJwt(tokens.access_token);
      const response = await t.http
        .get('/api/v1/version')
        .set(asBearer(forge(claims)))
        .expect(401);
      expect(response.body).toMatchObject(UNAUTHORIZED);
    });

    it('refuses a tampered payload', async () => {
      const tokens = await passwordTokens(t, org.email, org.password);
      const [header, , signature] = tokens.access_token.split('.');
      const claims = { ...decodeJwt(tokens.access_token), role: 'USER', api_permission: 'read-write', sub: '00000000-0000-4000-8000-000000000000' };
      const tampered = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
      await t.http.get('/api/v1/version').set(asBearer(tampered)).expect(401);
    });

    it('refuses an expired token and accepts a correctly signed live one', async () => {
      const tokens = await passwordTokens(t, org.email, org.password);
      const claims = decodeJwt(tokens.access_token);
      const now = Math.floor(Date.now() / 1000);
      const expired = signJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now - 100, exp: now - 10 }, t.env.JWT_SECRET);
      await t.http.get('/api/v1/version').set(asBearer(expired)).expect(401);
      const live = signJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now, exp: now + 100 }, t.env.JWT_SECRET);
      await t.http.get('/api/v1/version').set(asBearer(live)).expect(200);
    });

    it('refuses a correctly signed token whose session does not exist', async () => {
      const tokens = await passwordTokens(t, org.email, org.password);
      const now = Math.floor(Date.now() / 1000);
      const forged = signJwt(
        { alg: 'HS256', typ: 'JWT' },
        { ...decodeJwt(tokens.access_token), sid: '00000000-0000-4000-8000-000000000000', iat: now, exp: now + 100 },
        t.env.JWT_SECRET,
      );
      await t.http.get('/api/v1/version').set(asBearer(forged)).expect(401);
    });
  });

  describe('refresh', () => {
    it('exchanges a refresh token once for a new working pair', async () => {
      const first = await passwordTokens(t, org.email, org.password);
      const response = await t.http.post('/api/v1/auth/refresh_access_tokens').send(first).expect(201);
      expect(response.body.access_token).not.toBe(first.access_token);
      expect(response.body.refresh_token).not.toBe(first.refresh_token);
      expect(decodeJwt(response.body.access_token)).toMatchObject({ sub: org.adminId, sid: decodeJwt(first.access_token).sid });
      await t.http.get('/api/v1/version').set(asBearer(response.body.access_token)).expect(200);
    });

    it('revokes the whole chain when a used refresh token is presented again', async () => {
      const first = await passwordTokens(t, org.email, org.password);
      const second = (await t.http.post('/api/v1/auth/refresh_access_tokens').send(first).expect(201)).body;
      const replay = await t.http.post('/api/v1/auth/refresh_access_tokens').send(first).expect(401);
      expect(replay.body).toMatchObject(UNAUTHORIZED);
      // Every token of the chain is dead now, the newest included.
      await t.http.get('/api/v1/version').set(asBearer(second.access_token)).expect(401);
      await t.http.get('/api/v1/version').set(asBearer(first.access_token)).expect(401);
      await t.http.post('/api/v1/auth/refresh_access_tokens').send(second).expect(401);
      // Another login is unaffected.
      const other = await passwordTokens(t, org.email, org.password);
      await t.http.get('/api/v1/version').set(asBearer(other.access_token)).expect(200);
    });

    it('lets only one of two concurrent exchanges of the same token win', async () => {
      const pair = await passwordTokens(t, org.email, org.password);
      const results = await Promise.all([t.http.post('/api/v1/auth/refresh_access_tokens').send(pair), t.http.post('/api/v1/auth/refresh_access_tokens').send(pair)]);
      expect(results.map((result) => result.status).sort()).toEqual([201, 401]);
    });

    it('refuses a refresh token paired with the access token of another session', async () => {
      const a = await passwordTokens(t, org.email, org.password);
      const b = await passwordTokens(t, org.email, org.password);
      await t.http.post('/api/v1/auth/refresh_access_tokens').send({ access_token: b.access_token, refresh_token: a.refresh_token }).expect(401);
      // The refused attempt did not consume it.
      await t.http.post('/api/v1/auth/refresh_access_tokens').send(a).expect(201);
    });

    it('validates the body', async () => {
      const missing = await t.http.post('/api/v1/auth/refresh_access_tokens').send({}).expect(422);
      expect(missing.body.code).toBe('validation_failed');
      expect([...new Set(missing.body.errors.map((error: { fields: string }) => error.fields))].sort()).toEqual(['access_token', 'refresh_token']);
      await t.http.post('/api/v1/auth/refresh_access_tokens').send({ access_token: 'x', refresh_token: 'cgr_nope' }).expect(401);
    });
  });
});
