import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { KeyedTurns } from '../common/concurrency/keyed-turns';
import { SqlDialect } from './sql-dialect';

/**
 * Devices' evaluation locks: whatever reads and moves a device's fixes and visit states (the
 * ingest, the timer, fence writes) holds them until its transaction ends, so two instances take
 * turns per device. PostgreSQL advisory locks, taken in sorted order so that transactions sharing
 * devices cannot deadlock; on SQLite the process runs its write transactions one at a time.
 */
@Injectable()
export class DeviceLocks {
  /** PostgreSQL: work on the same devices on this instance queues here before it takes a connection. */
  private readonly turns = new KeyedTurns();

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

  async lock(manager: EntityManager, organizationId: string, deviceIds: readonly string[]): Promise<void> {
    if (this.dialect.kind !== 'postgres' || deviceIds.length === 0) return;
    await manager.query(
      `SELECT pg_advisory_xact_lock(k) FROM (SELECT DISTINCT hashtextextended($1::text || ':' || d, 7) AS k FROM unnest($2::text[]) AS d ORDER BY 1) AS keys`,
      [organizationId, [...deviceIds]],
    );
  }
}
