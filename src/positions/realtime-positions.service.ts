import { Inject, Injectable } from '@nestjs/common';
import { Principal } from '../access/principal';
import { assertCallerOrganization } from '../access/caller-organization';
import { BuildingsService } from '../cartography/buildings/buildings.service';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { appConfig, AppConfig } from '../config/app.config';
import { PoiCircle, PoiLookup } from './poi-lookup';
import { LivePositionsRepository, RawLatestRow } from './live-positions.repository';
import { RealtimePositionsQuery } from './positions.dto';
import { LatestFixRow, RealtimePositionsJson, renderRealtimeJson } from './realtime.mapper';

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
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly rows: LivePositionsRepository,
    private readonly buildings: BuildingsService,
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
    // A restricted USER sees devices in its buildings only (outdoor fixes belong to none).
    const buildings = principal.buildingIds === null ? query.building_ids : (query.building_ids ?? principal.buildingIds).filter((id) => principal.buildingIds!.includes(id));
    const users = query.user_ids?.map((id) => id.toLowerCase());
    const devices = query.device_ids;
    // A filter that lists nothing matches nothing.
    if (buildings?.length === 0 || users?.length === 0 || devices?.length === 0) return renderRealtimeJson(principal.organizationId, [], () => null);
    const described = this.rows.liveRead(principal.organizationId, { buildings, users, devices, indoor: query.indoor });
    // The statement and every value it is given, the organization among them: what the database is asked.
    const key = `${threshold}\n${described.name}\n${JSON.stringify(described.parameters)}`;
    const shared = this.reads.get(key);
    if (shared && (shared.queriedAt === null || Date.now() - shared.queriedAt <= MAX_SHARED_READ_AGE_MS)) return shared.answer;
    const read: SharedRead = { answer: undefined!, queriedAt: null };
    read.answer = this.readLive(read, key, principal.organizationId, described, threshold);
    this.reads.set(key, read);
    return read.answer;
  }

  private async readLive(
    read: SharedRead,
    key: string,
    organizationId: string,
    described: { parameters: Record<string, string | number> },
    threshold: number,
  ): Promise<RealtimePositionsJson> {
    let raw: RawLatestRow[];
    try {
      await new Promise<void>((resolve) => setImmediate(resolve));
      // The time is taken once the table is settled, just before the query is sent.
      raw = await this.rows.latest(described, () => (read.queriedAt = Date.now()) - threshold * 1000);
    } finally {
      if (this.reads.get(key) === read) this.reads.delete(key);
    }
    const rows = raw.map(toLatestFixRow);
    const [pois] = await Promise.all([this.poisOfFloors(organizationId, rows), this.markGatewayFixes(organizationId, rows)]);
    return renderRealtimeJson(organizationId, rows, (row) => pois.containing(row.floorId, row.x, row.y));
  }

  /**
   * The live streams' read (contract 7.4): the organization's devices whose latest fix
   * changed at or after `sinceMs` (their row's `updated_at`, stamped by the ingest), oldest
   * change first. One read serves every stream of the organization on this instance, each
   * keeping what it may see. Bounded by the organization's device count, whatever the watermark.
   */
  async changedSince(organizationId: string, sinceMs: number): Promise<ChangedFix[]> {
    const raw = await this.rows.changedSince(organizationId, sinceMs);
    const rows = raw.map(toLatestFixRow);
    const [pois] = await Promise.all([this.poisOfFloors(organizationId, rows), this.markGatewayFixes(organizationId, rows)]);
    return rows.map((row) => ({ row, changedAt: Date.parse(row.updatedAt), poiId: pois.containing(row.floorId, row.x, row.y) }));
  }

  /** The rows whose fix is a tag's fix from gateways (its time is the one the locating step stored) get their gateways. */
  private async markGatewayFixes(organizationId: string, rows: LatestFixRow[]): Promise<void> {
    if (rows.length === 0) return;
    const fixes = await this.rows.gatewayFixes(organizationId);
    if (fixes.size === 0) return;
    for (const row of rows) {
      const fix = fixes.get(row.id);
      if (fix && fix.timeMs === Date.parse(row.time)) row.gatewaysUsed = fix.gatewaysUsed;
    }
  }

  /** The POIs with a radius on every floor of the answer, in one query. */
  private async poisOfFloors(organizationId: string, rows: LatestFixRow[]): Promise<PoiLookup> {
    const floorIds = [...new Set(rows.map((row) => row.floorId).filter((id): id is number => id !== null))];
    if (floorIds.length === 0) return new PoiLookup([]);
    const pois = await this.rows.pois(organizationId, floorIds);
    return new PoiLookup(pois.map((poi): PoiCircle => ({ id: Number(poi.id), floorId: Number(poi.floor_id), x: Number(poi.x), y: Number(poi.y), radius: Number(poi.radius) })));
  }
}
