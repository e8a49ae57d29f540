// Seeds the reports benchmark (issue 14) straight into the database, not through HTTP:
// `fixes` position fixes and `visits` geofence visits over the last `days` days in one
// building, with the position rollups the ingest would have written for them (computed by
// the server's own rollup code from dist/). Works on the SQLite file of a running server
// (better-sqlite3, batched in transactions) and on PostgreSQL (unnest batches, daily
// partitions created as the server would).
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const DAY = 86_400_000;
/** The device whose 30-day trajectory the CSV scenario downloads: a fix every 2 s, 8 hours a day. */
export const TRACKED_DEVICE = 'track-0';
const TRACK_INTERVAL_MS = 2000;
const TRACK_HOURS = 8;
const VISITOR_DEVICES = 2000;
const SESSION_FIXES = 180;
const SESSION_INTERVAL_MS = 10_000;

/** A small deterministic generator, so every run seeds the same data. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const stamp = (ms) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

/** Each device's track (time-ordered), the fixes as rows, and the visits, generated day by day. */
function* generate({ root, fixes, visits, days, now, floorIds, geofenceIds, location }) {
  const rand = random(14);
  // Whole UTC days before today, so every fix is in the past and within the retention.
  const firstDay = Math.floor(now / DAY) * DAY - days * DAY;
  const trackFixesPerDay = (TRACK_HOURS * 3_600_000) / TRACK_INTERVAL_MS;
  const trackFixes = Math.min(fixes, trackFixesPerDay * days);
  const sessions = Math.max(1, Math.round((fixes - trackFixes) / SESSION_FIXES));
  const visitsPerSession = visits / sessions;
  const point = (deviceIndex) => ({
    floorId: floorIds[deviceIndex % floorIds.length],
    lat: location.lat + (rand() - 0.5) * 8e-4,
    lng: location.lng + (rand() - 0.5) * 8e-4,
  });
  // The tracked device: 09:00 to 17:00 UTC every day.
  for (let day = 0; day < days; day++) {
    const track = [];
    const start = firstDay + day * DAY + 9 * 3_600_000;
    for (let i = 0; i < trackFixesPerDay && day * trackFixesPerDay + i < trackFixes; i++) track.push({ time: start + i * TRACK_INTERVAL_MS, ...point(0) });
    if (track.length > 0) yield { deviceId: TRACKED_DEVICE, track, visits: [] };
  }
  // Visitors: 30-minute sessions, a fix every 10 s, each device on distinct days.
  let visitCarry = 0;
  for (let session = 0; session < sessions; session++) {
    const device = session % VISITOR_DEVICES;
    const round = Math.floor(session / VISITOR_DEVICES);
    const day = (round * 7 + device) % days;
    const start = firstDay + day * DAY + 7 * 3_600_000 + Math.floor(rand() * 14 * 3_600_000);
    const track = [];
    for (let i = 0; i < SESSION_FIXES; i++) track.push({ time: start + i * SESSION_INTERVAL_MS + Math.floor(rand() * 3000), ...point(device) });
    visitCarry += visitsPerSession;
    const count = Math.floor(visitCarry);
    visitCarry -= count;
    const sessionVisits = [];
    for (let v = 0; v < count; v++) {
      const entered = start + Math.floor((v * SESSION_FIXES * SESSION_INTERVAL_MS) / Math.max(count, 1));
      sessionVisits.push({
        geofenceId: geofenceIds[(session * 7 + v) % geofenceIds.length],
        entered,
        exited: entered + 60_000 + Math.floor(rand() * 180_000),
      });
    }
    yield { deviceId: `visitor-${device}`, track, visits: sessionVisits };
  }
  void root;
}

/**
 * Writes everything; returns what it wrote. `target` is `{ kind: 'sqlite', path }` or
 * `{ kind: 'postgres', url }`.
 */
export async function seedReports(target, { root, buildingId, floorIds, geofenceIds, location, fixes = 2_000_000, visits = 50_000, days = 30, now = Date.now() }) {
  const { rollupDelta } = require(join(root, 'dist/src/positions/position-rollup-math.js'));
  const { toCartesian } = require(join(root, 'dist/src/common/geometry/cartesian.js'));
  const started = Date.now();
  const writer = target.kind === 'sqlite' ? await sqliteWriter(target.path) : await postgresWriter(target.url, now, days);
  const { organizationId, userId, frame } = await writer.owner(buildingId);
  // x and y in the building's plan frame, as the ingest stores them (the heatmap counts by them).
  const planFrame = {
    latitude: Number(frame.latitude),
    longitude: Number(frame.longitude),
    width: Number(frame.width),
    length: Number(frame.length),
    rotation: Number(frame.rotation),
  };
  let fixCount = 0;
  let visitCount = 0;
  let rollupCount = 0;
  const history = [];
  const rollups = new Map();
  const visitRows = [];
  const flush = async (force) => {
    if (history.length >= writer.batchRows || (force && history.length > 0)) await writer.history(history.splice(0), organizationId, userId, buildingId);
    if (visitRows.length >= writer.batchRows || (force && visitRows.length > 0)) await writer.visits(visitRows.splice(0), organizationId, userId);
  };
  for (const { deviceId, track, visits: sessionVisits } of generate({ root, fixes, visits, days, now, floorIds, geofenceIds, location })) {
    for (const fix of track) history.push({ deviceId, ...fix, ...toCartesian(planFrame, fix) });
    fixCount += track.length;
    for (const totals of rollupDelta(
      [],
      track.map((fix) => ({ time: fix.time, buildingId })),
    )) {
      const key = `${deviceId}|${totals.slot}`;
      const current = rollups.get(key);
      if (current) {
        current.fixes += totals.fixes;
        current.positionedMs += totals.positionedMs;
        current.firstMs = Math.min(current.firstMs, totals.firstMs);
        current.lastMs = Math.max(current.lastMs, totals.lastMs);
      } else {
        rollups.set(key, { deviceId, ...totals });
      }
    }
    for (const visit of sessionVisits) visitRows.push({ deviceId, ...visit });
    visitCount += sessionVisits.length;
    await flush(false);
  }
  await flush(true);
  const rollupRows = [...rollups.values()];
  rollupCount = rollupRows.length;
  for (let start = 0; start < rollupRows.length; start += writer.batchRows) await writer.rollups(rollupRows.slice(start, start + writer.batchRows), organizationId);
  await writer.finish();
  return { fixes: fixCount, visits: visitCount, rollups: rollupCount, seconds: (Date.now() - started) / 1000 };
}

async function sqliteWriter(path) {
  const Database = require('better-sqlite3');
  const db = new Database(path);
  db.pragma('busy_timeout = 30000');
  const statements = new Map();
  const insert = (sql, columns, rows) => {
    const perStatement = Math.floor(30_000 / columns);
    const run = db.transaction((all) => {
      for (let start = 0; start < all.length; start += perStatement) {
        const chunk = all.slice(start, start + perStatement);
        const key = `${sql}|${chunk.length}`;
        let statement = statements.get(key);
        if (!statement) {
          const group = `(${new Array(columns).fill('?').join(', ')})`;
          statement = db.prepare(`${sql} VALUES ${new Array(chunk.length).fill(group).join(', ')}`);
          statements.set(key, statement);
        }
        statement.run(chunk.flat());
      }
    });
    run(rows);
  };
  return {
    // Short transactions, a pause between them: the running server's own writers (the geofence
    // timer) wait at most SQLITE_BUSY_TIMEOUT_MS (2 s) for the one SQLite write lock.
    batchRows: 4000,
    async owner(buildingId) {
      const { organization_id: organizationId, ...frame } = db
        .prepare('SELECT organization_id, latitude, longitude, width, length, rotation FROM buildings WHERE id = ?')
        .get(buildingId);
      const { id: userId } = db.prepare('SELECT id FROM users WHERE organization_id = ? LIMIT 1').get(organizationId);
      return { organizationId, userId, frame };
    },
    async history(rows, organizationId, userId, buildingId) {
      await new Promise((done) => setTimeout(done, 20));
      insert(
        'INSERT INTO position_history (organization_id, device_id, "time", user_id, building_id, floor_id, lat, lng, x, y, accuracy, yaw)',
        12,
        rows.map((row) => [organizationId, row.deviceId, stamp(row.time), userId, buildingId, row.floorId, row.lat, row.lng, row.x, row.y, 3.5, null]),
      );
    },
    async visits(rows, organizationId, userId) {
      insert(
        'INSERT INTO geofence_visits (id, organization_id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired)',
        9,
        rows.map((row) => [`vis_${randomBytes(12).toString('hex')}`, organizationId, row.geofenceId, row.deviceId, userId, stamp(row.entered), stamp(row.exited), 'position', 0]),
      );
    },
    async rollups(rows, organizationId) {
      insert(
        'INSERT INTO position_rollups (organization_id, building_id, device_id, slot, fixes, first_ms, last_ms, positioned_ms)',
        8,
        rows.map((row) => [organizationId, row.buildingId, row.deviceId, row.slot, row.fixes, row.firstMs, row.lastMs, row.positionedMs]),
      );
    },
    async finish() {
      db.exec('ANALYZE');
      db.close();
    },
  };
}

async function postgresWriter(url, now, days) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // The daily partitions the server would have made while these days were today.
  for (let day = Math.floor((now - (days + 1) * DAY) / DAY) * DAY; day <= now + DAY; day += DAY) {
    const name = `position_history_${new Date(day).toISOString().slice(0, 10).replaceAll('-', '')}`;
    await client.query(
      `CREATE TABLE IF NOT EXISTS "${name}" PARTITION OF position_history FOR VALUES FROM ('${new Date(day).toISOString()}') TO ('${new Date(day + DAY).toISOString()}')`,
    );
  }
  const columns = (rows, pick) => pick.map((read) => rows.map(read));
  return {
    batchRows: 20_000,
    async owner(buildingId) {
      const { rows } = await client.query(
        'SELECT b.organization_id, b.latitude, b.longitude, b.width, b.length, b.rotation, (SELECT u.id FROM users u WHERE u.organization_id = b.organization_id LIMIT 1) AS user_id FROM buildings b WHERE b.id = $1',
        [buildingId],
      );
      const { organization_id: organizationId, user_id: userId, ...frame } = rows[0];
      return { organizationId, userId, frame };
    },
    async history(rows, organizationId, userId, buildingId) {
      await client.query(
        `INSERT INTO position_history (organization_id, device_id, "time", user_id, building_id, floor_id, lat, lng, x, y, accuracy)
         SELECT $1::uuid, h.device_id, h.time, $2::uuid, $3::int, h.floor_id, h.lat, h.lng, h.x, h.y, 3.5
         FROM unnest($4::varchar[], $5::timestamptz[], $6::int[], $7::float8[], $8::float8[], $9::float8[], $10::float8[]) AS h(device_id, time, floor_id, lat, lng, x, y)`,
        [organizationId, userId, buildingId, ...columns(rows, [(r) => r.deviceId, (r) => new Date(r.time), (r) => r.floorId, (r) => r.lat, (r) => r.lng, (r) => r.x, (r) => r.y])],
      );
    },
    async visits(rows, organizationId, userId) {
      await client.query(
        `INSERT INTO geofence_visits (id, organization_id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired)
         SELECT v.id, $1::uuid, v.geofence_id, v.device_id, $2::uuid, v.entered_at, v.exited_at, 'position', false
         FROM unnest($3::varchar[], $4::uuid[], $5::varchar[], $6::timestamptz[], $7::timestamptz[]) AS v(id, geofence_id, device_id, entered_at, exited_at)`,
        [
          organizationId,
          userId,
          ...columns(rows, [() => `vis_${randomBytes(12).toString('hex')}`, (r) => r.geofenceId, (r) => r.deviceId, (r) => new Date(r.entered), (r) => new Date(r.exited)]),
        ],
      );
    },
    async rollups(rows, organizationId) {
      await client.query(
        `INSERT INTO position_rollups (organization_id, building_id, device_id, slot, fixes, first_ms, last_ms, positioned_ms)
         SELECT $1::uuid, r.* FROM unnest($2::int[], $3::varchar[], $4::bigint[], $5::int[], $6::bigint[], $7::bigint[], $8::bigint[]) AS r`,
        [organizationId, ...columns(rows, [(r) => r.buildingId, (r) => r.deviceId, (r) => r.slot, (r) => r.fixes, (r) => r.firstMs, (r) => r.lastMs, (r) => r.positionedMs])],
      );
    },
    async finish() {
      await client.query('ANALYZE');
      await client.end();
    },
  };
}
