import { Injectable } from '@nestjs/common';
import { inList, namedList, SqlDialect } from '../database/sql-dialect';
import { SqlRunner } from '../database/sql-runner';
import { perDialect, statement, statementFamily } from '../database/statements';
import { PositionStore } from './position-store';

/**
 * A device's latest fix as {@link latestColumns} selects it, one array per row (no object
 * per row; on PostgreSQL every value as its text, so that no Date is built to be formatted).
 */
export type RawLatestRow = [
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

export interface PoiRow {
  id: number;
  floor_id: number;
  x: number;
  y: number;
  radius: number;
}

/**
 * The columns of {@link RawLatestRow} (devices `d`, floors `f`). Times come as UTC text
 * `YYYY-MM-DD HH:MM:SS.sss`: SQLite stores them so, and PostgreSQL prints a timestamp
 * without time zone so whatever the session's time zone.
 */
function latestColumns(dialect: SqlDialect): string {
  const utc = (column: string) => dialect.utcText(column);
  return `d.id, d.code, d.user_id, ${utc('d.last_time')}, d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, ${utc('d.created_at')}, ${utc('d.updated_at')}`;
}

/** What a live read filters on: the sizes of its building, user and device lists (0: no such filter) and indoor (`in`, `out`, `any`). */
export interface LiveShape {
  buildings: number;
  users: number;
  devices: number;
  indoor: 'in' | 'out' | 'any';
}

const LIVE = statementFamily<string>('live-positions.latest', ['0:0:0:any', '2:2:2:in'], (shape) => {
  const [buildings, users, devices, indoor] = shape.split(':');
  const conditions = ['d.organization_id = :organization', 'd.last_time >= :since'];
  if (Number(buildings) > 0) conditions.push(`d.building_id IN (${inList('b', Number(buildings))})`);
  if (Number(users) > 0) conditions.push(`d.user_id IN (${inList('u', Number(users))})`);
  if (Number(devices) > 0) conditions.push(`d.id IN (${inList('d', Number(devices))})`);
  if (indoor === 'in') conditions.push('d.floor_id IS NOT NULL');
  if (indoor === 'out') conditions.push('d.floor_id IS NULL');
  return perDialect((dialect) => `SELECT ${latestColumns(dialect)} FROM devices d LEFT JOIN floors f ON f.id = d.floor_id WHERE ${conditions.join(' AND ')} ORDER BY d.id`);
});

const CHANGED = statement(
  'live-positions.changed-since',
  perDialect(
    (dialect) => `SELECT ${latestColumns(dialect)}
       FROM devices d LEFT JOIN floors f ON f.id = d.floor_id
       WHERE d.organization_id = :organization AND d.updated_at >= :since AND d.last_time IS NOT NULL ORDER BY d.updated_at, d.id`,
  ),
);

const GATEWAY_FIXES = statement(
  'live-positions.gateway-fixes',
  `SELECT "device_id", "time_ms", "gateways_used" FROM "device_gateway_fixes" WHERE "organization_id" = :organization`,
);

const POIS = statementFamily<number>(
  'live-positions.pois',
  [2],
  (size) => `SELECT id, floor_id, x, y, radius FROM pois WHERE organization_id = :organization AND radius IS NOT NULL AND floor_id IN (${inList('f', size)})`,
);

/**
 * The reads of the live picture (the devices' rows), prepared once per shape: every value as its
 * text on PostgreSQL. Each settles the table first (the position store's newest fixes, written
 * behind the ingest on SQLite), so a reader never sees a fix older than one acknowledged.
 */
@Injectable()
export class LivePositionsRepository {
  constructor(
    private readonly sql: SqlRunner,
    private readonly dialect: SqlDialect,
    private readonly store: PositionStore,
  ) {}

  /**
   * The statement and the values of a live read, without `since` (given when it runs): the
   * caller shares identical reads by them. Lists are de-duplicated; an empty list is none.
   */
  liveRead(
    organizationId: string,
    filters: { buildings?: ReadonlyArray<number>; users?: ReadonlyArray<string>; devices?: ReadonlyArray<string>; indoor?: boolean },
  ): { name: string; parameters: Record<string, string | number> } {
    const parameters: Record<string, string | number> = { organization: organizationId };
    const sizeOf = (prefix: string, values: ReadonlyArray<string | number> | undefined) => {
      if (values === undefined) return 0;
      const named = namedList(prefix, [...new Set(values)]);
      Object.assign(parameters, named.parameters);
      return Object.keys(named.parameters).length;
    };
    const shape = [
      sizeOf('b', filters.buildings),
      sizeOf('u', filters.users),
      sizeOf('d', filters.devices),
      filters.indoor === true ? 'in' : filters.indoor === false ? 'out' : 'any',
    ].join(':');
    return { name: LIVE.of(shape).name, parameters: { ...parameters, shape } };
  }

  /** Runs a read `liveRead` described, the devices seen since `sinceMs`. */
  async latest(read: { parameters: Record<string, string | number> }, sinceMs: () => number): Promise<RawLatestRow[]> {
    // The table settled first: on SQLite the newest fixes reach it behind the ingest.
    await this.store.flushNewest();
    const { shape, ...parameters } = read.parameters;
    return this.sql.preparedArrays<RawLatestRow>(LIVE.of(String(shape)), { text: true })({ ...parameters, since: this.dialect.timestamp(sinceMs()) as string });
  }

  async changedSince(organizationId: string, sinceMs: number): Promise<RawLatestRow[]> {
    await this.store.flushNewest();
    return this.sql.preparedArrays<RawLatestRow>(CHANGED, { text: true })({ organization: organizationId, since: this.dialect.timestamp(sinceMs) as string });
  }

  /** Each tag's latest fix from gateways (issue 39): its time and the gateways used (JSON), by device id. */
  async gatewayFixes(organizationId: string): Promise<Map<string, { timeMs: number; gatewaysUsed: string }>> {
    const rows = await this.sql.prepared<{ device_id: string; time_ms: number | string; gateways_used: string }>(GATEWAY_FIXES)({ organization: organizationId });
    return new Map(rows.map((row) => [row.device_id, { timeMs: Number(row.time_ms), gatewaysUsed: row.gateways_used }]));
  }

  pois(organizationId: string, floorIds: readonly number[]): Promise<PoiRow[]> {
    const named = namedList('f', floorIds);
    return this.sql.prepared<PoiRow>(POIS.of(Object.keys(named.parameters).length))({ organization: organizationId, ...named.parameters });
  }
}
