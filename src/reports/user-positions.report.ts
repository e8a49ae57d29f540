import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../auth/principal';
import { BuildingsService } from '../buildings/buildings.service';
import { ApiError } from '../common/errors/api-error';
import { appConfig, AppConfig } from '../config/app.config';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { PreparedQueries } from '../database/prepared-queries';
import { Dialect, timestampParameter } from '../positions/position-sql';
import { ReportColumn } from './report-envelope';
import { enforceOutputCap, ReadStatistics, ReportStream } from './report-stream';
import { UserPositionsQuery } from './reports.dto';
import { SESSION_GAP_MS } from './session-mark';

export interface UserPositionRow {
  timestamp: string;
  session_mark: number;
  floor_id: number | null;
  user_id: string | null;
  device_id: string;
  lat: number;
  lng: number;
  building_id: number;
}

export const USER_POSITION_COLUMNS: ReadonlyArray<ReportColumn<UserPositionRow>> = [
  { name: 'timestamp', type: "DateTime64(3, 'UTC')" },
  { name: 'session_mark', type: 'UInt32' },
  { name: 'floor_id', type: 'Nullable(Int64)' },
  { name: 'user_id', type: 'Nullable(String)' },
  { name: 'device_id', type: 'String' },
  { name: 'lat', type: 'Float64' },
  { name: 'lng', type: 'Float64' },
  { name: 'building_id', type: 'Int64' },
];

export const MAX_REPORT_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;
/** Bytes a stored row takes, for `bytes_read`: 5 numbers of 8 bytes, a timestamp and the ids. */
const FIXED_ROW_BYTES = 8 * 6 + 36;
/** A row read only for the session marks: a timestamp, a building and the device id. */
const SESSION_ROW_BYTES = 8 + 4;
/** Rows per keyset page: large enough to amortize a round trip, small enough to stream. */
export const PAGE_ROWS = 5000;

interface OwnRow {
  device_id: string;
  user_id: string | null;
  time: unknown;
  floor_id: number | null;
  lat: number;
  lng: number;
}
interface ForeignRow {
  device_id: string;
  time: unknown;
  building_id: number | null;
}

/** A report date: date-only or ISO; a date-only end is inclusive (its whole day). */
export function parseReportDate(value: string, end: boolean): number {
  const dateOnly = /^\d{4}-\d\d-\d\d$/.test(value);
  const zoned = dateOnly || /(Z|[+-]\d\d:?\d\d)$/i.test(value) ? value : `${value}Z`;
  const time = Date.parse(dateOnly ? `${value}T00:00:00Z` : zoned);
  return dateOnly && end ? time + DAY_MS : time;
}

/** Epoch ms of a stored time: SQLite's `2020-05-08 10:26:34.801` text parsed without a regex on the hot path. */
function epochOf(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string' && value.length === 23) return Date.parse(`${value.slice(0, 10)}T${value.slice(11)}Z`);
  return parseDatabaseTimestamp(value)!.getTime();
}

/** Where a device's track stands while the pages stream: what session_mark needs to go on. */
interface TrackState {
  time: number;
  buildingId: number | null;
  mark: number;
}

/**
 * `user_positions` (contract 6.3): a building's fixes in a time range, ordered by time,
 * sessions numbered, streamed in keyset pages over the (organization, building, time) index
 * (or the (organization, device, time) key for one device) so no more than a page is held.
 *
 * session_mark counts a device's sessions over its whole track in the range, other buildings
 * included (a visit elsewhere ends a session even without a 60 s gap). So beside each page
 * of the building's rows the same time span of the device's fixes elsewhere is read (three
 * columns, usually none), and each device's state carries from page to page.
 */
@Injectable()
export class UserPositionsReport {
  private readonly dialect: Dialect;
  /** Rows per keyset page (a field so the tests can make pages tiny and cross their edges). */
  pageRows = PAGE_ROWS;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly queries: PreparedQueries,
    private readonly buildings: BuildingsService,
  ) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  /** Checks everything that answers with a status (parameters, building, output cap), then hands back the stream. */
  async open(principal: Principal, query: UserPositionsQuery): Promise<ReportStream<UserPositionRow>> {
    const startedAt = performance.now();
    const from = parseReportDate(query.from_date, false);
    const to = parseReportDate(query.to_date, true);
    if (Number.isNaN(from)) throw ApiError.badRequest('from_date is not a valid date', [{ message: 'not a valid date', code: 'invalid', fields: 'from_date' }]);
    if (Number.isNaN(to)) throw ApiError.badRequest('to_date is not a valid date', [{ message: 'not a valid date', code: 'invalid', fields: 'to_date' }]);
    if (to <= from) throw ApiError.badRequest('to_date must be after from_date', [{ message: 'must be after from_date', code: 'invalid', fields: 'to_date' }]);
    if (to - from > MAX_REPORT_RANGE_DAYS * DAY_MS) {
      throw ApiError.badRequest(`The range is at most ${MAX_REPORT_RANGE_DAYS} days`, [{ message: `at most ${MAX_REPORT_RANGE_DAYS} days after from_date`, code: 'invalid', fields: 'to_date' }]);
    }
    await this.buildings.findOwned(principal, query.building_id);

    const base: Record<string, string | number | null> = {
      organization: principal.organizationId,
      building: query.building_id,
      from: timestampParameter(this.dialect, from) as string,
      to: timestampParameter(this.dialect, to) as string,
    };
    const filters: string[] = [];
    if (query.device_id !== undefined) {
      filters.push('device_id = :device');
      base.device = query.device_id;
    }
    const selected = [...filters];
    if (query.user_id !== undefined) {
      selected.push('user_id = :user');
      base.user = query.user_id.toLowerCase();
    }
    if (query.floor_id !== undefined) {
      selected.push('floor_id = :floor');
      base.floor = query.floor_id;
    }
    const maxRows = this.config.positions.reportMaxRows;
    const where = (extra: string[]) => ['organization_id = :organization', 'building_id = :building', '"time" >= :from', '"time" < :to', ...extra].join(' AND ');
    const [{ n }] = await this.queries.cached<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE ${where(selected)} LIMIT :limit) capped`,
    )({ ...base, limit: maxRows + 1 });
    enforceOutputCap(Number(n), maxRows, 'narrow the range or filter by user, device or floor');

    const statistics = { rowsRead: 0, bytesRead: 0 };
    const keep = (row: OwnRow) => (base.user === undefined || row.user_id === base.user) && (base.floor === undefined || row.floor_id === base.floor);
    return {
      columns: USER_POSITION_COLUMNS,
      statistics,
      startedAt,
      batches: this.pages(where(filters), filters, base, { from, to }, query.building_id, keep, statistics),
    };
  }

  private async *pages(
    ownWhere: string,
    filters: string[],
    base: Record<string, string | number | null>,
    window: { from: number; to: number },
    buildingId: number,
    keep: (row: OwnRow) => boolean,
    statistics: ReadStatistics,
  ): AsyncGenerator<UserPositionRow[]> {
    const ownPage = this.queries.cached<OwnRow>(
      `SELECT device_id, user_id, "time", floor_id, lat, lng FROM position_history WHERE ${ownWhere.replace(':from', ':cursor')} ORDER BY "time", device_id LIMIT ${this.pageRows}`,
    );
    // Every device's rows at one instant, for the rare page filled by a single timestamp.
    const ownInstant = this.queries.cached<OwnRow>(
      `SELECT device_id, user_id, "time", floor_id, lat, lng FROM position_history WHERE ${ownWhere.replace('"time" >= :from AND "time" < :to', '"time" = :cursor')} ORDER BY device_id`,
    );
    const foreignPage = this.queries.cached<ForeignRow>(
      `SELECT device_id, "time", building_id FROM position_history
       WHERE ${['organization_id = :organization', '(building_id <> :building OR building_id IS NULL)', '"time" >= :after', '"time" < :until', ...filters].join(' AND ')}
       ORDER BY "time"`,
    );
    const stamp = (ms: number) => timestampParameter(this.dialect, ms) as string;
    const tracks = new Map<string, TrackState>();
    let cursor = window.from;
    for (;;) {
      let own = await ownPage({ ...base, cursor: stamp(cursor) });
      const full = own.length === this.pageRows;
      // The page covers [cursor, horizon): the rows of its last instant may go on in the next page, so they wait for it.
      let horizon = window.to;
      if (full) {
        const last = epochOf(own[own.length - 1].time);
        let end = own.length;
        while (end > 0 && epochOf(own[end - 1].time) === last) end--;
        if (end === 0) {
          own = await ownInstant({ ...base, cursor: stamp(last) });
          horizon = last + 1;
        } else {
          own = own.slice(0, end);
          horizon = last;
        }
      }
      const foreign = await foreignPage({ ...base, after: stamp(cursor), until: stamp(horizon) });
      statistics.rowsRead += own.length + foreign.length;
      statistics.bytesRead += foreign.length * SESSION_ROW_BYTES;
      const batch = this.mark(own, foreign, buildingId, tracks, keep, statistics);
      if (batch.length > 0) yield batch;
      if (!full) return;
      cursor = horizon;
    }
  }

  /** The page's rows and the fixes elsewhere in its span, merged by time, each device's session state carried on. */
  private mark(
    own: OwnRow[],
    foreign: ForeignRow[],
    buildingId: number,
    tracks: Map<string, TrackState>,
    keep: (row: OwnRow) => boolean,
    statistics: ReadStatistics,
  ): UserPositionRow[] {
    const step = (deviceId: string, time: number, rowBuilding: number | null): number => {
      const track = tracks.get(deviceId);
      if (!track) {
        tracks.set(deviceId, { time, buildingId: rowBuilding, mark: 1 });
        return 1;
      }
      if (time - track.time > SESSION_GAP_MS || rowBuilding !== track.buildingId) track.mark++;
      track.time = time;
      track.buildingId = rowBuilding;
      return track.mark;
    };
    const foreignTimes = foreign.map((row) => epochOf(row.time));
    const stepForeign = (index: number) => step(String(foreign[index].device_id), foreignTimes[index], foreign[index].building_id === null ? null : Number(foreign[index].building_id));
    const out: UserPositionRow[] = [];
    let f = 0;
    for (const row of own) {
      const time = epochOf(row.time);
      for (; f < foreign.length && foreignTimes[f] < time; f++) stepForeign(f);
      const deviceId = String(row.device_id);
      const mark = step(deviceId, time, buildingId);
      statistics.bytesRead += FIXED_ROW_BYTES + deviceId.length;
      if (!keep(row)) continue;
      out.push({
        timestamp: new Date(time).toISOString(),
        session_mark: mark,
        floor_id: row.floor_id === null ? null : Number(row.floor_id),
        user_id: row.user_id,
        device_id: deviceId,
        lat: Number(row.lat),
        lng: Number(row.lng),
        building_id: buildingId,
      });
    }
    for (; f < foreign.length; f++) stepForeign(f);
    return out;
  }
}
