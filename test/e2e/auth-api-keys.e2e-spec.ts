import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { Role } from '../../src/access/roles';
import { sha256Hex } from '../../src/auth/secrets';
import { asApiKey, asBearer, createApiKey, createOrganization, decodeJwt, passwordTokens, TestOrganization } from '../support/auth';
import { createTestApp, TestApp } from '../support/test-app';
import { createUser } from '../support/users';

const RENAME = { name: 'Renamed by a key' };

describe('API keys', () => {
  let t: TestApp;
  let org: TestOrganization;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, 'Keys');
    adminToken = (await passwordTokens(t, org.email, org.password)).access_token;
  });
  afterAll(async () => t?.close());

  describe('management', () => {
    it('shows the secret once, stores only its SHA-256, and ignores keys the caller may not set', async () => {
      const created = await t.http
        .post('/api/v1/auth/apikeys')
        .set(asBearer(adminToken))
        .send({ permission: 'read-only', description: 'kiosk', id: '00000000-0000-4000-8000-000000000000', created_at: '2000-01-01', organization_id: randomUUID() })
        .expect(201);
      expect(created.body).toMatchObject({ permission: 'read-only', description: 'kiosk', last_used_at: null });
      expect(created.body.id).not.toBe('00000000-0000-4000-8000-000000000000');
      expect(created.body.apikey).toMatch(/^cgk_[A-Za-z0-9_-]{43}$/);
      expect(created.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);

      const [stored] = await t.dataSource.query(`SELECT * FROM "api_keys" WHERE "id" = '${created.body.id}'`);
      expect(stored.key_hash).toBe(sha256Hex(created.body.apikey));
      expect(stored.organization_id).toBe(org.organizationId);
      expect(JSON.stringify(stored)).not.toContain(created.body.apikey.slice(4, 40));

      const listed = await t.http.get('/api/v1/auth/apikeys').set(asBearer(adminToken)).expect(200);
      const entry = listed.body.find((key: { id: string }) => key.id === created.body.id);
      expect(Object.keys(entry).sort()).toEqual(['apikey', 'created_at', 'description', 'id', 'last_used_at', 'permission']);
      expect(entry.apikey).not.toBe(created.body.apikey);
      expect(entry.apikey.startsWith(created.body.apikey.slice(0, 8))).toBe(true);
      expect(entry.apikey).not.toContain(created.body.apikey.slice(8, 40));
    });

    it('defaults to read-only and validates the permission', async () => {
      const created = await t.http.post('/api/v1/auth/apikeys').set(asBearer(adminToken)).send({}).expect(201);
      expect(created.body.permission).toBe('read-only');
      const invalid = await t.http.post('/api/v1/auth/apikeys').set(asBearer(adminToken)).send({ permission: 'admin' }).expect(422);
      expect(invalid.body).toMatchObject({ status: 422, code: 'validation_failed' });
      expect(invalid.body.errors[0]).toMatchObject({ fields: 'permission', value: 'admin' });
    });

    it('filters the list by permission in all three list forms', async () => {
      const positioning = await createApiKey(t, adminToken, ApiPermission.Positioning);
      const cartography = await createApiKey(t, adminToken, ApiPermission.CartographyReadWrite);
      for (const query of [
        'permissions=positioning,cartography-read-write',
        'permissions=positioning&permissions=cartography-read-write',
        'permissions[]=positioning&permissions[]=cartography-read-write',
      ]) {
        const listed = await t.http.get(`/api/v1/auth/apikeys?${query}`).set(asBearer(adminToken)).expect(200);
        const ids = listed.body.map((key: { id: string }) => key.id);
        expect(ids).toContain(positioning.id);
        expect(ids).toContain(cartography.id);
        expect(new Set(listed.body.map((key: { permission: string }) => key.permission))).toEqual(new Set(['positioning', 'cartography-read-write']));
      }
      const bad = await t.http.get('/api/v1/auth/apikeys?permissions=nope').set(asBearer(adminToken)).expect(400);
      expect(bad.body.code).toBe('bad_request');
    });

    it('re-permissions a key with PUT and PATCH, effective at once', async () => {
      const key = await createApiKey(t, adminToken, ApiPermission.ReadOnly);
      await t.http.put('/api/v1/organizations/current_organization').set(asApiKey(key.apikey)).send(RENAME).expect(403);
      const updated = await t.http.put(`/api/v1/auth/apikeys/${key.id}`).set(asBearer(adminToken)).send({ permission: 'read-write' }).expect(200);
      expect(updated.body).toMatchObject({ id: key.id, permission: 'read-write' });
      await t.http.put('/api/v1/organizations/current_organization').set(asApiKey(key.apikey)).send(RENAME).expect(200);
      await t.http.patch(`/api/v1/auth/apikeys/${key.id}`).set(asBearer(adminToken)).send({ description: 'patched' }).expect(200);
      const listed = await t.http.get('/api/v1/auth/apikeys').set(asBearer(adminToken)).expect(200);
      expect(listed.body.find((entry: { id: string }) => entry.id === key.id)).toMatchObject({ permission: 'read-write', description: 'patched' });
    });

    it('deletes a key: it and the tokens made from it stop working at once', async () => {
      const key = await createApiKey(t, adminToken, ApiPermission.ReadOnly);
      const keyToken = (await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(key.apikey)).expect(201)).body.access_token;
      await t.http.get('/api/v1/version').set(asBearer(keyToken)).expect(200);
      await t.http.delete(`/api/v1/auth/apikeys/${key.id}`).set(asBearer(adminToken)).set('Content-Type', 'application/json').expect(204);
      await t.http.get('/api/v1/version').set(asApiKey(key.apikey)).expect(401);
      await t.http.get('/api/v1/version').set(asBearer(keyToken)).expect(401);
      const again = await t.http.delete(`/api/v1/auth/apikeys/${key.id}`).set(asBearer(adminToken)).expect(404);
      expect(again.body.code).toBe('entity_not_found');
    });

    it("cannot see or touch another user's keys, and answers 400 to a malformed id", async () => {
      const other = await createOrganization(t, 'Other');
      const otherToken = (await passwordTokens(t, other.email, other.password)).access_token;
      const otherKey = await createApiKey(t, otherToken, ApiPermission.ReadWrite);
      const listed = await t.http.get('/api/v1/auth/apikeys').set(asBearer(adminToken)).expect(200);
      expect(listed.body.map((key: { id: string }) => key.id)).not.toContain(otherKey.id);
      await t.http.put(`/api/v1/auth/apikeys/${otherKey.id}`).set(asBearer(adminToken)).send({ permission: 'disabled' }).expect(404);
      await t.http.delete(`/api/v1/auth/apikeys/${otherKey.id}`).set(asBearer(adminToken)).expect(404);
      await t.http.get('/api/v1/version').set(asApiKey(otherKey.apikey)).expect(200);
      const malformed = await t.http.delete('/api/v1/auth/apikeys/not-a-uuid').set(asBearer(adminToken)).expect(400);
      expect(malformed.body.code).toBe('bad_request');
    });

    it('needs the user’s own credentials: never an API key or a token made from one', async () => {
      const key = await createApiKey(t, adminToken, ApiPermission.ReadWrite);
      const keyToken = (await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(key.apikey)).expect(201)).body.access_token;
      for (const headers of [asApiKey(key.apikey), asBearer(keyToken)]) {
        const list = await t.http.get('/api/v1/auth/apikeys').set(headers).expect(403);
        expect(list.body.code).toBe('forbidden');
        await t.http.post('/api/v1/auth/apikeys').set(headers).send({ permission: 'read-write' }).expect(403);
        await t.http.delete(`/api/v1/auth/apikeys/${key.id}`).set(headers).expect(403);
      }
    });

    it('records when a key was last used', async () => {
      const key = await createApiKey(t, adminToken, ApiPermission.ReadOnly);
      await t.http.get('/api/v1/version').set(asApiKey(key.apikey)).expect(200);
      await vi.waitFor(async () => {
        const listed = await t.http.get('/api/v1/auth/apikeys').set(asBearer(adminToken)).expect(200);
        const entry = listed.body.find((item: { id: string }) => item.id === key.id);
        expect(entry.last_used_at).toMatch(/\+00:00$/);
      });
    });
  });

  describe('using a key', () => {
    it('checks X-API-EMAIL against the owner when it is sent', async () => {
      const key = await createApiKey(t, adminToken, ApiPermission.ReadOnly);
      await t.http.get('/api/v1/version').set(asApiKey(key.apikey)).expect(200);
      await t.http.get('/api/v1/version').set(asApiKey(key.apikey, org.email.toUpperCase())).expect(200);
      const mismatch = await t.http.get('/api/v1/version').set(asApiKey(key.apikey, 'someone@example.test')).expect(401);
      expect(mismatch.body.code).toBe('unauthorized');
    });

    it('refuses unknown and malformed keys', async () => {
      await t.http
        .get('/api/v1/version')
        .set(asApiKey(`cgk_${'A'.repeat(43)}`))
        .expect(401);
      await t.http.get('/api/v1/version').set(asApiKey('garbage')).expect(401);
      await t.http.get('/api/v1/version').set(asApiKey('')).expect(401);
    });

    it('turns a key into a JWT that carries the key’s permission', async () => {
      const key = await createApiKey(t, adminToken, ApiPermission.Positioning);
      const tokens = (await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(key.apikey, org.email)).expect(201)).body;
      expect(decodeJwt(tokens.access_token)).toMatchObject({ api_permission: 'positioning', sub: org.adminId, organization_uuid: org.organizationId });
      const renewed = (await t.http.post('/api/v1/auth/refresh_access_tokens').send(tokens).expect(201)).body;
      expect(decodeJwt(renewed.access_token).api_permission).toBe('positioning');
    });

    // Contract 2.3 and 2.4: what each permission may do with the routes that exist so far.
    const matrix: Array<[ApiPermission, { version: number; organization: number; rename: number }]> = [
      [ApiPermission.Positioning, { version: 200, organization: 200, rename: 403 }],
      [ApiPermission.ReadOnly, { version: 200, organization: 200, rename: 403 }],
      [ApiPermission.CartographyReadWrite, { version: 200, organization: 200, rename: 403 }],
      [ApiPermission.ReadWrite, { version: 200, organization: 200, rename: 200 }],
      [ApiPermission.Disabled, { version: 401, organization: 401, rename: 401 }],
    ];
    it.each(matrix)('%s key', async (permission, expected) => {
      const key = await createApiKey(t, adminToken, permission);
      expect((await t.http.get('/api/v1/version').set(asApiKey(key.apikey))).status).toBe(expected.version);
      expect((await t.http.get('/api/v1/organizations/current_organization').set(asApiKey(key.apikey))).status).toBe(expected.organization);
      const rename = await t.http.put('/api/v1/organizations/current_organization').set(asApiKey(key.apikey)).send(RENAME);
      expect(rename.status).toBe(expected.rename);
      if (expected.rename === 403) expect(rename.body).toMatchObject({ status: 403, code: 'forbidden', errors: [] });
      const exchange = await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(key.apikey));
      expect(exchange.status).toBe(permission === ApiPermission.Disabled ? 401 : 201);
    });

    it('a disabled key, and the tokens made from it, stop at once', async () => {
      const key = await createApiKey(t, adminToken, ApiPermission.ReadOnly);
      const keyToken = (await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(key.apikey)).expect(201)).body.access_token;
      await t.http.put(`/api/v1/auth/apikeys/${key.id}`).set(asBearer(adminToken)).send({ permission: 'disabled' }).expect(200);
      await t.http.get('/api/v1/version').set(asApiKey(key.apikey)).expect(401);
      await t.http.get('/api/v1/version').set(asBearer(keyToken)).expect(401);
    });

    it('a USER’s read-write key writes only what a USER may', async () => {
      const user = await createUser(t, org.organizationId, Role.User);
      const userToken = (await passwordTokens(t, user.email, user.password)).access_token;
      const key = await createApiKey(t, userToken, ApiPermission.ReadWrite);
      const rename = await t.http.put('/api/v1/organizations/current_organization').set(asApiKey(key.apikey)).send(RENAME).expect(403);
      expect(rename.body.code).toBe('forbidden');
    });
  });

  describe('a deleted user', () => {
    it('loses its tokens and keys at once', async () => {
      const user = await createUser(t, org.organizationId, Role.User);
      const tokens = await passwordTokens(t, user.email, user.password);
      const key = await createApiKey(t, tokens.access_token, ApiPermission.ReadOnly);
      const keyToken = (await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(key.apikey)).expect(201)).body.access_token;
      await t.http.get('/api/v1/version').set(asBearer(tokens.access_token)).expect(200);

      await t.http.delete(`/api/v1/users/${user.id}`).set(asBearer(adminToken)).expect(204);

      await t.http.get('/api/v1/version').set(asBearer(tokens.access_token)).expect(401);
      await t.http.get('/api/v1/version').set(asApiKey(key.apikey)).expect(401);
      await t.http.get('/api/v1/version').set(asBearer(keyToken)).expect(401);
      await t.http.post('/api/v1/auth/refresh_access_tokens').send(tokens).expect(401);
      const login = await t.http
        .post('/api/v1/auth/access_tokens')
        .set({ Authorization: `Basic ${Buffer.from(`${user.email}:${user.password}`).toString('base64')}` })
        .expect(401);
      expect(login.body.code).toBe('invalid_credentials');
    });
  });
});
