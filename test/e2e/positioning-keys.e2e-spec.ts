import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positioningKeyCipher } from '../../src/auth/api-keys/api-key-cipher';
import { ApiPermission } from '../../src/access/permissions';
import { Role } from '../../src/access/roles';
import { sha256Hex } from '../../src/auth/secrets';
import { asApiKey, asBearer, createApiKey, createOrganization, passwordTokens, TestOrganization } from '../support/auth';
import { createTestApp, TestApp } from '../support/test-app';
import { createUser } from '../support/users';

const MASKED = /^cgk_[A-Za-z0-9_-]{4}\*{8}[A-Za-z0-9_-]{4}$/;

/** Contract section 10: positioning keys are readable in full by their owner and the organization's admins. */
describe('positioning keys', () => {
  let t: TestApp;
  let org: TestOrganization;
  let adminAuth: Record<string, string>;
  let userAuth: Record<string, string>;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, 'Positioning keys');
    adminAuth = asBearer((await passwordTokens(t, org.email, org.password)).access_token);
    const user = await createUser(t, org.organizationId, Role.User);
    userId = user.id;
    userAuth = asBearer((await passwordTokens(t, user.email, user.password)).access_token);
  });
  afterAll(async () => t?.close());

  const listed = async (auth: Record<string, string>, query = '') =>
    (await t.http.get(`/api/v1/auth/apikeys${query}`).set(auth).expect(200)).body as Array<{ id: string; apikey: string; permission: string }>;
  const storedRow = async (id: string) => (await t.dataSource.query(`SELECT * FROM "api_keys" WHERE "id" = '${id}'`))[0] as Record<string, unknown>;

  it('lists positioning keys in full to their owner, stored sealed and never in clear; other levels stay masked and hash-only', async () => {
    const positioning = await createApiKey(t, userAuth.Authorization.slice(7), ApiPermission.Positioning, 'kiosk');
    const readOnly = await createApiKey(t, userAuth.Authorization.slice(7), ApiPermission.ReadOnly, 'reports');
    const response = await t.http.get('/api/v1/auth/apikeys').set(userAuth).expect(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const keys = response.body as Array<{ id: string; apikey: string }>;
    expect(keys.find((key) => key.id === positioning.id)?.apikey).toBe(positioning.apikey);
    expect(keys.find((key) => key.id === readOnly.id)?.apikey).toMatch(MASKED);

    const sealed = await storedRow(positioning.id);
    expect(sealed.key_hash).toBe(sha256Hex(positioning.apikey));
    expect(sealed.sealed_key).toMatch(/^v1\./);
    expect(JSON.stringify(sealed)).not.toContain(positioning.apikey.slice(4, 24));
    expect(JSON.stringify(sealed)).not.toContain(positioning.apikey.slice(-20));
    expect((await storedRow(readOnly.id)).sealed_key).toBeNull();

    // The listed key is the real one: it authenticates (positioning may read cartography).
    await t.http
      .get('/api/v1/buildings')
      .set(asApiKey(keys.find((key) => key.id === positioning.id)!.apikey))
      .expect(200);
  });

  it("shows a user's positioning keys in full to the organization's administrators only", async () => {
    const positioning = await createApiKey(t, userAuth.Authorization.slice(7), ApiPermission.Positioning);
    const forAdmin = await listed(adminAuth, `?user_id=${userId}&permissions=positioning`);
    expect(forAdmin.find((key) => key.id === positioning.id)?.apikey).toBe(positioning.apikey);
    const other = await createUser(t, org.organizationId, Role.User);
    const otherAuth = asBearer((await passwordTokens(t, other.email, other.password)).access_token);
    const refused = await t.http.get(`/api/v1/auth/apikeys?user_id=${userId}`).set(otherAuth).expect(403);
    expect(JSON.stringify(refused.body)).not.toContain(positioning.apikey);
    expect(await listed(otherAuth)).toEqual([]);
  });

  it('keeps no secret of a key that leaves the positioning level, and cannot recover one that joins it', async () => {
    const key = await createApiKey(t, userAuth.Authorization.slice(7), ApiPermission.Positioning);
    const renamed = await t.http.put(`/api/v1/auth/apikeys/${key.id}`).set(userAuth).send({ description: 'renamed' }).expect(200);
    expect(renamed.body.apikey).toBe(key.apikey);
    const downgraded = await t.http.put(`/api/v1/auth/apikeys/${key.id}`).set(userAuth).send({ permission: ApiPermission.ReadOnly }).expect(200);
    expect(downgraded.body.apikey).toMatch(MASKED);
    expect((await storedRow(key.id)).sealed_key).toBeNull();
    const back = await t.http.put(`/api/v1/auth/apikeys/${key.id}`).set(userAuth).send({ permission: ApiPermission.Positioning }).expect(200);
    expect(back.body.apikey).toMatch(MASKED);
    expect((await listed(userAuth)).find((listedKey) => listedKey.id === key.id)?.apikey).toMatch(MASKED);
    await t.http.get('/api/v1/buildings').set(asApiKey(key.apikey)).expect(200);
  });

  it('shows masked the positioning keys created before they were readable, and those sealed under another server secret', async () => {
    const legacy = await createApiKey(t, userAuth.Authorization.slice(7), ApiPermission.Positioning, 'legacy');
    await t.dataSource.query(`UPDATE "api_keys" SET "sealed_key" = NULL WHERE "id" = '${legacy.id}'`);
    const foreign = await createApiKey(t, userAuth.Authorization.slice(7), ApiPermission.Positioning, 'foreign');
    const resealed = positioningKeyCipher('another server secret, 32 chars+').seal(foreign.apikey, foreign.id);
    await t.dataSource.query(`UPDATE "api_keys" SET "sealed_key" = '${resealed}' WHERE "id" = '${foreign.id}'`);
    const keys = await listed(userAuth, '?permissions=positioning');
    expect(keys.find((key) => key.id === legacy.id)?.apikey).toMatch(MASKED);
    expect(keys.find((key) => key.id === foreign.id)?.apikey).toMatch(MASKED);
    // Both still authenticate: the hash is what authentication uses.
    await t.http.get('/api/v1/buildings').set(asApiKey(legacy.apikey)).expect(200);
    await t.http.get('/api/v1/buildings').set(asApiKey(foreign.apikey)).expect(200);
  });
});
