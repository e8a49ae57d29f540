import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { appConfig, AppConfig } from '../../config/app.config';
import { TransactionRunner } from '../../database/transactions';
import { Clock, ENGINE_CLOCK } from '../engine/clock';
import { GeofenceEvaluator } from './geofence-evaluator.service';
import { ADVISORY_LOCKS } from '../../database/advisory-locks';
import { TransactionLocks } from '../../database/transaction-locks';

/** Devices per sweep transaction: keeps each short while a backlog (after a restart) drains. */
const SWEEP_BATCH = 200;

/**
 * The server timer of contract 7.2: fires due dwell, exit-grace and stale deadlines even
 * when no fix arrives. Deadlines live in the state rows, so a restart loses none. On
 * PostgreSQL every instance ticks but only the one holding the sweep lock works, and it
 * takes each device's evaluation lock too, so a deadline fires once across instances and
 * never races an ingest of the same device.
 */
@Injectable()
export class GeofenceDeadlineSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(GeofenceDeadlineSweeper.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly transactions: TransactionRunner,
    private readonly evaluator: GeofenceEvaluator,
    private readonly locks: TransactionLocks,
    @Inject(ENGINE_CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.geofencing.sweeperEnabled) return;
    this.stopped = false;
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pause();
  }

  /** Stops the ticks until `resume` (a sweep under way ends first), like the webhook worker's pause. */
  async pause(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  resume(): void {
    if (!this.config.geofencing.sweeperEnabled || !this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** One sweep now: fires everything due at `now`, batch after batch. Answers whether this instance held the lock. */
  async sweep(now = this.clock.now()): Promise<boolean> {
    for (;;) {
      const taken = await this.transactions.run(async (manager) => {
        if (!(await this.locks.tryTake(manager, ADVISORY_LOCKS.deadlineSweep))) return null;
        return this.evaluator.fireDue(manager, now, SWEEP_BATCH);
      });
      if (taken === null) return false;
      if (taken < SWEEP_BATCH) return true;
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.sweep()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.warn(`Sweeping geofence deadlines failed: ${String(error)}`))
        .finally(() => {
          this.running = null;
          this.schedule(this.config.geofencing.sweepIntervalMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}
