/**
 * The SQL both databases share for positions, and the one difference in how they take a
 * timestamp parameter: PostgreSQL a Date, SQLite the UTC text TypeORM writes for datetime
 * columns (`2020-05-08 10:26:34.801`, which sorts like the time it names).
 */
export type Dialect = 'postgres' | 'sqlite';

/**
 * A timestamp column read as epoch milliseconds (a number on both databases, no Date per row).
 * SQLite keeps times as UTC text (`2026-11-23 06:41:19.123`): julianday() reads it to the
 * millisecond (SQLite counts julian days in integer ms), rounded back to an exact integer.
 */
export function epochMsColumn(dialect: Dialect, column: string): string {
  return dialect === 'postgres' ? `CAST(extract(epoch FROM ${column}) * 1000 AS double precision)` : `CAST(round((julianday(${column}) - 2440587.5) * 86400000) AS INTEGER)`;
}

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

/**
 * `:p0, :p1, …` for an IN list of PreparedQueries, with the parameters to pass. The list is
 * padded to a power of two with its last value (a repeat changes nothing in IN), so a few
 * statement shapes serve every length: PostgreSQL keeps each named statement per
 * connection, and one shape per list length would pile up.
 */
export function namedList(prefix: string, values: ReadonlyArray<string | number>): { sql: string; parameters: Record<string, string | number> } {
  const parameters: Record<string, string | number> = {};
  let size = 1;
  while (size < values.length) size *= 2;
  const names: string[] = [];
  for (let index = 0; index < size; index++) {
    parameters[`${prefix}${index}`] = values[Math.min(index, values.length - 1)];
    names.push(`:${prefix}${index}`);
  }
  return { sql: names.join(', '), parameters };
}

export const HISTORY_COLUMNS = ['organization_id', 'device_id', 'time', 'user_id', 'building_id', 'floor_id', 'lat', 'lng', 'x', 'y', 'accuracy', 'yaw'] as const;

const DEVICE_UPDATE = `ON CONFLICT (organization_id, id) DO UPDATE SET
    code = CASE WHEN excluded.code <> '' THEN excluded.code ELSE devices.code END,
    user_id = excluded.user_id, last_time = excluded.last_time, building_id = excluded.building_id, floor_id = excluded.floor_id,
    lat = excluded.lat, lng = excluded.lng, x = excluded.x, y = excluded.y, accuracy = excluded.accuracy, yaw = excluded.yaw,
    updated_at = excluded.updated_at
  WHERE devices.last_time IS NULL OR devices.last_time <= excluded.last_time`;

/**
 * PostgreSQL: a whole batch in one statement (one round trip, atomic by itself): the
 * history rows in a data-modifying CTE, then the devices' latest fixes. Every column comes
 * as one array, so the statement text never changes and is prepared once per connection.
 * $1 organization, $2 now, $3..$13 history columns, $14..$25 device columns.
 */
export const POSTGRES_BATCH_STORE = `WITH history AS (
    INSERT INTO position_history (organization_id, device_id, "time", user_id, building_id, floor_id, lat, lng, x, y, accuracy, yaw)
    SELECT $1::uuid, h.* FROM unnest($3::varchar[], $4::timestamptz[], $5::uuid[], $6::int[], $7::int[], $8::float8[], $9::float8[], $10::float8[], $11::float8[], $12::float8[], $13::float8[]) AS h
    ON CONFLICT DO NOTHING
  )
  INSERT INTO devices (organization_id, id, code, user_id, last_time, building_id, floor_id, lat, lng, x, y, accuracy, yaw, created_at, updated_at)
  SELECT $1::uuid, d.*, $2::timestamptz, $2::timestamptz
  FROM unnest($14::varchar[], $15::varchar[], $16::uuid[], $17::timestamptz[], $18::int[], $19::int[], $20::float8[], $21::float8[], $22::float8[], $23::float8[], $24::float8[], $25::float8[]) AS d
  ${DEVICE_UPDATE}`;

export function sqliteHistoryInsert(rows: number): string {
  return `INSERT INTO position_history (organization_id, device_id, "time", user_id, building_id, floor_id, lat, lng, x, y, accuracy, yaw)
  VALUES ${valuesList('sqlite', rows, HISTORY_COLUMNS.length)} ON CONFLICT DO NOTHING`;
}

export const DEVICE_COLUMNS = ['organization_id', 'id', 'code', 'user_id', 'last_time', 'building_id', 'floor_id', 'lat', 'lng', 'x', 'y', 'accuracy', 'yaw', 'created_at', 'updated_at'] as const;

/**
 * Registers devices and moves their latest fix forward; a fix older than the stored one
 * (a late batch) leaves the latest position as it is.
 */
export function sqliteDeviceUpsert(rows: number): string {
  return `INSERT INTO devices (${DEVICE_COLUMNS.join(', ')}) VALUES ${valuesList('sqlite', rows, DEVICE_COLUMNS.length)}
  ${DEVICE_UPDATE}`;
}
