import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BuildingsModule } from '../buildings/buildings.module';
import { FloorsModule } from '../floors/floors.module';
import { Geofence } from './geofence.entity';
import { GeofenceChangeHooks } from './geofence-change-hooks';
import { GeofencesController } from './geofences.controller';
import { GeofencesService } from './geofences.service';

@Module({
  imports: [TypeOrmModule.forFeature([Geofence]), BuildingsModule, FloorsModule],
  controllers: [GeofencesController],
  providers: [GeofencesService, GeofenceChangeHooks],
  exports: [GeofencesService, GeofenceChangeHooks],
})
export class GeofencesModule {}
