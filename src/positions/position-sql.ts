/**
 * The SQL both databases share for positions, and the one difference in how they take a
 * timestamp parameter: PostgreSQL a Date, SQLite the UTC text TypeORM writes for datetime
 * columns (`2020-05-08 10:26:34.801`, which sorts like the time it names).
 */
export type Dialect = 'postgres' | 'sqlite';

export function timestampParameter(dialect: Dialect, epochMs: number): Date | string {
  const date = new Date(epochMs);
  return dialect === 'postgres' ? date : date.toISOString().replace('T', ' ').slice(0, 23);
}

/** `$1, $2` or `?, ?` placeholders for a multi-row VALUES list. */
export function valuesList(dialect: Dialect, rows: number, columns: number, startAt = 1): string {
  const groups: string[] = [];
  let next = startAt;
  for (let row = 0; row < rows; row++) {
    const cells: string[] = [];
    for (let column = 0; column < columns; column++) cells.push(dialect === 'postgres' ? `$${next++}` : '?');
    groups.push(`(${cells.join(', ')})`);
  }
  return groups.join(', ');
}

/** `:p0, :p1, …` for an IN list of PreparedQueries, with the parameters to pass. */
export function namedList(prefix: string, values: ReadonlyArray<string | number>): { sql: string; parameters: Record<string, string | number> } {
  const parameters: Record<string, string | number> = {};
  const names = values.map((value, index) => {
    parameters[`${prefix}${index}`] = value;
    return `:${prefix}${index}`;
  });
  return { sql: names.join(', '), parameters };
}

export const HISTORY_COLUMNS = ['organization_id', 'device_id', 'time', 'user_id', 'building_id', 'floor_id', 'lat', 'lng', 'x', 'y', 'accuracy', 'yaw'] as const;

/** PostgreSQL: the whole batch as one array per column, so the statement text never changes. */
export const POSTGRES_HISTORY_INSERT = `INSERT INTO position_history (organization_id, device_id, "time", user_id, building_id, floor_id, lat, lng, x, y, accuracy, yaw)
  SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::timestamptz[], $4::uuid[], $5::int[], $6::int[], $7::float8[], $8::float8[], $9::float8[], $10::float8[], $11::float8[], $12::float8[])
  ON CONFLICT DO NOTHING`;

export function sqliteHistoryInsert(rows: number): string {
  return `INSERT INTO position_history (organization_id, device_id, "time", user_id, building_id, floor_id, lat, lng, x, y, accuracy, yaw)
  VALUES ${valuesList('sqlite', rows, HISTORY_COLUMNS.length)} ON CONFLICT DO NOTHING`;
}

export const DEVICE_COLUMNS = ['organization_id', 'id', 'code', 'user_id', 'last_time', 'building_id', 'floor_id', 'lat', 'lng', 'x', 'y', 'accuracy', 'yaw', 'created_at', 'updated_at'] as const;

/**
 * Registers devices and moves their latest fix forward; a fix older than the stored one
 * (a late batch) leaves the latest position as it is.
 */
export function deviceUpsert(dialect: Dialect, rows: number): string {
  return `INSERT INTO devices (${DEVICE_COLUMNS.join(', ')}) VALUES ${valuesList(dialect, rows, DEVICE_COLUMNS.length)}
  ON CONFLICT (organization_id, id) DO UPDATE SET
    code = CASE WHEN excluded.code <> '' THEN excluded.code ELSE devices.code END,
    user_id = excluded.user_id, last_time = excluded.last_time, building_id = excluded.building_id, floor_id = excluded.floor_id,
    lat = excluded.lat, lng = excluded.lng, x = excluded.x, y = excluded.y, accuracy = excluded.accuracy, yaw = excluded.yaw,
    updated_at = excluded.updated_at
  WHERE devices.last_time IS NULL OR devices.last_time <= excluded.last_time`;
}
