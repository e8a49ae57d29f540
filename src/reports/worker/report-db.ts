/**
 * What a report job reads through: rows as arrays of their columns, `:name` parameters. The
 * same job runs in the report worker (its own connection) or, where no other connection can
 * open the database (in-memory SQLite), on the main connection. No Nest, no TypeORM here:
 * the worker loads this file on its own.
 */
import { SqlDialect } from '../../database/sql-dialect';

export interface ReportDb {
  readonly dialect: SqlDialect;
  /**
   * The rows of one read-only statement, each as an array in SELECT order. `text` keeps every
   * PostgreSQL value as the text the server sent (no type parsing); SQLite gives its own values.
   * PostgreSQL plans each run with its values (an unnamed statement; see ArrayQueryOptions).
   */
  arrays<Row extends unknown[]>(sql: string, parameters: Record<string, unknown>, options?: { text?: boolean }): Promise<Row[]>;
}

/** A statement with `:name` parameters as the driver takes it: positional text and the names in order. */
export interface PositionalStatement {
  text: string;
  names: string[];
}

/**
 * `:name` parameters as `?` (SQLite) or `$n` (PostgreSQL, one number per name). Report SQL
 * holds no `::` casts nor colons in literals, so every `:word` is a parameter.
 */
export function positional(sql: string, dialect: ReportDb['dialect']): PositionalStatement {
  const names: string[] = [];
  const text = sql.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
    if (dialect.kind === 'sqlite') {
      names.push(name);
      return '?';
    }
    let index = names.indexOf(name);
    if (index < 0) index = names.push(name) - 1;
    return `$${index + 1}`;
  });
  return { text, names };
}

/** A job's rows written as text: CSV lines or JSON objects joined by commas, and how many rows that is. */
export interface JobBatch {
  text: string;
  rows: number;
  /**
   * A job may first yield a batch of no rows with the count of rows it will write, once it
   * knows it (the report checks its output cap on it before any byte of the answer is sent).
   */
  count?: number;
}

/** What a report job read, filled in as it reads (the `statistics` of the JSON envelope). */
export interface JobStatistics {
  rowsRead: number;
  bytesRead: number;
}

/** A report job: reads through `db` and yields its answer's text in batches. */
export type ReportJobRun<Input> = (db: ReportDb, input: Input, statistics: JobStatistics) => AsyncIterable<JobBatch>;

/**
 * A job as the worker finds it (the module's file and its export) and as the main thread
 * runs it when it must (the function itself).
 */
export interface ReportJob<Input> {
  module: string;
  name: string;
  run: ReportJobRun<Input>;
}
