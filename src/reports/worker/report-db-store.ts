import { DialectKind, dialectFor } from '../../database/sql-dialect';
import { positional, PositionalStatement } from '../../database/statements';
import { ReportDb, ReportSql, reportText } from './report-db';

/*
 * The report worker's own connections (see ReportQueries): which one a database gets (a
 * SQLite file's read-only connection, a small PostgreSQL pool, or none where no second
 * connection can open the database), and the two executors on the bare drivers, the worker's
 * SqlRunner. Plain code (no Nest, no TypeORM): the worker loads this file on its own.
 */

/** What the worker opens. */
export interface ReportWorkerData {
  dialect: DialectKind;
  /** SQLite: the database file. */
  path?: string;
  busyTimeoutMs?: number;
  /** PostgreSQL: node-postgres pool options (connection string, timeouts). */
  pool?: Record<string, unknown>;
}

/** The application's connection options, as far as the report worker needs them. */
export interface ReportConnectionOptions {
  type: string;
  database?: unknown;
  timeout?: number;
  url?: string;
  extra?: Record<string, unknown>;
  ssl?: unknown;
}

/** Connections the report worker's PostgreSQL pool may open (a job reads one page at a time, and prefetches one). */
const WORKER_PG_CONNECTIONS = 2;

/**
 * The database's kind, its SQLite file (null unless the database is one: an in-memory one no
 * other connection can open), and what the worker opens (null: everything runs on the main
 * connection).
 */
export function reportConnection(options: ReportConnectionOptions): { kind: DialectKind; file: string | null; worker: ReportWorkerData | null } {
  const database = typeof options.database === 'string' ? options.database : '';
  const file = options.type === 'better-sqlite3' && database !== '' && database !== ':memory:' && !database.startsWith('file::memory:') ? database : null;
  const kind: DialectKind = options.type === 'postgres' ? 'postgres' : 'sqlite';
  if (file !== null) return { kind, file, worker: { dialect: 'sqlite', path: file, busyTimeoutMs: options.timeout ?? 5000 } };
  if (kind === 'postgres') {
    const pool: Record<string, unknown> = { ...options.extra, connectionString: options.url, max: WORKER_PG_CONNECTIONS };
    if (options.ssl !== undefined) pool.ssl = options.ssl;
    return { kind, file, worker: { dialect: 'postgres', pool } };
  }
  return { kind, file, worker: null };
}

/** Prepared statements kept, by SQL text (reports use a handful of shapes). */
const MAX_STATEMENTS = 200;

interface SqliteStatement {
  all(...values: unknown[]): unknown[];
  raw(toggle: boolean): SqliteStatement;
}
interface PgPool {
  query(config: { text: string; values: unknown[]; rowMode?: 'array'; types?: unknown }): Promise<{ rows: unknown[] }>;
}

/** node-postgres type parsers that keep every value as the text PostgreSQL sent. */
const TEXT_TYPES = { getTypeParser: () => (value: string) => value };

/** The worker's connection: the jobs' reads, and on SQLite the statement batches of ReportQueries (already positional). */
export interface ReportWorkerConnection {
  db: ReportDb;
  run: ((sql: string, values: unknown[], arrays: boolean) => unknown[]) | null;
}

/** Opens the worker's connection to its database. */
export function openReportConnection(data: ReportWorkerData): ReportWorkerConnection {
  return data.dialect === 'sqlite' ? sqliteConnection(data) : { db: postgresDb(data), run: null };
}

function sqliteConnection(data: ReportWorkerData): ReportWorkerConnection {
  // Loaded by the worker for its own database only (SQLite or PostgreSQL, never both).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require('better-sqlite3') as new (path: string, options: object) => { prepare(sql: string): SqliteStatement; pragma(sql: string): unknown };
  const connection = new Database(data.path!, { readonly: true, fileMustExist: true, timeout: data.busyTimeoutMs });
  connection.pragma(`busy_timeout = ${Number(data.busyTimeoutMs)}`);
  const statements = new Map<string, SqliteStatement>();
  const prepared = (key: string, text: string, raw: boolean) => {
    let statement = statements.get(key);
    if (!statement) {
      if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
      statement = connection.prepare(text);
      if (raw) statement.raw(true);
      statements.set(key, statement);
    }
    return statement;
  };
  const shapes = new Map<string, PositionalStatement>();
  const db: ReportDb = {
    dialect: dialectFor('sqlite'),
    async arrays<Row extends unknown[]>(sql: ReportSql, parameters: Record<string, unknown>) {
      const text = reportText(sql, 'sqlite');
      let shape = shapes.get(text);
      if (!shape) shapes.set(text, (shape = positional(text, 'sqlite')));
      return prepared(`a:${text}`, shape.text, true).all(...shape.names.map((name) => parameters[name])) as Row[];
    },
  };
  return { db, run: (sql, values, arrays) => prepared(`${arrays ? 'a' : 'o'}:${sql}`, sql, arrays).all(...values) };
}

function postgresDb(data: ReportWorkerData): ReportDb {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Pool } = require('pg') as { Pool: new (options: object) => PgPool & { on(event: string, listener: (error: Error) => void): void } };
  const pool = new Pool(data.pool ?? {});
  // An idle connection the server dropped: the next query opens another.
  pool.on('error', () => undefined);
  const shapes = new Map<string, PositionalStatement>();
  return {
    dialect: dialectFor('postgres'),
    async arrays<Row extends unknown[]>(sql: ReportSql, parameters: Record<string, unknown>, options: { text?: boolean } = {}) {
      const text = reportText(sql, 'postgres');
      let shape = shapes.get(text);
      if (!shape) shapes.set(text, (shape = positional(text, 'postgres')));
      const values = shape.names.map((name) => parameters[name]);
      return (await pool.query({ text: shape.text, values, rowMode: 'array', types: options.text ? TEXT_TYPES : undefined })).rows as Row[];
    },
  };
}
