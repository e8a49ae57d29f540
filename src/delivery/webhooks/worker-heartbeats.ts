import { Logger } from '@nestjs/common';
import { TransactionRunner } from '../../database/transactions';

/** A worker that missed this many heartbeats in a row is taken for dead. */
export const MISSED_HEARTBEATS = 4;

const BEAT = `INSERT INTO worker_heartbeats (instance, heartbeat_at) VALUES (:instance, :now)
  ON CONFLICT (instance) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`;
const DEAD = 'SELECT instance FROM worker_heartbeats WHERE heartbeat_at < :staleBefore';
// Through the due index: only pending and failed deliveries hold leases that matter.
const RELEASE_DEAD = `UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL
  WHERE status IN ('pending', 'failed') AND lease_owner IN (SELECT instance FROM worker_heartbeats WHERE heartbeat_at < :staleBefore)`;
const FORGET_DEAD = 'DELETE FROM worker_heartbeats WHERE heartbeat_at < :staleBefore';
const RELEASE_ALL = `UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL WHERE status IN ('pending', 'failed') AND lease_owner IS NOT NULL`;

/**
 * Liveness of the webhook workers, so that a crashed one's leases do not hold its deliveries
 * until they lapse (a lease outlasts the longest attempt: a minute by default). Every worker
 * renews its row every `heartbeatMs`; at each beat, the leases of workers whose row is older
 * than MISSED_HEARTBEATS beats are given back, and those rows forgotten, and the worker claims
 * them at once. A worker's deliveries are free again at most MISSED_HEARTBEATS + 1 beats after
 * its last one. On SQLite one process serves the database, so a starting worker
 * gives back every lease at once (only a process that died can have left them) and never beats.
 */
export class WorkerHeartbeats {
  private readonly logger = new Logger('Webhooks');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly instance: string,
    private readonly transactions: TransactionRunner,
    private readonly postgres: boolean,
    private readonly heartbeatMs: number,
    /** Told when leases were given back, so that they are claimed now rather than at the next poll. */
    private readonly onReleased: () => void,
  ) {}

  async start(): Promise<void> {
    // SQLite: no other process can hold a lease once we hold DATA_DIR, so there is nobody to beat for.
    if (!this.postgres) {
      await this.transactions.run((manager) => manager.query(RELEASE_ALL));
      return;
    }
    await this.beat();
    this.resume();
  }

  /** Stops beating for a while (a paused worker holds no lease). */
  suspend(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  resume(): void {
    if (this.timer || !this.postgres) return;
    this.timer = setInterval(() => void this.beat().catch((error: unknown) => this.logger.warn(`worker heartbeat failed: ${String(error)}`)), this.heartbeatMs);
    this.timer.unref();
  }

  /** Stops beating and removes this worker's row (its leases were given back by the worker). */
  async stop(): Promise<void> {
    this.suspend();
    if (!this.postgres) return;
    await this.transactions
      .run((manager) => manager.query(...this.transactions.escape('DELETE FROM worker_heartbeats WHERE instance = :instance', { instance: this.instance })))
      .catch((error: unknown) => this.logger.warn(`could not remove the worker heartbeat: ${String(error)}`));
  }

  /** Renews this worker's row; gives back the leases of workers whose heartbeat stopped. Returns how many were given back. */
  async beat(): Promise<number> {
    const now = Date.now();
    const staleBefore = now - MISSED_HEARTBEATS * this.heartbeatMs;
    const released = await this.transactions.run(async (manager) => {
      await manager.query(...this.transactions.escape(BEAT, { instance: this.instance, now }));
      const dead = (await manager.query(...this.transactions.escape(DEAD, { staleBefore }))) as Array<{ instance: string }>;
      if (dead.length === 0) return 0;
      const result = (await manager.query(...this.transactions.escape(RELEASE_DEAD, { staleBefore }))) as unknown;
      await manager.query(...this.transactions.escape(FORGET_DEAD, { staleBefore }));
      const released = affectedRows(result);
      this.logger.warn(`gave back ${released} delivery leases of stopped webhook workers: ${dead.map((row) => row.instance).join(', ')}`);
      return released;
    });
    if (released > 0) this.onReleased();
    return released;
  }
}

/** Rows an UPDATE changed, as TypeORM's drivers report it ([rows, count] on PostgreSQL; an object on SQLite). */
function affectedRows(result: unknown): number {
  if (Array.isArray(result) && typeof result[1] === 'number') return result[1];
  if (result && typeof result === 'object' && 'changes' in result) return Number((result as { changes: number }).changes);
  return 0;
}
