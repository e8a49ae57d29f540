import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cartographer, createSite, expectError, signUp, Site } from '../support/cartography';
import { fix, report } from '../support/positions';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Issue 27, item 6: floor metres far outside the building (1,000,000 m) used to be stored and
 * served at latitude 98.99. A fix's x/y must convert to a valid latitude and longitude within
 * max(1 km, 10 × the building's diagonal) of the building's centre; otherwise that item is
 * rejected with its reason, and the others of the batch are kept.
 */
describe('floor coordinates outside the building', () => {
  let t: TestApp;
  let owner: Cartographer;
  let polar: Site;
  let plain: Site;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signUp(t, 'Floor metres');
    polar = await createSite(t, owner.auth, { location: { lat: 89.999, lng: 179.999 }, dimensions: { width: 20, length: 20 }, rotation: 0 });
    // 120.5 × 80 m: the bound is 10 × its 144.6 m diagonal, 1446 m from its centre.
    plain = await createSite(t, owner.auth, { rotation: 0 });
  });
  afterAll(async () => t?.close());

  const onFloor = (site: Site, deviceId: string, x: number, y: number) => fix(deviceId, { lat: undefined, lng: undefined, x, y, floor_id: site.floor.id });

  it('refuses x/y of 1,000,000 m near the pole (the whole batch: 422 with the item named), and stores nothing', async () => {
    const response = await t.http
      .post('/api/v1/realtime/positions')
      .set(owner.auth)
      .send({ positions: [onFloor(polar, 'far-north', 1_000_000, 1_000_000)] });
    expectError(response, 422, 'validation_failed');
    expect(response.body.errors).toEqual([expect.objectContaining({ index: 0, code: 'out_of_range', fields: 'x,y', message: expect.stringContaining('at most 1000 m') })]);
    const live = await t.http.get('/api/v1/realtime/positions?device_ids=far-north').set(owner.auth).expect(200);
    expect(live.body.features).toEqual([]);
  });

  it('refuses x/y that would put the fix beyond the pole even within the distance bound', async () => {
    const answer = await report(t, owner.auth, { positions: [onFloor(polar, 'pole-ok', 10, 10), onFloor(polar, 'pole-beyond', 10, 900)] });
    expect(answer.accepted).toBe(1);
    expect(answer.rejected).toEqual([expect.objectContaining({ index: 1, code: 'out_of_range', fields: 'x,y', message: expect.stringContaining('beyond the poles') })]);
  });

  it('keeps fixes within max(1 km, 10 × the diagonal) of the building, refuses those beyond, per item', async () => {
    const answer = await report(t, owner.auth, {
      positions: [onFloor(plain, 'inside', 60, 40), onFloor(plain, 'near', 1400 + 60, 40), onFloor(plain, 'far', 60, 1500 + 40), onFloor(plain, 'negative', -2000, 40)],
    });
    expect(answer.accepted).toBe(2);
    expect(answer.rejected.map((item) => [item.index, item.code, item.fields])).toEqual([
      [2, 'out_of_range', 'x,y'],
      [3, 'out_of_range', 'x,y'],
    ]);
    expect(answer.rejected[0].message).toContain('at most 1446 m');
    const live = await t.http.get('/api/v1/realtime/positions?device_ids=inside,near').set(owner.auth).expect(200);
    for (const feature of live.body.features as Array<{ geometry: { coordinates: [number, number] } }>) {
      const [lat, lng] = feature.geometry.coordinates;
      expect(Math.abs(lat - 42.8723597)).toBeLessThan(0.02);
      expect(Math.abs(lng + 8.5633224)).toBeLessThan(0.03);
    }
  });
});
