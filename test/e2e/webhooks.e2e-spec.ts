import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { asApiKey, createApiKey, createOrganization, TestOrganization } from '../support/auth';
import { login } from '../support/admin';
import { createBuilding, createFloor, createGeofence } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

const HOOK = 'http://127.0.0.1:9/hooks/cartograph';

describe('webhook endpoints (contract 7.5)', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, 'Hooks');
    admin = (await login(t, org.email, org.password)).auth;
  });
  afterAll(async () => t?.close());

  const create = (auth: Record<string, string>, body: Record<string, unknown>) => t.http.post('/api/v1/webhooks').set(auth).send(body);

  it('registers a webhook and shows its secret once', async () => {
    const created = await create(admin, { url: HOOK, description: 'Ops', event_types: ['geofence.enter', 'geofence.exit'] }).expect(201);
    expect(created.body).toMatchObject({
      url: HOOK,
      description: 'Ops',
      event_types: ['geofence.enter', 'geofence.exit'],
      filters: { building_ids: [], geofence_ids: [] },
      enabled: true,
      disabled_reason: null,
      previous_secret_expires_at: null,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await t.http.get(`/api/v1/webhooks/${created.body.id}`).set(admin).expect(200);
    expect(read.body.secret).toBeUndefined();
    const list = await t.http.get('/api/v1/webhooks').set(admin).expect(200);
    expect(list.body.data.map((w: { id: string }) => w.id)).toContain(created.body.id);
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
  });

  it('stores the secret sealed, never in clear', async () => {
    const created = await create(admin, { url: HOOK }).expect(201);
    const rows: Array<{ secret_sealed: string }> = await t.dataSource.query('SELECT secret_sealed FROM webhook_endpoints WHERE id = $1'.replace('$1', t.databaseUrl ? '$1' : '?'), [
      created.body.id,
    ]);
    expect(rows[0].secret_sealed).not.toContain(created.body.secret.slice(6, 20));
    expect(rows[0].secret_sealed).toMatch(/^v1\./);
  });

  it('defaults to every event type and takes filters of its own buildings and geofences', async () => {
    const building = await createBuilding(t, admin);
    const floor = await createFloor(t, admin, building.id);
    const fence = await createGeofence(t, admin, { buildingId: building.id, floorId: floor.id });
    const created = await create(admin, { url: HOOK, filters: { building_ids: [String(building.id)], geofence_ids: [fence.id] } }).expect(201);
    expect(created.body.event_types).toEqual(['geofence.enter', 'geofence.exit', 'geofence.dwell']);
    expect(created.body.filters).toEqual({ building_ids: [String(building.id)], geofence_ids: [fence.id] });
  });

  it.each([
    [{ url: 'ftp://example.com/hook' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'https://user:pw@example.com/' }, 'url'],
    [{ url: 'http://169.254.169.254/latest/meta-data' }, 'url'],
    [{ url: 'http://[fe80::1]/hook' }, 'url'],
    [{ url: HOOK, event_types: ['geofence.teleport'] }, 'event_types'],
    [{ url: HOOK, event_types: [] }, 'event_types'],
    [{ url: HOOK, event_types: ['geofence.enter', 'geofence.enter'] }, 'event_types'],
    [{ url: HOOK, filters: { building_ids: ['999999'] } }, 'filters.building_ids'],
    [{ url: HOOK, filters: { geofence_ids: ['00000000-0000-4000-8000-000000000000'] } }, 'filters.geofence_ids'],
    [{ url: HOOK, filters: { building_ids: ['abc'] } }, 'filters.building_ids'],
    [{}, 'url'],
  ])('refuses %j with 422 naming %s', async (body, field) => {
    const response = await create(admin, body).expect(422);
    expect(response.body).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(response.body.errors.map((e: { fields: string }) => e.fields).join(',')).toContain(field);
  });

  it('names each unknown id of a filter, not only the first', async () => {
    const building = await createBuilding(t, admin);
    const floor = await createFloor(t, admin, building.id);
    const fence = await createGeofence(t, admin, { buildingId: building.id, floorId: floor.id });
    const buildings = await create(admin, { url: HOOK, filters: { building_ids: [String(building.id), '999998', '999999'] } }).expect(422);
    expect(buildings.body.errors.map((e: { fields: string; value: unknown }) => [e.fields, e.value])).toEqual([
      ['filters.building_ids', 999998],
      ['filters.building_ids', 999999],
    ]);
    const unknown = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    const fences = await create(admin, { url: HOOK, filters: { geofence_ids: [fence.id, ...unknown] } }).expect(422);
    expect(fences.body.errors.map((e: { fields: string; value: unknown }) => [e.fields, e.value])).toEqual(unknown.map((id) => ['filters.geofence_ids', id]));
  });

  it('updates partially, and rotation gives a new secret while the old one keeps signing for 24 h', async () => {
    const created = await create(admin, { url: HOOK }).expect(201);
    const updated = await t.http.put(`/api/v1/webhooks/${created.body.id}`).set(admin).send({ enabled: false, description: 'paused' }).expect(200);
    expect(updated.body).toMatchObject({ enabled: false, description: 'paused', url: HOOK });
    const patched = await t.http
      .patch(`/api/v1/webhooks/${created.body.id}`)
      .set(admin)
      .send({ event_types: ['geofence.dwell'] })
      .expect(200);
    expect(patched.body).toMatchObject({ enabled: false, event_types: ['geofence.dwell'] });

    const before = Date.now();
    const rotated = await t.http.post(`/api/v1/webhooks/${created.body.id}/rotate_secret`).set(admin).expect(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const overlapEnds = Date.parse(rotated.body.previous_secret_expires_at);
    expect(overlapEnds - before).toBeGreaterThan(24 * 3600 * 1000 - 60_000);
    expect(overlapEnds - before).toBeLessThan(24 * 3600 * 1000 + 60_000);
  });

  it.each([
    ['put', { url: 'http://169.254.169.254/latest/meta-data' }, 'url'],
    ['patch', { url: 'http://[fe80::1]/hook' }, 'url'],
    ['patch', { url: 'gopher://example.com/' }, 'url'],
    ['put', { event_types: ['geofence.teleport'] }, 'event_types'],
    ['patch', { event_types: [] }, 'event_types'],
  ] as const)('a %s with %j is 422 naming %s, and changes nothing', async (method, body, field) => {
    const created = await create(admin, { url: HOOK }).expect(201);
    const response = await t.http[method](`/api/v1/webhooks/${created.body.id}`).set(admin).send(body).expect(422);
    expect(response.body).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(response.body.errors.map((e: { fields: string }) => e.fields).join(',')).toContain(field);
    const read = await t.http.get(`/api/v1/webhooks/${created.body.id}`).set(admin).expect(200);
    expect(read.body).toMatchObject({ url: HOOK, event_types: ['geofence.enter', 'geofence.exit', 'geofence.dwell'] });
  });

  it('deletes', async () => {
    const created = await create(admin, { url: HOOK }).expect(201);
    await t.http.delete(`/api/v1/webhooks/${created.body.id}`).set(admin).expect(204);
    await t.http.get(`/api/v1/webhooks/${created.body.id}`).set(admin).expect(404);
    await t.http.delete(`/api/v1/webhooks/${created.body.id}`).set(admin).expect(404);
  });

  it('needs read-write: lower keys get 403 on every route, a read-write key manages them', async () => {
    const tokens = await login(t, org.email, org.password);
    const created = await create(admin, { url: HOOK }).expect(201);
    for (const permission of [ApiPermission.Positioning, ApiPermission.ReadOnly, ApiPermission.CartographyReadWrite]) {
      const key = asApiKey((await createApiKey(t, tokens.tokens.access_token, permission)).apikey);
      await t.http.get('/api/v1/webhooks').set(key).expect(403);
      await t.http.get(`/api/v1/webhooks/${created.body.id}`).set(key).expect(403);
      await create(key, { url: HOOK }).expect(403);
      await t.http.post(`/api/v1/webhooks/${created.body.id}/rotate_secret`).set(key).expect(403);
      await t.http.delete(`/api/v1/webhooks/${created.body.id}`).set(key).expect(403);
    }
    const writer = asApiKey((await createApiKey(t, tokens.tokens.access_token, ApiPermission.ReadWrite)).apikey);
    await create(writer, { url: HOOK }).expect(201);
    await t.http.get('/api/v1/webhooks').expect(401);
  });

  it("never shows or touches another organization's webhooks", async () => {
    const other = await createOrganization(t, 'Other hooks');
    const otherAdmin = (await login(t, other.email, other.password)).auth;
    const theirs = await create(otherAdmin, { url: HOOK }).expect(201);
    await t.http.get(`/api/v1/webhooks/${theirs.body.id}`).set(admin).expect(404);
    await t.http.put(`/api/v1/webhooks/${theirs.body.id}`).set(admin).send({ enabled: false }).expect(404);
    await t.http.post(`/api/v1/webhooks/${theirs.body.id}/rotate_secret`).set(admin).expect(404);
    await t.http.delete(`/api/v1/webhooks/${theirs.body.id}`).set(admin).expect(404);
    const mine = await t.http.get('/api/v1/webhooks?size=1000').set(admin).expect(200);
    expect(mine.body.data.map((w: { id: string }) => w.id)).not.toContain(theirs.body.id);
    // Nor can their geofences or buildings be named in a filter.
    const building = await createBuilding(t, otherAdmin);
    await create(admin, { url: HOOK, filters: { building_ids: [String(building.id)] } }).expect(422);
  });
});

describe('webhook targets with WEBHOOK_BLOCK_PRIVATE_NETWORKS=true', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_BLOCK_PRIVATE_NETWORKS: 'true' } });
    const org = await createOrganization(t, 'Strict hooks');
    admin = (await login(t, org.email, org.password)).auth;
  });
  afterAll(async () => t?.close());

  it.each(['http://10.0.0.5/hook', 'http://192.168.1.10/hook', 'http://127.0.0.1:8080/hook', 'http://[::1]/hook', 'http://172.16.0.1/'])('refuses %s', async (url) => {
    const response = await t.http.post('/api/v1/webhooks').set(admin).send({ url }).expect(422);
    expect(response.body.errors[0]).toMatchObject({ fields: 'url', code: 'private_network' });
  });

  it('still takes a public address', async () => {
    await t.http.post('/api/v1/webhooks').set(admin).send({ url: 'https://93.184.216.34/hook' }).expect(201);
  });
});
