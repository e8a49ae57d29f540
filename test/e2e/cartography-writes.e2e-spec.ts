import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { addPoi } from '../support/admin';
import { asApiKey, createApiKey } from '../support/auth';
import { createGeofence, createSite, signUp, Cartographer, Site } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

/** Regressions for the findings of a code review: each request once gave a 500, stored junk, or answered wrongly. */
describe('edge cases of cartography writes, the building document and positioning keys', () => {
  let t: TestApp;
  let o: Cartographer;
  let site: Site;

  beforeAll(async () => {
    t = await createTestApp();
    o = await signUp(t, 'Review');
    site = await createSite(t, o.auth);
  });
  afterAll(async () => t?.close());

  it('refuses arrays where objects are expected, with 422 naming the field', async () => {
    const cases: Array<[string, string, object, string]> = [
      ['post', '/api/v1/buildings', { name: 'B', location: [], dimensions: { width: 1, length: 1 } }, 'location'],
      ['post', '/api/v1/buildings', { name: 'B', location: { lat: 1, lng: 1 }, dimensions: [] }, 'dimensions'],
      ['put', `/api/v1/buildings/${site.building.id}`, { location: [] }, 'location'],
      ['put', `/api/v1/floors/${site.floor.id}`, { custom_fields: [[]] }, 'custom_fields'],
      ['post', '/api/v1/pois', { building_id: site.building.id, name: 'P', position: { floor_id: site.floor.id, georeferences: [] } }, 'position.georeferences'],
      ['post', '/api/v1/pois', { building_id: site.building.id, name: 'P', position: [] }, 'position'],
      ['put', `/api/v1/buildings/${site.building.id}/paths`, { nodes: [[]], links: [] }, 'nodes'],
    ];
    for (const [method, path, body, field] of cases) {
      const response = await t.http[method as 'post' | 'put'](path).set(o.auth).send(body);
      expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(422);
      expect(response.body.errors.map((error: { fields: string }) => error.fields).some((fields: string) => fields.startsWith(field))).toBe(true);
    }
    const floor = await t.http.get(`/api/v1/floors/${site.floor.id}`).set(o.auth).expect(200);
    expect(floor.body.custom_fields).toEqual([]);
  });

  it('stores a geofence name that grows when lower-cased', async () => {
    const name = 'İ'.repeat(255);
    const geofence = await createGeofence(t, o.auth, site.place, { name });
    expect(geofence.name).toBe(name);
    const found = await t.http.get('/api/v1/geofences/search').query({ name: 'i̇i̇' }).set(o.auth).expect(200);
    expect(found.body.data.map((item: { id: string }) => item.id)).toContain(geofence.id);
  });

  it('keeps a POI on its floor when an update sends only new cartesians', async () => {
    const poi = await addPoi(t, o.auth, site.place);
    const updated = await t.http
      .put(`/api/v1/pois/${poi.id}`)
      .set(o.auth)
      .send({ position: { cartesians: { x: 2, y: 2 } } })
      .expect(200);
    expect(updated.body).toMatchObject({ type: 'indoor', position: { floor_id: site.floor.id, x: 2, y: 2 } });
  });

  it('refuses path nodes placed absurdly far away', async () => {
    const response = await t.http
      .put(`/api/v1/buildings/${site.building.id}/paths`)
      .set(o.auth)
      .send({ nodes: [{ id: 1, floor_id: site.floor.id, x: 1e300, y: 1e300 }], links: [] })
      .expect(422);
    expect(response.body.errors.map((error: { fields: string }) => error.fields)).toEqual(expect.arrayContaining(['nodes[0].x', 'nodes[0].y']));
  });

  it('changes the building document ETag when what the document shows changes, and still accepts it in If-Match', async () => {
    const first = await t.http.get(`/api/v1/buildings/${site.building.id}`).set(o.auth).expect(200);
    await createGeofence(t, o.auth, site.place, { name: 'New zone' });
    const second = await t.http.get(`/api/v1/buildings/${site.building.id}`).set(o.auth).expect(200);
    expect(second.headers.etag).not.toBe(first.headers.etag);
    await t.http.put(`/api/v1/buildings/${site.building.id}`).set(o.auth).set('If-Match', second.headers.etag).send({ name: 'Renamed' }).expect(200);
    await t.http.put(`/api/v1/buildings/${site.building.id}`).set(o.auth).set('If-Match', second.headers.etag).send({ name: 'Stale' }).expect(409);
  });

  it('does not let a positioning key read the user behind it', async () => {
    const key = await createApiKey(t, o.token, ApiPermission.Positioning);
    await t.http.get('/api/v1/users/me').set(asApiKey(key.apikey)).expect(403);
    const readOnly = await createApiKey(t, o.token, ApiPermission.ReadOnly);
    await t.http.get('/api/v1/users/me').set(asApiKey(readOnly.apikey)).expect(200);
  });
});
