import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { transactionEpilogue } from './transaction-epilogue';

/**
 * Runs a unit of work in one database transaction.
 *
 * TypeORM drives SQLite through one shared connection, where a second transaction started
 * while the first awaits would nest inside it as a savepoint and commit or roll back with
 * it. On SQLite the transactions of this process therefore run one after another (SQLite
 * admits a single writer anyway); PostgreSQL runs them concurrently on pooled connections.
 * Every write goes through here.
 */
@Injectable()
export class TransactionRunner {
  private readonly serialize: boolean;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.serialize = dataSource.options.type !== 'postgres';
  }

  run<T>(unitOfWork: (manager: EntityManager) => Promise<T>): Promise<T> {
    const epilogue = transactionEpilogue.getStore();
    const work = epilogue
      ? async (manager: EntityManager) => {
          const result = await unitOfWork(manager);
          await epilogue(manager);
          return result;
        }
      : unitOfWork;
    if (!this.serialize) return this.dataSource.transaction(work);
    const result = this.tail.then(() => this.dataSource.transaction(work));
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Rewrites `:name` parameters into the driver's placeholders for hand-written SQL. */
  escape(sql: string, parameters: Record<string, unknown>): [string, unknown[]] {
    return this.dataSource.driver.escapeQueryWithParameters(sql, parameters);
  }
}
