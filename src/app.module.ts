import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { DiscoveryModule } from '@nestjs/core';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { BuildingsModule } from './cartography/buildings/buildings.module';
import { FloorsModule } from './cartography/floors/floors.module';
import { GeofencesModule } from './cartography/geofences/geofences.module';
import { GeofencingModule } from './geofencing/geofencing.module';
import { RouteDeclarations } from './access/route-declarations';
import { appConfig } from './config/app.config';
import { authConfig } from './config/auth.config';
import { databaseConfig } from './config/database.config';
import { setupConfig } from './config/setup.config';
import { storageConfig } from './config/storage.config';
import { webhooksConfig } from './config/webhooks.config';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { DatabaseModule } from './database/database.module';
import { DeliveryModule } from './delivery/delivery.module';
import { StreamsModule } from './delivery/streams/streams.module';
import { GroupsModule } from './users/groups/groups.module';
import { HealthModule } from './health/health.module';
import { ImagesModule } from './images/images.module';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { PathsModule } from './cartography/paths/paths.module';
import { PoiCategoriesModule } from './cartography/poi-categories/poi-categories.module';
import { PoisModule } from './cartography/pois/pois.module';
import { SetupModule } from './setup/setup.module';
import { UsersModule } from './users/users.module';
import { VersionModule } from './version/version.module';
import { DevicesModule } from './devices/devices.module';
import { PositionsModule } from './positions/positions.module';
import { NavigationModule } from './navigation/navigation.module';
import { FixPipelineModule } from './fix-pipeline/fix-pipeline.module';
import { ReportsModule } from './reports/reports.module';
import { SanitizerModule } from './common/html/sanitizer.module';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [appConfig, authConfig, databaseConfig, setupConfig, storageConfig, webhooksConfig] }),
    DiscoveryModule,
    DatabaseModule,
    SanitizerModule,
    AuditModule,
    AuthModule,
    UsersModule,
    GroupsModule,
    OrganizationsModule,
    BuildingsModule,
    FloorsModule,
    GeofencesModule,
    GeofencingModule,
    StreamsModule,
    ImagesModule,
    PoiCategoriesModule,
    PoisModule,
    PathsModule,
    NavigationModule,
    DeliveryModule,
    InfrastructureModule,
    DevicesModule,
    PositionsModule,
    FixPipelineModule,
    ReportsModule,
    VersionModule,
    HealthModule,
    SetupModule,
    IdempotencyModule,
  ],
  providers: [RouteDeclarations],
})
export class AppModule {}
