import { DataSource, EntityManager } from 'typeorm';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { ADVISORY_LOCKS, tryLockXact } from '../database/advisory-locks';
import { SqlDialect } from '../database/sql-dialect';
import { TransactionRunner } from '../database/transactions';
import { SlotTotals, TrackPoint } from './position-rollup-math';
import { SESSION_GAP_MS } from './session-mark';

/** A device's new fixes of a batch: its first and last. */
export interface RollupWindow {
  deviceId: string;
  lo: number;
  hi: number;
}

export type RollupRow = SlotTotals & { deviceId: string };

/** The rollups' statements, one implementation per database (chosen by PositionsModule). */
export abstract class RollupStore {
  /**
   * The stored fixes a batch can pair with, per device: those between its first and last new
   * fix (a replay, or fixes it lands among), and the nearest one before and after within the
   * session gap. Only these pairs change (see rollupDelta).
   */
  abstract neighbours(manager: EntityManager, organizationId: string, windows: readonly RollupWindow[], gapMs: number): Promise<Map<string, TrackPoint[]>>;
  abstract upsert(manager: EntityManager, organizationId: string, rows: readonly RollupRow[]): Promise<void>;
  /** Deletes the rollups of slots before `cutoff` (ms); answers how many. */
  abstract deleteBefore(cutoff: number): Promise<number>;
}

const ROLLUP_COLUMNS = ['organization_id', 'building_id', 'device_id', 'slot', 'fixes', 'first_ms', 'last_ms', 'positioned_ms'] as const;
const SQLITE_DELETE_BATCH = 5000;

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
  const pick = (column: string) => `(SELECT p.${column} FROM position_history p WHERE p.organization_id = ? AND p.device_id = json_extract(w.value, '$[0]') AND ${side} LIMIT 1)`;
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

function toTracks(raw: ReadonlyArray<{ device_id: string; time: unknown; building_id: number | null }>): Map<string, TrackPoint[]> {
  const byDevice = new Map<string, TrackPoint[]>();
  for (const row of raw) {
    const deviceId = String(row.device_id);
    let track = byDevice.get(deviceId);
    if (!track) byDevice.set(deviceId, (track = []));
    track.push({ time: parseDatabaseTimestamp(row.time)!.getTime(), buildingId: row.building_id === null ? null : Number(row.building_id) });
  }
  return byDevice;
}

/** PostgreSQL: every column as one array (one statement text for every batch); retention under an advisory lock, one instance at a time. */
export class PostgresRollupStore extends RollupStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async neighbours(manager: EntityManager, organizationId: string, windows: readonly RollupWindow[], gapMs: number): Promise<Map<string, TrackPoint[]>> {
    const lo = Math.min(...windows.map((window) => window.lo)) - gapMs;
    const hi = Math.max(...windows.map((window) => window.hi)) + gapMs;
    return toTracks(
      await manager.query(POSTGRES_NEIGHBOURS, [
        organizationId,
        windows.map((window) => window.deviceId),
        windows.map((window) => new Date(window.lo)),
        windows.map((window) => new Date(window.hi)),
        new Date(lo),
        new Date(hi),
      ]),
    );
  }

  async upsert(manager: EntityManager, organizationId: string, rows: readonly RollupRow[]): Promise<void> {
    const columns: unknown[][] = Array.from({ length: 7 }, () => []);
    for (const row of rows) {
      const values = [row.buildingId, row.deviceId, row.slot, row.fixes, row.firstMs, row.lastMs, row.positionedMs];
      for (let c = 0; c < 7; c++) columns[c].push(values[c]);
    }
    await manager.query(POSTGRES_UPSERT, [organizationId, ...columns]);
  }

  deleteBefore(cutoff: number): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await tryLockXact(manager, ADVISORY_LOCKS.rollupRetention))) return 0;
      const [, affected] = await manager.query('DELETE FROM position_rollups WHERE slot < $1', [cutoff]);
      return Number(affected ?? 0);
    });
  }
}

/** SQLite: multi-row statements; retention in batches, each a transaction of its own. */
export class SqliteRollupStore extends RollupStore {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly dialect: SqlDialect,
  ) {
    super();
  }

  async neighbours(manager: EntityManager, organizationId: string, windows: readonly RollupWindow[], gapMs: number): Promise<Map<string, TrackPoint[]>> {
    const stamp = (ms: number) => this.dialect.timestamp(ms);
    const list = windows.map((window) => [window.deviceId, stamp(window.lo), stamp(window.hi), stamp(window.lo - gapMs), stamp(window.hi + gapMs)]);
    return toTracks(await manager.query(SQLITE_NEIGHBOURS, sqliteNeighbourParameters(JSON.stringify(list), organizationId)));
  }

  async upsert(manager: EntityManager, organizationId: string, rows: readonly RollupRow[]): Promise<void> {
    const values: unknown[] = [];
    for (const row of rows) values.push(organizationId, row.buildingId, row.deviceId, row.slot, row.fixes, row.firstMs, row.lastMs, row.positionedMs);
    await manager.query(`INSERT INTO position_rollups (${ROLLUP_COLUMNS.join(', ')}) VALUES ${this.dialect.valuesList(rows.length, ROLLUP_COLUMNS.length)} ${UPSERT_TAIL}`, values);
  }

  async deleteBefore(cutoff: number): Promise<number> {
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
