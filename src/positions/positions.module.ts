import { Module } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BuildingsModule } from '../cartography/buildings/buildings.module';
import { PathsModule } from '../cartography/paths/paths.module';
import { SqlRunner } from '../database/sql-runner';
import { SqlDialect } from '../database/sql-dialect';
import { SqliteStatements } from '../database/sqlite-statements';
import { TransactionRunner } from '../database/transactions';
import { DeviceTagKey } from './device-tag-key.entity';
import { DeviceTagsRepository } from './device-tags.repository';
import { DeviceTrackStates } from './device-track-states.repository';
import { LiveDeviceLocator } from './live-device-locator';
import { LivePositionsRepository } from './live-positions.repository';
import { PositionRecord } from './position-record.entity';
import { PostgresRollupStore, RollupStore, SqliteRollupStore } from './position-rollup-store';
import { PositionRollups } from './position-rollups.service';
import { PositionStore } from './position-store';
import { PositionsController } from './positions.controller';
import { PositionsRetention } from './positions-retention.service';
import { PostgresPositionStore } from './postgres-position-store';
import { RealtimePositionsService } from './realtime-positions.service';
import { SqlitePositionStore } from './sqlite-position-store';
import { TagObservationsRepository } from './tag-observations.repository';
import { TagWindowsRepository } from './tag-windows.repository';

/** Where fixes are kept (the history, each device's newest fix, the rollups) and the live read. */
@Module({
  imports: [TypeOrmModule.forFeature([PositionRecord, DeviceTagKey]), BuildingsModule, PathsModule],
  controllers: [PositionsController],
  providers: [
    RealtimePositionsService,
    DeviceTrackStates,
    DeviceTagsRepository,
    TagObservationsRepository,
    TagWindowsRepository,
    LivePositionsRepository,
    LiveDeviceLocator,
    PositionsRetention,
    PositionRollups,
    {
      provide: RollupStore,
      inject: [getDataSourceToken(), SqlDialect, TransactionRunner, SqlRunner, SqliteStatements],
      useFactory: (dataSource: DataSource, dialect: SqlDialect, transactions: TransactionRunner, sql: SqlRunner, statements: SqliteStatements): RollupStore =>
        dialect.kind === 'sqlite' ? new SqliteRollupStore(transactions, statements, sql) : new PostgresRollupStore(dataSource, sql),
    },
    {
      provide: PositionStore,
      inject: [getDataSourceToken(), SqlDialect, TransactionRunner, SqlRunner, SqliteStatements],
      useFactory: (dataSource: DataSource, dialect: SqlDialect, transactions: TransactionRunner, sql: SqlRunner, statements: SqliteStatements): PositionStore =>
        dialect.kind === 'sqlite' ? new SqlitePositionStore(statements, transactions, dialect) : new PostgresPositionStore(dataSource, sql),
    },
  ],
  exports: [PositionsRetention, RealtimePositionsService, PositionRollups, PositionStore, DeviceTrackStates, DeviceTagsRepository, TagObservationsRepository, TagWindowsRepository],
})
export class PositionsModule {}
