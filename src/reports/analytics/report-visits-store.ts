import { SqlDialect } from '../../database/sql-dialect';
import { perDialect, statement } from '../../database/statements';
import { ReportDb } from '../worker/report-db';

/*
 * The reads of a fence's visits under way in a report's window (see visitsByFence), on the
 * report worker's connection or the main one. Plain code (no Nest, no TypeORM): the report
 * worker loads this file.
 */

/** The visit columns, times as epoch milliseconds computed by the database (no date parsing per row here). */
const visitColumns = (dialect: SqlDialect): string =>
  `id, geofence_id, device_id, user_id, ${dialect.epochMs('entered_at')} AS entered_ms, ${dialect.epochMs('exited_at')} AS exited_ms, exit_reason`;

const UNDER_WAY_AT_START = statement(
  'report-visits.under-way-at-start',
  perDialect(
    (dialect) => `SELECT ${visitColumns(dialect)} FROM geofence_visits
      WHERE geofence_id = :fenceId AND organization_id = :organizationId AND entered_at < :from AND (exited_at >= :from OR exited_at IS NULL)`,
  ),
);
const FIRST_PAGE = statement(
  'report-visits.first-page',
  perDialect(
    (dialect) => `SELECT ${visitColumns(dialect)} FROM geofence_visits
      WHERE geofence_id = :fenceId AND organization_id = :organizationId AND entered_at >= :from AND entered_at < :to
      ORDER BY entered_at, id LIMIT :limit`,
  ),
);
const NEXT_PAGE = statement(
  'report-visits.next-page',
  perDialect(
    (dialect) => `SELECT ${visitColumns(dialect)} FROM geofence_visits
      WHERE geofence_id = :fenceId AND organization_id = :organizationId AND entered_at >= :afterAt AND entered_at < :to
        AND (entered_at > :afterAt OR id > :afterId)
      ORDER BY entered_at, id LIMIT :limit`,
  ),
);

/** A visit row: id, geofence_id, device_id, user_id, entered_ms, exited_ms, exit_reason. */
export type VisitArray = [string, string, string, string | null, number | string, number | string | null, string | null];

/** The fence's visits entered before `from` (a timestamp parameter) and not exited before it, open ones included. */
export function visitsUnderWayAtStart(db: ReportDb, parameters: { fenceId: string; organizationId: string; from: unknown }): Promise<VisitArray[]> {
  return db.arrays<VisitArray>(UNDER_WAY_AT_START, parameters);
}

/** The first `limit` visits of the fence entered in [from, to), by entered_at, id. */
export function firstVisitsPage(db: ReportDb, parameters: { fenceId: string; organizationId: string; from: unknown; to: unknown; limit: number }): Promise<VisitArray[]> {
  return db.arrays<VisitArray>(FIRST_PAGE, parameters);
}

/** The next `limit` visits of the fence entered before `to`, after the visit (`afterAt`, `afterId`) that ended the last page. */
export function nextVisitsPage(
  db: ReportDb,
  parameters: { fenceId: string; organizationId: string; to: unknown; limit: number; afterAt: unknown; afterId: string },
): Promise<VisitArray[]> {
  return db.arrays<VisitArray>(NEXT_PAGE, parameters);
}
