import { Injectable } from '@nestjs/common';
import { SqlStatement, statement, statementFamily } from '../database/statements';
import { ReportQueries } from './worker/report-queries';

/** A trajectory report's range and filters, as its statements take them (timestamps as SqlDialect.timestamp gives them). */
export interface TrackRange {
  organization: string;
  building: number;
  from: string | Date;
  to: string | Date;
  device?: string;
  user?: string;
  floor?: number;
}

const capped = (condition: string) => `SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE ${condition} LIMIT :limit) capped`;

/** One device's whole track in the range, on its (organization, device, time) key alone. */
const DEVICE_TRACK_COUNT = statement('user-positions.device-track-count', capped('organization_id = :organization AND device_id = :device AND "time" >= :from AND "time" < :to'));

/** The building's rows in the range with the filters given: shape `device,user,floor`, each 1 or 0. */
const BUILDING_TRACK_COUNT = statementFamily<string>('user-positions.building-track-count', ['0,0,0', '1,1,1'], (shape) => {
  const [device, user, floor] = shape.split(',').map((flag) => flag === '1');
  const conditions = ['organization_id = :organization', 'building_id = :building', '"time" >= :from', '"time" < :to'];
  if (device) conditions.push('device_id = :device');
  if (user) conditions.push('user_id = :user');
  if (floor) conditions.push('floor_id = :floor');
  return capped(conditions.join(' AND '));
});

/**
 * The trajectory report's counts for its output cap, bounded at `limit` rows, through the
 * report reader (counting a month of fixes holds SQLite for tens of ms: on the worker's
 * connection). Its pages are read in the report worker (user-positions-store.ts).
 */
@Injectable()
export class UserPositionsRepository {
  constructor(private readonly reports: ReportQueries) {}

  /** The device's fixes in the range, every building included (the range's `device` is set). */
  async countDeviceTrack(range: TrackRange, limit: number): Promise<number> {
    return this.count(DEVICE_TRACK_COUNT, range, limit);
  }

  /** The building's fixes in the range that pass the range's filters. */
  async countBuildingTrack(range: TrackRange, limit: number): Promise<number> {
    const shape = `${range.device === undefined ? 0 : 1},${range.user === undefined ? 0 : 1},${range.floor === undefined ? 0 : 1}`;
    return this.count(BUILDING_TRACK_COUNT.of(shape), range, limit);
  }

  private async count(sql: SqlStatement, range: TrackRange, limit: number): Promise<number> {
    const { organization, building, from, to } = range;
    const [{ n }] = await this.reports.rows<{ n: number | string }>(sql, { organization, building, from, to, ...filters(range), limit });
    return Number(n);
  }
}

/** The filters given, as parameters (no undefined values). */
function filters(range: TrackRange): Record<string, string | number> {
  const given: Record<string, string | number> = {};
  if (range.device !== undefined) given.device = range.device;
  if (range.user !== undefined) given.user = range.user;
  if (range.floor !== undefined) given.floor = range.floor;
  return given;
}
