import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { appConfig, AppConfig } from '../config/app.config';
import { TransactionRunner } from '../database/transactions';
import { PositionRollups } from './position-rollups.service';
import { timestampParameter } from './position-sql';
import { ADVISORY_LOCKS, lockXact, tryLockXact } from '../database/advisory-locks';

const DAY_MS = 86_400_000;
/** Names the PostgreSQL advisory locks of this work (any constant shared by every instance). */
const MAINTENANCE_INTERVAL_MS = 60 * 60_000;
/** Days of partitions created ahead of today. */
const DAYS_AHEAD = 2;
/** SQLite: rows deleted per statement, so retention never holds the single writer for long. */
const SQLITE_DELETE_BATCH = 5000;

/** `position_history_20261123` for the day that starts at `dayStart` (UTC). */
export const partitionName = (dayStart: number): string => `position_history_${new Date(dayStart).toISOString().slice(0, 10).replaceAll('-', '')}`;
const dayStartOf = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * Keeps the position history within its retention. On PostgreSQL the history is
 * partitioned by day: partitions are created ahead (and on demand for any day a batch
 * needs) and retention drops whole partitions; both run under advisory locks so several
 * instances never collide. On SQLite old rows are deleted in batches through the
 * (organization_id, time) index.
 */
@Injectable()
export class PositionsRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PositionsRetention.name);
  private readonly postgres: boolean;
  /** Days known to have a partition (PostgreSQL), so a batch checks a Set, not the catalog. */
  private readonly knownDays = new Set<number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly transactions: TransactionRunner,
    private readonly rollups: PositionRollups,
  ) {
    this.postgres = dataSource.options.type === 'postgres';
  }

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
  }

  /** Every day a fix may be reported for (the accepted age window) up to DAYS_AHEAD from now. */
  async createPartitionsAhead(now = Date.now()): Promise<void> {
    if (!this.postgres) return;
    const { maxAgeSeconds, retentionDays } = this.config.positions;
    const first = dayStartOf(now - Math.min(maxAgeSeconds * 1000, retentionDays * DAY_MS));
    const days: number[] = [];
    for (let day = first; day <= dayStartOf(now) + DAYS_AHEAD * DAY_MS; day += DAY_MS) days.push(day);
    await this.createPartitions(days);
  }

  /** Makes sure the days of these times have partitions; a Set lookup when they do. */
  async ensurePartitionsFor(times: number[]): Promise<void> {
    if (!this.postgres) return;
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
    await this.dataSource.transaction(async (manager) => {
      // Serializes creation across instances: CREATE TABLE IF NOT EXISTS alone can still race on the catalog.
      await lockXact(manager, ADVISORY_LOCKS.historyPartitions);
      for (const day of missing) {
        const from = new Date(day).toISOString();
        const to = new Date(day + DAY_MS).toISOString();
        await manager.query(`CREATE TABLE IF NOT EXISTS "${partitionName(day)}" PARTITION OF position_history FOR VALUES FROM ('${from}') TO ('${to}')`);
      }
    });
    for (const day of missing) this.knownDays.add(day);
  }

  /** Drops (PostgreSQL) or deletes (SQLite) the history older than the retention; returns what it removed. */
  async applyRetention(now = Date.now()): Promise<{ partitionsDropped: string[]; rowsDeleted: number }> {
    const cutoff = now - this.config.positions.retentionDays * DAY_MS;
    if (this.postgres) return { partitionsDropped: await this.dropPartitionsBefore(cutoff), rowsDeleted: 0 };
    return { partitionsDropped: [], rowsDeleted: await this.deleteRowsBefore(cutoff) };
  }

  /** Whole partitions whose day ended before the cutoff; another instance holding the lock does it instead. */
  private async dropPartitionsBefore(cutoff: number): Promise<string[]> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await tryLockXact(manager, ADVISORY_LOCKS.historyRetention))) return [];
      const rows: Array<{ name: string }> = await manager.query(
        `SELECT child.relname AS name FROM pg_inherits i
           JOIN pg_class child ON child.oid = i.inhrelid
           JOIN pg_class parent ON parent.oid = i.inhparent
         WHERE parent.relname = 'position_history'`,
      );
      const dropped: string[] = [];
      for (const { name } of rows) {
        const match = /^position_history_(\d{4})(\d\d)(\d\d)$/.exec(name);
        if (!match) continue;
        const dayEnd = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) + DAY_MS;
        if (dayEnd > cutoff) continue;
        await manager.query(`DROP TABLE IF EXISTS "${name}"`);
        this.knownDays.delete(dayEnd - DAY_MS);
        dropped.push(name);
      }
      return dropped;
    });
  }

  private async deleteRowsBefore(cutoff: number): Promise<number> {
    const before = timestampParameter('sqlite', cutoff);
    const organizations: Array<{ id: string }> = await this.dataSource.query('SELECT id FROM organizations');
    let total = 0;
    for (const { id } of organizations) {
      for (;;) {
        // Through the transaction runner: on SQLite's one connection, a statement sent while
        // another unit of work awaits would otherwise land inside that transaction.
        const changes = await this.transactions.run(async (manager) => {
          const result = await manager.queryRunner!.query(
            `DELETE FROM position_history WHERE rowid IN (SELECT rowid FROM position_history WHERE organization_id = ? AND "time" < ? LIMIT ${SQLITE_DELETE_BATCH})`,
            [id, before],
            true,
          );
          return Number(result.affected ?? 0);
        });
        total += changes;
        if (changes < SQLITE_DELETE_BATCH) break;
      }
    }
    return total;
  }
}
