import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { appConfig, AppConfig } from '../config/app.config';
import { PreparedQueries } from '../database/prepared-queries';
import { TransactionRunner } from '../database/transactions';
import { SESSION_GAP_MS } from './session-mark';
import { rollupDelta, SlotTotals, TrackPoint } from './position-rollup-math';
import { Dialect, timestampParameter, valuesList } from './position-sql';
import { ADVISORY_LOCKS, tryLockXact } from '../database/advisory-locks';

/**
 * A device's newest stored fix, read under the devices' lock before a batch stores its own:
 * its time (`devices.last_time`, which every history write moves forward with it) and the
 * building of the history row at that time (undefined when retention removed that row).
 */
export interface LatestStoredFix {
  time: number;
  buildingId: number | null | undefined;
}

/** The part of an accepted fix the rollups need (the ingest's AcceptedFix has it). */
export interface RollupFix {
  deviceId: string;
  time: number;
  buildingId: number | null;
}

const DAY_MS = 86_400_000;
const SQLITE_DELETE_BATCH = 5000;
const ROLLUP_COLUMNS = ['organization_id', 'building_id', 'device_id', 'slot', 'fixes', 'first_ms', 'last_ms', 'positioned_ms'] as const;

const UPSERT_TAIL = `ON CONFLICT (organization_id, building_id, slot, device_id) DO UPDATE SET
    fixes = position_rollups.fixes + excluded.fixes,
    positioned_ms = position_rollups.positioned_ms + excluded.positioned_ms,
    first_ms = CASE WHEN excluded.first_ms IS NULL OR position_rollups.first_ms <= excluded.first_ms THEN position_rollups.first_ms ELSE excluded.first_ms END,
    last_ms = CASE WHEN excluded.last_ms IS NULL OR position_rollups.last_ms >= excluded.last_ms THEN position_rollups.last_ms ELSE excluded.last_ms END`;

const POSTGRES_UPSERT = `INSERT INTO position_rollups (${ROLLUP_COLUMNS.join(', ')})
  SELECT $1::uuid, r.* FROM unnest($2::int[], $3::varchar[], $4::bigint[], $5::int[], $6::bigint[], $7::bigint[], $8::bigint[]) AS r
  ${UPSERT_TAIL}`;

const GAP = `interval '${SESSION_GAP_MS / 1000} seconds'`;

/**
 * The stored fixes a batch can pair with, per device: those between its first and last new
 * fix (a replay, or fixes it lands among), and the nearest one before and after within the
 * session gap. Only these pairs change (see rollupDelta); reading every fix within 60 s of
 * the batch instead cost a device reporting ten times a second 1,200 rows per batch.
 * The overall bounds ($5, $6) let PostgreSQL prune the daily partitions.
 */
const POSTGRES_NEIGHBOURS = `SELECT w.device_id, h."time", h.building_id
  FROM unnest($2::varchar[], $3::timestamptz[], $4::timestamptz[]) AS w(device_id, lo, hi)
  CROSS JOIN LATERAL (
    SELECT p."time", p.building_id FROM position_history p
      WHERE p.organization_id = $1::uuid AND p.device_id = w.device_id AND p."time" >= w.lo AND p."time" <= w.hi AND p."time" >= $5::timestamptz AND p."time" <= $6::timestamptz
    UNION ALL
    (SELECT p."time", p.building_id FROM position_history p
      WHERE p.organization_id = $1::uuid AND p.device_id = w.device_id AND p."time" < w.lo AND p."time" >= w.lo - ${GAP} AND p."time" >= $5::timestamptz
      ORDER BY p."time" DESC LIMIT 1)
    UNION ALL
    (SELECT p."time", p.building_id FROM position_history p
      WHERE p.organization_id = $1::uuid AND p.device_id = w.device_id AND p."time" > w.hi AND p."time" <= w.hi + ${GAP} AND p."time" <= $6::timestamptz
      ORDER BY p."time" ASC LIMIT 1)
  ) h
  ORDER BY w.device_id, h."time"`;

/**
 * The same for SQLite. Each window is `[device, first, last, first - gap, last + gap]`; the
 * parameters are, in order: windows, organization, organization, organization, windows,
 * organization, organization, windows. CROSS JOIN keeps json_each outside: SQLite's planner
 * otherwise scanned the organization's whole history per batch.
 */
const sqliteNearest = (before: boolean) => {
  const side = before
    ? `p."time" < json_extract(w.value, '$[1]') AND p."time" >= json_extract(w.value, '$[3]') ORDER BY p."time" DESC`
    : `p."time" > json_extract(w.value, '$[2]') AND p."time" <= json_extract(w.value, '$[4]') ORDER BY p."time" ASC`;
  const pick = (column: string) =>
    `(SELECT p.${column} FROM position_history p WHERE p.organization_id = ? AND p.device_id = json_extract(w.value, '$[0]') AND ${side} LIMIT 1)`;
  return `SELECT n.device_id, n."time", n.building_id FROM (
      SELECT json_extract(w.value, '$[0]') AS device_id, ${pick('"time"')} AS "time", ${pick('building_id')} AS building_id FROM json_each(?) w
    ) n WHERE n."time" IS NOT NULL`;
};
export const SQLITE_NEIGHBOURS = `SELECT device_id, "time", building_id FROM (
    SELECT h.device_id AS device_id, h."time" AS "time", h.building_id AS building_id
      FROM json_each(?) w
      CROSS JOIN position_history h ON h.organization_id = ? AND h.device_id = json_extract(w.value, '$[0]')
        AND h."time" >= json_extract(w.value, '$[1]') AND h."time" <= json_extract(w.value, '$[2]')
    UNION ALL ${sqliteNearest(true)}
    UNION ALL ${sqliteNearest(false)}
  ) ORDER BY device_id, "time"`;

/** The parameters of SQLITE_NEIGHBOURS (see there). */
export const sqliteNeighbourParameters = (windows: string, organizationId: string): unknown[] => [
  windows,
  organizationId,
  organizationId,
  organizationId,
  windows,
  organizationId,
  organizationId,
  windows,
];

/** A deleted device's rollups go with its history (same transaction), so no report counts it afterwards. */
export async function deleteDeviceRollups(manager: EntityManager, organizationId: string, deviceId: string): Promise<void> {
  await manager.createQueryBuilder().delete().from('position_rollups').where('organization_id = :organizationId AND device_id = :deviceId', { organizationId, deviceId }).execute();
}

/**
 * Keeps `position_rollups` (see position-rollup-math.ts) in step with the history: the
 * ingest calls {@link record} inside its transaction, before the history rows are written,
 * under the devices' lock, so the stored neighbours it reads are the ones the batch lands
 * between. One read and one upsert statement per batch. Rollups are kept as long as the
 * day they summarize (the history's retention), deleted with it by the history's hourly
 * maintenance (PositionsRetention), under an advisory lock.
 */
@Injectable()
export class PositionRollups {
  private readonly dialect: Dialect;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly transactions: TransactionRunner,
    private readonly queries: PreparedQueries,
  ) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  /**
   * `fixes` ordered by device, then time (as the ingest orders them); `latest` holds the newest
   * stored fix of every device that has one (a device absent from it has no history yet).
   */
  async record(manager: EntityManager, organizationId: string, fixes: ReadonlyArray<RollupFix>, latest: ReadonlyMap<string, LatestStoredFix>): Promise<void> {
    // Per device, its first and last new fix (the batch is ordered by device, then time).
    const windows: Array<{ deviceId: string; lo: number; hi: number; added: TrackPoint[] }> = [];
    for (const fix of fixes) {
      const current = windows[windows.length - 1];
      if (current && current.deviceId === fix.deviceId) {
        current.hi = fix.time;
        current.added.push({ time: fix.time, buildingId: fix.buildingId });
      } else {
        windows.push({ deviceId: fix.deviceId, lo: fix.time, hi: fix.time, added: [{ time: fix.time, buildingId: fix.buildingId }] });
      }
    }
    if (!windows.some((window) => window.added.some((point) => point.buildingId !== null))) return;
    // No stored fix is newer than a device's latest, so a device reporting forward in time (the
    // usual case) pairs with that one fix at most: no history read. Only a batch that lands among
    // or before stored fixes reads its neighbours.
    const stored = new Map<string, TrackPoint[]>();
    const amongStored: typeof windows = [];
    for (const window of windows) {
      const head = latest.get(window.deviceId);
      if (!head || head.time < window.lo - SESSION_GAP_MS) continue;
      if (head.time < window.lo && head.buildingId !== undefined) stored.set(window.deviceId, [{ time: head.time, buildingId: head.buildingId }]);
      else amongStored.push(window);
    }
    if (amongStored.length > 0) for (const [deviceId, track] of await this.neighbours(manager, organizationId, amongStored)) stored.set(deviceId, track);
    const rows: Array<SlotTotals & { deviceId: string }> = [];
    for (const window of windows) {
      for (const totals of rollupDelta(stored.get(window.deviceId) ?? [], window.added)) rows.push({ ...totals, deviceId: window.deviceId });
    }
    if (rows.length === 0) return;
    if (this.dialect === 'postgres') {
      const columns: unknown[][] = Array.from({ length: 7 }, () => []);
      for (const row of rows) {
        const values = [row.buildingId, row.deviceId, row.slot, row.fixes, row.firstMs, row.lastMs, row.positionedMs];
        for (let c = 0; c < 7; c++) columns[c].push(values[c]);
      }
      await this.queries.inTransaction(manager, 'cg_rollups_upsert', POSTGRES_UPSERT, [organizationId, ...columns]);
    } else {
      const values: unknown[] = [];
      for (const row of rows) values.push(organizationId, row.buildingId, row.deviceId, row.slot, row.fixes, row.firstMs, row.lastMs, row.positionedMs);
      await manager.query(`INSERT INTO position_rollups (${ROLLUP_COLUMNS.join(', ')}) VALUES ${valuesList('sqlite', rows.length, ROLLUP_COLUMNS.length)} ${UPSERT_TAIL}`, values);
    }
  }

  private async neighbours(
    manager: EntityManager,
    organizationId: string,
    windows: ReadonlyArray<{ deviceId: string; lo: number; hi: number }>,
  ): Promise<Map<string, TrackPoint[]>> {
    let raw: Array<{ device_id: string; time: unknown; building_id: number | null }>;
    if (this.dialect === 'postgres') {
      const lo = Math.min(...windows.map((window) => window.lo)) - SESSION_GAP_MS;
      const hi = Math.max(...windows.map((window) => window.hi)) + SESSION_GAP_MS;
      raw = await manager.query(POSTGRES_NEIGHBOURS, [
        organizationId,
        windows.map((window) => window.deviceId),
        windows.map((window) => new Date(window.lo)),
        windows.map((window) => new Date(window.hi)),
        new Date(lo),
        new Date(hi),
      ]);
    } else {
      const stamp = (ms: number) => timestampParameter('sqlite', ms);
      const list = windows.map((window) => [window.deviceId, stamp(window.lo), stamp(window.hi), stamp(window.lo - SESSION_GAP_MS), stamp(window.hi + SESSION_GAP_MS)]);
      raw = await manager.query(SQLITE_NEIGHBOURS, sqliteNeighbourParameters(JSON.stringify(list), organizationId));
    }
    const byDevice = new Map<string, TrackPoint[]>();
    for (const row of raw) {
      const deviceId = String(row.device_id);
      let track = byDevice.get(deviceId);
      if (!track) byDevice.set(deviceId, (track = []));
      track.push({ time: parseDatabaseTimestamp(row.time)!.getTime(), buildingId: row.building_id === null ? null : Number(row.building_id) });
    }
    return byDevice;
  }

  /** Deletes the rollups of days the history no longer keeps (the day holding the cutoff stays, as its partition does). */
  async applyRetention(now = Date.now()): Promise<number> {
    const cutoff = Math.floor((now - this.config.positions.retentionDays * DAY_MS) / DAY_MS) * DAY_MS;
    if (this.dialect === 'postgres') {
      return this.dataSource.transaction(async (manager) => {
        if (!(await tryLockXact(manager, ADVISORY_LOCKS.rollupRetention))) return 0;
        const [, affected] = await manager.query('DELETE FROM position_rollups WHERE slot < $1', [cutoff]);
        return Number(affected ?? 0);
      });
    }
    let total = 0;
    for (;;) {
      const changes = await this.transactions.run(async (manager) => {
        const result = await manager.queryRunner!.query(
          `DELETE FROM position_rollups WHERE rowid IN (SELECT rowid FROM position_rollups WHERE slot < ? LIMIT ${SQLITE_DELETE_BATCH})`,
          [cutoff],
          true,
        );
        return Number(result.affected ?? 0);
      });
      total += changes;
      if (changes < SQLITE_DELETE_BATCH) return total;
    }
  }
}
