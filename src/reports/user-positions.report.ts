import { Inject, Injectable } from '@nestjs/common';
import { Principal } from '../access/principal';
import { BuildingsService } from '../cartography/buildings/buildings.service';
import { assertUtcOffset } from '../common/time/utc-offset';
import { ApiError } from '../common/errors/api-error';
import { appConfig, AppConfig } from '../config/app.config';
import { ReportQueries } from './worker/report-queries';
import { DialectKind, SqlDialect } from '../database/sql-dialect';
import { ReportColumn } from './report-envelope';
import { enforceOutputCap, ReportStream } from './report-stream';
import { UserPositionsQuery } from './reports.dto';
import { DAY_MS } from '../common/time/durations';
import { BUILDING_TRACK_JOB, DEVICE_TRACK_JOB, TrajectoryRow } from './user-positions.jobs';
import { TrackRange, UserPositionsRepository } from './user-positions.repository';

export { doubleText, StoredTimes, userPositionCsv, userPositionJson, UserPositionWriter } from './user-positions.jobs';

export type UserPositionRow = TrajectoryRow;

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
/**
 * Rows per keyset page: large enough to amortize a round trip, small enough to stream. On
 * PostgreSQL twice as many: each page is planned with its values, a few milliseconds over the 30
 * daily partitions of a month, and its rows arrive without holding the event loop.
 */
export const PAGE_ROWS: Record<DialectKind, number> = { sqlite: 5000, postgres: 10_000 };

/** A report date: date-only or ISO; a date-only end is inclusive (its whole day). */
export function parseReportDate(value: string, end: boolean): number {
  const dateOnly = /^\d{4}-\d\d-\d\d$/.test(value);
  const zoned = dateOnly || /(Z|[+-]\d\d:?\d\d)$/i.test(value) ? value : `${value}Z`;
  const time = Date.parse(dateOnly ? `${value}T00:00:00Z` : zoned);
  return dateOnly && end ? time + DAY_MS : time;
}

/**
 * `user_positions` (contract 6.3): a building's fixes in a time range, ordered by time,
 * sessions numbered, streamed in keyset pages over the (organization, building, time) index
 * (or the (organization, device, time) key for one device) so no more than a page is held.
 *
 * session_mark counts a device's sessions over its whole track in the range, other buildings
 * included (a visit elsewhere ends a session even without a 60 s gap). Parameters, the
 * building and the output cap are checked here; the rows are read, numbered and written in
 * the report worker (user-positions.jobs.ts).
 */
@Injectable()
export class UserPositionsReport {
  /** Rows per keyset page (a field so the tests can make pages tiny and cross their edges). */
  pageRows: number;

  constructor(
    private readonly dialect: SqlDialect,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly buildings: BuildingsService,
    private readonly reports: ReportQueries,
    private readonly rows: UserPositionsRepository,
  ) {
    this.pageRows = PAGE_ROWS[dialect.kind];
  }

  /** Checks everything that answers with a status (parameters, building, output cap), then hands back the stream. */
  async open(principal: Principal, query: UserPositionsQuery): Promise<ReportStream<UserPositionRow>> {
    const startedAt = performance.now();
    assertUtcOffset(query.from_date, 'from_date');
    assertUtcOffset(query.to_date, 'to_date');
    const from = parseReportDate(query.from_date, false);
    const to = parseReportDate(query.to_date, true);
    if (Number.isNaN(from)) throw ApiError.badRequest('from_date is not a valid date', [{ message: 'not a valid date', code: 'invalid', fields: 'from_date' }]);
    if (Number.isNaN(to)) throw ApiError.badRequest('to_date is not a valid date', [{ message: 'not a valid date', code: 'invalid', fields: 'to_date' }]);
    if (to <= from) throw ApiError.badRequest('to_date must be after from_date', [{ message: 'must be after from_date', code: 'invalid', fields: 'to_date' }]);
    if (to - from > MAX_REPORT_RANGE_DAYS * DAY_MS) {
      throw ApiError.badRequest(`The range is at most ${MAX_REPORT_RANGE_DAYS} days`, [
        { message: `at most ${MAX_REPORT_RANGE_DAYS} days after from_date`, code: 'invalid', fields: 'to_date' },
      ]);
    }
    await this.buildings.findOwned(principal, query.building_id);

    const range: TrackRange = {
      organization: principal.organizationId,
      building: query.building_id,
      from: this.dialect.timestamp(from),
      to: this.dialect.timestamp(to),
      device: query.device_id,
      user: query.user_id?.toLowerCase(),
      floor: query.floor_id,
    };
    await this.enforceCap(range, this.config.positions.reportMaxRows);

    const statistics = { rowsRead: 0, bytesRead: 0 };
    return {
      columns: USER_POSITION_COLUMNS,
      statistics,
      startedAt,
      text: (format) =>
        range.device !== undefined
          ? this.reports.stream(
              DEVICE_TRACK_JOB,
              {
                format,
                organization: principal.organizationId,
                device: String(range.device),
                buildingId: query.building_id,
                from,
                to,
                user: query.user_id?.toLowerCase(),
                floor: query.floor_id,
                pageRows: this.pageRows,
              },
              statistics,
            )
          : this.reports.stream(
              BUILDING_TRACK_JOB,
              {
                format,
                organization: principal.organizationId,
                buildingId: query.building_id,
                from,
                to,
                user: query.user_id?.toLowerCase(),
                floor: query.floor_id,
                pageRows: this.pageRows,
              },
              statistics,
            ),
    };
  }

  /**
   * 507 before any row (a count bounded at the cap plus one). For one device, its whole track
   * in the range is counted first on its key alone (an index-only range, where the building
   * filter needs every row): at most the cap, the building's rows are too.
   */
  private async enforceCap(range: TrackRange, maxRows: number): Promise<void> {
    const hint = 'narrow the range or filter by user, device or floor';
    if (range.device !== undefined && (await this.rows.countDeviceTrack(range, maxRows + 1)) <= maxRows) return;
    enforceOutputCap(await this.rows.countBuildingTrack(range, maxRows + 1), maxRows, hint);
  }
}
