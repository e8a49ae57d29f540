import { Injectable, Logger } from '@nestjs/common';
import { AsyncResource } from 'node:async_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ambientTransaction } from './ambient-transaction';
import { transactionEpilogue } from './transaction-epilogue';

export interface TransactionOptions {
  /**
   * SQLite: units of work queued with the same group name may share one transaction (group
   * commit), each in a savepoint of its own, so each is still all or nothing and is only
   * acknowledged once the shared COMMIT is done. Give it only to work that reads no
   * in-process state another unit of the group could change before its own commit (the
   * after-commit callbacks of a group run when the group commits), or that reserves such state
   * at once and gives it back with `afterCommit` and `afterRollback`. Ignored on PostgreSQL.
   */
  group?: string;
}

/** A group takes at most this many units… */
const MAX_GROUP_UNITS = 16;
/** …and starts no further unit once it has run this long, so one event-loop turn stays short. */
const MAX_GROUP_MS = 25;

/** Ends a transaction's callbacks: runs its after-commit or its after-rollback ones. */
type Settlement = (committed: boolean) => void;

interface QueuedUnit {
  work: (manager: EntityManager) => Promise<unknown>;
  group: string | undefined;
  /** The caller's async context: the unit runs in it, not in the queue's. */
  scope: AsyncResource;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs a unit of work in one database transaction.
 *
 * TypeORM drives SQLite through one shared connection, where a second transaction started
 * while the first awaits would nest inside it as a savepoint and commit or roll back with
 * it. On SQLite the transactions of this process therefore run one after another (SQLite
 * admits a single writer anyway); PostgreSQL runs them concurrently on pooled connections.
 * Every write goes through here.
 *
 * On SQLite most of a small write's cost is its COMMIT: every page it changed goes to the
 * WAL as a frame of its own. Units of work of one group (ingest batches) that queue up
 * while another transaction runs therefore share one transaction, each in a savepoint.
 */
@Injectable()
export class TransactionRunner {
  private readonly logger = new Logger(TransactionRunner.name);
  private readonly serialize: boolean;
  private readonly queue: QueuedUnit[] = [];
  private draining = false;
  /** Work to do once the transaction of a manager has committed (dropped on rollback). */
  private readonly committed = new WeakMap<EntityManager, Array<() => void>>();
  /** Work to do if it rolls back instead (dropped on commit). */
  private readonly rolledBack = new WeakMap<EntityManager, Array<() => void>>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.serialize = dataSource.options.type !== 'postgres';
  }

  run<T>(unitOfWork: (manager: EntityManager) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
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
    return new Promise<T>((resolve, reject) => {
      const scope = new AsyncResource('CartographTransaction');
      this.queue.push({ work, group: options.group, scope, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        void this.drain();
      }
    });
  }

  /**
   * Runs the queue one transaction at a time. Each starts on a turn of the event loop of its
   * own: run back to back in one turn, a queue of transactions kept libuv from accepting
   * connections (one per turn), and new clients waited many seconds under load.
   */
  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        await nextTurn();
        const first = this.queue.shift()!;
        if (first.group !== undefined && this.queue[0]?.group === first.group) {
          await this.groupTransaction(first);
          continue;
        }
        await first.scope.runInAsyncScope(() => this.transaction(first.work)).then(first.resolve, first.reject);
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * `first` and the units of its group queued behind it, in one transaction: each in a
   * savepoint, so a failing unit is rolled back alone and rejected, the others go on. Every
   * unit is settled only after the COMMIT (or its failure, which rejects them all: nothing of
   * the group was written). Each unit gets an EntityManager of its own on the transaction's
   * connection, so its after-commit and after-rollback callbacks are its own.
   */
  private async groupTransaction(first: QueuedUnit): Promise<void> {
    const units: QueuedUnit[] = [first];
    // Per unit, in order: its outcome and the end of its callbacks.
    const outcomes: Array<{ value: unknown } | { error: unknown }> = [];
    const settlements: Settlement[] = [];
    const started = performance.now();
    try {
      await this.dataSource.transaction(async (manager) => {
        const queryRunner = manager.queryRunner!;
        for (let unit: QueuedUnit | undefined = first; unit;) {
          const unitManager = this.dataSource.createEntityManager(queryRunner);
          const settle = this.openSettlement(unitManager);
          settlements.push(settle);
          await queryRunner.query('SAVEPOINT cartograph_unit');
          try {
            const work = unit.work;
            const value = await unit.scope.runInAsyncScope(() => ambientTransaction.run(unitManager, () => work(unitManager)));
            await queryRunner.query('RELEASE cartograph_unit');
            outcomes.push({ value });
          } catch (error) {
            try {
              await queryRunner.query('ROLLBACK TO cartograph_unit');
              await queryRunner.query('RELEASE cartograph_unit');
            } catch (rollbackError) {
              this.logger.error(`A grouped transaction could not roll one unit back (${String(rollbackError)}); the unit had failed with: ${String(error)}`);
              throw rollbackError;
            }
            settle(false);
            outcomes.push({ error });
          }
          const next = this.queue[0];
          if (next?.group !== first.group || units.length >= MAX_GROUP_UNITS || performance.now() - started >= MAX_GROUP_MS) break;
          unit = this.queue.shift()!;
          units.push(unit);
        }
      });
    } catch (error) {
      // The COMMIT (or a savepoint statement) failed and the whole transaction rolled back.
      for (const settle of settlements) settle(false);
      for (const unit of units) unit.scope.runInAsyncScope(() => unit.reject(error));
      return;
    }
    units.forEach((unit, index) => {
      const outcome = outcomes[index];
      unit.scope.runInAsyncScope(() => {
        if ('error' in outcome) return unit.reject(outcome.error);
        settlements[index](true);
        unit.resolve(outcome.value);
      });
    });
  }

  /**
   * A read that must see only committed rows. SQLite shares one connection between every query of
   * the process, so a read beside a writer's open transaction would see its uncommitted rows: there
   * it takes its turn with the writers; PostgreSQL reads on a pooled connection at once.
   */
  read<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.serialize ? this.run(work) : work(this.dataSource.manager);
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

  /**
   * Runs `callback` if the transaction of `manager` (or, in a group, its own savepoint) rolls
   * back, before `run` rejects; never when `manager` is not in a transaction of this runner.
   * For in-process reservations made for the transaction's writes.
   */
  afterRollback(manager: EntityManager, callback: () => void): void {
    this.rolledBack.get(manager)?.push(callback);
  }

  /**
   * Starts collecting `manager`'s after-commit and after-rollback callbacks; the function it
   * returns ends that, running the committed or the rolled-back ones, once.
   */
  private openSettlement(manager: EntityManager): Settlement {
    const committed: Array<() => void> = [];
    const rolledBack: Array<() => void> = [];
    this.committed.set(manager, committed);
    this.rolledBack.set(manager, rolledBack);
    let settled = false;
    return (didCommit) => {
      if (settled) return;
      settled = true;
      // Registered later (a manager kept past its transaction): nothing left to wait for.
      this.committed.delete(manager);
      this.rolledBack.delete(manager);
      this.runCallbacks(didCommit ? committed : rolledBack);
    };
  }

  private async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    let settle: Settlement | undefined;
    let result: T;
    try {
      result = await this.dataSource.transaction((manager) => {
        settle = this.openSettlement(manager);
        return ambientTransaction.run(manager, () => work(manager));
      });
    } catch (error) {
      settle?.(false);
      throw error;
    }
    settle?.(true);
    return result;
  }

  private runCallbacks(callbacks: ReadonlyArray<() => void>): void {
    for (const callback of callbacks) {
      // The transaction is settled: a failing follower must not change its outcome.
      try {
        callback();
      } catch (error) {
        this.logger.error(`Work after a transaction failed: ${String(error)}`);
      }
    }
  }
}
