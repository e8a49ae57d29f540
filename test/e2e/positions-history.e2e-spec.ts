import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PositionsRetention } from '../../src/positions/positions-retention.service';
import { asApiKey, createApiKey } from '../support/auth';
import { ApiPermission } from '../../src/access/permissions';
import { Cartographer, createSite, signUp, Site } from '../support/cartography';
import { deviceIdsOf, fix, historyOf, realtime, report } from '../support/positions';
import { createTestApp, freshDatabase, TestApp, testDatabaseKind } from '../support/test-app';

const DAY = 86_400_000;
const dayName = (ms: number) => `position_history_${new Date(ms).toISOString().slice(0, 10).replaceAll('-', '')}`;

async function partitions(t: TestApp): Promise<string[]> {
  const rows: Array<{ name: string }> = await t.dataSource.query(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'position_history' ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

describe('position history retention', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;

  beforeAll(async () => {
    t = await createTestApp({ env: { POSITIONS_RETENTION_DAYS: '2', POSITIONS_MAX_AGE_SECONDS: String(5 * 86_400) } });
    a = await signUp(t, 'Retention A');
    b = await signUp(t, 'Retention B');
  });
  afterAll(async () => t?.close());

  it('accepts fixes within the age window capped by the retention, and removes the history past the retention', async () => {
    const now = Date.now();
    const old = now - 2 * DAY + 60_000;
    await report(t, a.auth, [fix('old', { time: old }), fix('recent', {}, 5)]);
    await report(t, b.auth, [fix('old-b', { time: old })]);
    // Older than the retention (though within POSITIONS_MAX_AGE_SECONDS): it would be deleted at once.
    const tooOld = await t.http
      .post('/api/v1/realtime/positions')
      .set(a.auth)
      .send([fix('older', { time: now - 2 * DAY - 60_000 })]);
    expect(tooOld.body.errors[0]).toMatchObject({ code: 'out_of_range', fields: 'time' });
    if (testDatabaseKind() === 'postgres') {
      expect(await partitions(t)).toEqual(expect.arrayContaining([dayName(old), dayName(now), dayName(now + 2 * DAY)]));
    }

    // A day and two minutes on, `old` (and its whole day) is past the two days kept; `recent` is not.
    const later = now + DAY + 120_000;
    const removed = await t.app.get(PositionsRetention).applyRetention(later);
    if (testDatabaseKind() === 'postgres') {
      expect(removed.partitionsDropped).toContain(dayName(old));
      expect(removed.partitionsDropped).not.toContain(dayName(now));
      expect(await partitions(t)).not.toContain(dayName(old));
    } else {
      expect(removed.rowsDeleted).toBe(2);
    }
    expect((await historyOf(t, a.org.organizationId)).map((row) => row.deviceId)).toEqual(['recent']);
    expect(await historyOf(t, b.org.organizationId)).toEqual([]);
    // The live picture is not history: the devices keep their latest fix.
    expect((await t.http.get('/api/v1/devices/old').set(a.auth)).body.last_position).toMatchObject({ time: new Date(old).toISOString() });
  });

  it('creates a missing day partition when a batch needs it (PostgreSQL)', async () => {
    const time = Date.now() - DAY;
    if (testDatabaseKind() === 'postgres') await t.dataSource.query(`DROP TABLE IF EXISTS "${dayName(time)}"`);
    // This instance still believes the day exists: forget it as a fresh instance would.
    (t.app.get(PositionsRetention) as unknown as { knownDays: Set<number> }).knownDays.clear();
    expect(await report(t, a.auth, [fix('yesterday', { time })])).toMatchObject({ accepted: 1 });
    expect(await historyOf(t, a.org.organizationId, 'yesterday')).toHaveLength(1);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('two instances on one PostgreSQL database', () => {
  let first: TestApp;
  let second: TestApp;
  let site: Site;
  let a: Cartographer;

  beforeAll(async () => {
    const database = await freshDatabase();
    const shared = { JWT_SECRET: randomBytes(32).toString('hex') };
    first = await createTestApp({ database, env: shared });
    // The first app drops the database on close; the second must not.
    second = await createTestApp({ database: { ...database, drop: async () => undefined }, env: shared });
    a = await signUp(first, 'Cluster');
    site = await createSite(first, a.auth);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('serves a fix posted to one instance from the other at once', async () => {
    const positioning = asApiKey((await createApiKey(first, a.token, ApiPermission.Positioning)).apikey);
    expect(await report(first, positioning, [fix('cluster-1', { floor_id: site.floor.id, lat: 42.87, lng: -8.56 })])).toMatchObject({ accepted: 1 });
    const seen = await realtime(second, a.auth, `?building_ids=${site.building.id}`);
    expect(deviceIdsOf(seen)).toEqual(['cluster-1']);
    expect(seen.features[0].geometry.coordinates).toEqual([42.87, -8.56]);

    // And back the other way, moving the same device.
    await report(second, positioning, [fix('cluster-1', { floor_id: site.floor.id, lat: 42.88, lng: -8.57 }, 0)]);
    expect((await realtime(first, a.auth, '?device_ids=cluster-1')).features[0].geometry.coordinates).toEqual([42.88, -8.57]);
    expect((await first.http.get('/api/v1/devices/cluster-1').set(a.auth)).body.last_position).toMatchObject({ lat: 42.88, lng: -8.57 });
  });

  it('runs retention on one instance at a time (advisory lock) and both create partitions without colliding', async () => {
    const retentionDays = 30;
    const now = Date.now();
    await Promise.all([first.app.get(PositionsRetention).createPartitionsAhead(now + 5 * DAY), second.app.get(PositionsRetention).createPartitionsAhead(now + 5 * DAY)]);
    expect(await partitions(first)).toContain(dayName(now + 7 * DAY));
    const [one, two] = await Promise.all([
      first.app.get(PositionsRetention).applyRetention(now + (retentionDays + 9) * DAY),
      second.app.get(PositionsRetention).applyRetention(now + (retentionDays + 9) * DAY),
    ]);
    const dropped = [...one.partitionsDropped, ...two.partitionsDropped];
    expect(new Set(dropped).size).toBe(dropped.length);
    expect(dropped).toContain(dayName(now));
    expect(await partitions(first)).not.toContain(dayName(now));
  });
});

describe('one batch, one transaction', () => {
  let t: TestApp;
  let a: Cartographer;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Atomic');
    // A device row that cannot be written: the batch fails after its history rows went in.
    if (testDatabaseKind() === 'postgres') {
      await t.dataSource.query(`CREATE FUNCTION refuse_device() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql`);
      await t.dataSource.query(`CREATE TRIGGER refuse_device BEFORE INSERT ON devices FOR EACH ROW WHEN (NEW.id = 'refused') EXECUTE FUNCTION refuse_device()`);
    } else {
      await t.dataSource.query(`CREATE TRIGGER refuse_device BEFORE INSERT ON devices WHEN NEW.id = 'refused' BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    }
  });
  afterAll(async () => t?.close());

  it('stores every item of a batch or none of them', async () => {
    const response = await t.http
      .post('/api/v1/realtime/positions')
      .set(a.auth)
      .send([fix('atomic-1'), fix('atomic-2'), fix('refused')]);
    expect(response.status).toBe(500);
    expect(response.body).toMatchObject({ status: 500, code: 'internal_error' });
    expect(await historyOf(t, a.org.organizationId)).toEqual([]);
    expect((await t.http.get('/api/v1/devices').set(a.auth).expect(200)).body.data).toEqual([]);
    expect(await report(t, a.auth, [fix('atomic-1'), fix('atomic-2')])).toMatchObject({ accepted: 2 });
    expect(await historyOf(t, a.org.organizationId)).toHaveLength(2);
  });
});
