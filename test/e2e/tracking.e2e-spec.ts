import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { asApiKey, asBasic, asBearer, createApiKey } from '../support/auth';
import { createSite, signUp, Site } from '../support/cartography';
import { bleOf } from '../support/radio';
import { beaconGrid, GRID_UUID, seededRandom, synthesizeScan } from '../support/synthetic-scans';
import { ensureServerBuilt, RunningProcess, startProcess } from '../support/server-process';
import { createTestApp, freshDatabase, TestApp, testDatabaseKind, twoInstances } from '../support/test-app';

/**
 * Tracking (issue 37): positions from scans follow each device through its scans, on the
 * server, from a state kept with the device. A walk down a corridor with noisy scans: the
 * tracked fixes are closer to the truth than the single-scan ones the answer also carries.
 */
const GRID = beaconGrid(6, 5, 10); // 60 × 50 m, a beacon every 10 m
const RADIO = { pathLossExponent: 2.5, shadowingDb: 4, sensitivity: -95, readings: [30, 30] as [number, number] };
type Auth = Record<string, string>;
interface Fix {
  index: number;
  device_id: string;
  time: string;
  floor_id: number;
  lat: number;
  lng: number;
  x: number;
  y: number;
  accuracy: number;
  raw: { floor_id: number; x: number; y: number; lat: number; lng: number; accuracy: number };
  track: { status: string; reason: string | null };
}

/** A walk at 1.2 m/s along y = 25 from x = 5, one scan a second, from `start` (ms). */
function walk(deviceId: string, start: number, seconds: number, seed: number) {
  const random = seededRandom(seed);
  return Array.from({ length: seconds }, (_, i) => {
    const truth = { x: 5 + 1.2 * i, y: 25 };
    return { truth, scan: { device_id: deviceId, time: start + i * 1000, ble: bleOf(synthesizeScan(GRID, truth, random, RADIO)) } };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function installGrid(t: TestApp, auth: Auth, site: Site): Promise<void> {
  const ble = GRID.map((b) => ({ floor_id: site.floor.id, uuid: GRID_UUID, major: 1, minor: b.id, tx_power: -59, x: b.x, y: b.y }));
  await t.http.put(`/api/v1/infrastructure?building_id=${site.building.id}`).set(auth).send({ wifi: [], ble }).expect(200);
}

async function post(t: TestApp, auth: Auth, scans: object[]): Promise<Fix[]> {
  const response = await t.http.post('/api/v1/realtime/scans').set(auth).send({ scans });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.fixes as Fix[];
}

describe('tracking of positions from scans', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let site: Site;
  let device: Auth;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signUp(t, 'Tracking');
    site = await createSite(t, admin.auth, { dimensions: { width: 60, length: 50 }, rotation: 0 });
    await installGrid(t, admin.auth, site);
    device = asApiKey((await createApiKey(t, admin.token, ApiPermission.Positioning)).apikey);
  });
  afterAll(async () => t?.close());

  it('answers, stores and serves the tracked fix, closer to the truth than the single-scan one it also answers', async () => {
    const steps = walk('walker', Date.now() - 120_000, 40, 7);
    const fixes: Fix[] = [];
    // Ten scans a request, as a phone sends them.
    for (let at = 0; at < steps.length; at += 10)
      fixes.push(
        ...(await post(
          t,
          device,
          steps.slice(at, at + 10).map((s) => s.scan),
        )),
      );
    expect(fixes).toHaveLength(40);
    expect(fixes[0].track).toEqual({ status: 'started', reason: 'first' });
    for (const fix of fixes.slice(1)) expect(fix.track).toEqual({ status: 'tracked', reason: null });
    const rawErrors = fixes.map((fix, i) => Math.hypot(fix.raw.x - steps[i].truth.x, fix.raw.y - steps[i].truth.y));
    const trackedErrors = fixes.map((fix, i) => Math.hypot(fix.x - steps[i].truth.x, fix.y - steps[i].truth.y));
    // The first seconds belong to the start of the track; from then on the filter is ahead.
    expect(median(trackedErrors.slice(5))).toBeLessThan(0.8 * median(rawErrors.slice(5)));
    for (const fix of fixes) {
      expect(fix.x).toBeGreaterThanOrEqual(0);
      expect(fix.x).toBeLessThanOrEqual(60);
      expect(fix.accuracy).toBeGreaterThan(0);
    }
    // What is stored and served is the tracked fix.
    const last = fixes.at(-1)!;
    const live = await t.http.get(`/api/v1/realtime/positions?building_ids=${site.building.id}&max_sec_threshold=3600`).set(admin.auth).expect(200);
    const feature = live.body.features.find((f: { id: string }) => f.id === 'walker');
    expect(feature.properties.accuracy).toBeCloseTo(last.accuracy, 6);
    expect(last.accuracy).not.toBe(last.raw.accuracy);
    expect(feature.geometry.coordinates[0]).toBeCloseTo(last.lat, 6);
    expect(feature.geometry.coordinates[1]).toBeCloseTo(last.lng, 6);
    const stateRows: Array<{ state: string; time: number | string }> = await t.dataSource.query(`SELECT "state", "time" FROM "device_tracks" WHERE "device_id" = 'walker'`);
    expect(stateRows).toHaveLength(1);
    expect(Number(stateRows[0].time)).toBe(Date.parse(last.time));
    // Small: a device's state is well under a kilobyte.
    expect(Buffer.byteLength(stateRows[0].state)).toBeLessThan(1024);
  });

  it('takes a device’s scans in time order whatever their order in the body, and the same scans give the same track', async () => {
    const start = Date.now() - 100_000;
    const steps = walk('ordered', start, 12, 11);
    const inOrder = await post(
      t,
      device,
      steps.map((s) => s.scan),
    );
    const other = await signUp(t, 'Tracking twin');
    const twin = await createSite(t, other.auth, { dimensions: { width: 60, length: 50 }, rotation: 0 });
    await installGrid(t, other.auth, twin);
    const reversed = await post(
      t,
      other.auth,
      [...steps].reverse().map((s) => s.scan),
    );
    // Answered in the body's order; the same device and times, so the same track.
    expect(reversed.map((fix) => fix.index)).toEqual(steps.map((_, i) => i));
    const byTime = new Map(reversed.map((fix) => [fix.time, fix]));
    for (const fix of inOrder) {
      const same = byTime.get(fix.time)!;
      expect(same.track).toEqual(fix.track);
      expect(same.x).toBeCloseTo(fix.x, 9);
      expect(same.y).toBeCloseTo(fix.y, 9);
    }
    expect(reversed.find((fix) => fix.time === inOrder[0].time)!.track).toEqual({ status: 'started', reason: 'first' });
  });

  it('stores a late scan as estimated and says so; the track does not move back; duplicates are refused as before', async () => {
    const start = Date.now() - 80_000;
    const steps = walk('late', start, 11, 13);
    const first = await post(
      t,
      device,
      steps.slice(0, 10).map((s) => s.scan),
    );
    const newest = first.at(-1)!;
    const late = walk('late', start - 30_000, 1, 17)[0].scan;
    const answer = await t.http
      .post('/api/v1/realtime/scans')
      .set(device)
      .send({ scans: [late, late] })
      .expect(200);
    expect(answer.body.rejected).toEqual([expect.objectContaining({ index: 1, code: 'duplicate' })]);
    expect(answer.body.fixes).toHaveLength(1);
    const stored = answer.body.fixes[0] as Fix;
    expect(stored.track).toEqual({ status: 'late', reason: null });
    expect(stored.x).toBe(stored.raw.x);
    expect(stored.accuracy).toBe(stored.raw.accuracy);
    // In the history, not in the live picture, and the state still follows the newest scan.
    const rows: Array<{ time: number | string }> = await t.dataSource.query(`SELECT "time" FROM "device_tracks" WHERE "device_id" = 'late'`);
    expect(Number(rows[0].time)).toBe(Date.parse(newest.time));
    const next = await post(t, device, [steps[10].scan]);
    expect(next[0].track.status).toBe('tracked');
    // Every scan is in the history: the ten, the late one, the next.
    const counted: Array<{ n: number | string }> = await t.dataSource.query(`SELECT COUNT(*) AS "n" FROM "position_history" WHERE "device_id" = 'late'`);
    expect(Number(counted[0].n)).toBe(12);
  });

  it('starts a track afresh after the building’s silence, and places each scan alone when the building turns tracking off', async () => {
    const settings = await t.http.get(`/api/v1/infrastructure/tracking?building_id=${site.building.id}`).set(admin.auth).expect(200);
    expect(settings.body).toEqual({ building_id: site.building.id, scans: true, positions: false, reset_after_seconds: 30, custom: false });
    // Validation: the contract's error shape, the field named.
    const bad = await t.http.put(`/api/v1/infrastructure/tracking?building_id=${site.building.id}`).set(admin.auth).send({ reset_after_seconds: 0 }).expect(422);
    expect(JSON.stringify(bad.body)).toContain('reset_after_seconds');
    await t.http.put(`/api/v1/infrastructure/tracking?building_id=${site.building.id}`).set(admin.auth).send({ scans: null }).expect(422);
    // A positioning key cannot change them.
    await t.http.put(`/api/v1/infrastructure/tracking?building_id=${site.building.id}`).set(device).send({ reset_after_seconds: 5 }).expect(403);
    await t.http.patch(`/api/v1/infrastructure/tracking?building_id=${site.building.id}`).set(admin.auth).send({ reset_after_seconds: 5 }).expect(200);

    const start = Date.now() - 60_000;
    const before = await post(
      t,
      device,
      walk('quiet', start, 3, 23).map((s) => s.scan),
    );
    expect(before.map((fix) => fix.track.status)).toEqual(['started', 'tracked', 'tracked']);
    const after = await post(t, device, [walk('quiet', start + 12_000, 1, 29)[0].scan]);
    expect(after[0].track).toEqual({ status: 'started', reason: 'silence' });

    const off = await t.http.put(`/api/v1/infrastructure/tracking?building_id=${site.building.id}`).set(admin.auth).send({ scans: false }).expect(200);
    expect(off.body).toEqual({ building_id: site.building.id, scans: false, positions: false, reset_after_seconds: 5, custom: true });
    const single = await post(
      t,
      device,
      walk('alone', start, 3, 31).map((s) => s.scan),
    );
    for (const fix of single) {
      expect(fix.track).toEqual({ status: 'off', reason: null });
      expect([fix.x, fix.y, fix.accuracy]).toEqual([fix.raw.x, fix.raw.y, fix.raw.accuracy]);
    }
    await t.http.put(`/api/v1/infrastructure/tracking?building_id=${site.building.id}`).set(admin.auth).send({ scans: true, reset_after_seconds: 30 }).expect(200);
    // Another organization's building is not found.
    const stranger = await signUp(t, 'Tracking stranger');
    await t.http.get(`/api/v1/infrastructure/tracking?building_id=${site.building.id}`).set(stranger.auth).expect(404);
  });

  it('forgets a device’s track with the device', async () => {
    await post(
      t,
      device,
      walk('gone', Date.now() - 30_000, 2, 37).map((s) => s.scan),
    );
    expect(await t.dataSource.query(`SELECT 1 FROM "device_tracks" WHERE "device_id" = 'gone'`)).toHaveLength(1);
    await t.http.delete('/api/v1/devices/gone').set(admin.auth).expect(204);
    expect(await t.dataSource.query(`SELECT 1 FROM "device_tracks" WHERE "device_id" = 'gone'`)).toHaveLength(0);
  });
});

/** A noisy walk of reported positions (a fix a second along y = 25 at 1.2 m/s, each off by `sd` per axis), from `start` (ms). */
function reportedWalk(deviceId: string, floorId: number, start: number, seconds: number, seed: number, sd = 2.5) {
  const random = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Array.from({ length: seconds }, (_, i) => {
    const truth = { x: 5 + 1.2 * i, y: 25 };
    return { truth, fix: { device_id: deviceId, time: start + i * 1000, floor_id: floorId, x: truth.x + sd * normal(), y: truth.y + sd * normal(), accuracy: 1.5 * sd } };
  });
}

interface StoredRow {
  x: number;
  y: number;
  accuracy: number;
}

async function history(t: TestApp, deviceId: string): Promise<StoredRow[]> {
  const rows: StoredRow[] = await t.dataSource.query(`SELECT "x", "y", "accuracy" FROM "position_history" WHERE "device_id" = '${deviceId}' ORDER BY "time"`);
  return rows.map((row) => ({ x: Number(row.x), y: Number(row.y), accuracy: Number(row.accuracy) }));
}

async function report(t: TestApp, auth: Auth, fixes: object[]): Promise<void> {
  const response = await t.http.post('/api/v1/realtime/positions').set(auth).send({ positions: fixes });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.rejected).toEqual([]);
}

describe('filtering of the positions devices report themselves', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let site: Site;
  let device: Auth;
  const settingsUrl = () => `/api/v1/infrastructure/tracking?building_id=${site.building.id}`;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signUp(t, 'Reported filtering');
    site = await createSite(t, admin.auth, { dimensions: { width: 60, length: 50 }, rotation: 0 });
    device = asApiKey((await createApiKey(t, admin.token, ApiPermission.Positioning)).apikey);
  });
  afterAll(async () => t?.close());

  it('stores reported positions as reported by default, and filtered where the building asks for it', async () => {
    const start = Date.now() - 120_000;
    const plain = reportedWalk('as-reported', site.floor.id, start, 30, 61);
    await report(
      t,
      device,
      plain.map((s) => s.fix),
    );
    const stored = await history(t, 'as-reported');
    expect(stored.map((row) => [row.x, row.y, row.accuracy])).toEqual(plain.map((s) => [s.fix.x, s.fix.y, s.fix.accuracy].map((v) => expect.closeTo(v, 6))));
    expect(await t.dataSource.query(`SELECT 1 FROM "device_tracks" WHERE "device_id" = 'as-reported'`)).toHaveLength(0);

    await t.http.put(settingsUrl()).set(admin.auth).send({ positions: 'yes' }).expect(422);
    await t.http.put(settingsUrl()).set(device).send({ positions: true }).expect(403);
    const on = await t.http.patch(settingsUrl()).set(admin.auth).send({ positions: true }).expect(200);
    expect(on.body).toEqual({ building_id: site.building.id, scans: true, positions: true, reset_after_seconds: 30, custom: true });

    const steps = reportedWalk('filtered', site.floor.id, start, 40, 67);
    for (let at = 0; at < steps.length; at += 10)
      await report(
        t,
        device,
        steps.slice(at, at + 10).map((s) => s.fix),
      );
    const filtered = await history(t, 'filtered');
    expect(filtered).toHaveLength(40);
    expect(filtered[0]).toMatchObject({ x: expect.closeTo(steps[0].fix.x, 3), y: expect.closeTo(steps[0].fix.y, 3) });
    const reportedErrors = steps.map((s) => Math.hypot(s.fix.x - s.truth.x, s.fix.y - s.truth.y)).slice(5);
    const filteredErrors = filtered.map((row, i) => Math.hypot(row.x - steps[i].truth.x, row.y - steps[i].truth.y)).slice(5);
    expect(median(filteredErrors)).toBeLessThan(0.8 * median(reportedErrors));
    // The accuracy is the filter's own, tighter than the fixes' once the track has run a while.
    expect(median(filtered.slice(10).map((row) => row.accuracy))).toBeLessThan(steps[0].fix.accuracy);
    // The live picture is the filtered fix, with its coordinates in both systems.
    const live = await t.http.get('/api/v1/devices/filtered').set(admin.auth).expect(200);
    expect(live.body.last_position).toMatchObject({
      x: expect.closeTo(filtered[39].x, 6),
      y: expect.closeTo(filtered[39].y, 6),
      accuracy: expect.closeTo(filtered[39].accuracy, 6),
    });
    expect(Math.abs(live.body.last_position.x - steps[39].fix.x) + Math.abs(live.body.last_position.y - steps[39].fix.y)).toBeGreaterThan(1e-6);
    const rows: Array<{ state: string }> = await t.dataSource.query(`SELECT "state" FROM "device_tracks" WHERE "device_id" = 'filtered'`);
    expect(rows).toHaveLength(1);
    expect(Buffer.byteLength(rows[0].state)).toBeLessThan(200);
  });

  it('stores a late position as reported without moving the track, and leaves positions of other buildings alone', async () => {
    const start = Date.now() - 90_000;
    const steps = reportedWalk('late-reported', site.floor.id, start, 10, 71);
    await report(
      t,
      device,
      steps.map((s) => s.fix),
    );
    const [stateBefore]: Array<{ state: string; time: number | string }> = await t.dataSource.query(
      `SELECT "state", "time" FROM "device_tracks" WHERE "device_id" = 'late-reported'`,
    );
    expect(stateBefore.state).toMatch(/^R1;/);
    const late = { ...reportedWalk('late-reported', site.floor.id, start - 20_000, 1, 73)[0].fix };
    await report(t, device, [late]);
    const [stateAfter]: Array<{ state: string; time: number | string }> = await t.dataSource.query(
      `SELECT "state", "time" FROM "device_tracks" WHERE "device_id" = 'late-reported'`,
    );
    expect(stateAfter).toEqual(stateBefore);
    const stored = await history(t, 'late-reported');
    expect(stored).toHaveLength(11);
    expect(stored[0]).toMatchObject({ x: expect.closeTo(late.x, 6), y: expect.closeTo(late.y, 6), accuracy: expect.closeTo(late.accuracy, 6) });

    // Another building of the organization that does not ask: stored as reported.
    const other = await createSite(t, admin.auth, { dimensions: { width: 60, length: 50 }, rotation: 0 });
    const elsewhere = reportedWalk('elsewhere', other.floor.id, start, 5, 79);
    await report(
      t,
      device,
      elsewhere.map((s) => s.fix),
    );
    expect((await history(t, 'elsewhere')).map((row) => row.x)).toEqual(elsewhere.map((s) => expect.closeTo(s.fix.x, 6)));
    // Scans are not filtered a second time: their track is the scan tracker's (answered as such).
    await t.http.patch(settingsUrl()).set(admin.auth).send({ scans: false }).expect(200);
    const grid = GRID.map((b) => ({ floor_id: site.floor.id, uuid: GRID_UUID, major: 1, minor: b.id, tx_power: -59, x: b.x, y: b.y }));
    await t.http.put(`/api/v1/infrastructure?building_id=${site.building.id}`).set(admin.auth).send({ wifi: [], ble: grid }).expect(200);
    const scans = await post(
      t,
      device,
      walk('scanned', start, 3, 83).map((s) => s.scan),
    );
    for (const fix of scans) expect([fix.x, fix.y, fix.track.status]).toEqual([fix.raw.x, fix.raw.y, 'off']);
    await t.http.patch(settingsUrl()).set(admin.auth).send({ scans: true, positions: false }).expect(200);
    const after = reportedWalk('after-off', site.floor.id, start, 3, 89);
    await report(
      t,
      device,
      after.map((s) => s.fix),
    );
    expect((await history(t, 'after-off')).map((row) => row.x)).toEqual(after.map((s) => expect.closeTo(s.fix.x, 6)));
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('filtered positions on two instances of one PostgreSQL', () => {
  it('sees a building’s setting on the other instance at its next batch, and continues a track the other instance stored', async () => {
    const pair = await twoInstances();
    try {
      const one = await signUp(pair.a, 'Filter one instance');
      const both = await signUp(pair.a, 'Filter two instances');
      const [siteOne, siteBoth] = await Promise.all([one, both].map((org) => createSite(pair.a, org.auth, { dimensions: { width: 60, length: 50 }, rotation: 0 })));
      for (const [org, s] of [
        [one, siteOne],
        [both, siteBoth],
      ] as const) {
        await pair.a.http.patch(`/api/v1/infrastructure/tracking?building_id=${s.building.id}`).set(org.auth).send({ positions: true }).expect(200);
      }
      const start = Date.now() - 60_000;
      const alone = reportedWalk('shared', siteOne.floor.id, start, 24, 97);
      const alternating = reportedWalk('shared', siteBoth.floor.id, start, 24, 97);
      for (let at = 0; at < 24; at += 3) {
        // The setting was written through instance a; instance b filters from its first batch.
        await report(
          pair.a,
          one.auth,
          alone.slice(at, at + 3).map((s) => s.fix),
        );
        await report(
          at % 2 === 0 ? pair.b : pair.a,
          both.auth,
          alternating.slice(at, at + 3).map((s) => s.fix),
        );
      }
      const rows: Array<{ organization_id: string; x: number; y: number }> = await pair.a.dataSource.query(
        `SELECT "organization_id", "x", "y" FROM "position_history" WHERE "device_id" = 'shared' ORDER BY "organization_id", "time"`,
      );
      const byOrganization = (id: string) => rows.filter((row) => row.organization_id === id).map((row) => [Number(row.x), Number(row.y)]);
      const first = byOrganization(one.org.organizationId);
      const second = byOrganization(both.org.organizationId);
      expect(first).toHaveLength(24);
      expect(second).toEqual(first);
      // Filtered, not as reported.
      expect(first.filter((point, i) => Math.abs(point[0] - alone[i].fix.x) > 1e-6).length).toBeGreaterThan(20);
    } finally {
      await pair.close();
    }
  }, 120_000);
});

describe.runIf(testDatabaseKind() === 'postgres')('tracking on two instances of one PostgreSQL', () => {
  it('gives the same track when two instances take turns with a device’s scans as when one takes them all', async () => {
    const pair = await twoInstances();
    try {
      const one = await signUp(pair.a, 'One instance');
      const both = await signUp(pair.a, 'Two instances');
      const sites = await Promise.all(
        [one, both].map(async (org) => {
          const s = await createSite(pair.a, org.auth, { dimensions: { width: 60, length: 50 }, rotation: 0 });
          await installGrid(pair.a, org.auth, s);
          return s;
        }),
      );
      expect(sites).toHaveLength(2);
      const steps = walk('shared', Date.now() - 90_000, 24, 41).map((s) => s.scan);
      const alone: Fix[] = [];
      const alternating: Fix[] = [];
      for (let at = 0; at < steps.length; at += 3) {
        const batch = steps.slice(at, at + 3);
        alone.push(...(await post(pair.a, one.auth, batch)));
        alternating.push(...(await post(at % 2 === 0 ? pair.a : pair.b, both.auth, batch)));
      }
      expect(alternating.map((fix) => fix.track.status)).toEqual(alone.map((fix) => fix.track.status));
      expect(alternating.filter((fix) => fix.track.status === 'started')).toHaveLength(1);
      for (let i = 0; i < alone.length; i++) {
        expect(alternating[i].x).toBeCloseTo(alone[i].x, 9);
        expect(alternating[i].y).toBeCloseTo(alone[i].y, 9);
        expect(alternating[i].accuracy).toBeCloseTo(alone[i].accuracy, 9);
      }
    } finally {
      await pair.close();
    }
  }, 120_000);
});

describe('a track through a crash (SIGKILL)', () => {
  it('goes on after a restart from the state the last acknowledged batch stored', async () => {
    const root = await ensureServerBuilt();
    const database = await freshDatabase();
    const admin = { email: 'tracking-crash@example.test', password: 'tracking-crash-password-0123' };
    const start = () => {
      const server = startProcess('node', ['dist/src/main.js'], {
        cwd: root,
        env: {
          ...database.env,
          NODE_ENV: 'production',
          JWT_SECRET: 'tracking-crash-secret-that-is-long-enough-0123456789',
          HOST: '127.0.0.1',
          PORT: '0',
          ADMIN_EMAIL: admin.email,
          ADMIN_PASSWORD: admin.password,
          LOG_REQUESTS: 'false',
        },
      });
      return server;
    };
    const ready = async (server: RunningProcess): Promise<string> => {
      const url = (await server.waitForLine((line) => typeof line.url === 'string' && String(line.msg).startsWith('Cartograph listening'), 90_000)).url as string;
      for (let attempt = 0; attempt < 300; attempt++) {
        if ((await fetch(`${url}/health/ready`).catch(() => null))?.ok) return url;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('not ready');
    };
    const call = async (url: string, method: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, json: text ? JSON.parse(text) : undefined };
    };
    try {
      let server = start();
      let url = await ready(server);
      const auth = asBearer((await call(url, 'POST', '/api/v1/auth/access_tokens', asBasic(admin.email, admin.password))).json.access_token as string);
      const building = (
        await call(url, 'POST', '/api/v1/buildings', auth, { name: 'Crash', location: { lat: 42.8723597, lng: -8.5633224 }, dimensions: { width: 60, length: 50 }, rotation: 0 })
      ).json;
      const floor = (await call(url, 'POST', '/api/v1/floors', auth, { building_id: building.id, level: 0, name: 'Ground' })).json;
      const ble = GRID.map((b) => ({ floor_id: floor.id, uuid: GRID_UUID, major: 1, minor: b.id, tx_power: -59, x: b.x, y: b.y }));
      expect((await call(url, 'PUT', `/api/v1/infrastructure?building_id=${building.id}`, auth, { wifi: [], ble })).status).toBe(200);
      const steps = walk('survivor', Date.now() - 60_000, 11, 53);
      const before = await call(url, 'POST', '/api/v1/realtime/scans', auth, { scans: steps.slice(0, 10).map((s) => s.scan) });
      expect(before.status).toBe(200);
      expect((before.json.fixes as Fix[]).map((fix) => fix.track.status)).toEqual(['started', ...Array(9).fill('tracked')]);
      // Killed at once after the answer: nothing written behind it may be needed.
      server.child.kill('SIGKILL');
      expect((await server.exited).signal).toBe('SIGKILL');
      server = start();
      url = await ready(server);
      const after = await call(url, 'POST', '/api/v1/realtime/scans', auth, { scans: [steps[10].scan] });
      expect(after.status).toBe(200);
      expect((after.json.fixes as Fix[])[0].track).toEqual({ status: 'tracked', reason: null });
      server.child.kill('SIGTERM');
      await server.exited;
    } finally {
      await database.drop();
    }
  }, 300_000);
});
