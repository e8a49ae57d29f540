import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../auth/principal';
import { BuildingsService } from '../buildings/buildings.service';
import { ApiError } from '../common/errors/api-error';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { appConfig, AppConfig } from '../config/app.config';
import { PreparedQueries } from '../database/prepared-queries';
import { PoiCircle, PoiLookup } from './poi-lookup';
import { Dialect, namedList, timestampParameter } from './position-sql';
import { RealtimePositionsQuery } from './positions.dto';
import { LatestFixRow, RealtimePositionsJson, renderRealtimeJson } from './realtime.mapper';

interface RawLatestRow {
  id: string;
  code: string;
  user_id: string | null;
  last_time: unknown;
  building_id: number | null;
  floor_id: number | null;
  level_height: number | null;
  lat: number;
  lng: number;
  x: number | null;
  y: number | null;
  accuracy: number;
  yaw: number | null;
  created_at: unknown;
  updated_at: unknown;
}

/**
 * `…SSSZ` from a stored time. SQLite gives back the UTC text this server wrote
 * (`2026-11-23 10:26:34.801`), rewritten here without a Date: 3,000 of them per request
 * for a building of 1,000 devices.
 */
function isoTime(value: unknown): string {
  if (typeof value === 'string' && value.length === 23 && value[10] === ' ') return `${value.slice(0, 10)}T${value.slice(11)}Z`;
  return parseDatabaseTimestamp(value)!.toISOString();
}
/** `…SSS+00:00`, the contract's timestamp format. */
const isoTimestamp = (value: unknown): string => `${isoTime(value).slice(0, -1)}+00:00`;

const nullableNumber = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** A device whose latest fix changed, with when (its row's `updated_at`, epoch ms) and the POI it is in. */
export interface ChangedFix {
  row: LatestFixRow;
  changedAt: number;
  poiId: number | null;
}

function toLatestFixRow(row: RawLatestRow): LatestFixRow {
  return {
    id: String(row.id),
    code: row.code,
    userId: row.user_id,
    time: isoTime(row.last_time),
    buildingId: nullableNumber(row.building_id),
    floorId: nullableNumber(row.floor_id),
    levelHeight: nullableNumber(row.level_height),
    lat: Number(row.lat),
    lng: Number(row.lng),
    x: nullableNumber(row.x),
    y: nullableNumber(row.y),
    accuracy: Number(row.accuracy),
    yaw: nullableNumber(row.yaw),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

/** The live picture (contract 6.1): each device's latest fix, read from the database every instance shares. */
@Injectable()
export class RealtimePositionsService {
  private readonly dialect: Dialect;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly queries: PreparedQueries,
    private readonly buildings: BuildingsService,
  ) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  async forBuilding(principal: Principal, buildingId: number, query: RealtimePositionsQuery): Promise<RealtimePositionsJson> {
    await this.buildings.findOwned(principal, buildingId);
    return this.list(principal, { ...query, building_ids: [buildingId] });
  }

  async forOrganization(principal: Principal, organizationId: string, query: RealtimePositionsQuery): Promise<RealtimePositionsJson> {
    if (organizationId !== principal.organizationId) throw ApiError.notFound('Organization', organizationId);
    return this.list(principal, query);
  }

  async list(principal: Principal, query: RealtimePositionsQuery): Promise<RealtimePositionsJson> {
    const threshold = query.max_sec_threshold ?? this.config.positions.defaultMaxSecThreshold;
    const conditions = ['d.organization_id = :organization', 'd.last_time >= :since'];
    const parameters: Record<string, string | number | null> = {
      organization: principal.organizationId,
      since: timestampParameter(this.dialect, Date.now() - threshold * 1000) as string,
    };
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
      !addList('d.user_id', 'u', query.user_ids?.map((id) => id.toLowerCase())) ||
      !addList('d.id', 'd', query.device_ids)
    ) {
      return renderRealtimeJson(principal.organizationId, [], () => null);
    }
    if (query.indoor === true) conditions.push('d.floor_id IS NOT NULL');
    if (query.indoor === false) conditions.push('d.floor_id IS NULL');

    const raw = await this.queries.cached<RawLatestRow>(
      `SELECT d.id, d.code, d.user_id, d.last_time, d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, d.created_at, d.updated_at
       FROM devices d LEFT JOIN floors f ON f.id = d.floor_id
       WHERE ${conditions.join(' AND ')} ORDER BY d.id`,
    )(parameters);
    const rows: LatestFixRow[] = raw.map(toLatestFixRow);
    const pois = await this.poisOfFloors(principal.organizationId, rows);
    return renderRealtimeJson(principal.organizationId, rows, (row) => pois.containing(row.floorId, row.x, row.y));
  }

  /**
   * The live streams' read (contract 7.4): the organization's devices whose latest fix
   * changed at or after `sinceMs` (their row's `updated_at`, stamped by the ingest), oldest
   * change first. One read serves every stream of the organization on this instance, each
   * keeping what it may see. Bounded by the organization's device count, whatever the watermark.
   */
  async changedSince(organizationId: string, sinceMs: number): Promise<ChangedFix[]> {
    const raw = await this.queries.cached<RawLatestRow>(
      `SELECT d.id, d.code, d.user_id, d.last_time, d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, d.created_at, d.updated_at
       FROM devices d LEFT JOIN floors f ON f.id = d.floor_id
       WHERE d.organization_id = :organization AND d.updated_at >= :since AND d.last_time IS NOT NULL ORDER BY d.updated_at, d.id`,
    )({ organization: organizationId, since: timestampParameter(this.dialect, sinceMs) as string });
    const rows = raw.map(toLatestFixRow);
    const pois = await this.poisOfFloors(organizationId, rows);
    return rows.map((row, i) => ({ row, changedAt: parseDatabaseTimestamp(raw[i].updated_at)!.getTime(), poiId: pois.containing(row.floorId, row.x, row.y) }));
  }

  /** The POIs with a radius on every floor of the answer, in one query. */
  private async poisOfFloors(organizationId: string, rows: LatestFixRow[]): Promise<PoiLookup> {
    const floorIds = [...new Set(rows.map((row) => row.floorId).filter((id): id is number => id !== null))];
    if (floorIds.length === 0) return new PoiLookup([]);
    const list = namedList('f', floorIds);
    const pois = await this.queries.cached<{ id: number; floor_id: number; x: number; y: number; radius: number }>(
      `SELECT id, floor_id, x, y, radius FROM pois WHERE organization_id = :organization AND radius IS NOT NULL AND floor_id IN (${list.sql})`,
    )({ organization: organizationId, ...list.parameters });
    return new PoiLookup(
      pois.map((poi): PoiCircle => ({ id: Number(poi.id), floorId: Number(poi.floor_id), x: Number(poi.x), y: Number(poi.y), radius: Number(poi.radius) })),
    );
  }
}
