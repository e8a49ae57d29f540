import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { appConfig, AppConfig } from '../../config/app.config';
import { ADVISORY_LOCKS } from '../../database/advisory-locks';
import { TransactionLocks } from '../../database/transaction-locks';
import { TransactionRunner } from '../../database/transactions';
import { DAY_MS } from '../../common/time/durations';
import { GeofenceEventRetentionRepository } from './event-retention.repository';

const MAINTENANCE_INTERVAL_MS = 60 * 60_000;
/** Events looked at (and at most deleted) per transaction, so retention never holds a writer for long. */
const RETENTION_BATCH = 5000;

/**
 * Keeps the geofence event log within GEOFENCE_EVENT_RETENTION_DAYS (contract 7.3). The log
 * is cut from its oldest end, in seq order, while events were detected before the cutoff: what
 * is left is always every event after some seq, so "the cursor is older than the retention"
 * is exact (`GeofenceEventLog` answers 410 `cursor_expired`). Each batch holds the retention's
 * lock (TransactionLocks): one instance works, the others skip.
 */
@Injectable()
export class GeofenceEventRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(GeofenceEventRetention.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | null = null;

  constructor(
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly transactions: TransactionRunner,
    private readonly locks: TransactionLocks,
    private readonly events: GeofenceEventRetentionRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.applyRetention()
        .catch((error: unknown) => this.logger.error(`Geofence event retention failed: ${(error as Error).message}`))
        .finally(() => (this.running = null));
    }, MAINTENANCE_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /**
   * Deletes every organization's events detected before `now` minus the retention, from the
   * oldest on; answers how many it deleted (0 when another instance holds the lock).
   */
  async applyRetention(now = Date.now()): Promise<number> {
    const cutoff = new Date(now - this.config.geofencing.eventRetentionDays * DAY_MS);
    const organizations = await this.events.organizations();
    let total = 0;
    for (const organizationId of organizations) {
      for (;;) {
        const batch = await this.transactions.run(async (manager) => {
          if (!(await this.locks.tryTake(manager, ADVISORY_LOCKS.eventRetention))) return null;
          // The oldest events by seq, each marked expired or not.
          const rows = await this.events.oldest(manager, organizationId, cutoff, RETENTION_BATCH);
          // Cut at the first event still retained: the log keeps no gap below its oldest event.
          let expired = 0;
          while (expired < rows.length && Number(rows[expired].expired) === 1) expired += 1;
          if (expired > 0) await this.events.deleteThrough(manager, organizationId, Number(rows[expired - 1].seq));
          return { deleted: expired, more: expired === RETENTION_BATCH };
        });
        if (batch === null) return total;
        total += batch.deleted;
        if (!batch.more) break;
      }
    }
    if (total > 0) this.logger.log(`Deleted ${total} geofence events older than ${this.config.geofencing.eventRetentionDays} days`);
    return total;
  }
}
