import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialCacheService } from '../../src/auth/credential-cache.service';
import { ApiPermission } from '../../src/access/permissions';
import { Role } from '../../src/access/roles';
import { asApiKey, asBearer, createApiKey, createOrganization, passwordTokens, TestOrganization } from '../support/auth';
import { createBuilding } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';
import { createUser, TestUser } from '../support/users';

/**
 * Issue 16: a credential whose principal is cached stops working as soon as a revocation is
 * acknowledged, for every cause. Each test first proves that the credential is served from
 * the cache (so that the refusal is the revocation's doing, not a cache miss).
 */
describe('credential cache revocations', () => {
  let t: TestApp;
  let org: TestOrganization;
  let adminAuth: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, 'Revocations');
    adminAuth = asBearer((await passwordTokens(t, org.email, org.password)).access_token);
  });
  afterAll(async () => t?.close());

  /** Two successful reads, the second answered from the cache. */
  async function warm(auth: Record<string, string>, path = '/api/v1/users/me'): Promise<void> {
    await t.http.get(path).set(auth).expect(200);
    const before = t.app.get(CredentialCacheService).stats().hits;
    await t.http.get(path).set(auth).expect(200);
    expect(t.app.get(CredentialCacheService).stats().hits).toBe(before + 1);
  }

  async function userWithCredentials(role: Role = Role.User): Promise<TestUser & { tokens: { access_token: string; refresh_token: string }; key: string }> {
    const user = await createUser(t, org.organizationId, role);
    const tokens = await passwordTokens(t, user.email, user.password);
    const key = (await createApiKey(t, tokens.access_token, ApiPermission.ReadWrite)).apikey;
    return { ...user, tokens, key };
  }

  it('serves a repeated token and key from the cache and counts it', async () => {
    const user = await userWithCredentials();
    const cache = t.app.get(CredentialCacheService);
    const before = cache.stats();
    await warm(asBearer(user.tokens.access_token));
    await warm(asApiKey(user.key));
    const after = cache.stats();
    expect(after.hits - before.hits).toBeGreaterThanOrEqual(2);
    expect(after.entries).toBeGreaterThanOrEqual(2);
    expect(after.bytes).toBeGreaterThan(0);
  });

  it('refresh token replay: the session’s access token is refused at once', async () => {
    const user = await userWithCredentials();
    await warm(asBearer(user.tokens.access_token));
    await t.http.post('/api/v1/auth/refresh_access_tokens').send(user.tokens).expect(201);
    await t.http.post('/api/v1/auth/refresh_access_tokens').send(user.tokens).expect(401);
    await t.http.get('/api/v1/users/me').set(asBearer(user.tokens.access_token)).expect(401);
    await t.http.get('/api/v1/users/me').set(asApiKey(user.key)).expect(200);
  });

  it('own password change: password tokens are refused at once, keys keep working', async () => {
    const user = await userWithCredentials();
    await warm(asBearer(user.tokens.access_token));
    await warm(asApiKey(user.key));
    await t.http
      .put('/api/v1/users/me/password')
      .set(asBearer(user.tokens.access_token))
      .send({ current_password: user.password, new_password: 'a brand new passphrase' })
      .expect(204);
    await t.http.get('/api/v1/users/me').set(asBearer(user.tokens.access_token)).expect(401);
    await t.http.get('/api/v1/users/me').set(asApiKey(user.key)).expect(200);
  });

  it('password reset by an administrator: password tokens are refused at once', async () => {
    const user = await userWithCredentials();
    await warm(asBearer(user.tokens.access_token));
    await t.http.put(`/api/v1/users/${user.id}`).set(adminAuth).send({ password: 'reset by the admin 123' }).expect(200);
    await t.http.get('/api/v1/users/me').set(asBearer(user.tokens.access_token)).expect(401);
  });

  it('key deletion: the key and the tokens made from it are refused at once', async () => {
    const user = await userWithCredentials();
    const created = await createApiKey(t, user.tokens.access_token, ApiPermission.ReadOnly);
    const keyToken = (await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(created.apikey)).expect(201)).body.access_token as string;
    await warm(asApiKey(created.apikey));
    await warm(asBearer(keyToken));
    await t.http.delete(`/api/v1/auth/apikeys/${created.id}`).set(asBearer(user.tokens.access_token)).expect(204);
    await t.http.get('/api/v1/users/me').set(asApiKey(created.apikey)).expect(401);
    await t.http.get('/api/v1/users/me').set(asBearer(keyToken)).expect(401);
    await t.http.get('/api/v1/users/me').set(asBearer(user.tokens.access_token)).expect(200);
  });

  it('key deletion by an administrator: refused at once', async () => {
    const user = await userWithCredentials();
    const created = await createApiKey(t, user.tokens.access_token, ApiPermission.ReadOnly);
    await warm(asApiKey(created.apikey));
    await t.http.delete(`/api/v1/auth/apikeys/${created.id}`).set(adminAuth).expect(204);
    await t.http.get('/api/v1/users/me').set(asApiKey(created.apikey)).expect(401);
  });

  it('key downgrade: the key and its tokens get the new permission at once; disabling refuses them', async () => {
    const user = await userWithCredentials();
    const created = await createApiKey(t, user.tokens.access_token, ApiPermission.ReadOnly);
    const keyToken = (await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(created.apikey)).expect(201)).body.access_token as string;
    await warm(asApiKey(created.apikey));
    await warm(asBearer(keyToken));
    const manage = asBearer(user.tokens.access_token);
    await t.http.put(`/api/v1/auth/apikeys/${created.id}`).set(manage).send({ permission: ApiPermission.Positioning }).expect(200);
    expect((await t.http.get('/api/v1/users/me').set(asApiKey(created.apikey))).status).toBe(403);
    expect((await t.http.get('/api/v1/users/me').set(asBearer(keyToken))).status).toBe(403);
    await warm(asApiKey(created.apikey), '/api/v1/version');
    await t.http.put(`/api/v1/auth/apikeys/${created.id}`).set(manage).send({ permission: ApiPermission.Disabled }).expect(200);
    await t.http.get('/api/v1/version').set(asApiKey(created.apikey)).expect(401);
    await t.http.get('/api/v1/version').set(asBearer(keyToken)).expect(401);
  });

  it('user deletion: every token and key of the user is refused at once', async () => {
    const user = await userWithCredentials();
    await warm(asBearer(user.tokens.access_token));
    await warm(asApiKey(user.key));
    await t.http.delete(`/api/v1/users/${user.id}`).set(adminAuth).expect(204);
    await t.http.get('/api/v1/users/me').set(asBearer(user.tokens.access_token)).expect(401);
    await t.http.get('/api/v1/users/me').set(asApiKey(user.key)).expect(401);
  });

  it('role change: a demoted administrator loses administration at once', async () => {
    const admin = await userWithCredentials(Role.AdminOrg);
    const other = await createUser(t, org.organizationId);
    await warm(asBearer(admin.tokens.access_token), `/api/v1/users/${other.id}`);
    await warm(asApiKey(admin.key), `/api/v1/users/${other.id}`);
    await t.http.put(`/api/v1/users/${admin.id}`).set(adminAuth).send({ role: Role.User }).expect(200);
    expect((await t.http.get(`/api/v1/users/${other.id}`).set(asBearer(admin.tokens.access_token))).status).toBe(403);
    expect((await t.http.get(`/api/v1/users/${other.id}`).set(asApiKey(admin.key))).status).toBe(403);
  });

  it('building restriction: a newly restricted user loses other buildings at once', async () => {
    const user = await userWithCredentials();
    const seen = await createBuilding(t, adminAuth);
    const allowed = await createBuilding(t, adminAuth);
    await warm(asBearer(user.tokens.access_token), `/api/v1/buildings/${seen.id}`);
    await warm(asApiKey(user.key), `/api/v1/buildings/${seen.id}`);
    await t.http
      .put(`/api/v1/users/${user.id}`)
      .set(adminAuth)
      .send({ building_ids: [allowed.id] })
      .expect(200);
    await t.http.get(`/api/v1/buildings/${seen.id}`).set(asBearer(user.tokens.access_token)).expect(404);
    await t.http.get(`/api/v1/buildings/${seen.id}`).set(asApiKey(user.key)).expect(404);
  });

  it('e-mail change: X-API-EMAIL naming the old address is refused at once', async () => {
    const user = await userWithCredentials();
    await warm(asApiKey(user.key, user.email));
    const newEmail = `renamed-${user.email}`;
    await t.http.put(`/api/v1/users/${user.id}`).set(adminAuth).send({ email: newEmail }).expect(200);
    await t.http.get('/api/v1/users/me').set(asApiKey(user.key, user.email)).expect(401);
    await t.http.get('/api/v1/users/me').set(asApiKey(user.key, newEmail)).expect(200);
  });

  it('a profile change keeps the cache (it changes nothing a credential may do)', async () => {
    const user = await userWithCredentials();
    await warm(asBearer(user.tokens.access_token));
    await t.http.put(`/api/v1/users/${user.id}`).set(adminAuth).send({ full_name: 'Renamed' }).expect(200);
    const before = t.app.get(CredentialCacheService).stats().hits;
    await t.http.get('/api/v1/users/me').set(asBearer(user.tokens.access_token)).expect(200);
    expect(t.app.get(CredentialCacheService).stats().hits).toBe(before + 1);
  });
});
