import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../auth/principal';
import { BuildingsService } from '../buildings/buildings.service';
import { ApiError } from '../common/errors/api-error';
import { appConfig, AppConfig } from '../config/app.config';
import { PreparedQueries } from '../database/prepared-queries';
import { ReportQueries } from '../database/report-queries';
import { Dialect, epochMsColumn, timestampParameter } from '../positions/position-sql';
import { reportTurn } from './report-batches';
import { ReportColumn } from './report-envelope';
import { enforceOutputCap, ReadStatistics, ReportFormat, ReportStream, TextBatch } from './report-stream';
import { UserPositionsQuery } from './reports.dto';
import { nextSessionFix, SessionTrack } from './session-mark';
import { DAY_MS, DEVICE_TRACK_JOB, FIXED_ROW_BYTES, SESSION_ROW_BYTES, StoredTimes, TrajectoryRow, userPositionCsv, userPositionJson } from './user-positions.text';

export { doubleText, StoredTimes, userPositionCsv, userPositionJson, UserPositionWriter } from './user-positions.text';

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
/** Rows per keyset page: large enough to amortize a round trip, small enough to stream. */
export const PAGE_ROWS = 5000;
/**
 * On PostgreSQL, twice that: each page is planned with its values, a few milliseconds over the
 * 30 daily partitions of a month, and its rows arrive without holding the event loop.
 */
export const POSTGRES_PAGE_ROWS = 10_000;

/** A row of the building, read as an array: device_id, user_id, time, floor_id, lat, lng (and building_id when read for one device). */
type OwnRow = [string, string | null, unknown, number | string | null, number | string, number | string, ...Array<number | string | null>];
/** A fix elsewhere, for the session marks: device_id, time, building_id. */
type ForeignRow = [string, unknown, number | string | null];
/** Whether a row passes the user and floor filters. */
type KeepRow = (user: unknown, floor: unknown) => boolean;

/** Row batches written as text with the fast row writers. */
async function* rowsAsText(format: ReportFormat, batches: AsyncIterable<UserPositionRow[]>): AsyncGenerator<TextBatch> {
  for await (const batch of batches) {
    let text = '';
    if (format === 'csv') for (const row of batch) text += userPositionCsv(row);
    else for (let i = 0; i < batch.length; i++) text += (i > 0 ? ',' : '') + userPositionJson(batch[i]);
    yield { text, rows: batch.length };
  }
}

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
 * included (a visit elsewhere ends a session even without a 60 s gap). So beside each page
 * of the building's rows the same time span of the device's fixes elsewhere is read (three
 * columns, usually none), and each device's state carries from page to page.
 */
@Injectable()
export class UserPositionsReport {
  private readonly dialect: Dialect;
  /** Rows per keyset page (a field so the tests can make pages tiny and cross their edges). */
  pageRows: number;
  /**
   * The time as read: SQLite's text, PostgreSQL's epoch milliseconds as a double (CAST, not `::`, which
   * PreparedQueries would take for a parameter; exact for
   * whole milliseconds): node-postgres parses a timestamptz into a Date with a regular
   * expression, which was the largest cost of a long download there.
   */
  private readonly timeColumn: string;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly queries: PreparedQueries,
    private readonly buildings: BuildingsService,
    private readonly reports: ReportQueries,
  ) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
    this.pageRows = this.dialect === 'postgres' ? POSTGRES_PAGE_ROWS : PAGE_ROWS;
    this.timeColumn = this.dialect === 'postgres' ? `${epochMsColumn('postgres', '"time"')} AS time_ms` : '"time"';
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
    await this.enforceCap(where(selected), base, maxRows);

    const statistics = { rowsRead: 0, bytesRead: 0 };
    const keep = (user: unknown, floor: unknown) => (base.user === undefined || user === base.user) && (base.floor === undefined || Number(floor) === base.floor);
    const window = { from, to };
    return {
      columns: USER_POSITION_COLUMNS,
      statistics,
      startedAt,
      text: (format) =>
        base.device !== undefined
          ? this.reports.stream(
              DEVICE_TRACK_JOB,
              { format, organization: principal.organizationId, device: String(base.device), buildingId: query.building_id, from, to, user: query.user_id?.toLowerCase(), floor: query.floor_id, pageRows: this.pageRows },
              statistics,
            )
          : rowsAsText(format, this.pages(where(filters), filters, base, window, query.building_id, keep, statistics)),
    };
  }

  /**
   * 507 before any row (a count bounded at the cap plus one). For one device, its whole track
   * in the range is counted first on its key alone (an index-only range, where the building
   * filter needs every row): at most the cap, the building's rows are too.
   */
  private async enforceCap(where: string, base: Record<string, string | number | null>, maxRows: number): Promise<void> {
    const hint = 'narrow the range or filter by user, device or floor';
    const count = async (condition: string) => {
      const [{ n }] = await this.queries.cached<{ n: number | string }>(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE ${condition} LIMIT :limit) capped`)({ ...base, limit: maxRows + 1 });
      return Number(n);
    };
    if (base.device !== undefined && (await count('organization_id = :organization AND device_id = :device AND "time" >= :from AND "time" < :to')) <= maxRows) return;
    enforceOutputCap(await count(where), maxRows, hint);
  }

  private async *pages(
    ownWhere: string,
    filters: string[],
    base: Record<string, string | number | null>,
    window: { from: number; to: number },
    buildingId: number,
    keep: KeepRow,
    statistics: ReadStatistics,
  ): AsyncGenerator<UserPositionRow[]> {
    const ownPage = this.queries.cachedArrays<OwnRow>(
      `SELECT device_id, user_id, ${this.timeColumn}, floor_id, lat, lng FROM position_history WHERE ${ownWhere.replace(':from', ':cursor')} ORDER BY "time", device_id LIMIT ${this.pageRows}`,
      { planEachRun: true },
    );
    // Every device's rows at one instant, for the rare page filled by a single timestamp.
    const ownInstant = this.queries.cachedArrays<OwnRow>(
      `SELECT device_id, user_id, ${this.timeColumn}, floor_id, lat, lng FROM position_history WHERE ${ownWhere.replace('"time" >= :from AND "time" < :to', '"time" = :cursor')} ORDER BY device_id`,
      { planEachRun: true },
    );
    // Three ranges of the (organization, building, time) index, never the building's own rows.
    const elsewhere = (building: string) =>
      `SELECT device_id, ${this.timeColumn}, building_id FROM position_history WHERE ${['organization_id = :organization', building, '"time" >= :after', '"time" < :until', ...filters].join(' AND ')}`;
    const foreignPage = this.queries.cachedArrays<ForeignRow>(
      `${elsewhere('building_id < :building')} UNION ALL ${elsewhere('building_id > :building')} UNION ALL ${elsewhere('building_id IS NULL')} ORDER BY 2`,
      { planEachRun: true },
    );
    const stamp = (ms: number) => timestampParameter(this.dialect, ms) as string;
    const tracks = new Map<string, SessionTrack>();
    const times = new StoredTimes();
    let cursor = window.from;
    for (let page = 0; ; page++) {
      // What waits (ingest, reads) is served between pages, as for one device.
      if (page > 0) await reportTurn();
      let own = await ownPage({ ...base, cursor: stamp(cursor) });
      const full = own.length === this.pageRows;
      // The page covers [cursor, horizon): the rows of its last instant may go on in the next page, so they wait for it.
      let horizon = window.to;
      if (full) {
        const last = times.epoch(own[own.length - 1][2]);
        let end = own.length;
        while (end > 0 && times.epoch(own[end - 1][2]) === last) end--;
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
      const batch = this.mark(own, foreign, buildingId, tracks, times, keep, statistics);
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
    tracks: Map<string, SessionTrack>,
    times: StoredTimes,
    keep: KeepRow,
    statistics: ReadStatistics,
  ): UserPositionRow[] {
    const step = (deviceId: string, time: number, rowBuilding: number | null): number => {
      const known = tracks.get(deviceId);
      const track = nextSessionFix(known, time, rowBuilding);
      if (!known) tracks.set(deviceId, track);
      return track.mark;
    };
    const foreignTimes = foreign.map((row) => times.epoch(row[1]));
    const stepForeign = (index: number) => step(String(foreign[index][0]), foreignTimes[index], foreign[index][2] === null ? null : Number(foreign[index][2]));
    const out: UserPositionRow[] = [];
    let f = 0;
    for (const row of own) {
      const time = times.epoch(row[2]);
      for (; f < foreign.length && foreignTimes[f] < time; f++) stepForeign(f);
      const deviceId = String(row[0]);
      const mark = step(deviceId, time, buildingId);
      statistics.bytesRead += FIXED_ROW_BYTES + deviceId.length;
      if (!keep(row[1], row[3])) continue;
      out.push({
        timestamp: times.iso(row[2], time),
        session_mark: mark,
        floor_id: row[3] === null ? null : Number(row[3]),
        user_id: row[1],
        device_id: deviceId,
        lat: Number(row[4]),
        lng: Number(row[5]),
        building_id: buildingId,
      });
    }
    for (; f < foreign.length; f++) stepForeign(f);
    return out;
  }
}
