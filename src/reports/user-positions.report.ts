import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../auth/principal';
import { BuildingsService } from '../buildings/buildings.service';
import { ApiError } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-code';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { PreparedQueries } from '../database/prepared-queries';
import { Dialect, namedList, timestampParameter } from '../positions/position-sql';
import { ReportColumn, ReportRun } from './report-envelope';
import { UserPositionsQuery } from './reports.dto';
import { sessionMarks } from './session-mark';

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

/** Rows a report may return; beyond it the answer is 507 output_too_large (contract 8.1). */
export const MAX_REPORT_ROWS = 200_000;
export const MAX_REPORT_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;
/** Bytes a stored row takes, for `bytes_read`: 5 numbers of 8 bytes, a timestamp and the ids. */
const FIXED_ROW_BYTES = 8 * 6 + 36;
/** A row read for the session marks: the device id's bytes aside, a timestamp and a building. */
const SESSION_ROW_BYTES = 8 + 4;
const DEVICES_PER_SESSION_QUERY = 500;

interface RawRow {
  device_id: string;
  user_id: string | null;
  time: unknown;
  building_id: number;
  floor_id: number | null;
  lat: number;
  lng: number;
}

/** A report date: date-only or ISO; a date-only end is inclusive (its whole day). */
export function parseReportDate(value: string, end: boolean): number {
  const dateOnly = /^\d{4}-\d\d-\d\d$/.test(value);
  const zoned = dateOnly || /(Z|[+-]\d\d:?\d\d)$/i.test(value) ? value : `${value}Z`;
  const time = Date.parse(dateOnly ? `${value}T00:00:00Z` : zoned);
  return dateOnly && end ? time + DAY_MS : time;
}

/** `user_positions` (contract 6.3): a building's fixes in a time range, ordered by time, sessions numbered. */
@Injectable()
export class UserPositionsReport {
  private readonly dialect: Dialect;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly queries: PreparedQueries,
    private readonly buildings: BuildingsService,
  ) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  async run(principal: Principal, query: UserPositionsQuery): Promise<ReportRun<UserPositionRow>> {
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

    const conditions = ['organization_id = :organization', 'building_id = :building', '"time" >= :from', '"time" < :to'];
    const parameters: Record<string, string | number | null> = {
      organization: principal.organizationId,
      building: query.building_id,
      from: timestampParameter(this.dialect, from) as string,
      to: timestampParameter(this.dialect, to) as string,
      limit: MAX_REPORT_ROWS + 1,
    };
    if (query.user_id !== undefined) {
      conditions.push('user_id = :user');
      parameters.user = query.user_id.toLowerCase();
    }
    if (query.device_id !== undefined) {
      conditions.push('device_id = :device');
      parameters.device = query.device_id;
    }
    if (query.floor_id !== undefined) {
      conditions.push('floor_id = :floor');
      parameters.floor = query.floor_id;
    }
    const raw = await this.queries.cached<RawRow>(
      `SELECT device_id, user_id, "time", building_id, floor_id, lat, lng FROM position_history WHERE ${conditions.join(' AND ')} ORDER BY device_id, "time" LIMIT :limit`,
    )(parameters);
    if (raw.length > MAX_REPORT_ROWS) {
      throw new ApiError(507, ErrorCode.OutputTooLarge, `The report would return more than ${MAX_REPORT_ROWS} rows; narrow the range or filter by user, device or floor`);
    }
    const fixes = raw.map((row) => ({
      deviceId: String(row.device_id),
      userId: row.user_id,
      time: parseDatabaseTimestamp(row.time)!.getTime(),
      buildingId: Number(row.building_id),
      floorId: row.floor_id === null ? null : Number(row.floor_id),
      lat: Number(row.lat),
      lng: Number(row.lng),
    }));
    const { marks, rowsRead } = await this.sessionsOf(principal.organizationId, fixes, parameters.from as string, parameters.to as string);
    let bytesRead = 0;
    const data: UserPositionRow[] = fixes.map((fix) => {
      bytesRead += FIXED_ROW_BYTES + fix.deviceId.length;
      return {
        timestamp: new Date(fix.time).toISOString(),
        session_mark: marks.get(`${fix.deviceId}\u0000${fix.time}`) ?? 1,
        floor_id: fix.floorId,
        user_id: fix.userId,
        device_id: fix.deviceId,
        lat: fix.lat,
        lng: fix.lng,
        building_id: fix.buildingId,
      };
    });
    // Ordered by time on the wire; the sort is stable, so a device's rows keep their order.
    data.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
    return { columns: USER_POSITION_COLUMNS, data, rowsRead: raw.length + rowsRead, bytesRead: bytesRead + rowsRead * SESSION_ROW_BYTES, startedAt };
  }

  /**
   * Session marks over each device's whole track in the range, every building included: a
   * visit to another building in between ends the session even without a 60 s gap.
   * Read through the (organization, device, time) key, only the three columns it needs.
   */
  private async sessionsOf(
    organizationId: string,
    fixes: ReadonlyArray<{ deviceId: string }>,
    from: string,
    to: string,
  ): Promise<{ marks: Map<string, number>; rowsRead: number }> {
    const marks = new Map<string, number>();
    const devices = [...new Set(fixes.map((fix) => fix.deviceId))];
    let rowsRead = 0;
    for (let start = 0; start < devices.length; start += DEVICES_PER_SESSION_QUERY) {
      const list = namedList('d', devices.slice(start, start + DEVICES_PER_SESSION_QUERY));
      const rows = await this.queries.cached<{ device_id: string; time: unknown; building_id: number | null }>(
        `SELECT device_id, "time", building_id FROM position_history
         WHERE organization_id = :organization AND device_id IN (${list.sql}) AND "time" >= :from AND "time" < :to ORDER BY device_id, "time"`,
      )({ organization: organizationId, from, to, ...list.parameters });
      rowsRead += rows.length;
      if (rowsRead > MAX_REPORT_ROWS * 4) {
        throw new ApiError(507, ErrorCode.OutputTooLarge, 'The devices of this report have too many positions in the range; narrow it');
      }
      const track = rows.map((row) => ({
        deviceId: String(row.device_id),
        time: parseDatabaseTimestamp(row.time)!.getTime(),
        buildingId: row.building_id === null ? null : Number(row.building_id),
      }));
      const numbered = sessionMarks(track);
      track.forEach((row, index) => marks.set(`${row.deviceId}\u0000${row.time}`, numbered[index]));
    }
    return { marks, rowsRead };
  }
}
