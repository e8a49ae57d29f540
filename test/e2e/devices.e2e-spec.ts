import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { Role } from '../../src/access/roles';
import { Device } from '../../src/devices/device.entity';
import { asApiKey, asBearer, createApiKey, passwordTokens } from '../support/auth';
import { Cartographer, createSite, expectError, expectStatus, keysOf, PAGE_METADATA_KEYS, signUp, Site, TIMESTAMP } from '../support/cartography';
import { DEVICE_KEYS, fix, historyOf, realtime, REALTIME_TIME, report } from '../support/positions';
import { createUser } from '../support/users';
import { createTestApp, TestApp } from '../support/test-app';

describe('devices registry', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let site: Site;
  const lastTime = new Date(Date.now() - 3000);

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Devices A');
    b = await signUp(t, 'Devices B');
    site = await createSite(t, a.auth);
    await report(t, a.auth, [
      fix('dev-1', { time: lastTime.getTime() - 10_000, lat: 42.1 }),
      fix('dev-1', { time: lastTime.toISOString(), floor_id: site.floor.id, lat: 42.8723, lng: -8.5633, accuracy: 2, yaw: 0.5, device_code: 'Pixel 8' }),
      fix('dev-2'),
      fix('dev-3'),
    ]);
    await report(t, b.auth, [fix('dev-b')]);
  });
  afterAll(async () => t?.close());

  it('registers devices on first report and lists them paginated, with last seen time and last position', async () => {
    const response = await t.http.get('/api/v1/devices?size=2').set(a.auth);
    expectStatus(response, 200);
    expect(keysOf(response.body)).toEqual(['data', 'metadata']);
    expect(keysOf(response.body.metadata)).toEqual(PAGE_METADATA_KEYS);
    expect(response.body.metadata).toMatchObject({ total_elements: 3, total_pages: 2, number: 1, size: 2, first: true, last: false });
    expect(response.body.data.map((device: { id: string }) => device.id)).toEqual(['dev-1', 'dev-2']);
    const [device] = response.body.data;
    expect(keysOf(device)).toEqual(DEVICE_KEYS);
    expect(device).toMatchObject({
      id: 'dev-1',
      code: 'Pixel 8',
      name: '',
      organization_id: a.org.organizationId,
      user_id: a.org.adminId,
      last_seen_at: expect.stringMatching(TIMESTAMP),
      last_position: { time: lastTime.toISOString(), building_id: site.building.id, floor_id: site.floor.id, lat: 42.8723, lng: -8.5633, accuracy: 2, yaw: 0.5 },
    });
    expect(new Date(device.last_seen_at).getTime()).toBe(lastTime.getTime());
    expect(device.last_position.time).toMatch(REALTIME_TIME);
    expect(typeof device.last_position.x).toBe('number');
    expect(device.created_at).toMatch(TIMESTAMP);

    const page2 = await t.http.get('/api/v1/devices?size=2&page=2').set(a.auth);
    expect(page2.body.data.map((d: { id: string }) => d.id)).toEqual(['dev-3']);
    const sorted = await t.http.get('/api/v1/devices?sort=-id').set(a.auth);
    expect(sorted.body.data.map((d: { id: string }) => d.id)).toEqual(['dev-3', 'dev-2', 'dev-1']);
    expectError(await t.http.get('/api/v1/devices?sort=secret').set(a.auth), 400, 'bad_request');
    expectError(await t.http.get('/api/v1/devices?size=0').set(a.auth), 400, 'bad_request');
  });

  it('reads one device; other organizations and unknown ids are 404', async () => {
    const response = await t.http.get('/api/v1/devices/dev-1').set(a.auth);
    expectStatus(response, 200);
    expect(response.body.id).toBe('dev-1');
    expectError(await t.http.get('/api/v1/devices/dev-b').set(a.auth), 404, 'entity_not_found');
    expectError(await t.http.get('/api/v1/devices/dev-1').set(b.auth), 404, 'entity_not_found');
    expectError(await t.http.get(`/api/v1/devices/${'x'.repeat(80)}`).set(a.auth), 404, 'entity_not_found');
    expectError(await t.http.get('/api/v1/devices/nope%00').set(a.auth), 404, 'entity_not_found');
    const listB = await t.http.get('/api/v1/devices').set(b.auth);
    expect(listB.body.data.map((d: { id: string }) => d.id)).toEqual(['dev-b']);
  });

  it('filters by search text (id, name or code), building, floor and last seen time', async () => {
    const ids = async (query: string) => {
      const response = await t.http.get(`/api/v1/devices${query}`).set(a.auth);
      expectStatus(response, 200);
      return response.body.data.map((device: { id: string }) => device.id);
    };
    expect(await ids('?search=DEV-')).toEqual(['dev-1', 'dev-2', 'dev-3']);
    expect(await ids('?search=pixel')).toEqual(['dev-1']);
    expect(await ids('?search=v-3')).toEqual(['dev-3']);
    expect(await ids('?search=%25')).toEqual([]);
    expect(await ids(`?floor_ids=${site.floor.id}`)).toEqual(['dev-1']);
    expect(await ids(`?building_ids=${site.building.id}`)).toEqual(['dev-1']);
    // dev-1 was last seen 3 s ago, the others 1 s ago.
    const between = new Date(lastTime.getTime() + 1000).toISOString();
    expect(await ids(`?last_seen_before=${between}`)).toEqual(['dev-1']);
    expect(await ids(`?last_seen_after=${between}`)).toEqual(['dev-2', 'dev-3']);
    expect(await ids(`?last_seen_after=${between}&search=dev-3`)).toEqual(['dev-3']);
    const counted = await t.http.get(`/api/v1/devices?last_seen_after=${between}&size=1`).set(a.auth);
    expect(counted.body.metadata).toMatchObject({ total_elements: 2 });
    expectError(await t.http.get('/api/v1/devices?last_seen_after=yesterday').set(a.auth), 400, 'bad_request');
    expectError(await t.http.get(`/api/v1/devices?last_seen_after=${between}&last_seen_before=${lastTime.toISOString()}`).set(a.auth), 400, 'bad_request');
    expectError(await t.http.get('/api/v1/devices?floor_ids=abc').set(a.auth), 400, 'bad_request');
  });

  it('lets an ADMIN_ORG rename a device with PUT or PATCH; others get 403', async () => {
    const put = await t.http.put('/api/v1/devices/dev-2').set(a.auth).send({ name: 'Forklift 7' });
    expectStatus(put, 200);
    expect(put.body).toMatchObject({ id: 'dev-2', name: 'Forklift 7' });
    const patch = await t.http.patch('/api/v1/devices/dev-2').set(a.auth).send({ code: 'Zebra TC52' });
    expectStatus(patch, 200);
    expect(patch.body).toMatchObject({ name: 'Forklift 7', code: 'Zebra TC52' });
    expect(await t.dataSource.getRepository(Device).findOneBy({ organizationId: a.org.organizationId, id: 'dev-2' })).toMatchObject({ name: 'Forklift 7', code: 'Zebra TC52' });
    expectError(await t.http.put('/api/v1/devices/dev-2').set(a.auth).send({ name: 7 }), 422, 'validation_failed');
    expectError(await t.http.put('/api/v1/devices/dev-2').set(b.auth).send({ name: 'mine' }), 404, 'entity_not_found');

    const user = await createUser(t, a.org.organizationId, Role.User);
    const userAuth = asBearer((await passwordTokens(t, user.email, user.password)).access_token);
    expectError(await t.http.put('/api/v1/devices/dev-2').set(userAuth).send({ name: 'nope' }), 403, 'forbidden');
    expectError(await t.http.delete('/api/v1/devices/dev-2').set(userAuth), 403, 'forbidden');
    const readOnly = asApiKey((await createApiKey(t, a.token, ApiPermission.ReadOnly)).apikey);
    expectError(await t.http.put('/api/v1/devices/dev-2').set(readOnly).send({ name: 'nope' }), 403, 'forbidden');
    expectStatus(await t.http.get('/api/v1/devices/dev-2').set(readOnly), 200);
  });

  it('deletes a device with its history; it comes back as new on its next report', async () => {
    expect(await historyOf(t, a.org.organizationId, 'dev-1')).toHaveLength(2);
    expectStatus(await t.http.delete('/api/v1/devices/dev-1').set(a.auth), 204);
    expect(await historyOf(t, a.org.organizationId, 'dev-1')).toHaveLength(0);
    expect(await t.dataSource.getRepository(Device).findOneBy({ organizationId: a.org.organizationId, id: 'dev-1' })).toBeNull();
    expectError(await t.http.get('/api/v1/devices/dev-1').set(a.auth), 404, 'entity_not_found');
    expect((await realtime(t, a.auth, '?device_ids=dev-1')).features).toEqual([]);
    expectError(await t.http.delete('/api/v1/devices/dev-1').set(a.auth), 404, 'entity_not_found');
    expectError(await t.http.delete('/api/v1/devices/dev-b').set(a.auth), 404, 'entity_not_found');
    expect(await historyOf(t, b.org.organizationId, 'dev-b')).toHaveLength(1);

    await report(t, a.auth, [fix('dev-1')]);
    const again = await t.http.get('/api/v1/devices/dev-1').set(a.auth);
    expect(again.body).toMatchObject({ id: 'dev-1', name: '', code: '' });
  });
});
