import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { ambientTransaction } from './ambient-transaction';
import type { DialectKind } from './sql-dialect';
import { positional } from './statements';

/** A statement parameter; an array goes to PostgreSQL as one array value (`unnest(CAST(:ids AS varchar[]))`). */
export type QueryParameter = string | number | boolean | Date | null | readonly (string | number | null)[];
export type PreparedQuery<Row> = (parameters: Record<string, QueryParameter>) => Promise<Row[]>;

interface SqliteStatement {
  all(...parameters: unknown[]): unknown[];
  raw(toggle: boolean): SqliteStatement;
}
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}
interface PgPool {
  query(config: { name?: string; text: string; values: unknown[]; rowMode?: 'array'; types?: PgTypes }): Promise<{ rows: unknown[] }>;
}
interface PgTypes {
  getTypeParser(oid: number, format: string): (value: string) => unknown;
}

/** Options of {@link PreparedQueries.cachedArrays}; both change only what PostgreSQL does. */
export interface ArrayQueryOptions {
  /**
   * Plan each run with its values (an unnamed statement) instead of once: a named statement
   * soon runs a generic plan, which on the partitioned position_history cannot prune at plan
   * time nor read the partitions in index order, so `ORDER BY "time" LIMIT n` sorts every row
   * from the keyset cursor to the range's end, for every page.
   */
  planEachRun?: boolean;
  /** Every value as PostgreSQL's text (no type parsing), for reads that write the text as it is. */
  text?: boolean;
}

/** node-postgres type parsers that keep every value as the text PostgreSQL sent. */
const TEXT_TYPES: PgTypes = { getTypeParser: () => (value: string) => value };

/**
 * Hand-written reads for the hottest paths (credential checks, reads by id), prepared once
 * and run straight on the driver: better-sqlite3 statements, named PostgreSQL prepared
 * statements. Rows are turned into entities with TypeORM's own per-driver conversions, so
 * they read exactly like repository results. Writes keep going through TypeORM.
 */
const MAX_CACHED_STATEMENTS = 500;

/** Names a statement by its SQL (PostgreSQL keeps named statements per connection). */
const statementName = (sql: string): string => `cg_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;

@Injectable()
export class PreparedQueries {
  private readonly cache = new Map<string, PreparedQuery<unknown>>();
  private readonly statements = new Map<string, SqliteStatement>();

  /** Queries sent on a transaction's connection, one after another (pg deprecates overlapping queries on one client). */
  private readonly connectionTails = new WeakMap<PgPool, Promise<unknown>>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** For SQL built per request from a few shapes (search filters): prepared once per shape. */
  cached<Row>(sql: string): PreparedQuery<Row> {
    let query = this.cache.get(sql);
    if (!query) {
      if (this.cache.size >= MAX_CACHED_STATEMENTS) {
        const oldest = this.cache.keys().next().value!;
        this.cache.delete(oldest);
        const arrays = /^arrays[+a-z]*:/.exec(oldest);
        this.statements.delete(arrays ? `${statementName(oldest.slice(arrays[0].length))}a` : statementName(oldest));
      }
      query = this.prepare<unknown>(sql);
      this.cache.set(sql, query);
    }
    return query as PreparedQuery<Row>;
  }

  /** `sql` uses `:name` parameters (translated by statements.ts' `positional`, as every statement is); the returned function takes them by name. */
  prepare<Row>(sql: string): PreparedQuery<Row> {
    const { text, names: order } = positional(sql, this.kind());
    const valuesOf = (parameters: Record<string, unknown>) => order.map((name) => parameters[name]);
    const name = statementName(sql);
    return (parameters) => this.execute(name, text, valuesOf(parameters)) as Promise<Row[]>;
  }

  /**
   * Like {@link cached}, but each row comes as an array of its columns in SELECT order: no
   * object per row, for reads that stream hundreds of thousands of rows (reports).
   */
  cachedArrays<Row extends unknown[]>(sql: string, options: ArrayQueryOptions = {}): PreparedQuery<Row> {
    const key = `arrays${options.planEachRun ? '+plan' : ''}${options.text ? '+text' : ''}:${sql}`;
    let query = this.cache.get(key);
    if (!query) {
      const { text, names: order } = positional(sql, this.kind());
      const name = `${statementName(sql)}a`;
      query = async (parameters) => {
        const values = order.map((parameter) => parameters[parameter]);
        if (this.dataSource.options.type === 'postgres') {
          const pool = (this.dataSource.driver as unknown as { master: PgPool }).master;
          const types = options.text ? TEXT_TYPES : undefined;
          return (await pool.query({ ...(options.planEachRun ? {} : { name }), text, values, rowMode: 'array', types })).rows;
        }
        let statement = this.statements.get(name);
        if (!statement) {
          statement = (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection.prepare(text).raw(true);
          this.statements.set(name, statement);
        }
        return statement.all(...values);
      };
      this.cache.set(key, query);
    }
    return query as PreparedQuery<Row>;
  }

  private kind(): DialectKind {
    return this.dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  /** Runs a prepared statement (by name on PostgreSQL, from the statement cache on SQLite). */
  async execute(name: string, text: string, values: unknown[]): Promise<unknown[]> {
    if (this.dataSource.options.type === 'postgres') {
      // Inside a transaction: on its connection (see ambient-transaction.ts), still by name.
      const runner = ambientTransaction.getStore()?.queryRunner;
      const connection = runner && !runner.isReleased ? (runner as unknown as { databaseConnection?: PgPool }).databaseConnection : undefined;
      if (connection) return this.onTransactionConnection(connection, name, text, values);
      const pool = (this.dataSource.driver as unknown as { master: PgPool }).master;
      return (await pool.query({ name, text, values })).rows;
    }
    let statement = this.statements.get(name);
    if (!statement) {
      statement = (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection.prepare(text);
      this.statements.set(name, statement);
    }
    return statement.all(...values);
  }

  private onTransactionConnection(connection: PgPool, name: string, text: string, values: unknown[]): Promise<unknown[]> {
    const previous = this.connectionTails.get(connection) ?? Promise.resolve();
    const result = previous.then(async () => (await connection.query({ name, text, values })).rows);
    this.connectionTails.set(
      connection,
      result.catch(() => undefined),
    );
    return result;
  }

  /** Builds entities from raw rows selected with `SELECT *` (database column names). */
  hydrator<T extends ObjectLiteral>(entity: EntityTarget<T>): (row: Record<string, unknown>) => T {
    const metadata = this.dataSource.getMetadata(entity);
    const driver = this.dataSource.driver;
    const columns = metadata.columns.map((column) => [column.propertyName, column.databaseName, column] as const);
    return (row) => {
      const instance = metadata.create() as T;
      for (const [property, databaseName, column] of columns) {
        (instance as Record<string, unknown>)[property] = driver.prepareHydratedValue(row[databaseName], column);
      }
      return instance;
    };
  }
}
