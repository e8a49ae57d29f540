import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlRunner } from '../../database/sql-runner';
import { statement } from '../../database/statements';

const BEAT = statement(
  'worker-heartbeats.beat',
  `INSERT INTO worker_heartbeats (instance, heartbeat_at) VALUES (:instance, :now)
  ON CONFLICT (instance) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`,
);
const DEAD = statement('worker-heartbeats.dead', 'SELECT instance FROM worker_heartbeats WHERE heartbeat_at < :staleBefore');
// Through the due index: only pending and failed deliveries hold leases that matter.
const RELEASE_DEAD = statement(
  'worker-heartbeats.release-dead',
  `UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL
  WHERE status IN ('pending', 'failed') AND lease_owner IN (SELECT instance FROM worker_heartbeats WHERE heartbeat_at < :staleBefore)
  RETURNING id`,
);
const FORGET_DEAD = statement('worker-heartbeats.forget-dead', 'DELETE FROM worker_heartbeats WHERE heartbeat_at < :staleBefore');
const FORGET = statement('worker-heartbeats.forget', 'DELETE FROM worker_heartbeats WHERE instance = :instance');
const RELEASE_ALL = statement(
  'worker-heartbeats.release-all',
  `UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL WHERE status IN ('pending', 'failed') AND lease_owner IS NOT NULL`,
);

/** The `worker_heartbeats` table (epoch milliseconds per running worker) and the leases of the workers it shows dead. */
@Injectable()
export class WorkerHeartbeatsRepository {
  constructor(private readonly sql: SqlRunner) {}

  async beat(manager: EntityManager, instance: string, now: number): Promise<void> {
    await this.sql.query(manager, BEAT, { instance, now });
  }

  /** The workers whose last beat is older than `staleBefore`. */
  async dead(manager: EntityManager, staleBefore: number): Promise<string[]> {
    return (await this.sql.query<{ instance: string }>(manager, DEAD, { staleBefore })).map((row) => row.instance);
  }

  /** Gives back the leases of those workers and forgets them; returns how many leases were given back. */
  async releaseDead(manager: EntityManager, staleBefore: number): Promise<number> {
    const released = await this.sql.returning(manager, RELEASE_DEAD, { staleBefore });
    await this.sql.query(manager, FORGET_DEAD, { staleBefore });
    return released.length;
  }

  async forget(manager: EntityManager, instance: string): Promise<void> {
    await this.sql.query(manager, FORGET, { instance });
  }

  /** Every lease given back (SQLite at start: only a process that died can have left one). */
  async releaseAll(manager: EntityManager): Promise<void> {
    await this.sql.query(manager, RELEASE_ALL);
  }
}
