import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { orderedStatement, orderedValues, SqlStatement } from './statements';

interface Statement {
  run(...parameters: unknown[]): { changes: number };
  all(...parameters: unknown[]): unknown[];
  raw(toggle: boolean): Statement;
}

interface Connection {
  prepare(sql: string): Statement;
}

/** Statements kept prepared at most (each hot statement has a few shapes by row count). */
const MAX_STATEMENTS = 256;

/**
 * The hottest writes and reads of SQLite straight on the driver's connection, prepared once:
 * TypeORM's query path costs as much as the statement itself for a small one. They run in
 * whatever transaction that connection has open (TransactionRunner's, on SQLite the only one).
 * One per process (DatabaseModule), so the stores share one cache; unused on PostgreSQL.
 */
@Injectable()
export class SqliteStatements {
  private readonly statements = new Map<string, Statement>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs a declared statement (statements.ts) with its values in first-use order (see OrderedStatement); answers the rows changed. */
  run(sql: SqlStatement, values: readonly unknown[] = []): number {
    const ordered = orderedStatement(sql, 'sqlite');
    return this.statement(ordered.text).run(...orderedValues(ordered, values)).changes;
  }

  all<Row>(sql: SqlStatement, values: readonly unknown[] = []): Row[] {
    const ordered = orderedStatement(sql, 'sqlite');
    return this.statement(ordered.text).all(...orderedValues(ordered, values)) as Row[];
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= MAX_STATEMENTS) this.statements.delete(this.statements.keys().next().value!);
      statement = (this.dataSource.driver as unknown as { databaseConnection: Connection }).databaseConnection.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
