import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { appConfig, AppConfig } from '../config/app.config';
import { PositionRollups } from './position-rollups.service';
import { PositionStore } from './position-store';
import { DAY_MS } from '../common/time/durations';
import { TransactionRunner } from '../database/transactions';
import { TagWindowsRepository } from './tag-windows.repository';

const MAINTENANCE_INTERVAL_MS = 60 * 60_000;
/** Days of partitions created ahead of today. */
const DAYS_AHEAD = 2;

const dayStartOf = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * Keeps the position history within its retention: the store's days are prepared ahead (and on
 * demand for any day a batch needs) and the days past the retention removed, hourly, with the
 * rollups that summarize them (see the stores for how each database does it).
 */
@Injectable()
export class PositionsRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PositionsRetention.name);
  /** Days known to be prepared, so a batch checks a Set, not the database. */
  private readonly knownDays = new Set<number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly store: PositionStore,
    private readonly rollups: PositionRollups,
    private readonly transactions: TransactionRunner,
    private readonly tagWindows: TagWindowsRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.createPartitionsAhead();
    this.timer = setInterval(() => void this.maintain(), MAINTENANCE_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The hourly work: partitions for the coming days, then retention of the history and of its rollups. */
  async maintain(): Promise<void> {
    try {
      await this.createPartitionsAhead();
      await this.applyRetention();
    } catch (error) {
      this.logger.error(`Position history maintenance failed: ${(error as Error).message}`);
    }
    try {
      await this.rollups.applyRetention();
    } catch (error) {
      this.logger.error(`Position rollup retention failed: ${(error as Error).message}`);
    }
    try {
      await this.applyObservationRetention();
    } catch (error) {
      this.logger.error(`Gateway observation retention failed: ${(error as Error).message}`);
    }
  }

  /** Removes the gateways' observations of tags received longer ago than their retention (GATEWAY_OBSERVATION_RETENTION_HOURS). */
  async applyObservationRetention(now = Date.now()): Promise<void> {
    const before = now - this.config.mqtt.observationRetentionHours * 3_600_000;
    await this.transactions.run((manager) => this.tagWindows.removeReceivedBefore(manager, before));
  }

  /** Every day a fix may be reported for (the accepted age window) up to DAYS_AHEAD from now. */
  async createPartitionsAhead(now = Date.now()): Promise<void> {
    const { maxAgeSeconds, retentionDays } = this.config.positions;
    const first = dayStartOf(now - Math.min(maxAgeSeconds * 1000, retentionDays * DAY_MS));
    const days: number[] = [];
    for (let day = first; day <= dayStartOf(now) + DAYS_AHEAD * DAY_MS; day += DAY_MS) days.push(day);
    await this.createPartitions(days);
  }

  /** Makes sure the days of these times have partitions; a Set lookup when they do. */
  async ensurePartitionsFor(times: number[]): Promise<void> {
    const missing = new Set<number>();
    for (const time of times) {
      const day = dayStartOf(time);
      if (!this.knownDays.has(day)) missing.add(day);
    }
    if (missing.size > 0) await this.createPartitions([...missing]);
  }

  private async createPartitions(days: number[]): Promise<void> {
    const missing = days.filter((day) => !this.knownDays.has(day));
    if (missing.length === 0) return;
    await this.store.prepareDays(missing);
    for (const day of missing) this.knownDays.add(day);
  }

  /** Removes the history older than the retention; returns what it removed (whole days, or rows). */
  async applyRetention(now = Date.now()): Promise<{ partitionsDropped: string[]; rowsDeleted: number }> {
    const removed = await this.store.removeHistoryBefore(now - this.config.positions.retentionDays * DAY_MS);
    for (const day of removed.days) this.knownDays.delete(day);
    return { partitionsDropped: removed.partitionsDropped, rowsDeleted: removed.rowsDeleted };
  }
}
