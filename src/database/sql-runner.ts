import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ArrayQueryOptions, PreparedQueries, PreparedQuery } from './prepared-queries';
import { SqlDialect } from './sql-dialect';
import { orderedStatement, orderedValues, PositionalStatement, positional, SqlStatement, textFor } from './statements';

/** A statement's parameter value: what both drivers take once a Date and a boolean are put the dialect's way. */
export type StatementValue = string | number | boolean | Date | null | Buffer | readonly string[];

/**
 * Runs a repository's declared statements (statements.ts) in the caller's transaction: the one
 * translator of `:name` parameters into the driver's, the text chosen for the configured
 * database, a Date and a boolean given as that database takes them (SQLite: UTC text as TypeORM
 * writes datetime columns, 1/0). The answer is the driver's, as `EntityManager.query` gives it.
 */
@Injectable()
export class SqlRunner {
  private readonly translated = new WeakMap<SqlStatement, PositionalStatement>();

  constructor(
    private readonly dialect: SqlDialect,
    private readonly queries: PreparedQueries,
  ) {}

  /**
   * A hot statement prepared once, straight on the driver (PreparedQueries: a named statement on
   * PostgreSQL, run on the ambient transaction's connection inside one; a cached better-sqlite3
   * statement): the values are given as the database takes them (`SqlDialect.timestamp`, …).
   */
  prepared<Row>(sql: SqlStatement): PreparedQuery<Row> {
    return this.queries.cached<Row>(textFor(sql, this.dialect.kind));
  }

  /** Like {@link prepared}, each row an array of its columns in SELECT order. */
  preparedArrays<Row extends unknown[]>(sql: SqlStatement, options: ArrayQueryOptions = {}): PreparedQuery<Row> {
    return this.queries.cachedArrays<Row>(textFor(sql, this.dialect.kind), options);
  }

  query<Row = unknown>(manager: EntityManager, sql: SqlStatement, parameters: Readonly<Record<string, StatementValue>> = {}): Promise<Row[]> {
    const { text, names } = this.translation(sql);
    const values = names.map((name) => {
      const value = parameters[name];
      if (value === undefined) throw new Error(`SQL statement ${sql.name}: no value for :${name}`);
      if (value instanceof Date) return this.dialect.timestamp(value.getTime());
      if (typeof value === 'boolean') return this.dialect.boolean(value);
      return value;
    });
    return manager.query(text, values) as Promise<Row[]>;
  }

  /**
   * An `UPDATE` or `DELETE … RETURNING`: its rows, on either database (TypeORM's PostgreSQL
   * driver answers those two with `[rows, count]`).
   */
  async returning<Row = unknown>(manager: EntityManager, sql: SqlStatement, parameters: Readonly<Record<string, StatementValue>> = {}): Promise<Row[]> {
    const result = (await this.query<unknown>(manager, sql, parameters)) as unknown[];
    return (this.dialect.kind === 'postgres' && Array.isArray(result[0]) ? result[0] : result) as Row[];
  }

  /**
   * A batch statement with its values in the order its `:name`s first appear (see
   * OrderedStatement), already as the database takes them: the driver's answer as it comes
   * (on PostgreSQL an UPDATE or DELETE answers `[rows, count]`).
   */
  inOrder<Result = unknown[]>(manager: EntityManager, sql: SqlStatement, values: readonly unknown[]): Promise<Result> {
    const statement = orderedStatement(sql, this.dialect.kind);
    return manager.query(statement.text, orderedValues(statement, values)) as Promise<Result>;
  }

  private translation(sql: SqlStatement): PositionalStatement {
    let prepared = this.translated.get(sql);
    if (!prepared) this.translated.set(sql, (prepared = positional(textFor(sql, this.dialect.kind), this.dialect.kind)));
    return prepared;
  }
}
