import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { canSeeBuilding } from '../auth/building-scope';
import { KeyedTurns } from '../common/concurrency/keyed-turns';
import { Principal } from '../auth/principal';
import { Role } from '../auth/roles';
import { ApiError } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-code';
import { BuildingFrame, toCartesian, toGeoreference } from '../common/geometry/cartesian';
import { countPositionFixes } from '../common/metrics/operations.metrics';
import { appConfig, AppConfig } from '../config/app.config';
import { PreparedQueries } from '../database/prepared-queries';
import { Notifications } from '../database/notifications';
import { TransactionRunner } from '../database/transactions';
import { announcePositionChanges } from '../delivery/streams/position-changes';
import { GeofenceEventBody } from '../geofencing/events/geofence-event';
import { GeofenceEvaluator } from '../geofencing/events/geofence-evaluator.service';
import { BatchShapeError, BatchTooLargeError, batchItems, ItemRejection, MAX_BATCH_ITEMS, orderAndDeduplicate, readItem, ReportedFix } from './position-batch';
import { Dialect, DEVICE_COLUMNS, epochMsColumn, namedList, POSTGRES_BATCH_STORE, sqliteDeviceUpsert, sqliteHistoryInsert, timestampParameter } from './position-sql';

import { LatestStoredFix, PositionRollups } from './position-rollups.service';
import { PositionsRetention } from './positions-retention.service';

/** A fix with its references checked and both coordinate systems filled in where a building is known. */
export interface AcceptedFix {
  index: number;
  deviceId: string;
  deviceCode: string;
  userId: string;
  time: number;
  buildingId: number | null;
  floorId: number | null;
  lat: number;
  lng: number;
  x: number | null;
  y: number | null;
  accuracy: number;
  yaw: number | null;
}

export interface IngestResult {
  accepted: number;
  rejected: ItemRejection[];
  /** The geofence events the batch fired (contract 7.3), in seq order. */
  events: GeofenceEventBody[];
}

interface FloorRow {
  id: number;
  building_id: number;
}
interface PlaceRow {
  floor_id: number | null;
  building_id: number;
  latitude: number;
  longitude: number;
  width: number;
  length: number;
  rotation: number;
}

const DAY_MS = 86_400_000;

interface LatestFixRow {
  id: string;
  time: number | string | null;
  building_id: number | null;
  in_history: number | string;
}

/**
 * PostgreSQL: each device's row by its primary key and the history row at its `last_time` by the
 * partition's primary key, one probe each. Written as LATERAL subqueries with LIMIT 1 (which the
 * planner cannot flatten into a join) so that the plan does not depend on statistics: on a table
 * autovacuum has not analyzed yet (a new installation, each new day's partition) the plain join was
 * planned as a scan of every device of the organization through an index full of dead versions
 * (every fix updates its device) and a history probe through the building index, 35 ms a batch
 * under the benchmark's load instead of 2. The history row's partition is chosen at run time.
 */
const POSTGRES_LATEST_FIXES = `SELECT w.id, ${epochMsColumn('postgres', 'd.last_time')} AS time, h.building_id, CASE WHEN h.found IS NULL THEN 0 ELSE 1 END AS in_history
  FROM unnest(CAST(:deviceIds AS varchar[])) AS w(id)
  JOIN LATERAL (SELECT d.last_time FROM devices d WHERE d.organization_id = :organizationId AND d.id = w.id LIMIT 1) d ON true
  LEFT JOIN LATERAL (SELECT h.building_id, 1 AS found FROM position_history h
    WHERE h.organization_id = :organizationId AND h.device_id = w.id AND h."time" = d.last_time LIMIT 1) h ON true`;

/**
 * Batches queued together on SQLite share a COMMIT (see TransactionRunner). The one in-process
 * state an ingest reads that another batch's after-commit work changes, the webhook worker's room
 * for hand-offs, is reserved when taken and given back at commit or rollback.
 */
const INGEST_TRANSACTION = { group: 'ingest' };

/** SQLite takes at most 32,766 parameters per statement; 500 rows of 12 stay far below. */
const SQLITE_ROWS_PER_INSERT = 500;
/** Devices per read of their latest fixes (an IN list of at most this many parameters). */
const SQL_CHUNK = 500;

@Injectable()
export class PositionsIngestService {
  private readonly dialect: Dialect;
  private readonly logger = new Logger(PositionsIngestService.name);
  /** PostgreSQL: batches of one device on this instance queue here before taking a connection (see KeyedTurns). */
  private readonly deviceTurns = new KeyedTurns();

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly queries: PreparedQueries,
    private readonly transactions: TransactionRunner,
    private readonly retention: PositionsRetention,
    private readonly notifications: Notifications,
    private readonly geofences: GeofenceEvaluator,
    private readonly rollups: PositionRollups,
  ) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  /**
   * Contract 6.2: every item checked on its own, the accepted ones stored in one
   * transaction (history rows and each device's latest fix), the others listed with why.
   */
  async ingest(principal: Principal, body: unknown, options: { returnEvents?: boolean } = {}): Promise<IngestResult> {
    let items: unknown[];
    try {
      items = batchItems(body);
    } catch (error) {
      if (error instanceof BatchTooLargeError) throw new ApiError(413, ErrorCode.PayloadTooLarge, `At most ${MAX_BATCH_ITEMS} positions per request`);
      if (error instanceof BatchShapeError) throw ApiError.validation(error.message, [{ message: error.message, code: 'invalid', fields: 'body' }]);
      throw error;
    }
    if (items.length === 0) {
      throw ApiError.validation('The batch holds no positions', [{ message: `send 1 to ${MAX_BATCH_ITEMS} positions`, code: 'required', fields: 'positions' }]);
    }

    const limits = this.config.positions;
    // A fix older than the retention would be deleted at once (and its day's partition may be gone already).
    const maxAgeMs = Math.min(limits.maxAgeSeconds * 1000, limits.retentionDays * DAY_MS);
    const window = { now: Date.now(), maxFutureMs: limits.maxFutureSeconds * 1000, maxAgeMs };
    const rejected: ItemRejection[] = [];
    const reported: ReportedFix[] = [];
    for (let index = 0; index < items.length; index++) {
      const result = readItem(items[index], index, window);
      if ('code' in result) rejected.push(result);
      else reported.push(result);
    }

    const resolved = await this.resolveReferences(principal, reported, rejected);
    const { kept, duplicates } = orderAndDeduplicate(resolved);
    for (const duplicate of duplicates) {
      rejected.push({ index: duplicate.index, code: 'duplicate', fields: 'device_id,time', message: 'another position of the batch has the same device and time' });
    }
    rejected.sort((a, b) => a.index - b.index);

    if (kept.length === 0) {
      countPositionFixes(0, rejected);
      throw ApiError.validation('No position of the batch is valid; none was stored', rejected);
    }
    await this.retention.ensurePartitionsFor(kept.map((fix) => fix.time));
    const events = await this.store(principal.organizationId, kept);
    countPositionFixes(kept.length, rejected);
    announcePositionChanges(this.notifications, principal.organizationId, (error) => this.logger.warn(`Live streams not told of an ingest: ${String(error)}`));
    return { accepted: kept.length, rejected, events: options.returnEvents === false ? [] : events };
  }

  /** Checks each fix's building, floor and user (each kind read once for the whole batch) and fills in both coordinate systems. */
  private async resolveReferences(principal: Principal, fixes: ReportedFix[], rejected: ItemRejection[]): Promise<AcceptedFix[]> {
    const organizationId = principal.organizationId;
    const floorIds = new Set<number>();
    const userIds = new Set<string>();
    for (const fix of fixes) {
      if (fix.floorId !== null) floorIds.add(fix.floorId);
      if (fix.userId !== null && fix.userId !== principal.userId) userIds.add(fix.userId);
    }
    const buildingIds = new Set<number>();
    for (const fix of fixes) if (fix.buildingId !== null) buildingIds.add(fix.buildingId);
    const { floors, frames } = await this.loadPlaces(principal, [...floorIds], [...buildingIds]);
    const knownUsers = new Set<string>();
    if (userIds.size > 0 && principal.role === Role.AdminOrg) {
      const list = namedList('u', [...userIds]);
      const rows = await this.queries.cached<{ id: string }>(`SELECT id FROM users WHERE organization_id = :organization AND id IN (${list.sql})`)({
        organization: organizationId,
        ...list.parameters,
      });
      for (const row of rows) knownUsers.add(String(row.id).toLowerCase());
    }

    const accepted: AcceptedFix[] = [];
    for (const fix of fixes) {
      const reject = (code: ItemRejection['code'], fields: string, message: string) => rejected.push({ index: fix.index, code, fields, message });
      let userId = principal.userId;
      if (fix.userId !== null && fix.userId !== principal.userId) {
        if (principal.role !== Role.AdminOrg) {
          reject('forbidden', 'user_id', 'only an ADMIN_ORG credential may report for another user');
          continue;
        }
        if (!knownUsers.has(fix.userId)) {
          reject('not_found', 'user_id', `user ${fix.userId} not found`);
          continue;
        }
        userId = fix.userId;
      }
      let buildingId = fix.buildingId;
      if (fix.floorId !== null) {
        const floor = floors.get(fix.floorId);
        if (!floor || !frames.has(floor.building_id)) {
          reject('not_found', 'floor_id', `floor ${fix.floorId} not found`);
          continue;
        }
        if (buildingId !== null && floor.building_id !== buildingId) {
          reject('invalid', 'floor_id', `floor ${fix.floorId} is not in building ${buildingId}`);
          continue;
        }
        buildingId = floor.building_id;
      }
      const frame = buildingId === null ? undefined : frames.get(buildingId);
      if (buildingId !== null && !frame) {
        reject('not_found', 'building_id', `building ${buildingId} not found`);
        continue;
      }
      let { lat, lng, x, y } = fix;
      if (frame) {
        if (lat !== null && lng !== null) ({ x, y } = toCartesian(frame, { lat, lng }));
        else if (x !== null && y !== null) ({ lat, lng } = toGeoreference(frame, { x, y }));
      } else {
        x = null;
        y = null;
      }
      accepted.push({
        index: fix.index,
        deviceId: fix.deviceId,
        deviceCode: fix.deviceCode ?? '',
        userId,
        time: fix.time,
        buildingId,
        floorId: fix.floorId,
        lat: lat!,
        lng: lng!,
        x,
        y,
        accuracy: fix.accuracy,
        yaw: fix.yaw,
      });
    }
    return accepted;
  }

  /**
   * The floors named (with their building) and the buildings named, in one query: each
   * floor's building frame comes with it. Deleted ones, other organizations' and buildings
   * the caller may not see are left out, so their fixes are rejected as not found.
   */
  private async loadPlaces(principal: Principal, floorIds: number[], buildingIds: number[]): Promise<{ floors: Map<number, FloorRow>; frames: Map<number, BuildingFrame> }> {
    const floors = new Map<number, FloorRow>();
    const frames = new Map<number, BuildingFrame>();
    if (floorIds.length === 0 && buildingIds.length === 0) return { floors, frames };
    const columns = 'b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation';
    const parts: string[] = [];
    const parameters: Record<string, string | number> = { organization: principal.organizationId };
    if (floorIds.length > 0) {
      const list = namedList('f', floorIds);
      Object.assign(parameters, list.parameters);
      parts.push(
        `SELECT f.id AS floor_id, ${columns} FROM floors f JOIN buildings b ON b.id = f.building_id
         WHERE f.organization_id = :organization AND f.deleted_at IS NULL AND b.organization_id = :organization AND b.deleted_at IS NULL AND f.id IN (${list.sql})`,
      );
    }
    if (buildingIds.length > 0) {
      const list = namedList('b', buildingIds);
      Object.assign(parameters, list.parameters);
      parts.push(`SELECT NULL AS floor_id, ${columns} FROM buildings b WHERE b.organization_id = :organization AND b.deleted_at IS NULL AND b.id IN (${list.sql})`);
    }
    const rows = await this.queries.cached<PlaceRow>(parts.join(' UNION ALL '))(parameters);
    for (const row of rows) {
      const buildingId = Number(row.building_id);
      if (!canSeeBuilding(principal, buildingId)) continue;
      frames.set(buildingId, { latitude: Number(row.latitude), longitude: Number(row.longitude), width: Number(row.width), length: Number(row.length), rotation: Number(row.rotation) });
      if (row.floor_id !== null) floors.set(Number(row.floor_id), { id: Number(row.floor_id), building_id: buildingId });
    }
    return { floors, frames };
  }

  /**
   * One transaction: the history rows, each device's latest fix (fixes are ordered by
   * device and time, so a device's last fix of the batch is its latest), and the geofence
   * evaluation of the fixes (states, visits, events, webhook outbox), under the devices'
   * lock so two batches of one device on two instances take turns.
   */
  private async store(organizationId: string, fixes: AcceptedFix[]): Promise<GeofenceEventBody[]> {
    const latest: AcceptedFix[] = [];
    let code = '';
    for (let i = 0; i < fixes.length; i++) {
      // The device's code is the last one any of its fixes in the batch gave, not only the latest fix's.
      if (fixes[i].deviceCode !== '') code = fixes[i].deviceCode;
      if (i === fixes.length - 1 || fixes[i + 1].deviceId !== fixes[i].deviceId) {
        latest.push({ ...fixes[i], deviceCode: code });
        code = '';
      }
    }
    const transaction = () => this.transactions.run(async (manager) => {
      await this.geofences.lockDevices(
        manager,
        organizationId,
        latest.map((fix) => fix.deviceId),
      );
      // Before the devices' rows move on: each device's newest stored fix. It is its last evaluated
      // fix (the late rule of 7.2: every accepted fix is evaluated) and the rollups' neighbour.
      const stored = await this.latestStoredFixes(
        organizationId,
        latest.map((fix) => fix.deviceId),
      );
      const lastEvaluated = new Map<string, number>();
      for (const [deviceId, head] of stored) lastEvaluated.set(deviceId, head.time);
      // Before the history rows: it reads the stored neighbours the batch lands between.
      await this.rollups.record(manager, organizationId, fixes, stored);
      if (this.dialect === 'postgres') await this.storeOnPostgres(manager, organizationId, fixes, latest);
      else await this.storeOnSqlite(manager, organizationId, fixes, latest);
      return this.geofences.evaluateFixes(manager, organizationId, fixes, Date.now(), lastEvaluated);
    }, INGEST_TRANSACTION);
    // SQLite runs this process's transactions one at a time already.
    if (this.dialect !== 'postgres') return transaction();
    return this.deviceTurns.run(
      latest.map((fix) => `${organizationId}:${fix.deviceId}`),
      transaction,
    );
  }

  /**
   * Each device's newest stored fix: `devices.last_time` (the history's newest time: both are
   * written together and the device's only moves forward) and the building of the history row
   * at that time. Call it under the devices' lock, in the batch's transaction (prepared
   * statements run on its connection). On SQLite the id list is padded to a power of two, so a
   * few prepared statements serve every batch size; PostgreSQL takes it as one array.
   */
  private async latestStoredFixes(organizationId: string, deviceIds: readonly string[]): Promise<Map<string, LatestStoredFix>> {
    const latest = new Map<string, LatestStoredFix>();
    for (let start = 0; start < deviceIds.length; start += SQL_CHUNK) {
      const chunk = deviceIds.slice(start, start + SQL_CHUNK);
      const rows = await this.readLatestStoredFixes(organizationId, chunk);
      for (const row of rows) {
        // Filtered here: in the WHERE clause, SQLite scanned the organization's last_time index instead of looking the ids up.
        if (row.time === null) continue;
        const buildingId = Number(row.in_history) === 1 ? (row.building_id === null ? null : Number(row.building_id)) : undefined;
        latest.set(row.id, { time: Number(row.time), buildingId });
      }
    }
    return latest;
  }

  private readLatestStoredFixes(organizationId: string, deviceIds: string[]): Promise<LatestFixRow[]> {
    if (this.dialect === 'postgres') return this.queries.cached<LatestFixRow>(POSTGRES_LATEST_FIXES)({ organizationId, deviceIds });
    const list = namedList('d', deviceIds);
    return this.queries.cached<LatestFixRow>(
      `SELECT d.id, ${epochMsColumn(this.dialect, 'd.last_time')} AS time, h.building_id, CASE WHEN h.device_id IS NULL THEN 0 ELSE 1 END AS in_history
       FROM devices d LEFT JOIN position_history h ON h.organization_id = d.organization_id AND h.device_id = d.id AND h."time" = d.last_time
       WHERE d.organization_id = :organizationId AND d.id IN (${list.sql})`,
    )({ organizationId, ...list.parameters });
  }

  /**
   * One statement for the history and the devices: every column as one array, so its text
   * never changes and it runs as a named prepared statement (parsed and planned once per connection). Times go as ISO text: pg's own formatting of a
   * Date, per element, cost more than the rest of the parameters.
   */
  private async storeOnPostgres(manager: EntityManager, organizationId: string, fixes: AcceptedFix[], latest: AcceptedFix[]): Promise<void> {
    const history: unknown[][] = Array.from({ length: 11 }, () => []);
    for (const fix of fixes) {
      const row = [fix.deviceId, new Date(fix.time).toISOString(), fix.userId, fix.buildingId, fix.floorId, fix.lat, fix.lng, fix.x, fix.y, fix.accuracy, fix.yaw];
      for (let c = 0; c < 11; c++) history[c].push(row[c]);
    }
    const devices: unknown[][] = Array.from({ length: 12 }, () => []);
    for (const fix of latest) {
      const row = [fix.deviceId, fix.deviceCode, fix.userId, new Date(fix.time).toISOString(), fix.buildingId, fix.floorId, fix.lat, fix.lng, fix.x, fix.y, fix.accuracy, fix.yaw];
      for (let c = 0; c < 12; c++) devices[c].push(row[c]);
    }
    await this.queries.inTransaction(manager, 'cg_ingest_batch_store', POSTGRES_BATCH_STORE, [organizationId, new Date().toISOString(), ...history, ...devices]);
  }

  /** SQLite: multi-row statements (this process's transactions run one at a time). */
  private async storeOnSqlite(manager: EntityManager, organizationId: string, fixes: AcceptedFix[], latest: AcceptedFix[]): Promise<void> {
    const stamp = (ms: number) => timestampParameter('sqlite', ms);
    const now = stamp(Date.now());
    const deviceValues: unknown[] = [];
    for (const fix of latest) {
      deviceValues.push(organizationId, fix.deviceId, fix.deviceCode, fix.userId, stamp(fix.time), fix.buildingId, fix.floorId, fix.lat, fix.lng, fix.x, fix.y, fix.accuracy, fix.yaw, now, now);
    }
    for (let start = 0; start < fixes.length; start += SQLITE_ROWS_PER_INSERT) {
      const chunk = fixes.slice(start, start + SQLITE_ROWS_PER_INSERT);
      const values: unknown[] = [];
      for (const fix of chunk) {
        values.push(organizationId, fix.deviceId, stamp(fix.time), fix.userId, fix.buildingId, fix.floorId, fix.lat, fix.lng, fix.x, fix.y, fix.accuracy, fix.yaw);
      }
      await manager.query(sqliteHistoryInsert(chunk.length), values);
    }
    for (let start = 0; start < latest.length; start += SQLITE_ROWS_PER_INSERT) {
      const chunk = latest.length <= SQLITE_ROWS_PER_INSERT ? deviceValues : deviceValues.slice(start * DEVICE_COLUMNS.length, (start + SQLITE_ROWS_PER_INSERT) * DEVICE_COLUMNS.length);
      await manager.query(sqliteDeviceUpsert(chunk.length / DEVICE_COLUMNS.length), chunk);
    }
  }
}
