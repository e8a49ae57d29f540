import { Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { inList, SqlDialect } from '../database/sql-dialect';
import { SqliteStatements } from '../database/sqlite-statements';
import { namedRows, onlyOn, statement, statementFamily } from '../database/statements';
import { TransactionRunner } from '../database/transactions';
import { AcceptedFix, DeviceTrack } from './fix';
import { DEVICE_COLUMNS, HISTORY_COLUMNS, PositionStore, RemovedHistory, trackOf } from './position-store';

/** How often the devices' newest fixes kept in memory are written to their rows. */
export const TRACK_FLUSH_INTERVAL_MS = 1000;
/** Devices whose newest fix is kept in memory at most; past it, written ones are let go. */
const MAX_KEPT_TRACKS = 200_000;
/** SQLite takes at most 32,766 parameters per statement; 500 rows of 12 stay far below. */
const ROWS_PER_INSERT = 500;
/** Rows deleted per statement by the retention, so it never holds the single writer for long. */
const DELETE_BATCH = 5000;

interface Kept {
  /** Whether the device has a row. */
  exists: boolean;
  track: DeviceTrack | null;
  /** The newest fix is newer than what the row says. */
  pending: boolean;
}

interface TrackRow {
  id: string;
  code: string;
  user_id: string | null;
  time: number | null;
  building_id: number | null;
  floor_id: number | null;
  lat: number | null;
  lng: number | null;
  x: number | null;
  y: number | null;
  accuracy: number | null;
  yaw: number | null;
}

const keyOf = (organizationId: string, deviceId: string) => `${organizationId}\u0000${deviceId}`;

/**
 * SQLite (one process owns the database): each device's newest fix is kept in memory and written
 * to its row behind the ingest, at most a second later, instead of with every batch. The history
 * row of every fix is written with its batch, so nothing acknowledged is lost: at start the rows
 * are brought up to their history's newest fixes (a crash may have left them behind), and the
 * only readers and editors of the `devices` table (DevicesRepository, LivePositionsRepository and
 * the stores themselves) call `flushNewest` first, in their own methods (src/architecture.spec.ts
 * keeps it so). A new device's row, and a change
 * of its code (which the history does not hold), are written with the batch.
 */
export class SqlitePositionStore extends PositionStore {
  private readonly logger = new Logger('PositionStore');
  private readonly kept = new Map<string, Kept>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly statements: SqliteStatements,
    private readonly transactions: TransactionRunner,
    private readonly dialect: SqlDialect,
  ) {
    super();
  }

  /** At start: brings every device's row up to its history, then starts writing the kept fixes behind. */
  async onApplicationBootstrap(): Promise<void> {
    await this.transactions.run(async () => {
      const changed = this.statements.run(RECONCILE);
      if (changed > 0) this.logger.warn(`${changed} devices' newest fixes were restored from their history (the server had stopped without writing them)`);
    });
    this.timer = setInterval(
      () => void this.flush().catch((error: unknown) => this.logger.error(`Writing the devices' newest fixes failed: ${String(error)}`)),
      TRACK_FLUSH_INTERVAL_MS,
    );
    this.timer.unref();
  }

  /** Writes what is kept, and stops, before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  async newest(_manager: EntityManager, organizationId: string, deviceIds: readonly string[]): Promise<Map<string, DeviceTrack>> {
    const missing = deviceIds.filter((id) => !this.kept.has(keyOf(organizationId, id)));
    for (let start = 0; start < missing.length; start += ROWS_PER_INSERT) {
      const chunk = missing.slice(start, start + ROWS_PER_INSERT);
      const rows = this.statements.all<TrackRow>(NEWEST.of(chunk.length), [organizationId, ...chunk]);
      const found = new Map(rows.map((row) => [row.id, row]));
      for (const id of chunk) {
        const row = found.get(id);
        this.kept.set(keyOf(organizationId, id), { exists: row !== undefined, track: row && row.time !== null ? trackFromRow(row) : null, pending: false });
      }
    }
    const tracks = new Map<string, DeviceTrack>();
    for (const id of deviceIds) {
      const track = this.kept.get(keyOf(organizationId, id))?.track;
      if (track) tracks.set(id, track);
    }
    return tracks;
  }

  async append(manager: EntityManager, organizationId: string, fixes: readonly AcceptedFix[], newest: readonly AcceptedFix[]): Promise<void> {
    const stamp = (ms: number) => this.dialect.timestamp(ms);
    for (let start = 0; start < fixes.length; start += ROWS_PER_INSERT) {
      const chunk = fixes.slice(start, start + ROWS_PER_INSERT);
      const values: unknown[] = [];
      for (const fix of chunk)
        values.push(organizationId, fix.deviceId, stamp(fix.time), fix.userId, fix.buildingId, fix.floorId, fix.lat, fix.lng, fix.x, fix.y, fix.accuracy, fix.yaw);
      this.statements.run(HISTORY_INSERT.of(chunk.length), values);
    }
    const undo: Array<[string, Kept]> = [];
    const now = stamp(Date.now());
    for (const fix of newest) {
      const key = keyOf(organizationId, fix.deviceId);
      const kept = this.kept.get(key) ?? { exists: false, track: null, pending: false };
      if (kept.track !== null && fix.time < kept.track.time) continue;
      undo.push([key, kept]);
      const track = trackOf(fix, kept.track?.code ?? '');
      if (!kept.exists) {
        this.statements.run(NEW_DEVICE, [
          organizationId,
          track.deviceId,
          track.code,
          track.userId,
          stamp(track.time),
          track.buildingId,
          track.floorId,
          track.lat,
          track.lng,
          track.x,
          track.y,
          track.accuracy,
          track.yaw,
          now,
          now,
        ]);
        this.kept.set(key, { exists: true, track, pending: false });
        continue;
      }
      // The history holds no codes: a new one is written now, so a crash cannot lose it.
      if (track.code !== (kept.track?.code ?? '')) this.statements.run(NEW_CODE, [track.code, now, organizationId, track.deviceId]);
      this.kept.set(key, { exists: true, track, pending: true });
    }
    if (undo.length > 0) {
      // A batch rolled back (alone, or with the group it shared a COMMIT with) leaves the kept fixes as they were.
      this.transactions.afterRollback(manager, () => {
        for (let at = undo.length - 1; at >= 0; at--) this.kept.set(undo[at][0], undo[at][1]);
      });
    }
  }

  async prepareDays(): Promise<void> {
    // One table for every day.
  }

  /** Old rows, deleted in batches through the (organization_id, time) index, each batch a transaction of its own. */
  async removeHistoryBefore(cutoff: number): Promise<RemovedHistory> {
    const before = this.dialect.timestamp(cutoff);
    let total = 0;
    for (const { id } of this.statements.all<{ id: string }>(ORGANIZATIONS)) {
      for (;;) {
        const changes = await this.transactions.run(async () => this.statements.run(HISTORY_DELETE, [id, before]));
        total += changes;
        if (changes < DELETE_BATCH) break;
      }
    }
    return { days: [], partitionsDropped: [], rowsDeleted: total };
  }

  async lastSeenOnFloor(manager: EntityManager, organizationId: string, floorId: number, since: number): Promise<DeviceTrack[]> {
    this.writePending(manager);
    return this.statements.all<TrackRow>(ON_FLOOR, [organizationId, floorId, this.dialect.timestamp(since)]).map(trackFromRow);
  }

  /** In `manager`'s transaction when given (a reader or editor already in one), else in a transaction of its own. */
  flushNewest(manager?: EntityManager): Promise<void> {
    if (manager) {
      this.writePending(manager);
      return Promise.resolve();
    }
    return this.flush();
  }

  forget(organizationId: string, deviceId: string): void {
    this.kept.delete(keyOf(organizationId, deviceId));
  }

  /** Writes every kept fix newer than its row, in one transaction; one flush at a time. */
  private flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flushIfPending());
    return this.flushIfPending();
  }

  private flushIfPending(): Promise<void> {
    if (this.flushing) return this.flushing;
    let any = false;
    for (const kept of this.kept.values()) {
      if (kept.pending) {
        any = true;
        break;
      }
    }
    if (!any) return Promise.resolve();
    this.flushing = this.transactions
      .run(async (manager) => this.writePending(manager))
      .finally(() => {
        this.flushing = null;
      });
    return this.flushing;
  }

  /** The kept fixes newer than their rows, written in `manager`'s transaction; marked written once it commits. */
  private writePending(manager: EntityManager): void {
    const written: Kept[] = [];
    const now = this.dialect.timestamp(Date.now());
    for (const [key, kept] of this.kept) {
      if (!kept.pending || kept.track === null) continue;
      const track = kept.track;
      const time = this.dialect.timestamp(track.time);
      const organizationId = key.slice(0, key.indexOf('\u0000'));
      this.statements.run(NEWEST_FIX, [
        track.userId,
        time,
        track.buildingId,
        track.floorId,
        track.lat,
        track.lng,
        track.x,
        track.y,
        track.accuracy,
        track.yaw,
        now,
        organizationId,
        track.deviceId,
      ]);
      written.push(kept);
    }
    if (written.length === 0) return;
    // A batch after this replaces the kept object, so a fix newer than the one written stays pending.
    this.transactions.afterCommit(manager, () => {
      for (const kept of written) kept.pending = false;
      this.letGo();
    });
  }

  /** Past the limit, forgets written devices (they are read again when next seen). */
  private letGo(): void {
    if (this.kept.size <= MAX_KEPT_TRACKS) return;
    for (const [key, kept] of this.kept) {
      if (this.kept.size <= MAX_KEPT_TRACKS * 0.9) break;
      if (!kept.pending) this.kept.delete(key);
    }
  }
}

function trackFromRow(row: TrackRow): DeviceTrack {
  return {
    deviceId: row.id,
    code: row.code,
    userId: row.user_id,
    time: Number(row.time),
    buildingId: row.building_id,
    floorId: row.floor_id,
    lat: Number(row.lat),
    lng: Number(row.lng),
    x: row.x,
    y: row.y,
    accuracy: row.accuracy,
    yaw: row.yaw,
  };
}

// Only SQLite receives these (PostgresPositionStore has its own); values go in the order of their names' first use.
const TRACK_SELECT = `SELECT id, code, user_id, CAST(round((julianday(last_time) - 2440587.5) * 86400000) AS INTEGER) AS time, building_id, floor_id, lat, lng, x, y, accuracy, yaw FROM devices`;

/** The devices' rows by id, a shape per chunk length (at most ROWS_PER_INSERT). */
const NEWEST = statementFamily<number>('sqlite-position-store.newest', [1, 2], (size) =>
  onlyOn('sqlite', `${TRACK_SELECT} WHERE organization_id = :organizationId AND id IN (${inList('id', size)})`),
);

const ON_FLOOR = statement(
  'sqlite-position-store.on-floor',
  onlyOn('sqlite', `${TRACK_SELECT} WHERE organization_id = :organizationId AND floor_id = :floorId AND last_time >= :since`),
);

/** A batch's history rows, a shape per chunk length: HISTORY_COLUMNS row after row. */
const HISTORY_INSERT = statementFamily<number>('sqlite-position-store.history-insert', [1, 2], (rows) =>
  onlyOn('sqlite', `INSERT INTO position_history (${HISTORY_COLUMNS.join(', ')}) VALUES ${namedRows(HISTORY_COLUMNS, rows)} ON CONFLICT DO NOTHING`),
);

const ORGANIZATIONS = statement('sqlite-position-store.organizations', onlyOn('sqlite', 'SELECT id FROM organizations'));

const HISTORY_DELETE = statement(
  'sqlite-position-store.history-delete',
  onlyOn(
    'sqlite',
    `DELETE FROM position_history WHERE rowid IN (SELECT rowid FROM position_history WHERE organization_id = :organizationId AND "time" < :before LIMIT ${DELETE_BATCH})`,
  ),
);

const NEW_DEVICE = statement(
  'sqlite-position-store.new-device',
  onlyOn('sqlite', `INSERT INTO devices (${DEVICE_COLUMNS.join(', ')}) VALUES (${DEVICE_COLUMNS.map((column) => `:${column}`).join(', ')})`),
);

const NEW_CODE = statement(
  'sqlite-position-store.new-code',
  onlyOn('sqlite', 'UPDATE devices SET code = :code, updated_at = :now WHERE organization_id = :organizationId AND id = :deviceId'),
);

/** A kept fix to its row; never moves a row back (`last_time` only grows). */
const NEWEST_FIX = statement(
  'sqlite-position-store.newest-fix',
  onlyOn(
    'sqlite',
    `UPDATE devices SET user_id = :userId, last_time = :time, building_id = :buildingId, floor_id = :floorId, lat = :lat, lng = :lng, x = :x, y = :y,
    accuracy = :accuracy, yaw = :yaw, updated_at = :now
  WHERE organization_id = :organizationId AND id = :deviceId AND (last_time IS NULL OR last_time <= :time)`,
  ),
);

/** Every device whose history holds a newer fix than its row takes that fix (a crash stopped the writing behind). */
const RECONCILE = statement(
  'sqlite-position-store.reconcile',
  onlyOn(
    'sqlite',
    `UPDATE devices SET (user_id, last_time, building_id, floor_id, lat, lng, x, y, accuracy, yaw, updated_at) = (
    SELECT h.user_id, h."time", h.building_id, h.floor_id, h.lat, h.lng, h.x, h.y, h.accuracy, h.yaw, strftime('%Y-%m-%d %H:%M:%f', 'now')
    FROM position_history h WHERE h.organization_id = devices.organization_id AND h.device_id = devices.id ORDER BY h."time" DESC LIMIT 1)
  WHERE EXISTS (SELECT 1 FROM position_history h WHERE h.organization_id = devices.organization_id AND h.device_id = devices.id AND (devices.last_time IS NULL OR h."time" > devices.last_time))`,
  ),
);
