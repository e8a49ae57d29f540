import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BuildingsModule } from '../buildings/buildings.module';
import { metricsRegistry } from '../../common/metrics/metrics.registry';
import { FloorsModule } from '../floors/floors.module';
import { registerGeofenceBodyMetrics } from './geofence-bodies.metrics';
import { Geofence } from './geofence.entity';
import { GeofenceChangeHooks } from './geofence-change-hooks';
import { GeofencesController } from './geofences.controller';
import { GeofencesRepository } from './geofences.repository';
import { GeofencesService } from './geofences.service';

@Module({
  imports: [TypeOrmModule.forFeature([Geofence]), BuildingsModule, FloorsModule],
  controllers: [GeofencesController],
  providers: [GeofencesService, GeofencesRepository, GeofenceChangeHooks],
  exports: [GeofencesService, GeofenceChangeHooks],
})
export class GeofencesModule implements OnModuleInit {
  onModuleInit(): void {
    registerGeofenceBodyMetrics(metricsRegistry);
  }
}
