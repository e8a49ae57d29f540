import { Injectable, Logger } from '@nestjs/common';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ambientTransaction } from './ambient-transaction';
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
  private readonly logger = new Logger(TransactionRunner.name);
  private readonly serialize: boolean;
  private tail: Promise<unknown> = Promise.resolve();
  /** Work to do once the transaction of a manager has committed (dropped on rollback). */
  private readonly committed = new WeakMap<EntityManager, Array<() => void>>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.serialize = dataSource.options.type !== 'postgres';
  }

  run<T>(unitOfWork: (manager: EntityManager) => Promise<T>): Promise<T> {
    // An idempotent request's marker is written in the same transaction as its effects.
    const epilogue = transactionEpilogue.getStore();
    const work = epilogue
      ? async (manager: EntityManager) => {
          const result = await unitOfWork(manager);
          await epilogue(manager);
          return result;
        }
      : unitOfWork;
    if (!this.serialize) return this.transaction(work);
    // Each queued transaction starts on a turn of the event loop of its own. Chained on the
    // previous one's promise, the whole queue would run in one turn, and libuv accepts one
    // connection per turn: under load, new clients waited many seconds to be accepted.
    const result = this.tail.then(() => nextTurn()).then(() => this.transaction(work));
    this.tail = result.catch(() => undefined);
    return result;
  }

  /**
   * Runs `callback` right after the transaction of `manager` commits (never if it rolls back),
   * before `run` resolves; at once when `manager` is not in a transaction of this runner.
   * For effects outside the database that must not be seen before the change they follow.
   */
  afterCommit(manager: EntityManager, callback: () => void): void {
    const pending = this.committed.get(manager);
    if (pending) pending.push(callback);
    else callback();
  }

  private async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const callbacks: Array<() => void> = [];
    let transactionManager: EntityManager | undefined;
    const result = await this.dataSource
      .transaction((manager) => {
        transactionManager = manager;
        this.committed.set(manager, callbacks);
        return ambientTransaction.run(manager, () => work(manager));
      })
      .finally(() => {
        // Registered later (a manager kept past its transaction): nothing left to wait for.
        if (transactionManager) this.committed.delete(transactionManager);
      });
    for (const callback of callbacks) {
      // The change is committed: a failing follower must not turn it into an error.
      try {
        callback();
      } catch (error) {
        this.logger.error(`After-commit work failed: ${String(error)}`);
      }
    }
    return result;
  }

  /** Rewrites `:name` parameters into the driver's placeholders for hand-written SQL. */
  escape(sql: string, parameters: Record<string, unknown>): [string, unknown[]] {
    return this.dataSource.driver.escapeQueryWithParameters(sql, parameters);
  }
}
