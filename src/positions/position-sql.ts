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

/** SQLite texts made lately: a batch's rows share "now", and its fixes and deadlines few times. */
const recentStamps = new Map<number, string>();

export function timestampParameter(dialect: Dialect, epochMs: number): Date | string {
  if (dialect === 'postgres') return new Date(epochMs);
  let text = recentStamps.get(epochMs);
  if (text === undefined) {
    if (recentStamps.size >= 256) recentStamps.clear();
    text = new Date(epochMs).toISOString().replace('T', ' ').slice(0, 23);
    recentStamps.set(epochMs, text);
  }
  return text;
}

const valuesLists = new Map<string, string>();

/**
 * `$1, $2` or `?, ?` placeholders for a multi-row VALUES list. Each shape is built once: the
 * same string object each time also spares the statement caches keyed by SQL text from hashing
 * a new copy of several kilobytes per batch.
 */
export function valuesList(dialect: Dialect, rows: number, columns: number, startAt = 1): string {
  const key = `${dialect}:${rows}:${columns}:${startAt}`;
  let list = valuesLists.get(key);
  if (list === undefined) {
    // Row counts are bounded by the batch limits: a few thousand shapes at most.
    if (valuesLists.size >= 4096) valuesLists.clear();
    valuesLists.set(key, (list = buildValuesList(dialect, rows, columns, startAt)));
  }
  return list;
}

function buildValuesList(dialect: Dialect, rows: number, columns: number, startAt: number): string {
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
  let shape = namedLists.get(`${prefix}:${size}`);
  if (shape === undefined) {
    const names = Array.from({ length: size }, (_, index) => `${prefix}${index}`);
    shape = { names, sql: `:${names.join(', :')}` };
    namedLists.set(`${prefix}:${size}`, shape);
  }
  for (let index = 0; index < size; index++) parameters[shape.names[index]] = values[Math.min(index, values.length - 1)];
  return { sql: shape.sql, parameters };
}

/** The parameter names and SQL of each (prefix, padded size) seen. */
const namedLists = new Map<string, { names: string[]; sql: string }>();

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

const sqliteStatements = new Map<string, string>();
/** One string object per statement shape (see valuesList); `key` names the shape. */
export function memoized(key: string, build: () => string): string {
  let sql = sqliteStatements.get(key);
  if (sql === undefined) {
    if (sqliteStatements.size >= 4096) sqliteStatements.clear();
    sqliteStatements.set(key, (sql = build()));
  }
  return sql;
}

export function sqliteHistoryInsert(rows: number): string {
  return memoized(`history:${rows}`, () => `INSERT INTO position_history (organization_id, device_id, "time", user_id, building_id, floor_id, lat, lng, x, y, accuracy, yaw)
  VALUES ${valuesList('sqlite', rows, HISTORY_COLUMNS.length)} ON CONFLICT DO NOTHING`);
}

export const DEVICE_COLUMNS = ['organization_id', 'id', 'code', 'user_id', 'last_time', 'building_id', 'floor_id', 'lat', 'lng', 'x', 'y', 'accuracy', 'yaw', 'created_at', 'updated_at'] as const;

/**
 * Registers devices and moves their latest fix forward; a fix older than the stored one
 * (a late batch) leaves the latest position as it is.
 */
export function sqliteDeviceUpsert(rows: number): string {
  return memoized(
    `devices:${rows}`,
    () => `INSERT INTO devices (${DEVICE_COLUMNS.join(', ')}) VALUES ${valuesList('sqlite', rows, DEVICE_COLUMNS.length)}
  ${DEVICE_UPDATE}`,
  );
}
