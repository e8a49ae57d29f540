import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseConfig, DatabaseConfig } from '../config/database.config';
import { MigrationsRunner } from './migrations.runner';
import { Notifications } from './notifications';
import { PreparedQueries } from './prepared-queries';
import { ReportQueries } from './report-queries';
import { SqliteCheckpointer } from './sqlite-checkpointer';
import { TransactionRunner } from './transactions';
import { buildDataSourceOptions } from './typeorm-options';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [databaseConfig.KEY],
      useFactory: (config: DatabaseConfig) => ({
        ...buildDataSourceOptions(config),
        migrationsTransactionMode: 'each' as const,
        // Fail fast when the database is down at start-up instead of retrying for minutes.
        retryAttempts: 2,
        retryDelay: 1000,
      }),
    }),
  ],
  providers: [TransactionRunner, MigrationsRunner, PreparedQueries, Notifications, ReportQueries, SqliteCheckpointer],
  exports: [TransactionRunner, PreparedQueries, Notifications, ReportQueries],
})
export class DatabaseModule {}
