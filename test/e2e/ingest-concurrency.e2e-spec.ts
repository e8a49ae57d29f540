import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cartographer, createGeofence, createSite, LatLng, signUp, Site } from '../support/cartography';
import { historyOf, REALTIME } from '../support/positions';
import { createTestApp, TestApp } from '../support/test-app';

const METRE_LAT = 1 / 111_195.08;
const ORIGIN_LAT = 42.8723597;
const ORIGIN_LNG = -8.5633224;
const METRE_LNG = METRE_LAT / Math.cos((ORIGIN_LAT * Math.PI) / 180);
const at = (east: number, north: number) => ({ lat: ORIGIN_LAT + north * METRE_LAT, lng: ORIGIN_LNG + east * METRE_LNG });
const square = (): LatLng[] => {
  const sw = at(0, 0);
  const ne = at(10, 10);
  return [
    [sw.lat, sw.lng],
    [ne.lat, sw.lng],
    [ne.lat, ne.lng],
    [sw.lat, ne.lng],
    [sw.lat, sw.lng],
  ];
};

const BATCHES = 24;
const DEVICES_PER_BLOCK = 20;
const BLOCKS = 4;

/**
 * Many concurrent batches against a pool of two connections, on a floor with a fence (so the
 * evaluation reads the floor's index inside the transaction). A read taken from the pool
 * inside the transaction starved the pool: every transaction held a connection and waited
 * for another, until the connection timeout turned them into 503s. Batches of one device
 * block also wait for each other's device lock.
 */
describe('concurrent ingest with evaluation on a small connection pool', () => {
  let t: TestApp;
  let owner: Cartographer;
  let site: Site;

  beforeAll(async () => {
    t = await createTestApp({ env: { DATABASE_POOL_SIZE: '2', GEOFENCE_SWEEPER: 'false' } });
    owner = await signUp(t, 'Concurrent ingest');
    site = await createSite(t, owner.auth);
    await createGeofence(t, owner.auth, site.place, { name: 'Hall', code: 'hall', geometric: square() });
  });
  afterAll(async () => t?.close());

  it('every batch is accepted, every fix stored, every device entered once', async () => {
    const base = Date.now() - 600_000;
    const inside = at(5, 5);
    const batch = (n: number) => {
      const block = n % BLOCKS;
      // Each block's devices get a run of seconds of their own per batch, so no fix repeats a time.
      const second = Math.floor(n / BLOCKS);
      return {
        positions: Array.from({ length: DEVICES_PER_BLOCK }, (_, i) => ({
          device_id: `dev-${block}-${i}`,
          time: new Date(base + second * 1000).toISOString(),
          floor_id: site.floor.id,
          lat: inside.lat,
          lng: inside.lng,
          accuracy: 1,
        })),
      };
    };
    const answers = await Promise.all(Array.from({ length: BATCHES }, (_, n) => t.http.post(REALTIME).set(owner.auth).send(batch(n))));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: BATCHES }, () => 200));
    expect(answers.reduce((sum, answer) => sum + (answer.body as { accepted: number }).accepted, 0)).toBe(BATCHES * DEVICES_PER_BLOCK);
    expect(await historyOf(t, owner.org.organizationId)).toHaveLength(BATCHES * DEVICES_PER_BLOCK);

    // min_dwell_seconds defaults to 3: the batches span 6 s per device, so each one entered, once.
    const rows = (await t.dataSource.query(`SELECT device_id, type FROM geofence_events WHERE organization_id = '${owner.org.organizationId}'`)) as Array<{
      device_id: string;
      type: string;
    }>;
    const enters = rows.filter((row) => row.type === 'geofence.enter').map((row) => row.device_id);
    expect(enters.sort()).toEqual(Array.from({ length: BLOCKS * DEVICES_PER_BLOCK }, (_, k) => `dev-${Math.floor(k / DEVICES_PER_BLOCK)}-${k % DEVICES_PER_BLOCK}`).sort());
  });
});
