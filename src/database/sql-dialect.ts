import type { DataSource } from 'typeorm';

export type DialectKind = 'postgres' | 'sqlite';

/**
 * What differs in the SQL the two databases take, decided once at start (the `SqlDialect`
 * provider of DatabaseModule): features ask it instead of branching on the driver. Where whole
 * statements differ, a feature provides one repository per dialect instead.
 */
export abstract class SqlDialect {
  abstract readonly kind: DialectKind;

  /** A timestamp parameter: PostgreSQL takes a Date; SQLite the UTC text TypeORM writes for datetime columns (`2020-05-08 10:26:34.801`, which sorts like the time it names). */
  abstract timestamp(epochMs: number): Date | string;

  /** A timestamp column read as epoch milliseconds (a number on both, no Date per row). */
  abstract epochMs(column: string): string;

  /**
   * A timestamp column in the form cheapest to read back in bulk: PostgreSQL's as epoch
   * milliseconds (no Date parsed per row by node-postgres), SQLite's as the text it stores.
   */
  abstract bulkTime(column: string): string;

  /** A timestamp column as UTC wall-clock text (PostgreSQL's timestamptz would come in the session's zone). */
  abstract utcText(column: string): string;

  /** A boolean parameter (better-sqlite3 takes no booleans). */
  abstract boolean(value: boolean): boolean | number;

  /**
   * `column` is one of the list parameter `:parameter` (given by {@link list}): one statement
   * shape whatever the list's length. PostgreSQL: `= ANY` of an array of `type`; SQLite: `IN` the
   * values of a JSON array.
   */
  abstract anyOf(column: string, parameter: string, type: 'uuid' | 'varchar'): string;

  /** A list parameter for {@link anyOf}: a PostgreSQL array, the JSON text of one for SQLite's json_each. */
  abstract list(values: readonly string[]): readonly string[] | string;
}

/** SQLite texts made lately: a batch's rows share "now", and its fixes and deadlines few times. */
const recentStamps = new Map<number, string>();

export class SqliteDialect extends SqlDialect {
  readonly kind = 'sqlite' as const;

  timestamp(epochMs: number): string {
    let text = recentStamps.get(epochMs);
    if (text === undefined) {
      if (recentStamps.size >= 256) recentStamps.clear();
      text = new Date(epochMs).toISOString().replace('T', ' ').slice(0, 23);
      recentStamps.set(epochMs, text);
    }
    return text;
  }

  /** julianday() reads the UTC text to the millisecond (SQLite counts julian days in integer ms), rounded back to an exact integer. */
  epochMs(column: string): string {
    return `CAST(round((julianday(${column}) - 2440587.5) * 86400000) AS INTEGER)`;
  }

  utcText(column: string): string {
    return column;
  }

  bulkTime(column: string): string {
    return column;
  }

  boolean(value: boolean): number {
    return value ? 1 : 0;
  }

  anyOf(column: string, parameter: string): string {
    return `${column} IN (SELECT value FROM json_each(:${parameter}))`;
  }

  list(values: readonly string[]): string {
    return JSON.stringify(values);
  }
}

export class PostgresDialect extends SqlDialect {
  readonly kind = 'postgres' as const;

  timestamp(epochMs: number): Date {
    return new Date(epochMs);
  }

  epochMs(column: string): string {
    return `CAST(extract(epoch FROM ${column}) * 1000 AS double precision)`;
  }

  utcText(column: string): string {
    return `${column} AT TIME ZONE 'UTC'`;
  }

  bulkTime(column: string): string {
    return `CAST(date_part('epoch', ${column}) * 1000 AS bigint)`;
  }

  boolean(value: boolean): boolean {
    return value;
  }

  anyOf(column: string, parameter: string, type: 'uuid' | 'varchar'): string {
    return `${column} = ANY(CAST(:${parameter} AS ${type}[]))`;
  }

  list(values: readonly string[]): readonly string[] {
    return values;
  }
}

const SQLITE = new SqliteDialect();
const POSTGRES = new PostgresDialect();

export function dialectOf(dataSource: Pick<DataSource, 'options'>): SqlDialect {
  return dialectFor(dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite');
}

/** The dialect of a database kind (for code that runs outside the application, such as the report worker). */
export function dialectFor(kind: DialectKind): SqlDialect {
  return kind === 'postgres' ? POSTGRES : SQLITE;
}

/**
 * `:p0, :p1, …` for an IN list of named parameters, with the parameters to pass. The list is
 * padded to a power of two with its last value (a repeat changes nothing in IN), so a few
 * statement shapes serve every length: PostgreSQL keeps each named statement per connection,
 * and one shape per list length would pile up.
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

/**
 * The SQL of an IN list of `size` named parameters (`:p0, :p1, …`): what a statement family
 * declares for the shape `namedList` fills (sizes are its powers of two).
 */
export function inList(prefix: string, size: number): string {
  return Array.from({ length: size }, (_, index) => `:${prefix}${index}`).join(', ');
}

/** The parameter names and SQL of each (prefix, padded size) seen. */
const namedLists = new Map<string, { names: string[]; sql: string }>();

/** Rows per statement at most: SQLite takes 32,766 parameters per statement, PostgreSQL 65,535. */
export const SQL_CHUNK = 500;

/** Splits `items` into runs of at most `size`. */
export function chunks<T>(items: readonly T[], size = SQL_CHUNK): T[][] {
  const runs: T[][] = [];
  for (let start = 0; start < items.length; start += size) runs.push(items.slice(start, start + size));
  return runs;
}
