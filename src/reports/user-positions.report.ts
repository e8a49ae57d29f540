import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../auth/principal';
import { BuildingsService } from '../buildings/buildings.service';
import { ApiError } from '../common/errors/api-error';
import { appConfig, AppConfig } from '../config/app.config';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { PreparedQueries } from '../database/prepared-queries';
import { Dialect, epochMsColumn, timestampParameter } from '../positions/position-sql';
import { reportTurn } from './report-batches';
import { ReportColumn } from './report-envelope';
import { csvCell, enforceOutputCap, ReadStatistics, ReportFormat, ReportStream, TextBatch } from './report-stream';
import { UserPositionsQuery } from './reports.dto';
import { nextSessionFix, SessionTrack } from './session-mark';

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

/**
 * A row's JSON, as JSON.stringify writes it (the unit tests hold them equal), at about twice
 * its speed: the strings that could need escaping go through JSON.stringify, the numbers
 * and the ISO timestamp are written as they are.
 */
export function userPositionJson(row: UserPositionRow): string {
  const user = row.user_id === null ? 'null' : JSON.stringify(row.user_id);
  return `{"timestamp":"${row.timestamp}","session_mark":${row.session_mark},"floor_id":${row.floor_id},"user_id":${user},"device_id":${JSON.stringify(row.device_id)},"lat":${row.lat},"lng":${row.lng},"building_id":${row.building_id}}`;
}

/** A row's CSV line as csv-stringify writes it (held equal by the unit tests): only the ids can need quoting. */
export function userPositionCsv(row: UserPositionRow): string {
  const floor = row.floor_id === null ? '' : row.floor_id;
  const user = row.user_id === null ? '' : csvCell(row.user_id);
  return `${row.timestamp},${row.session_mark},${floor},${user},${csvCell(row.device_id)},${row.lat},${row.lng},${row.building_id}\n`;
}

/**
 * A double as JavaScript writes it, from what the database gave: SQLite's number, or
 * PostgreSQL's text (its shortest round-trip digits, as JavaScript's; only its exponent form,
 * `1e-05` for 0.00001, and `-0` differ, so those go through Number).
 */
export function doubleText(value: number | string): string {
  if (typeof value === 'number') return String(value);
  return value.includes('e') || value === '-0' ? String(Number(value)) : value;
}

/**
 * Writes a batch of one device's rows as CSV lines or JSON objects straight from what was
 * read, the same bytes as userPositionCsv and userPositionJson (the tests hold them equal):
 * the device and building cells are written once, the user's once per change.
 */
export class UserPositionWriter {
  private text = '';
  private rows = 0;
  private user: string | null | undefined;
  private userCell = '';
  private readonly deviceCell: string;

  constructor(
    private readonly format: ReportFormat,
    deviceId: string,
    private readonly buildingId: number,
  ) {
    this.deviceCell = format === 'csv' ? csvCell(deviceId) : JSON.stringify(deviceId);
  }

  /** One row: its ISO timestamp, session mark, and the floor, user, lat and lng as read (numbers or PostgreSQL's text). */
  add(timestamp: string, mark: number, floor: number | string | null, user: string | null, lat: number | string, lng: number | string): void {
    if (user !== this.user) {
      this.user = user;
      if (this.format === 'csv') this.userCell = user === null ? '' : csvCell(user);
      else this.userCell = user === null ? 'null' : JSON.stringify(user);
    }
    if (this.format === 'csv') {
      this.text += `${timestamp},${mark},${floor === null ? '' : floor},${this.userCell},${this.deviceCell},${doubleText(lat)},${doubleText(lng)},${this.buildingId}\n`;
    } else {
      this.text += `${this.rows > 0 ? ',' : ''}{"timestamp":"${timestamp}","session_mark":${mark},"floor_id":${floor},"user_id":${this.userCell},"device_id":${this.deviceCell},"lat":${doubleText(lat)},"lng":${doubleText(lng)},"building_id":${this.buildingId}}`;
    }
    this.rows++;
  }

  /** The batch written since the last take. */
  take(): TextBatch {
    const batch = { text: this.text, rows: this.rows };
    this.text = '';
    this.rows = 0;
    return batch;
  }
}

export const MAX_REPORT_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;
/** Bytes a stored row takes, for `bytes_read`: 5 numbers of 8 bytes, a timestamp and the ids. */
const FIXED_ROW_BYTES = 8 * 6 + 36;
/** A row read only for the session marks: a timestamp, a building and the device id. */
const SESSION_ROW_BYTES = 8 + 4;
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
/** A row of one device's track, as read (numbers on SQLite, PostgreSQL's text): user_id, time (SQLite's text, PostgreSQL's epoch ms), floor_id, lat, lng, building_id. */
type DeviceRow = [string | null, string, number | string | null, number | string, number | string, number | string | null];
/** Whether a row passes the user and floor filters. */
type KeepRow = (user: unknown, floor: unknown) => boolean;

/**
 * PostgreSQL's time as epoch milliseconds (whole: fixes are stored to the millisecond), the
 * cheapest form to make there (to_char costs it 3 to 5 µs a row, more than the rest of the
 * read) and to read here.
 */
const POSTGRES_EPOCH_MS = `CAST(date_part('epoch', "time") * 1000 AS bigint) AS time_ms`;
/** 0000-01-01 and 10000-01-01: between them an ISO time has its plain four-digit form. */
const FIRST_PLAIN_ISO_MS = -62_167_219_200_000;
const END_PLAIN_ISO_MS = 253_402_300_800_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

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
 * Stored times read fast (a 30-day download is hundreds of thousands of them): SQLite's
 * `2020-05-08 10:26:34.801` text becomes epoch ms with the day's midnight parsed once per
 * day and the time of day from its digits, and its ISO form by moving two characters;
 * PostgreSQL's epoch milliseconds (or Dates) are read as they are, their ISO form made with
 * the day's part once per day.
 */
export class StoredTimes {
  private day = '';
  private dayStart = 0;
  private isoDayStart = Number.NaN;
  private isoDay = '';

  epoch(value: unknown): number {
    if (typeof value === 'number') return value;
    if (value instanceof Date) return value.getTime();
    if (typeof value === 'string' && value.length === 23 && value.charCodeAt(10) === 32) {
      const day = value.slice(0, 10);
      if (day !== this.day) {
        this.day = day;
        this.dayStart = Date.parse(`${day}T00:00:00Z`);
      }
      const digit = (index: number) => value.charCodeAt(index) - 48;
      return (
        this.dayStart +
        (digit(11) * 10 + digit(12)) * 3_600_000 +
        (digit(14) * 10 + digit(15)) * 60_000 +
        (digit(17) * 10 + digit(18)) * 1000 +
        digit(20) * 100 +
        digit(21) * 10 +
        digit(22)
      );
    }
    return parseDatabaseTimestamp(value)!.getTime();
  }

  /** The ISO form of a stored time whose epoch is `ms`. */
  iso(value: unknown, ms: number): string {
    if (typeof value === 'string' && value.length === 23 && value.charCodeAt(10) === 32) return `${value.slice(0, 10)}T${value.slice(11)}Z`;
    return this.isoOfEpoch(ms);
  }

  /** `new Date(ms).toISOString()`, the date made once per day and the time of day from digit tables. */
  isoOfEpoch(ms: number): string {
    let sinceMidnight = ms - this.isoDayStart;
    if (!(sinceMidnight >= 0 && sinceMidnight < DAY_MS && Number.isInteger(ms))) {
      if (!Number.isInteger(ms) || ms < FIRST_PLAIN_ISO_MS || ms >= END_PLAIN_ISO_MS) return new Date(ms).toISOString();
      this.isoDayStart = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
      this.isoDay = new Date(this.isoDayStart).toISOString().slice(0, 11);
      sinceMidnight = ms - this.isoDayStart;
    }
    const seconds = Math.floor(sinceMidnight / 1000);
    return `${this.isoDay}${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}.${THREE_DIGITS[sinceMidnight % 1000]}Z`;
  }
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
          ? this.deviceText(format, base, window, query.building_id, keep, statistics)
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

  /**
   * One device: its whole track in the range read once through the (organization, device,
   * time) key, every building included, the building's rows written straight to text (no
   * object per row). Its times are unique, so the keyset is the time alone. PostgreSQL's
   * values come as text (the doubles already in their shortest form). Each page after the
   * first waits a turn of the event loop, so ingest and reads are served while it streams
   * (SQLite reads in process, and a prefetched PostgreSQL page may already be in).
   */
  private async *deviceText(
    format: ReportFormat,
    base: Record<string, string | number | null>,
    window: { from: number; to: number },
    buildingId: number,
    keep: KeepRow,
    statistics: ReadStatistics,
  ): AsyncGenerator<TextBatch> {
    const postgres = this.dialect === 'postgres';
    const page = this.queries.cachedArrays<DeviceRow>(
      `SELECT user_id, ${postgres ? POSTGRES_EPOCH_MS : '"time"'}, floor_id, lat, lng, building_id FROM position_history
       WHERE organization_id = :organization AND device_id = :device AND "time" >= :cursor AND "time" < :to ORDER BY "time" LIMIT ${this.pageRows}`,
      { planEachRun: true, text: true },
    );
    const read = (cursor: number) => page({ ...base, cursor: timestampParameter(this.dialect, cursor) as string });
    const deviceId = String(base.device);
    const writer = new UserPositionWriter(format, deviceId, buildingId);
    const ownRowBytes = FIXED_ROW_BYTES + deviceId.length;
    const times = new StoredTimes();
    const epochOf = postgres ? Number : (value: string) => times.epoch(value);
    let track: SessionTrack | undefined;
    let next: Promise<DeviceRow[]> | undefined = read(window.from);
    let cursor = window.from;
    for (let page = 0; ; page++) {
      if (page > 0) await reportTurn();
      const rows = await (next ?? read(cursor));
      next = undefined;
      const full = rows.length === this.pageRows;
      if (full) {
        cursor = epochOf(rows[rows.length - 1][1]) + 1;
        // PostgreSQL reads the next page while this one is written (SQLite reads in process, at once).
        if (postgres) {
          next = read(cursor);
          // Settled even if the download stops before it is awaited (a client gone).
          next.catch(() => undefined);
        }
      }
      for (const row of rows) {
        const time = epochOf(row[1]);
        const rowBuilding = row[5] === null ? null : Number(row[5]);
        track = nextSessionFix(track, time, rowBuilding);
        if (rowBuilding !== buildingId) {
          statistics.bytesRead += SESSION_ROW_BYTES;
          continue;
        }
        statistics.bytesRead += ownRowBytes;
        if (!keep(row[0], row[2])) continue;
        writer.add(times.iso(row[1], time), track.mark, row[2], row[0], row[3], row[4]);
      }
      statistics.rowsRead += rows.length;
      const batch = writer.take();
      if (batch.rows > 0) yield batch;
      if (!full) return;
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
