/**
 * Values read with hand-written SQL come back as the driver gives them: PostgreSQL returns
 * Date objects, SQLite the UTC text TypeORM wrote (`2020-05-08 10:26:34.801`).
 */
export function parseDatabaseTimestamp(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === 'string') {
    const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`;
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  if (typeof value === 'number') return new Date(value);
  return null;
}

/** JSON columns: PostgreSQL returns them parsed, SQLite as text. */
export function parseJsonColumn(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}
