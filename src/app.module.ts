import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { DiscoveryModule } from '@nestjs/core';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { BuildingsModule } from './buildings/buildings.module';
import { FloorsModule } from './floors/floors.module';
import { GeofencesModule } from './geofences/geofences.module';
import { RouteDeclarations } from './auth/route-declarations';
import { appConfig } from './config/app.config';
import { authConfig } from './config/auth.config';
import { databaseConfig } from './config/database.config';
import { setupConfig } from './config/setup.config';
import { storageConfig } from './config/storage.config';
import { DatabaseModule } from './database/database.module';
import { GroupsModule } from './groups/groups.module';
import { HealthModule } from './health/health.module';
import { ImagesModule } from './images/images.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { PathsModule } from './paths/paths.module';
import { PoiCategoriesModule } from './poi-categories/poi-categories.module';
import { PoisModule } from './pois/pois.module';
import { SetupModule } from './setup/setup.module';
import { UsersModule } from './users/users.module';
import { VersionModule } from './version/version.module';
import { SanitizerModule } from './common/html/sanitizer.module';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [appConfig, authConfig, databaseConfig, setupConfig, storageConfig] }),
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
    ImagesModule,
    PoiCategoriesModule,
    PoisModule,
    PathsModule,
    VersionModule,
    HealthModule,
    SetupModule,
  ],
  providers: [RouteDeclarations],
})
export class AppModule {}
