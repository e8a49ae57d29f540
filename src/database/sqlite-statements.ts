import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

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

  run(sql: string, parameters: readonly unknown[]): number {
    return this.statement(sql).run(...parameters).changes;
  }

  all<Row>(sql: string, parameters: readonly unknown[]): Row[] {
    return this.statement(sql).all(...parameters) as Row[];
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
