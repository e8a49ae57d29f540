import { DataSource, EntityManager } from 'typeorm';
import { ADVISORY_LOCKS, lockXact, tryLockXact } from '../database/advisory-locks';
import { SqlRunner } from '../database/sql-runner';
import { onlyOn, statement, statementFamily } from '../database/statements';
import { AcceptedFix, DeviceTrack } from './fix';
import { DAY_MS } from '../common/time/durations';
import { PositionStore, RemovedHistory } from './position-store';

/** `position_history_20261123` for the day that starts at `dayStart` (UTC). */
export const partitionName = (dayStart: number): string => `position_history_${new Date(dayStart).toISOString().slice(0, 10).replaceAll('-', '')}`;

interface TrackRow {
  id: string;
  code: string;
  user_id: string | null;
  time: number | string;
  building_id: number | null;
  floor_id: number | null;
  lat: number;
  lng: number;
  x: number | null;
  y: number | null;
  accuracy: number | null;
  yaw: number | null;
}

/** The devices' newest fixes by primary key; `last_time` as epoch milliseconds. */
const TRACK_SELECT = `SELECT id, code, user_id, CAST(extract(epoch FROM last_time) * 1000 AS double precision) AS time, building_id, floor_id, lat, lng, x, y, accuracy, yaw
  FROM devices`;
const NEWEST = statement(
  'postgres-position-store.newest',
  onlyOn('postgres', `${TRACK_SELECT} WHERE organization_id = :organizationId AND id = ANY(CAST(:deviceIds AS varchar[])) AND last_time IS NOT NULL`),
);
const ON_FLOOR = statement(
  'postgres-position-store.on-floor',
  onlyOn('postgres', `${TRACK_SELECT} WHERE organization_id = :organizationId AND floor_id = :floorId AND last_time >= :since`),
);

/**
 * A whole batch in one statement (one round trip, atomic by itself): the history rows in a
 * data-modifying CTE, then the devices' newest fixes. Every column comes as one array, so the
 * text never changes. Times go as ISO text: pg's own formatting of a Date, per element, cost
 * more than the rest of the parameters. Values in the order of first use: organization, the 11
 * history columns (device_id to yaw), now, the 12 device columns (id to yaw).
 */
const BATCH_STORE = statement(
  'postgres-position-store.batch',
  onlyOn(
    'postgres',
    `WITH history AS (
    INSERT INTO position_history (organization_id, device_id, "time", user_id, building_id, floor_id, lat, lng, x, y, accuracy, yaw)
    SELECT CAST(:organizationId AS uuid), h.* FROM unnest(CAST(:h_device_id AS varchar[]), CAST(:h_time AS timestamptz[]), CAST(:h_user_id AS uuid[]),
      CAST(:h_building_id AS int[]), CAST(:h_floor_id AS int[]), CAST(:h_lat AS float8[]), CAST(:h_lng AS float8[]), CAST(:h_x AS float8[]), CAST(:h_y AS float8[]),
      CAST(:h_accuracy AS float8[]), CAST(:h_yaw AS float8[])) AS h
    ON CONFLICT DO NOTHING
  )
  INSERT INTO devices (organization_id, id, code, user_id, last_time, building_id, floor_id, lat, lng, x, y, accuracy, yaw, created_at, updated_at)
  SELECT CAST(:organizationId AS uuid), d.*, CAST(:now AS timestamptz), CAST(:now AS timestamptz)
  FROM unnest(CAST(:d_id AS varchar[]), CAST(:d_code AS varchar[]), CAST(:d_user_id AS uuid[]), CAST(:d_last_time AS timestamptz[]), CAST(:d_building_id AS int[]),
    CAST(:d_floor_id AS int[]), CAST(:d_lat AS float8[]), CAST(:d_lng AS float8[]), CAST(:d_x AS float8[]), CAST(:d_y AS float8[]), CAST(:d_accuracy AS float8[]),
    CAST(:d_yaw AS float8[])) AS d
  ON CONFLICT (organization_id, id) DO UPDATE SET
    code = CASE WHEN excluded.code <> '' THEN excluded.code ELSE devices.code END,
    user_id = excluded.user_id, last_time = excluded.last_time, building_id = excluded.building_id, floor_id = excluded.floor_id,
    lat = excluded.lat, lng = excluded.lng, x = excluded.x, y = excluded.y, accuracy = excluded.accuracy, yaw = excluded.yaw,
    updated_at = excluded.updated_at
  WHERE devices.last_time IS NULL OR devices.last_time <= excluded.last_time`,
  ),
);

/** A day's partition: DDL takes no parameters, so a text per day (the snapshot shows one). */
const PARTITION_CREATE = statementFamily<number>('postgres-position-store.partition-create', [Date.UTC(2026, 0, 1)], (day) =>
  onlyOn(
    'postgres',
    `CREATE TABLE IF NOT EXISTS "${partitionName(day)}" PARTITION OF position_history FOR VALUES FROM ('${new Date(day).toISOString()}') TO ('${new Date(day + DAY_MS).toISOString()}')`,
  ),
);
const PARTITION_DROP = statementFamily<number>('postgres-position-store.partition-drop', [Date.UTC(2026, 0, 1)], (day) =>
  onlyOn('postgres', `DROP TABLE IF EXISTS "${partitionName(day)}"`),
);
const PARTITIONS = statement(
  'postgres-position-store.partitions',
  onlyOn(
    'postgres',
    `SELECT child.relname AS name FROM pg_inherits i
     JOIN pg_class child ON child.oid = i.inhrelid
     JOIN pg_class parent ON parent.oid = i.inhparent
   WHERE parent.relname = 'position_history'`,
  ),
);

const number = (value: unknown) => (value === null ? null : Number(value));

function trackOf(row: TrackRow): DeviceTrack {
  return {
    deviceId: row.id,
    code: row.code,
    userId: row.user_id,
    time: Number(row.time),
    buildingId: number(row.building_id),
    floorId: number(row.floor_id),
    lat: Number(row.lat),
    lng: Number(row.lng),
    x: number(row.x),
    y: number(row.y),
    accuracy: number(row.accuracy),
    yaw: number(row.yaw),
  };
}

/**
 * PostgreSQL: every instance reads and writes the devices' rows, so all of them serve one live
 * picture. The history is partitioned by day: partitions are created ahead (and on demand for
 * any day a batch needs) and retention drops whole ones, both under advisory locks so that
 * several instances never collide.
 */
export class PostgresPositionStore extends PositionStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
  ) {
    super();
  }

  async prepareDays(days: readonly number[]): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      // Serializes creation across instances: CREATE TABLE IF NOT EXISTS alone can still race on the catalog.
      await lockXact(manager, ADVISORY_LOCKS.historyPartitions);
      for (const day of days) await this.sql.inOrder(manager, PARTITION_CREATE.of(day), []);
    });
  }

  /** Whole partitions whose day ended before the cutoff; another instance holding the lock does it instead. */
  removeHistoryBefore(cutoff: number): Promise<RemovedHistory> {
    return this.dataSource.transaction(async (manager) => {
      const removed: RemovedHistory = { days: [], partitionsDropped: [], rowsDeleted: 0 };
      if (!(await tryLockXact(manager, ADVISORY_LOCKS.historyRetention))) return removed;
      const rows = await this.sql.inOrder<Array<{ name: string }>>(manager, PARTITIONS, []);
      for (const { name } of rows) {
        const match = /^position_history_(\d{4})(\d\d)(\d\d)$/.exec(name);
        if (!match) continue;
        const dayStart = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
        if (dayStart + DAY_MS > cutoff) continue;
        await this.sql.inOrder(manager, PARTITION_DROP.of(dayStart), []);
        removed.days.push(dayStart);
        removed.partitionsDropped.push(name);
      }
      return removed;
    });
  }

  async newest(manager: EntityManager, organizationId: string, deviceIds: readonly string[]): Promise<Map<string, DeviceTrack>> {
    const tracks = new Map<string, DeviceTrack>();
    if (deviceIds.length === 0) return tracks;
    void manager; // the prepared read runs on the ambient transaction's connection
    for (const row of await this.sql.prepared<TrackRow>(NEWEST)({ organizationId, deviceIds: [...deviceIds] })) tracks.set(row.id, trackOf(row));
    return tracks;
  }

  async append(manager: EntityManager, organizationId: string, fixes: readonly AcceptedFix[], newest: readonly AcceptedFix[]): Promise<void> {
    const history: unknown[][] = Array.from({ length: 11 }, () => []);
    for (const fix of fixes) {
      const row = [fix.deviceId, new Date(fix.time).toISOString(), fix.userId, fix.buildingId, fix.floorId, fix.lat, fix.lng, fix.x, fix.y, fix.accuracy, fix.yaw];
      for (let c = 0; c < 11; c++) history[c].push(row[c]);
    }
    const devices: unknown[][] = Array.from({ length: 12 }, () => []);
    for (const fix of newest) {
      const row = [fix.deviceId, fix.deviceCode, fix.userId, new Date(fix.time).toISOString(), fix.buildingId, fix.floorId, fix.lat, fix.lng, fix.x, fix.y, fix.accuracy, fix.yaw];
      for (let c = 0; c < 12; c++) devices[c].push(row[c]);
    }
    await this.sql.inOrder(manager, BATCH_STORE, [organizationId, ...history, new Date().toISOString(), ...devices]);
  }

  async lastSeenOnFloor(manager: EntityManager, organizationId: string, floorId: number, since: number): Promise<DeviceTrack[]> {
    const rows = await this.sql.inOrder<TrackRow[]>(manager, ON_FLOOR, [organizationId, floorId, new Date(since)]);
    return rows.map(trackOf);
  }

  async flushNewest(): Promise<void> {
    // The rows are written with every batch.
  }

  forget(): void {
    // Nothing is kept in memory.
  }
}
