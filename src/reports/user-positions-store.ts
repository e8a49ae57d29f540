import { perDialect, statement, statementFamily } from '../database/statements';
import { ReportDb } from './worker/report-db';

/*
 * The trajectory report's page reads (user-positions.jobs.ts), on the report worker's
 * connection or the main one: one text per page size (a literal LIMIT, as the plans were
 * made with). Times come in the form cheapest to read in bulk (SqlDialect.bulkTime):
 * PostgreSQL's as epoch milliseconds (no Date parsed per row by node-postgres), SQLite's
 * text as stored. Plain code (no Nest, no TypeORM): the report worker loads this file.
 */

const DEVICE_TRACK = statementFamily<number>('user-positions.device-track-page', [5000], (pageRows) =>
  perDialect(
    (dialect) => `SELECT user_id, ${dialect.bulkTime('"time"')}, floor_id, lat, lng, building_id FROM position_history
     WHERE organization_id = :organization AND device_id = :device AND "time" >= :cursor AND "time" < :to ORDER BY "time" LIMIT ${pageRows}`,
  ),
);

const OWN_WHERE = 'organization_id = :organization AND building_id = :building AND "time" >= :cursor AND "time" < :to';
const BUILDING_PAGE = statementFamily<number>('user-positions.building-page', [5000], (pageRows) =>
  perDialect(
    (dialect) =>
      `SELECT device_id, user_id, ${dialect.bulkTime('"time"')}, floor_id, lat, lng FROM position_history WHERE ${OWN_WHERE} ORDER BY "time", device_id LIMIT ${pageRows}`,
  ),
);

// Every device's rows at one instant, for the rare page filled by a single timestamp.
const BUILDING_INSTANT = statement(
  'user-positions.building-instant',
  perDialect(
    (dialect) =>
      `SELECT device_id, user_id, ${dialect.bulkTime('"time"')}, floor_id, lat, lng FROM position_history WHERE organization_id = :organization AND building_id = :building AND "time" = :cursor ORDER BY device_id`,
  ),
);

// Three ranges of the (organization, building, time) index, never the building's own rows.
const ELSEWHERE = statement(
  'user-positions.elsewhere',
  perDialect((dialect) => {
    const elsewhere = (building: string) =>
      `SELECT device_id, ${dialect.bulkTime('"time"')}, building_id FROM position_history WHERE organization_id = :organization AND ${building} AND "time" >= :after AND "time" < :until`;
    return `${elsewhere('building_id < :building')} UNION ALL ${elsewhere('building_id > :building')} UNION ALL ${elsewhere('building_id IS NULL')} ORDER BY 2`;
  }),
);

/** Timestamps are SqlDialect.timestamp values. */
type Stamp = Date | string;

/** A page of one device's track from `cursor` on (every building): user_id, time, floor_id, lat, lng, building_id; PostgreSQL's values as its text. */
export function deviceTrackPage<Row extends unknown[]>(
  db: ReportDb,
  pageRows: number,
  parameters: { organization: string; device: string; cursor: Stamp; to: Stamp },
): Promise<Row[]> {
  return db.arrays<Row>(DEVICE_TRACK.of(pageRows), parameters, { text: true });
}

/** A page of the building's fixes from `cursor` on, by time and device: device_id, user_id, time, floor_id, lat, lng. */
export function buildingPage<Row extends unknown[]>(
  db: ReportDb,
  pageRows: number,
  parameters: { organization: string; building: number; cursor: Stamp; to: Stamp },
): Promise<Row[]> {
  return db.arrays<Row>(BUILDING_PAGE.of(pageRows), parameters);
}

/** The building's fixes at the instant `cursor`, by device (the columns of {@link buildingPage}). */
export function buildingInstant<Row extends unknown[]>(db: ReportDb, parameters: { organization: string; building: number; cursor: Stamp; to: Stamp }): Promise<Row[]> {
  return db.arrays<Row>(BUILDING_INSTANT, parameters);
}

/** The organization's fixes in [after, until) outside the building, by time: device_id, time, building_id. */
export function fixesElsewhere<Row extends unknown[]>(db: ReportDb, parameters: { organization: string; building: number; to: Stamp; after: Stamp; until: Stamp }): Promise<Row[]> {
  return db.arrays<Row>(ELSEWHERE, parameters);
}
