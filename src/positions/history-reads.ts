import { DialectKind } from '../database/sql-dialect';

/**
 * A page of one device's history rows in time order, `:cursor` ≤ time < `:to`, as SQL for the
 * given database (`:organization`, `:device`, `:cursor`, `:to` parameters). SQLite keys the
 * history by device in bulk (SqlitePositionStore): the merged rows come through that key and
 * the few not merged yet through their own small index, each part in order and limited.
 */
export function deviceHistoryPage(kind: DialectKind, columns: string, limit: number): string {
  const range = 'organization_id = :organization AND device_id = :device AND "time" >= :cursor AND "time" < :to';
  if (kind === 'postgres') return `SELECT ${columns} FROM position_history WHERE ${range} ORDER BY "time" LIMIT ${limit}`;
  const part = (merged: 0 | 1) => `SELECT * FROM (SELECT ${columns}, "time" AS sort_time FROM position_history WHERE merged = ${merged} AND ${range} ORDER BY "time" LIMIT ${limit})`;
  return `SELECT * FROM (${part(1)} UNION ALL ${part(0)}) ORDER BY sort_time LIMIT ${limit}`;
}
