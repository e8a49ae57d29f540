import { Module } from '@nestjs/common';
import { BuildingsModule } from '../buildings/buildings.module';
import { GeofencingModule } from '../geofencing/geofencing.module';
import { PositionRollups } from './position-rollups.service';
import { PositionsController } from './positions.controller';
import { PositionsIngestService } from './positions-ingest.service';
import { PositionsRetention } from './positions-retention.service';
import { RealtimePositionsService } from './realtime-positions.service';

@Module({
  imports: [BuildingsModule, GeofencingModule],
  controllers: [PositionsController],
  providers: [PositionsIngestService, RealtimePositionsService, PositionsRetention, PositionRollups],
  exports: [PositionsRetention, PositionsIngestService, RealtimePositionsService, PositionRollups],
})
export class PositionsModule {}
