import { Logger } from '@nestjs/common';
import { TransactionRunner } from '../../database/transactions';
import { WorkerHeartbeatsRepository } from './worker-heartbeats.repository';

/** A worker that missed this many heartbeats in a row is taken for dead. */
export const MISSED_HEARTBEATS = 4;

/**
 * How the leases of a worker that died (a crash, a SIGKILL) are given back, so that they do not
 * hold its deliveries until they lapse (a lease outlasts the longest attempt: a minute by default).
 */
export abstract class WorkerLiveness {
  /** Before the first claim; `onReleased` is told when leases were given back, so that they are claimed now rather than at the next poll. */
  abstract start(instance: string, onReleased: () => void): Promise<void>;
  /** Stops telling others this worker is alive for a while (a paused worker holds no lease). */
  abstract suspend(): void;
  abstract resume(): void;
  /** This worker stops (its leases were given back by the worker). */
  abstract stop(): Promise<void>;
}

/**
 * PostgreSQL: every worker renews its row every `heartbeatMs`; at each beat, the leases of
 * workers whose row is older than MISSED_HEARTBEATS beats are given back, and those rows
 * forgotten. A worker's deliveries are free again at most MISSED_HEARTBEATS + 1 beats after its
 * last one.
 */
export class WorkerHeartbeats extends WorkerLiveness {
  private readonly logger = new Logger('Webhooks');
  private timer: NodeJS.Timeout | null = null;
  private instance = '';
  private onReleased: () => void = () => undefined;

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly heartbeats: WorkerHeartbeatsRepository,
    private readonly heartbeatMs: number,
  ) {
    super();
  }

  async start(instance: string, onReleased: () => void): Promise<void> {
    this.instance = instance;
    this.onReleased = onReleased;
    await this.beat();
    this.resume();
  }

  suspend(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  resume(): void {
    if (this.timer || this.instance === '') return;
    this.timer = setInterval(() => void this.beat().catch((error: unknown) => this.logger.warn(`worker heartbeat failed: ${String(error)}`)), this.heartbeatMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.suspend();
    if (this.instance === '') return;
    await this.transactions
      .run((manager) => this.heartbeats.forget(manager, this.instance))
      .catch((error: unknown) => this.logger.warn(`could not remove the worker heartbeat: ${String(error)}`));
  }

  /** Renews this worker's row; gives back the leases of workers whose heartbeat stopped. Returns how many were given back. */
  async beat(): Promise<number> {
    const now = Date.now();
    const staleBefore = now - MISSED_HEARTBEATS * this.heartbeatMs;
    const released = await this.transactions.run(async (manager) => {
      await this.heartbeats.beat(manager, this.instance, now);
      const dead = await this.heartbeats.dead(manager, staleBefore);
      if (dead.length === 0) return 0;
      const released = await this.heartbeats.releaseDead(manager, staleBefore);
      this.logger.warn(`gave back ${released} delivery leases of stopped webhook workers: ${dead.join(', ')}`);
      return released;
    });
    if (released > 0) this.onReleased();
    return released;
  }
}

/**
 * SQLite: one process serves the database (it holds DATA_DIR), so a starting worker gives back
 * every lease at once (only a process that died can have left them) and never beats.
 */
export class SoleWorker extends WorkerLiveness {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly heartbeats: WorkerHeartbeatsRepository,
  ) {
    super();
  }

  async start(): Promise<void> {
    await this.transactions.run((manager) => this.heartbeats.releaseAll(manager));
  }

  suspend(): void {}

  resume(): void {}

  async stop(): Promise<void> {}
}
