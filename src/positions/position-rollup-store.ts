import { DataSource, EntityManager } from 'typeorm';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { ADVISORY_LOCKS, tryLockXact } from '../database/advisory-locks';
import { dialectFor } from '../database/sql-dialect';
import { SqlRunner } from '../database/sql-runner';
import { SqliteStatements } from '../database/sqlite-statements';
import { namedRows, onlyOn, statement, statementFamily } from '../database/statements';
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

/** Values in the order of first use: organization, then the columns from building_id to positioned_ms, each as one array. */
const POSTGRES_UPSERT = statement(
  'rollup-store.upsert',
  onlyOn(
    'postgres',
    `INSERT INTO position_rollups (${ROLLUP_COLUMNS.join(', ')})
  SELECT :organizationId::uuid, r.* FROM unnest(:buildingIds::int[], :deviceIds::varchar[], :slots::bigint[], :fixes::int[], :firstMs::bigint[], :lastMs::bigint[],
    :positionedMs::bigint[]) AS r
  ${UPSERT_TAIL}`,
  ),
);

/** SQLite: a shape per row count, ROLLUP_COLUMNS row after row. */
const SQLITE_UPSERT = statementFamily<number>('rollup-store.upsert-rows', [1, 2], (rows) =>
  onlyOn('sqlite', `INSERT INTO position_rollups (${ROLLUP_COLUMNS.join(', ')}) VALUES ${namedRows(ROLLUP_COLUMNS, rows)} ${UPSERT_TAIL}`),
);

const POSTGRES_DELETE = statement('rollup-store.delete-before', onlyOn('postgres', 'DELETE FROM position_rollups WHERE slot < :cutoff'));
const SQLITE_DELETE = statement(
  'rollup-store.delete-batch',
  onlyOn('sqlite', `DELETE FROM position_rollups WHERE rowid IN (SELECT rowid FROM position_rollups WHERE slot < :cutoff LIMIT ${SQLITE_DELETE_BATCH})`),
);

const GAP = `interval '${SESSION_GAP_MS / 1000} seconds'`;

/**
 * The stored fixes a batch can pair with, per device: those between its first and last new
 * fix (a replay, or fixes it lands among), and the nearest one before and after within the
 * session gap. Only these pairs change (see rollupDelta); reading every fix within 60 s of
 * the batch instead cost a device reporting ten times a second 1,200 rows per batch.
 * The overall bounds (:from, :to) let PostgreSQL prune the daily partitions. Values in the
 * order of first use: the windows' devices, firsts and lasts (arrays), organization, from, to.
 */
const POSTGRES_NEIGHBOURS_TEXT = `SELECT w.device_id, h."time", h.building_id
  FROM unnest(:deviceIds::varchar[], :firsts::timestamptz[], :lasts::timestamptz[]) AS w(device_id, lo, hi)
  CROSS JOIN LATERAL (
    SELECT p."time", p.building_id FROM position_history p
      WHERE p.organization_id = :organizationId::uuid AND p.device_id = w.device_id AND p."time" >= w.lo AND p."time" <= w.hi AND p."time" >= :from::timestamptz AND p."time" <= :to::timestamptz
    UNION ALL
    (SELECT p."time", p.building_id FROM position_history p
      WHERE p.organization_id = :organizationId::uuid AND p.device_id = w.device_id AND p."time" < w.lo AND p."time" >= w.lo - ${GAP} AND p."time" >= :from::timestamptz
      ORDER BY p."time" DESC LIMIT 1)
    UNION ALL
    (SELECT p."time", p.building_id FROM position_history p
      WHERE p.organization_id = :organizationId::uuid AND p.device_id = w.device_id AND p."time" > w.hi AND p."time" <= w.hi + ${GAP} AND p."time" <= :to::timestamptz
      ORDER BY p."time" ASC LIMIT 1)
  ) h
  ORDER BY w.device_id, h."time"`;
const POSTGRES_NEIGHBOURS = statement('rollup-store.neighbours', onlyOn('postgres', POSTGRES_NEIGHBOURS_TEXT));

/**
 * The same for SQLite. Each window is `[device, first, last, first - gap, last + gap]`, the
 * windows one JSON array; values in order: windows, organization. CROSS JOIN keeps json_each
 * outside: SQLite's planner otherwise scanned the organization's whole history per batch.
 */
const sqliteNearest = (before: boolean) => {
  const side = before
    ? `p."time" < json_extract(w.value, '$[1]') AND p."time" >= json_extract(w.value, '$[3]') ORDER BY p."time" DESC`
    : `p."time" > json_extract(w.value, '$[2]') AND p."time" <= json_extract(w.value, '$[4]') ORDER BY p."time" ASC`;
  const pick = (column: string) =>
    `(SELECT p.${column} FROM position_history p WHERE p.organization_id = :organizationId AND p.device_id = json_extract(w.value, '$[0]') AND ${side} LIMIT 1)`;
  return `SELECT n.device_id, n."time", n.building_id FROM (
      SELECT json_extract(w.value, '$[0]') AS device_id, ${pick('"time"')} AS "time", ${pick('building_id')} AS building_id FROM json_each(:windows) w
    ) n WHERE n."time" IS NOT NULL`;
};
export const SQLITE_NEIGHBOURS = statement(
  'rollup-store.neighbours-sqlite',
  onlyOn(
    'sqlite',
    `SELECT device_id, "time", building_id FROM (
    SELECT h.device_id AS device_id, h."time" AS "time", h.building_id AS building_id
      FROM json_each(:windows) w
      CROSS JOIN position_history h ON h.organization_id = :organizationId AND h.device_id = json_extract(w.value, '$[0]')
        AND h."time" >= json_extract(w.value, '$[1]') AND h."time" <= json_extract(w.value, '$[2]')
    UNION ALL ${sqliteNearest(true)}
    UNION ALL ${sqliteNearest(false)}
  ) ORDER BY device_id, "time"`,
  ),
);

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
  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
  ) {
    super();
  }

  async neighbours(manager: EntityManager, organizationId: string, windows: readonly RollupWindow[], gapMs: number): Promise<Map<string, TrackPoint[]>> {
    const lo = Math.min(...windows.map((window) => window.lo)) - gapMs;
    const hi = Math.max(...windows.map((window) => window.hi)) + gapMs;
    return toTracks(
      await this.sql.inOrder(manager, POSTGRES_NEIGHBOURS, [
        windows.map((window) => window.deviceId),
        windows.map((window) => new Date(window.lo)),
        windows.map((window) => new Date(window.hi)),
        organizationId,
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
    await this.sql.inOrder(manager, POSTGRES_UPSERT, [organizationId, ...columns]);
  }

  deleteBefore(cutoff: number): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await tryLockXact(manager, ADVISORY_LOCKS.rollupRetention))) return 0;
      const [, affected] = await this.sql.inOrder<[unknown, number]>(manager, POSTGRES_DELETE, [cutoff]);
      return Number(affected ?? 0);
    });
  }
}

/** SQLite: multi-row statements; retention in batches, each a transaction of its own. */
export class SqliteRollupStore extends RollupStore {
  private readonly dialect = dialectFor('sqlite');

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly statements: SqliteStatements,
    private readonly sql: SqlRunner,
  ) {
    super();
  }

  async neighbours(manager: EntityManager, organizationId: string, windows: readonly RollupWindow[], gapMs: number): Promise<Map<string, TrackPoint[]>> {
    const stamp = (ms: number) => this.dialect.timestamp(ms);
    const list = windows.map((window) => [window.deviceId, stamp(window.lo), stamp(window.hi), stamp(window.lo - gapMs), stamp(window.hi + gapMs)]);
    return toTracks(await this.sql.inOrder(manager, SQLITE_NEIGHBOURS, [JSON.stringify(list), organizationId]));
  }

  async upsert(manager: EntityManager, organizationId: string, rows: readonly RollupRow[]): Promise<void> {
    const values: unknown[] = [];
    for (const row of rows) values.push(organizationId, row.buildingId, row.deviceId, row.slot, row.fixes, row.firstMs, row.lastMs, row.positionedMs);
    await this.sql.inOrder(manager, SQLITE_UPSERT.of(rows.length), values);
  }

  async deleteBefore(cutoff: number): Promise<number> {
    let total = 0;
    for (;;) {
      // On SQLite's one connection, so in the transaction TransactionRunner opened.
      const changes = await this.transactions.run(async () => this.statements.run(SQLITE_DELETE, [cutoff]));
      total += changes;
      if (changes < SQLITE_DELETE_BATCH) return total;
    }
  }
}
