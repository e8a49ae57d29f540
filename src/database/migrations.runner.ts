import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryRunner } from 'typeorm';
import { ADVISORY_LOCKS } from './advisory-locks';

const LOCK_WAIT_MS = 10 * 60_000;

/**
 * Applies pending migrations at start-up, before anything queries the schema. On
 * PostgreSQL an advisory lock lets several instances start together: one migrates, the
 * others wait and then find nothing left to do.
 */
@Injectable()
export class MigrationsRunner implements OnModuleInit {
  private readonly logger = new Logger(MigrationsRunner.name);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    if (this.dataSource.options.type !== 'postgres') {
      await this.migrate();
      return;
    }
    const lockRunner = this.dataSource.createQueryRunner();
    try {
      await this.acquireLock(lockRunner);
      await this.migrate();
    } finally {
      await lockRunner.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCKS.migrations]).catch(() => undefined);
      await lockRunner.release();
    }
  }

  // Polls instead of blocking in pg_advisory_lock, which the per-query timeout would cut short.
  private async acquireLock(runner: QueryRunner): Promise<void> {
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      const [row] = await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [ADVISORY_LOCKS.migrations]);
      if (row?.locked === true) return;
      if (Date.now() > deadline) throw new Error('Timed out waiting for another instance to finish the migrations');
      this.logger.log('Another instance is migrating the database; waiting');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  private async migrate(): Promise<void> {
    const applied = await this.dataSource.runMigrations({ transaction: 'each' });
    if (applied.length > 0) this.logger.log(`Applied migrations: ${applied.map((migration) => migration.name).join(', ')}`);
  }
}
