/**
 * What a report job reads through: rows as arrays of their columns, `:name` parameters. The
 * same job runs in the report worker (its own connection) or, where no other connection can
 * open the database (in-memory SQLite), on the main connection. No Nest, no TypeORM here:
 * the worker loads this file on its own.
 */
import { DialectKind, SqlDialect } from '../../database/sql-dialect';
import { positional as toPositional, PositionalStatement, SqlStatement, textFor } from '../../database/statements';

export type { PositionalStatement } from '../../database/statements';

/**
 * What a report reads: a statement declared in a repository or store (statements.ts), or a
 * text the same on both databases (the tests' reads of their own tables).
 */
export type ReportSql = SqlStatement | string;

/** The text of `sql` the database of `kind` takes (`:name` parameters). */
export function reportText(sql: ReportSql, kind: DialectKind): string {
  return typeof sql === 'string' ? sql : textFor(sql, kind);
}

export interface ReportDb {
  readonly dialect: SqlDialect;
  /**
   * The rows of one read-only statement, each as an array in SELECT order. `text` keeps every
   * PostgreSQL value as the text the server sent (no type parsing); SQLite gives its own values.
   * PostgreSQL plans each run with its values (an unnamed statement; see ArrayQueryOptions).
   */
  arrays<Row extends unknown[]>(sql: ReportSql, parameters: Record<string, unknown>, options?: { text?: boolean }): Promise<Row[]>;
}

/** `:name` parameters as `?` (SQLite) or `$n` (PostgreSQL, one number per name): the one translator (statements.ts), for a dialect. */
export function positional(sql: string, dialect: ReportDb['dialect']): PositionalStatement {
  return toPositional(sql, dialect.kind);
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
