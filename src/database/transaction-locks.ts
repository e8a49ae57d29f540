import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { lockXact, lockXactOnText, tryLockXact } from './advisory-locks';
import { KeyedQueue } from '../common/concurrency/keyed-queue';
import { SqlDialect } from './sql-dialect';

/**
 * Locks held until a transaction ends, so that instances take turns: PostgreSQL advisory locks.
 * On SQLite one process runs its write transactions one at a time, so every lock is already its.
 * Devices' evaluation locks: whatever reads and moves a device's fixes and visit states (the
 * ingest, the timer, fence writes) holds them, taken in sorted order so that transactions
 * sharing devices cannot deadlock. Work that one instance at a time does (retention, sweeps)
 * tries its key (ADVISORY_LOCKS) and skips its turn when another instance holds it.
 */
@Injectable()
export class TransactionLocks {
  /** PostgreSQL: work on the same devices on this instance queues here before it takes a connection. */
  private readonly turns = new KeyedQueue();

  constructor(private readonly dialect: SqlDialect) {}

  /**
   * Runs `work` once no earlier work of this instance on any of the devices is still under way
   * (PostgreSQL: a queued batch then waits in memory, not holding a pooled connection while it
   * waits for the lock; SQLite runs its write transactions one at a time anyway).
   */
  inTurn<T>(organizationId: string, deviceIds: readonly string[], work: () => Promise<T>): Promise<T> {
    if (this.dialect.kind !== 'postgres') return work();
    return this.turns.run(
      deviceIds.map((id) => `${organizationId}:${id}`),
      work,
    );
  }

  /** Waits for the key (work that one instance at a time does, but every instance must get to: the webhook claim). */
  async take(manager: EntityManager, key: number): Promise<void> {
    if (this.dialect.kind === 'postgres') await lockXact(manager, key);
  }

  /** Waits for a lock named by text (an organization's stream places, say). */
  async takeNamed(manager: EntityManager, name: string): Promise<void> {
    if (this.dialect.kind === 'postgres') await lockXactOnText(manager, name);
  }

  /** Takes the key if no other transaction holds it; false: another instance is doing this work. */
  async tryTake(manager: EntityManager, key: number): Promise<boolean> {
    return this.dialect.kind !== 'postgres' || tryLockXact(manager, key);
  }

  async lockDevices(manager: EntityManager, organizationId: string, deviceIds: readonly string[]): Promise<void> {
    if (this.dialect.kind !== 'postgres' || deviceIds.length === 0) return;
    await manager.query(`SELECT pg_advisory_xact_lock(k) FROM (SELECT DISTINCT hashtextextended($1::text || ':' || d, 7) AS k FROM unnest($2::text[]) AS d ORDER BY 1) AS keys`, [
      organizationId,
      [...deviceIds],
    ]);
  }
}
