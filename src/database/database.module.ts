import { Global, Module } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { databaseConfig, DatabaseConfig } from '../config/database.config';
import { TransactionLocks } from './transaction-locks';
import { MigrationsRunner } from './migrations.runner';
import { NotificationBus } from './notification-bus';
import { PreparedQueries } from './prepared-queries';
import { dialectOf, SqlDialect } from './sql-dialect';
import { SqliteCheckpointer } from './sqlite-checkpointer';
import { SqliteStatements } from './sqlite-statements';
import { SqlRunner } from './sql-runner';
import { TransactionRunner } from './transactions';
import { buildDataSourceOptions } from './typeorm-options';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [databaseConfig.KEY],
      useFactory: (config: DatabaseConfig) => ({
        ...buildDataSourceOptions(config),
        // Each feature module registers its own entities (TypeOrmModule.forFeature).
        autoLoadEntities: true,
        migrationsTransactionMode: 'each' as const,
        // Fail fast when the database is down at start-up instead of retrying for minutes.
        retryAttempts: 2,
        retryDelay: 1000,
      }),
    }),
  ],
  providers: [
    TransactionRunner,
    MigrationsRunner,
    PreparedQueries,
    NotificationBus,
    SqliteCheckpointer,
    TransactionLocks,
    SqliteStatements,
    SqlRunner,
    // The SQL dialect, chosen once from the configured database.
    { provide: SqlDialect, inject: [getDataSourceToken()], useFactory: (dataSource: DataSource) => dialectOf(dataSource) },
  ],
  exports: [TransactionRunner, PreparedQueries, NotificationBus, TransactionLocks, SqlDialect, SqliteStatements, SqlRunner],
})
export class DatabaseModule {}
