import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { addUser, login } from '../support/admin';
import { asApiKey, createApiKey } from '../support/auth';
import { createFloor, createSite, signUp, Site } from '../support/cartography';
import { createTestApp, TestApp, testDatabaseKind, TwoInstances, twoInstances } from '../support/test-app';

const UUID = 'f7826da6-4fa2-4e98-8024-bc5b71e0893e';
/** Beacons on a 10 m grid over the floor's first 40 × 40 m, 1 m reference power −59 dBm. */
const GRID = Array.from({ length: 25 }, (_, i) => ({ minor: i + 1, x: 5 + (i % 5) * 10, y: 5 + Math.floor(i / 5) * 10 }));

/** What a device at (x, y) would hear: a log-distance path-loss model (exponent 3), no noise. */
function scanAt(deviceId: string, x: number, y: number, time: number, buildingId?: number) {
  return { device_id: deviceId, time, ...(buildingId && { building_id: buildingId }), ble: hearing(x, y) };
}

function hearing(x: number, y: number) {
  return GRID.map((b) => {
    const d = Math.max(0.5, Math.hypot(b.x - x, b.y - y));
    return { uuid: UUID, major: 1, minor: b.minor, rssi: Math.round(-59 - 30 * Math.log10(d)) };
  })
    .filter((r) => r.rssi > -100)
    .slice(0, 20);
}

/** The grid's beacons on a floor, shifted east by `east` metres. */
const gridOn = (floorId: number, east = 0) => GRID.map((b) => ({ floor_id: floorId, uuid: UUID, major: 1, minor: b.minor, tx_power: -59, x: b.x + east, y: b.y }));

type Auth = Record<string, string>;

/**
 * Posts one scan; the single-scan estimate it gave (or the rejection). These tests are about the
 * estimator: a device's repeated scans are tracked (tracking.e2e-spec.ts), and `raw` is the
 * estimate of the scan alone, which is what they compare.
 */
async function estimate(t: TestApp, auth: Auth, scan: object): Promise<{ status: number; fix?: { x: number; y: number; floor_id: number }; code?: string }> {
  const response = await t.http.post('/api/v1/realtime/scans').set(auth).send([scan]);
  const fix = response.body.fixes?.[0];
  return { status: response.status, fix: fix && { ...fix, ...fix.raw }, code: response.body.errors?.[0]?.code };
}

describe('positions from scans (POST /api/v1/realtime/scans)', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let site: Site;
  let device: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signUp(t, 'Scans');
    site = await createSite(t, admin.auth);
    await t.http
      .put(`/api/v1/infrastructure?building_id=${site.building.id}`)
      .set(admin.auth)
      .send({ wifi: [], ble: gridOn(site.floor.id) })
      .expect(200);
    device = asApiKey((await createApiKey(t, admin.token, ApiPermission.Positioning)).apikey);
  });
  afterAll(async () => t?.close());

  it('estimates each position, stores it like a reported fix, and says how', async () => {
    const now = Date.now();
    const truth = [
      [12, 17],
      [25, 25],
      [33, 8],
    ];
    const response = await t.http
      .post('/api/v1/realtime/scans')
      .set(device)
      .send({ scans: truth.map(([x, y], i) => scanAt('tag-1', x, y, now - 3000 + i * 1000)) })
      .expect(200);
    expect(response.body).toMatchObject({ accepted: 3, rejected: [], events: [] });
    for (const [i, fix] of (response.body.fixes as Array<Record<string, number | string>>).entries()) {
      expect(fix).toMatchObject({ index: i, device_id: 'tag-1', building_id: site.building.id, floor_id: site.floor.id, method: 'fit' });
      expect(Math.hypot((fix.x as number) - truth[i][0], (fix.y as number) - truth[i][1])).toBeLessThan(1.5);
      expect(fix.transmitters_used as number).toBeGreaterThanOrEqual(3);
      expect(fix.accuracy as number).toBeGreaterThan(0);
    }
    // The live picture and the history have it, as for any fix.
    const live = await t.http.get(`/api/v1/realtime/positions?building_ids=${site.building.id}`).set(admin.auth).expect(200);
    const feature = live.body.features.find((f: { id: string }) => f.id === 'tag-1');
    expect(feature.properties).toMatchObject({ floor_id: site.floor.id, building_id: site.building.id });
    const last = response.body.fixes[2];
    expect(feature.geometry.coordinates[0]).toBeCloseTo(last.lat, 6);
    expect(feature.geometry.coordinates[1]).toBeCloseTo(last.lng, 6);
    const registered = await t.http.get('/api/v1/devices/tag-1').set(admin.auth).expect(200);
    expect(registered.body.id).toBe('tag-1');
  });

  it('finds the building from what the scan hears when none is named', async () => {
    const response = await t.http
      .post('/api/v1/realtime/scans')
      .set(device)
      .send([scanAt('tag-2', 20, 20, Date.now())])
      .expect(200);
    expect(response.body.fixes[0]).toMatchObject({ building_id: site.building.id, floor_id: site.floor.id });
  });

  it('rejects scans that hear nothing known, and fixes the pipeline refuses, naming the scan', async () => {
    const now = Date.now();
    const unknown = { device_id: 'tag-3', time: now, ble: [{ uuid: '00000000-0000-4000-8000-000000000000', major: 9, minor: 9, rssi: -60 }] };
    const tooOld = scanAt('tag-3', 10, 10, now - 30 * 86_400_000);
    const good = scanAt('tag-3', 10, 10, now);
    const response = await t.http
      .post('/api/v1/realtime/scans')
      .set(device)
      .send({ scans: [unknown, tooOld, good] })
      .expect(200);
    expect(response.body.accepted).toBe(1);
    expect(response.body.fixes.map((f: { index: number }) => f.index)).toEqual([2]);
    expect(response.body.rejected).toEqual([
      expect.objectContaining({ index: 0, code: 'no_known_transmitters' }),
      expect.objectContaining({ index: 1, fields: expect.stringContaining('time') }),
    ]);
    const none = await t.http
      .post('/api/v1/realtime/scans')
      .set(device)
      .send({ scans: [unknown] })
      .expect(422);
    expect(none.body).toMatchObject({ status: 422, code: 'validation_failed', errors: [expect.objectContaining({ index: 0, code: 'no_known_transmitters' })] });
  });

  it('refuses bad bodies and too many scans', async () => {
    await t.http.post('/api/v1/realtime/scans').set(device).send({ nope: true }).expect(422);
    await t.http.post('/api/v1/realtime/scans').set(device).send({ scans: [] }).expect(422);
    const many = Array.from({ length: 1001 }, () => ({ device_id: 'x', time: Date.now(), ble: [] }));
    const tooMany = await t.http.post('/api/v1/realtime/scans').set(device).send({ scans: many });
    expect([413]).toContain(tooMany.status);
  });

  it('rejects each bad reading naming its field, also after good readings of the same batch', async () => {
    const now = Date.now();
    const good = (minor: number) => ({ uuid: UUID.toUpperCase(), major: 1, minor, rssi: -60 });
    const scans = [
      { device_id: 'bad-1', time: now, ble: [good(1), { uuid: 'not-a-uuid', major: 1, minor: 2, rssi: -60 }] },
      { device_id: 'bad-2', time: now, ble: [good(1), { major: 1, minor: 2, rssi: -60 }] },
      {
        device_id: 'bad-3',
        time: now,
        ble: [good(1)],
        wifi: [
          { bssid: 'A4-5E-60-E8-1F-01', rssi: -60 },
          { bssid: 'a4:5e:60:e8:1f', rssi: -60 },
        ],
      },
      { device_id: 'bad-4', time: now, ble: [{ ...good(1), rssi: '-60' }] },
      { device_id: 'bad-5', time: now, ble: [good(1), null] },
      { device_id: 'bad-6', time: now, ble: [good(1), { ...good(2), minor: -1 }] },
      scanAt('good', 12, 17, now),
    ];
    const response = await t.http.post('/api/v1/realtime/scans').set(device).send({ scans }).expect(200);
    expect(response.body.accepted).toBe(1);
    expect(response.body.rejected.map((r: { index: number; code: string; fields: string }) => [r.index, r.code, r.fields])).toEqual([
      [0, 'invalid', '[0].ble[1].uuid'],
      [1, 'invalid', '[1].ble[1].uuid'],
      [2, 'invalid', '[2].wifi[1].bssid'],
      [3, 'invalid', '[3].ble[0].rssi'],
      [4, 'invalid', '[4].ble[1]'],
      [5, 'invalid', '[5].ble[1].minor'],
    ]);
  });

  it('needs positioning or stronger, and never uses another organization’s transmitters', async () => {
    const reader = asApiKey((await createApiKey(t, admin.token, ApiPermission.ReadOnly)).apikey);
    await t.http
      .post('/api/v1/realtime/scans')
      .set(reader)
      .send([scanAt('tag-4', 10, 10, Date.now())])
      .expect(403);
    await t.http
      .post('/api/v1/realtime/scans')
      .send([scanAt('tag-4', 10, 10, Date.now())])
      .expect(401);

    const other = await signUp(t, 'Other scans');
    const otherDevice = asApiKey((await createApiKey(t, other.token, ApiPermission.Positioning)).apikey);
    // Same beacons heard, but they belong to the first organization: nothing known to the second.
    const refused = await t.http
      .post('/api/v1/realtime/scans')
      .set(otherDevice)
      .send([scanAt('tag-5', 10, 10, Date.now())])
      .expect(422);
    expect(refused.body.errors[0].code).toBe('no_known_transmitters');
    const named = await t.http
      .post('/api/v1/realtime/scans')
      .set(otherDevice)
      .send([scanAt('tag-5', 10, 10, Date.now(), site.building.id)])
      .expect(422);
    expect(named.body.errors[0].code).toBe('not_found');
  });

  it('a user restricted to some buildings is placed by their transmitters only', async () => {
    const mine = await createSite(t, admin.auth);
    const user = await addUser(t, admin.auth, { building_ids: [mine.building.id] });
    const { auth } = await login(t, user.email, user.password);
    // The same beacons heard, listed in a building the user may not see: unknown to them, and that building not found.
    const unnamed = await t.http
      .post('/api/v1/realtime/scans')
      .set(auth)
      .send([scanAt('restricted', 10, 10, Date.now())])
      .expect(422);
    expect(unnamed.body.errors[0].code).toBe('no_known_transmitters');
    const named = await t.http
      .post('/api/v1/realtime/scans')
      .set(auth)
      .send([scanAt('restricted', 10, 10, Date.now(), site.building.id)])
      .expect(422);
    expect(named.body.errors[0].code).toBe('not_found');
    // Listed in their building too: the vote goes there, never to the hidden one.
    await t.http
      .put(`/api/v1/infrastructure?building_id=${mine.building.id}`)
      .set(admin.auth)
      .send({ wifi: [], ble: gridOn(mine.floor.id) })
      .expect(200);
    const placed = await t.http
      .post('/api/v1/realtime/scans')
      .set(auth)
      .send([scanAt('restricted', 10, 10, Date.now())])
      .expect(200);
    expect(placed.body.fixes[0]).toMatchObject({ building_id: mine.building.id, floor_id: mine.floor.id });
  });
});

describe('positions from scans use the transmitters as they are now', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let device: Auth;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signUp(t, 'Scans cache');
    device = asApiKey((await createApiKey(t, admin.token, ApiPermission.Positioning)).apikey);
  });
  afterAll(async () => t?.close());

  it('after beacons move, one is removed, or their floor is deleted, the next scan sees it', async () => {
    const site = await createSite(t, admin.auth);
    const put = (body: object) => t.http.put(`/api/v1/infrastructure?building_id=${site.building.id}`).set(admin.auth).send(body).expect(200);
    await put({ wifi: [], ble: gridOn(site.floor.id) });
    // Every scan hears the same: what a device at (12, 17) of the original grid hears.
    const scan = () => scanAt('mover', 12, 17, Date.now(), site.building.id);
    const first = await estimate(t, device, scan());
    expect(Math.hypot(first.fix!.x - 12, first.fix!.y - 17)).toBeLessThan(1.5);
    const again = await estimate(t, device, scan());
    expect(again.fix).toMatchObject({ x: first.fix!.x, y: first.fix!.y });

    // The whole grid 30 m east (a replacement keeps the beacons, with new positions).
    await put({ wifi: [], ble: gridOn(site.floor.id, 30) });
    const moved = await estimate(t, device, scan());
    expect(moved.fix!.x - first.fix!.x).toBeCloseTo(30, 1);
    expect(moved.fix!.y).toBeCloseTo(first.fix!.y, 1);

    // One beacon edited on its own: the one nearest the device, 20 m north. The estimate follows it.
    const listed = await t.http.get(`/api/v1/infrastructure?building_id=${site.building.id}&type=ble`).set(admin.auth).expect(200);
    const nearest = listed.body.ble.find((b: { minor: number }) => b.minor === 7);
    await t.http
      .put(`/api/v1/infrastructure/ble/${nearest.id}`)
      .set(admin.auth)
      .send({ x: nearest.x, y: nearest.y + 20 })
      .expect(200);
    const edited = await estimate(t, device, scan());
    expect(edited.fix!.y).not.toBeCloseTo(moved.fix!.y, 1);
    await t.http.delete(`/api/v1/infrastructure/ble/${nearest.id}`).set(admin.auth).expect(204);
    const removed = await estimate(t, device, scan());
    expect(removed.fix!.y).not.toBeCloseTo(edited.fix!.y, 1);

    // The floor deleted: its transmitters are no longer used; the scan hears nothing known.
    await t.http.delete(`/api/v1/floors/${site.floor.id}`).set(admin.auth).expect(204);
    expect(await estimate(t, device, scan())).toMatchObject({ status: 422, code: 'no_known_transmitters' });
    // Beacons on a new floor of the building are used at once.
    const floor = await createFloor(t, admin.auth, site.building.id, { level: 3 });
    await put({ wifi: [], ble: gridOn(floor.id) });
    expect((await estimate(t, device, scan())).fix).toMatchObject({ floor_id: floor.id });
  });

  it('a moved building moves the fixes (lat/lng) but not where they are on the floor', async () => {
    const site = await createSite(t, admin.auth);
    await t.http
      .put(`/api/v1/infrastructure?building_id=${site.building.id}`)
      .set(admin.auth)
      .send({ wifi: [], ble: gridOn(site.floor.id) })
      .expect(200);
    const before = await t.http
      .post('/api/v1/realtime/scans')
      .set(device)
      .send([scanAt('walker-b', 20, 20, Date.now(), site.building.id)])
      .expect(200);
    const location = { lat: site.building.location.lat + 0.001, lng: site.building.location.lng };
    await t.http.put(`/api/v1/buildings/${site.building.id}`).set(admin.auth).send({ location }).expect(200);
    const after = await t.http
      .post('/api/v1/realtime/scans')
      .set(device)
      .send([scanAt('walker-b', 20, 20, Date.now(), site.building.id)])
      .expect(200);
    expect(after.body.fixes[0].raw.x).toBeCloseTo(before.body.fixes[0].raw.x, 6);
    expect(after.body.fixes[0].raw.lat - before.body.fixes[0].raw.lat).toBeCloseTo(0.001, 6);
    // The tracked fix is in the moved building's frame too.
    expect(after.body.fixes[0].lat - before.body.fixes[0].lat).toBeCloseTo(0.001, 4);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('positions from scans on two instances (PostgreSQL)', () => {
  let instances: TwoInstances | undefined;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    instances = await twoInstances();
    ({ a, b } = instances);
  }, 60_000);
  afterAll(async () => {
    await instances?.close();
  });

  it('a change made through one instance is used by the other at its next scan', async () => {
    const admin = await signUp(a, 'Two instances');
    const device = asApiKey((await createApiKey(a, admin.token, ApiPermission.Positioning)).apikey);
    const site = await createSite(a, admin.auth);
    const put = (app: TestApp, east: number) =>
      app.http
        .put(`/api/v1/infrastructure?building_id=${site.building.id}`)
        .set(admin.auth)
        .send({ wifi: [], ble: gridOn(site.floor.id, east) })
        .expect(200);
    const scan = () => scanAt('roamer', 12, 17, Date.now(), site.building.id);
    await put(a, 0);
    // Both instances have read (and kept) the grid.
    const { x } = (await estimate(a, device, scan())).fix!;
    expect((await estimate(b, device, scan())).fix!.x).toBeCloseTo(x, 2);
    // Moved through B: A's next scan uses the new positions, and the reverse.
    await put(b, 30);
    expect((await estimate(a, device, scan())).fix!.x).toBeCloseTo(x + 30, 1);
    await put(a, 0);
    expect((await estimate(b, device, scan())).fix!.x).toBeCloseTo(x, 1);
    // The floor deleted through A: B no longer uses its transmitters.
    await a.http.delete(`/api/v1/floors/${site.floor.id}`).set(admin.auth).expect(204);
    expect(await estimate(b, device, scan())).toMatchObject({ status: 422, code: 'no_known_transmitters' });
  });
});
