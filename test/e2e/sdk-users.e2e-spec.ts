import SitumSDK from '@situm/sdk-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { strongPassword } from '../support/admin';
import { asBearer, createApiKey, createOrganization, passwordTokens, TestOrganization, uniqueEmail } from '../support/auth';
import { createBuilding } from '../support/cartography';
import { listenOnLoopback, loggedRequestsSince } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';

/** The users part of the official client (@situm/sdk-js 0.12.0, `sdk.user`), unchanged, against Cartograph. */

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The user object as the client hands it out (camelCased by the client). */
const SDK_USER_KEYS = [
  'buildingIds',
  'code',
  'createdAt',
  'email',
  'fullName',
  'groupIds',
  'iconColour',
  'id',
  'info',
  'isVerified',
  'lastActivity',
  'locale',
  'organizationId',
  'role',
  'updatedAt',
];
const SDK_METADATA_KEYS = ['first', 'last', 'number', 'numberOfElements', 'size', 'totalElements', 'totalPages'];
const SDK_APIKEY_KEYS = ['apikey', 'createdAt', 'description', 'id', 'lastUsedAt', 'permission'];

type Loose = Record<string, any>;
const keysOf = (value: object) => Object.keys(value).sort();
const idsOf = (page: Loose) => (page.data as Loose[]).map((user) => user.id);

describe('@situm/sdk-js users against Cartograph', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;
  let sdk: SitumSDK;
  let adminToken: string;
  let buildingId: number;
  let groupId: string;

  beforeAll(async () => {
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'SDK users');
    sdk = new SitumSDK({ domain, auth: { username: org.email, password: org.password } });
    adminToken = (await passwordTokens(t, org.email, org.password)).access_token;
    buildingId = (await createBuilding(t, asBearer(adminToken))).id;
    groupId = (await t.http.post('/api/v1/groups').set(asBearer(adminToken)).send({ name: 'SDK group' }).expect(201)).body.id;
  });
  afterAll(async () => t?.close());

  const form = (overrides: Loose = {}): Loose => ({ email: uniqueEmail('sdk'), password: strongPassword(), ...overrides });

  it('createUser: sends the form (legacy keys and all) and hands back the created user', async () => {
    const input = form({
      fullName: 'Sdk User',
      role: 'USER',
      locale: 'es',
      code: 'SDK-1',
      iconColour: '#00ff00',
      info: 'From the client',
      groupIds: [groupId],
      buildingIds: [buildingId],
      organizationId: '00000000-0000-4000-8000-000000000000',
      subscribedToNewsletter: true,
      verifiedByAdmin: true,
      acceptTerms: true,
    });
    const mark = t.requestLogs.length;
    const user = (await sdk.user.createUser(input as never)) as Loose;
    expect(keysOf(user)).toEqual(SDK_USER_KEYS);
    expect(user).toEqual({
      id: expect.stringMatching(UUID),
      email: input.email,
      code: 'SDK-1',
      fullName: 'Sdk User',
      role: 'USER',
      organizationId: org.organizationId,
      groupIds: [groupId],
      buildingIds: [buildingId],
      locale: 'es',
      info: 'From the client',
      iconColour: '#00ff00',
      isVerified: false,
      lastActivity: null,
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: expect.stringMatching(TIMESTAMP),
    });
    await vi.waitFor(() => expect(loggedRequestsSince(t, mark)).toContainEqual({ method: 'POST', route: '/api/v1/users', status: 201 }));
    // Stored as the server's own: it can log in, and the REST view matches.
    await passwordTokens(t, input.email, input.password);
    const stored = await t.http.get(`/api/v1/users/${user.id}`).set(asBearer(adminToken)).expect(200);
    expect(stored.body).toMatchObject({ id: user.id, organization_id: org.organizationId, full_name: 'Sdk User', building_ids: [buildingId], group_ids: [groupId] });
    expect(JSON.stringify(stored.body)).not.toMatch(/is_staff|is_manager|newsletter|password/);
  });

  it("createUser: roles the server does not have (STAFF, ZONE_MANAGER) and taken e-mails reject with the server's error", async () => {
    for (const role of ['STAFF', 'ZONE_MANAGER', 'COLLECTIVE_MANAGER']) {
      const input = form({ role });
      const error = await sdk.user.createUser(input as never).then(
        () => null,
        (reason: unknown) => reason,
      );
      expect(error, role).toMatchObject({ status: 422, code: 'validation_failed' });
      expect((error as Loose).errors.map((item: Loose) => item.fields)).toContain('role');
      const found = await t.http.get(`/api/v1/users?size=1000`).set(asBearer(adminToken)).expect(200);
      expect(found.body.data.map((item: Loose) => item.email)).not.toContain(input.email);
    }
    await expect(sdk.user.createUser(form({ email: org.email.toUpperCase() }) as never)).rejects.toMatchObject({ status: 409, code: 'conflict' });
    await expect(sdk.user.createUser(form({ password: 'short' }) as never)).rejects.toMatchObject({ status: 422, code: 'validation_failed' });
  });

  it('getUsers: the paginated list, with every search field the client sends', async () => {
    const ana = (await sdk.user.createUser(form({ fullName: 'Ana Sdk', code: 'C-ANA', groupIds: [groupId], buildingIds: [buildingId] }) as never)) as Loose;
    const bea = (await sdk.user.createUser(form({ fullName: 'Bea Sdk', code: 'C-BEA' }) as never)) as Loose;

    const everyone = (await sdk.user.getUsers()) as Loose;
    expect(keysOf(everyone)).toEqual(['data', 'metadata']);
    expect(keysOf(everyone.metadata)).toEqual(SDK_METADATA_KEYS);
    for (const user of everyone.data) expect(keysOf(user)).toEqual(SDK_USER_KEYS);
    expect(everyone.metadata).toMatchObject({ first: true, last: true, number: 1, totalElements: everyone.data.length, numberOfElements: everyone.data.length });
    expect(idsOf(everyone)).toEqual(expect.arrayContaining([org.adminId, ana.id, bea.id]));

    expect(idsOf(await sdk.user.getUsers({ ids: [ana.id, bea.id] }))).toEqual([ana.id, bea.id]);
    expect(idsOf(await sdk.user.getUsers({ ids: [ana.id, bea.id], excludeIds: [ana.id] }))).toEqual([bea.id]);
    expect(idsOf(await sdk.user.getUsers({ groupIds: [groupId], ids: [ana.id, bea.id] }))).toEqual([ana.id]);
    expect(idsOf(await sdk.user.getUsers({ buildingIds: [buildingId], ids: [ana.id, bea.id] }))).toEqual([ana.id]);
    expect(idsOf(await sdk.user.getUsers({ hasBuildings: false, ids: [ana.id, bea.id] }))).toEqual([bea.id]);
    expect(idsOf(await sdk.user.getUsers({ hasBuildings: true, ids: [ana.id, bea.id] }))).toEqual([ana.id]);
    expect(idsOf(await sdk.user.getUsers({ fullName: 'bea s' }))).toEqual([bea.id]);
    expect(idsOf(await sdk.user.getUsers({ codes: ['C-ANA', 'C-BEA'] }))).toEqual([ana.id, bea.id]);
    expect(idsOf(await sdk.user.getUsers({ codes: ['C-ANA', 'C-BEA'], sort: 'name,asc', direction: 'DESC' }))).toEqual([bea.id, ana.id]);
    expect(idsOf(await sdk.user.getUsers({ codes: ['C-ANA', 'C-BEA'], sort: 'full_name,desc' }))).toEqual([bea.id, ana.id]);

    const first = (await sdk.user.getUsers({ codes: ['C-ANA', 'C-BEA'], sort: 'name', page: 0, size: 1 })) as Loose;
    expect(idsOf(first)).toEqual([ana.id]);
    expect(first.metadata).toEqual({ first: true, last: false, totalPages: 2, totalElements: 2, numberOfElements: 1, size: 1, number: 1 });
    const second = (await sdk.user.getUsers({ codes: ['C-ANA', 'C-BEA'], sort: 'name', page: 2, size: 1 })) as Loose;
    expect(idsOf(second)).toEqual([bea.id]);
    expect(second.metadata).toMatchObject({ first: false, last: true, number: 2 });
  });

  it("getUserById: the user; another organization's user rejects with 404", async () => {
    const created = (await sdk.user.createUser(form({ fullName: 'By id' }) as never)) as Loose;
    expect(await sdk.user.getUserById(created.id)).toEqual(created);
    const other = await createOrganization(t, 'SDK others');
    await expect(sdk.user.getUserById(other.adminId)).rejects.toMatchObject({ status: 404, code: 'entity_not_found' });
  });

  it('patchUser: a partial update sent with PUT; roles change, the last admin stays', async () => {
    const input = form({ fullName: 'Before', locale: 'en' });
    const created = (await sdk.user.createUser(input as never)) as Loose;
    const mark = t.requestLogs.length;
    const patched = (await sdk.user.patchUser(created.id, { fullName: 'After', locale: 'gl', buildingIds: [] } as never)) as Loose;
    expect(patched).toEqual({ ...created, fullName: 'After', locale: 'gl', updatedAt: expect.stringMatching(TIMESTAMP) });
    await vi.waitFor(() => expect(loggedRequestsSince(t, mark)).toContainEqual({ method: 'PUT', route: '/api/v1/users/:id', status: 200 }));
    expect(await sdk.user.getUserById(created.id)).toEqual(patched);
    await expect(sdk.user.patchUser(created.id, { role: 'STAFF' } as never)).rejects.toMatchObject({ status: 422, code: 'validation_failed' });

    const promoted = (await sdk.user.patchUser(created.id, { role: 'ADMIN_ORG' } as never)) as Loose;
    expect(promoted.role).toBe('ADMIN_ORG');
    await expect(sdk.user.patchUser(org.adminId, { role: 'USER' } as never)).resolves.toMatchObject({ role: 'USER' });
    // Now `created` is the last admin: demoting it is refused; it can promote the first one back.
    const otherAdmin = new SitumSDK({ domain, auth: { username: input.email, password: input.password } });
    await expect(otherAdmin.user.patchUser(created.id, { role: 'USER' } as never)).rejects.toMatchObject({ status: 409, code: 'conflict' });
    await expect(otherAdmin.user.deleteUser(created.id)).rejects.toMatchObject({ status: 409, code: 'conflict' });
    await expect(otherAdmin.user.patchUser(org.adminId, { role: 'ADMIN_ORG' } as never)).resolves.toMatchObject({ role: 'ADMIN_ORG' });
    await expect(sdk.user.deleteUser(created.id)).resolves.toBe('');
  });

  it('deleteUser: resolves, and the user is gone', async () => {
    const created = (await sdk.user.createUser(form({ fullName: 'Doomed' }) as never)) as Loose;
    const mark = t.requestLogs.length;
    await expect(sdk.user.deleteUser(created.id)).resolves.toBe('');
    await vi.waitFor(() => expect(loggedRequestsSince(t, mark)).toContainEqual({ method: 'DELETE', route: '/api/v1/users/:id', status: 204 }));
    await expect(sdk.user.getUserById(created.id)).rejects.toMatchObject({ status: 404, code: 'entity_not_found' });
    await expect(sdk.user.deleteUser(created.id)).rejects.toMatchObject({ status: 404, code: 'entity_not_found' });
  });

  it('a USER through the client: lists and reads only itself, edits its profile, and is refused admin actions', async () => {
    const input = form({ fullName: 'Plain' });
    const plain = (await sdk.user.createUser(input as never)) as Loose;
    const userSdk = new SitumSDK({ domain, auth: { username: input.email, password: input.password } });
    expect(idsOf(await userSdk.user.getUsers())).toEqual([plain.id]);
    expect(((await userSdk.user.getUserById(plain.id)) as Loose).fullName).toBe('Plain');
    await expect(userSdk.user.getUserById(org.adminId)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    await expect(userSdk.user.patchUser(plain.id, { fullName: 'Plain renamed', iconColour: '#111111' } as never)).resolves.toMatchObject({
      fullName: 'Plain renamed',
      iconColour: '#111111',
    });
    await expect(userSdk.user.patchUser(plain.id, { fullName: 'x', role: 'ADMIN_ORG' } as never)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    await expect(userSdk.user.createUser(form() as never)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    await expect(userSdk.user.deleteUser(org.adminId)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
  });

  it("with an admin's API key: read-write manages users, cartography-read-write is refused (403)", async () => {
    const admin = await createOrganization(t, 'SDK keys');
    const token = (await passwordTokens(t, admin.email, admin.password)).access_token;
    const readWrite = await createApiKey(t, token, ApiPermission.ReadWrite);
    const cartography = await createApiKey(t, token, ApiPermission.CartographyReadWrite);
    const rwSdk = new SitumSDK({ domain, auth: { apiKey: readWrite.apikey } });
    const created = (await rwSdk.user.createUser(form({ fullName: 'By key' }) as never)) as Loose;
    expect(created.organizationId).toBe(admin.organizationId);
    await expect(rwSdk.user.patchUser(created.id, { fullName: 'By key, renamed' } as never)).resolves.toMatchObject({ fullName: 'By key, renamed' });
    await expect(rwSdk.user.deleteUser(created.id)).resolves.toBe('');
    const cartographySdk = new SitumSDK({ domain, auth: { apiKey: cartography.apikey } });
    await expect(cartographySdk.user.createUser(form() as never)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    expect(idsOf(await cartographySdk.user.getUsers())).toEqual([admin.adminId]);
  });

  it("getPositioningApikeys: the caller's positioning keys, in full and usable by an app", async () => {
    const input = form();
    const owner = (await sdk.user.createUser(input as never)) as Loose;
    const ownerToken = (await passwordTokens(t, input.email, input.password)).access_token;
    const positioning = await createApiKey(t, ownerToken, ApiPermission.Positioning, 'kiosk');
    const secondPositioning = await createApiKey(t, ownerToken, ApiPermission.Positioning, 'lobby');
    const readOnly = await createApiKey(t, ownerToken, ApiPermission.ReadOnly, 'reports');
    const adminPositioning = await createApiKey(t, adminToken, ApiPermission.Positioning, 'admin kiosk');

    const ownerSdk = new SitumSDK({ domain, auth: { username: input.email, password: input.password } });
    const keys = (await ownerSdk.user.getPositioningApikeys()) as unknown as Loose[];
    expect(keys.map((key) => key.id)).toEqual([positioning.id, secondPositioning.id]);
    for (const key of keys) {
      expect(keysOf(key)).toEqual(SDK_APIKEY_KEYS);
      expect(key.permission).toBe('positioning');
      expect(key.createdAt).toMatch(TIMESTAMP);
    }
    expect(keys[0].description).toBe('kiosk');
    expect(keys.map((key) => key.apikey)).toEqual([positioning.apikey, secondPositioning.apikey]);
    expect(JSON.stringify(keys)).not.toContain(readOnly.apikey.slice(8, 40));

    // The key handed out works: an app reads the organization's buildings with it.
    const appSdk = new SitumSDK({ domain, auth: { apiKey: keys[0].apikey } });
    const buildings = (await appSdk.cartography.getBuildings()) as unknown as Loose[];
    expect(buildings.map((building) => building.id)).toContain(buildingId);

    const adminKeys = (await sdk.user.getPositioningApikeys()) as unknown as Loose[];
    expect(adminKeys.map((key) => key.id)).toEqual([adminPositioning.id]);
    expect(owner.id).not.toBe(org.adminId);

    // A client logged in with a key may not list keys: the client swallows the 403 and resolves [].
    const keySdk = new SitumSDK({ domain, auth: { apiKey: positioning.apikey } });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await keySdk.user.getPositioningApikeys()).toEqual([]);
      expect(logged).toHaveBeenCalledWith(expect.objectContaining({ status: 403, code: 'forbidden' }));
    } finally {
      logged.mockRestore();
    }
  });
});
