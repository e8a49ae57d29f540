import { Inject, Injectable } from '@nestjs/common';
import { Principal } from '../access/principal';
import { assertCallerOrganization } from '../access/caller-organization';
import { BuildingsService } from '../cartography/buildings/buildings.service';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { appConfig, AppConfig } from '../config/app.config';
import { PreparedQueries } from '../database/prepared-queries';
import { PoiCircle, PoiLookup } from './poi-lookup';
import { PositionStore } from './position-store';
import { namedList, SqlDialect } from '../database/sql-dialect';
import { RealtimePositionsQuery } from './positions.dto';
import { LatestFixRow, RealtimePositionsJson, renderRealtimeJson } from './realtime.mapper';

/**
 * A device's latest fix as {@link latestColumns} selects it, one array per row (no object
 * per row; on PostgreSQL every value as its text, so that no Date is built to be formatted).
 */
type RawLatestRow = [
  id: string,
  code: string,
  userId: string | null,
  lastTime: string,
  buildingId: number | string | null,
  floorId: number | string | null,
  levelHeight: number | string | null,
  lat: number | string,
  lng: number | string,
  x: number | string | null,
  y: number | string | null,
  accuracy: number | string,
  yaw: number | string | null,
  createdAt: string,
  updatedAt: string,
];

/**
 * The columns of {@link RawLatestRow} (devices `d`, floors `f`). Times come as UTC text
 * `YYYY-MM-DD HH:MM:SS.sss`: SQLite stores them so, and PostgreSQL prints a timestamp
 * without time zone so whatever the session's time zone.
 */
function latestColumns(dialect: SqlDialect): string {
  const utc = (column: string) => dialect.utcText(column);
  return `d.id, d.code, d.user_id, ${utc('d.last_time')}, d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, ${utc('d.created_at')}, ${utc('d.updated_at')}`;
}

/**
 * `…SSSZ` from a UTC time as {@link latestColumns} gives it, without a Date: 3,000 of them
 * per request for a building of 1,000 devices, and a Date's toISOString() alone cost more
 * than a millisecond of them. PostgreSQL drops the fraction's trailing zeros (`…:34.8`,
 * `…:34`) and may print microseconds: cut to milliseconds, as a Date would be.
 */
export function isoTime(value: string): string {
  if (value.length >= 19 && value[10] === ' ' && value[4] === '-' && value[13] === ':') {
    if (value.length === 23) return `${value.slice(0, 10)}T${value.slice(11)}Z`;
    if (value.length === 19) return `${value.slice(0, 10)}T${value.slice(11)}.000Z`;
    if (value[19] === '.' && value.length <= 26 && /^\d+$/.test(value.slice(20))) return `${value.slice(0, 10)}T${value.slice(11, 20)}${(value.slice(20) + '00').slice(0, 3)}Z`;
  }
  return parseDatabaseTimestamp(value)!.toISOString();
}
/** `…SSS+00:00`, the contract's timestamp format. */
const isoTimestamp = (value: string): string => `${isoTime(value).slice(0, -1)}+00:00`;

const nullableNumber = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** A device whose latest fix changed, with when (its row's `updated_at`, epoch ms) and the POI it is in. */
export interface ChangedFix {
  row: LatestFixRow;
  changedAt: number;
  poiId: number | null;
}

function toLatestFixRow(row: RawLatestRow): LatestFixRow {
  return {
    id: String(row[0]),
    code: row[1],
    userId: row[2],
    time: isoTime(row[3]),
    buildingId: nullableNumber(row[4]),
    floorId: nullableNumber(row[5]),
    levelHeight: nullableNumber(row[6]),
    lat: Number(row[7]),
    lng: Number(row[8]),
    x: nullableNumber(row[9]),
    y: nullableNumber(row[10]),
    accuracy: Number(row[11]),
    yaw: nullableNumber(row[12]),
    createdAt: isoTimestamp(row[13]),
    updatedAt: isoTimestamp(row[14]),
  };
}

/** A realtime read that identical requests may join (see RealtimePositionsService.list). */
interface SharedRead {
  answer: Promise<RealtimePositionsJson>;
  /** When its query was sent (epoch ms); null while it waits for the requests about to join. */
  queriedAt: number | null;
}
/** A request joins a read whose query was sent at most this long ago; after that it reads anew. */
const MAX_SHARED_READ_AGE_MS = 20;

/** The live picture (contract 6.1): each device's latest fix, read from the database every instance shares. */
@Injectable()
export class RealtimePositionsService {
  /** Reads under way, by what they ask (see list). */
  private readonly reads = new Map<string, SharedRead>();

  constructor(
    private readonly dialect: SqlDialect,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly queries: PreparedQueries,
    private readonly buildings: BuildingsService,
    private readonly store: PositionStore,
  ) {}

  async forBuilding(principal: Principal, buildingId: number, query: RealtimePositionsQuery): Promise<RealtimePositionsJson> {
    await this.buildings.findOwned(principal, buildingId);
    return this.list(principal, { ...query, building_ids: [buildingId] });
  }

  async forOrganization(principal: Principal, organizationId: string, query: RealtimePositionsQuery): Promise<RealtimePositionsJson> {
    assertCallerOrganization(principal, organizationId);
    return this.list(principal, query);
  }

  /**
   * Identical reads (same organization, same filters once the caller's building scope is
   * applied) that arrive together share one read and one answer: a few dashboards polling
   * one building of 1,000 devices cost one read, not one each. A read starts on the next
   * turn of the event loop, so that requests already received join it with an answer read
   * after they arrived. One that arrives while the rows are on their way (PostgreSQL) joins
   * too if the query was sent at most MAX_SHARED_READ_AGE_MS before; its answer may then miss
   * a fix committed in those milliseconds. Nothing is kept once the rows are in: the next
   * request reads anew.
   */
  async list(principal: Principal, query: RealtimePositionsQuery): Promise<RealtimePositionsJson> {
    const threshold = query.max_sec_threshold ?? this.config.positions.defaultMaxSecThreshold;
    const conditions = ['d.organization_id = :organization', 'd.last_time >= :since'];
    const parameters: Record<string, string | number | null> = { organization: principal.organizationId };
    const addList = (column: string, prefix: string, values: ReadonlyArray<string | number> | undefined) => {
      if (values === undefined) return true;
      if (values.length === 0) return false;
      const list = namedList(prefix, [...new Set(values)]);
      conditions.push(`${column} IN (${list.sql})`);
      Object.assign(parameters, list.parameters);
      return true;
    };
    // A restricted USER sees devices in its buildings only (outdoor fixes belong to none).
    const visible = principal.buildingIds === null ? query.building_ids : (query.building_ids ?? principal.buildingIds).filter((id) => principal.buildingIds!.includes(id));
    if (
      !addList('d.building_id', 'b', visible) ||
      !addList(
        'd.user_id',
        'u',
        query.user_ids?.map((id) => id.toLowerCase()),
      ) ||
      !addList('d.id', 'd', query.device_ids)
    ) {
      return renderRealtimeJson(principal.organizationId, [], () => null);
    }
    if (query.indoor === true) conditions.push('d.floor_id IS NOT NULL');
    if (query.indoor === false) conditions.push('d.floor_id IS NULL');

    const sql = `SELECT ${latestColumns(this.dialect)} FROM devices d LEFT JOIN floors f ON f.id = d.floor_id WHERE ${conditions.join(' AND ')} ORDER BY d.id`;
    // The statement and every value it is given, the organization among them: what the database is asked.
    const key = `${threshold}\n${sql}\n${JSON.stringify(parameters)}`;
    const shared = this.reads.get(key);
    if (shared && (shared.queriedAt === null || Date.now() - shared.queriedAt <= MAX_SHARED_READ_AGE_MS)) return shared.answer;
    const read: SharedRead = { answer: undefined!, queriedAt: null };
    read.answer = this.readLive(read, key, principal.organizationId, sql, parameters, threshold);
    this.reads.set(key, read);
    return read.answer;
  }

  private async readLive(
    read: SharedRead,
    key: string,
    organizationId: string,
    sql: string,
    parameters: Record<string, string | number | null>,
    threshold: number,
  ): Promise<RealtimePositionsJson> {
    let raw: RawLatestRow[];
    try {
      await new Promise<void>((resolve) => setImmediate(resolve));
      await this.store.flushNewest();
      read.queriedAt = Date.now();
      const since = this.dialect.timestamp(read.queriedAt - threshold * 1000) as string;
      raw = await this.queries.cachedArrays<RawLatestRow>(sql, { text: true })({ ...parameters, since });
    } finally {
      if (this.reads.get(key) === read) this.reads.delete(key);
    }
    const rows = raw.map(toLatestFixRow);
    const pois = await this.poisOfFloors(organizationId, rows);
    return renderRealtimeJson(organizationId, rows, (row) => pois.containing(row.floorId, row.x, row.y));
  }

  /**
   * The live streams' read (contract 7.4): the organization's devices whose latest fix
   * changed at or after `sinceMs` (their row's `updated_at`, stamped by the ingest), oldest
   * change first. One read serves every stream of the organization on this instance, each
   * keeping what it may see. Bounded by the organization's device count, whatever the watermark.
   */
  async changedSince(organizationId: string, sinceMs: number): Promise<ChangedFix[]> {
    await this.store.flushNewest();
    const raw = await this.queries.cachedArrays<RawLatestRow>(
      `SELECT ${latestColumns(this.dialect)}
       FROM devices d LEFT JOIN floors f ON f.id = d.floor_id
       WHERE d.organization_id = :organization AND d.updated_at >= :since AND d.last_time IS NOT NULL ORDER BY d.updated_at, d.id`,
      { text: true },
    )({ organization: organizationId, since: this.dialect.timestamp(sinceMs) as string });
    const rows = raw.map(toLatestFixRow);
    const pois = await this.poisOfFloors(organizationId, rows);
    return rows.map((row) => ({ row, changedAt: Date.parse(row.updatedAt), poiId: pois.containing(row.floorId, row.x, row.y) }));
  }

  /** The POIs with a radius on every floor of the answer, in one query. */
  private async poisOfFloors(organizationId: string, rows: LatestFixRow[]): Promise<PoiLookup> {
    const floorIds = [...new Set(rows.map((row) => row.floorId).filter((id): id is number => id !== null))];
    if (floorIds.length === 0) return new PoiLookup([]);
    const list = namedList('f', floorIds);
    const pois = await this.queries.cached<{ id: number; floor_id: number; x: number; y: number; radius: number }>(
      `SELECT id, floor_id, x, y, radius FROM pois WHERE organization_id = :organization AND radius IS NOT NULL AND floor_id IN (${list.sql})`,
    )({ organization: organizationId, ...list.parameters });
    return new PoiLookup(pois.map((poi): PoiCircle => ({ id: Number(poi.id), floorId: Number(poi.floor_id), x: Number(poi.x), y: Number(poi.y), radius: Number(poi.radius) })));
  }
}
