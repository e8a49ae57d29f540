import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, createGeofence, createSite, expectError, expectStatus, geofenceRow, GEOFENCE_TIMESTAMP, signUp, square } from '../support/cartography';
import { report } from '../support/positions';
import { createTestApp, TestApp } from '../support/test-app';

describe('POST /api/v1/geofences/{id}/restore', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Restore A');
    b = await signUp(t, 'Restore B');
  });
  afterAll(async () => t?.close());

  it('undoes a delete: live again in searches and the building document, with a new ETag; restoring a live one is a no-op', async () => {
    const site = await createSite(t, a.auth);
    const fence = await createGeofence(t, a.auth, site.place, { name: 'Cafe' });
    await t.http.delete(`/api/v1/geofences/${fence.id}`).set(a.auth).expect(204);
    const deleted = await t.http.get(`/api/v1/geofences/${fence.id}`).set(a.auth).expect(200);

    const response = await t.http.post(`/api/v1/geofences/${fence.id}/restore`).set(a.auth);
    expectStatus(response, 200);
    expect(response.body).toEqual({ ...fence, deleted: false, updated_at: expect.stringMatching(GEOFENCE_TIMESTAMP) });
    expect(response.headers.etag).toBeDefined();
    expect(response.headers.etag).not.toBe(deleted.headers.etag);
    expect(await geofenceRow(t, fence.id)).toMatchObject({ deleted: false, name: 'Cafe' });
    const listed = await t.http.get(`/api/v1/geofences?floor_ids=${site.floor.id}`).set(a.auth).expect(200);
    expect(listed.body.data.map((g: { id: string }) => g.id)).toEqual([fence.id]);
    const document = await t.http.get(`/api/v1/buildings/${site.building.id}`).set(a.auth).expect(200);
    expect(document.body.geofences.map((g: { id: string }) => g.id)).toEqual([fence.id]);
    // Editable again.
    expectStatus(await t.http.put(`/api/v1/geofences/${fence.id}`).set(a.auth).send({ name: 'Cafe 2' }), 200);

    const again = await t.http.post(`/api/v1/geofences/${fence.id}/restore`).set(a.auth);
    expectStatus(again, 200);
    expect(again.body).toMatchObject({ name: 'Cafe 2', deleted: false });
  });

  it('evaluates positions against the restored fence again (a device inside is not entered until seen out, as for a new fence)', async () => {
    const site = await createSite(t, a.auth, { location: { lat: 42.8805, lng: -8.5457 }, dimensions: { width: 80, length: 50 }, rotation: 0 });
    const fence = await createGeofence(t, a.auth, site.place, { name: 'Lobby', geometric: square(42.8805, -8.5457, 0.0002) });
    await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).send({ min_dwell_seconds: 0 }).expect(200);
    await t.http.delete(`/api/v1/geofences/${fence.id}`).set(a.auth).expect(204);
    const inside = { building_id: site.building.id, floor_id: site.floor.id, lat: 42.8806, lng: -8.5456, accuracy: 1 };
    const outside = { ...inside, lat: 42.879, lng: -8.547 };
    const now = Date.now();
    const whileDeleted = await report(t, a.auth, [
      { device_id: 'd1', time: now - 9000, ...outside },
      { device_id: 'd1', time: now - 8000, ...inside },
    ]);
    expect(whileDeleted.events).toEqual([]);
    await t.http.post(`/api/v1/geofences/${fence.id}/restore`).set(a.auth).expect(200);
    // Sample times after the restore (a fix older than what the fence has seen drives nothing).
    const restoredAt = Date.now();
    const afterRestore = await report(t, a.auth, [
      { device_id: 'd1', time: restoredAt + 1000, ...outside },
      { device_id: 'd1', time: restoredAt + 2000, ...inside },
    ]);
    expect((afterRestore.events as Array<{ type: string; geofence: { id: string } }>).map((e) => [e.type, e.geofence.id])).toEqual([['geofence.enter', fence.id]]);
  });

  it('is a conflict when the floor is gone, 404 for unknown or foreign ids, 400 for malformed ones, 403 without cartography write', async () => {
    const site = await createSite(t, a.auth);
    const fence = await createGeofence(t, a.auth, site.place, { name: 'Gone' });
    await t.http.delete(`/api/v1/floors/${site.floor.id}?cascade=true`).set(a.auth).expect(204);
    expect((await geofenceRow(t, fence.id))!.deleted).toBe(true);
    expectError(await t.http.post(`/api/v1/geofences/${fence.id}/restore`).set(a.auth), 409, 'conflict');
    expect((await geofenceRow(t, fence.id))!.deleted).toBe(true);

    const other = await createSite(t, a.auth);
    const mine = await createGeofence(t, a.auth, other.place, { name: 'Mine' });
    await t.http.delete(`/api/v1/geofences/${mine.id}`).set(a.auth).expect(204);
    expectError(await t.http.post(`/api/v1/geofences/${mine.id}/restore`).set(b.auth), 404, 'entity_not_found');
    expectError(await t.http.post(`/api/v1/geofences/${randomUUID()}/restore`).set(a.auth), 404, 'entity_not_found');
    expectError(await t.http.post('/api/v1/geofences/not-a-uuid/restore').set(a.auth), 400, 'bad_request');
    const readOnly = asApiKey((await createApiKey(t, a.token, ApiPermission.ReadOnly)).apikey);
    expectError(await t.http.post(`/api/v1/geofences/${mine.id}/restore`).set(readOnly), 403, 'forbidden');
    expect((await geofenceRow(t, mine.id))!.deleted).toBe(true);
    const cartographer = asApiKey((await createApiKey(t, a.token, ApiPermission.CartographyReadWrite)).apikey);
    expectStatus(await t.http.post(`/api/v1/geofences/${mine.id}/restore`).set(cartographer), 200);
  });
});
