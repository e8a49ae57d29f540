import { Module } from '@nestjs/common';
import { GeofencingModule } from '../geofencing/geofencing.module';
import { NavigationModule } from '../navigation/navigation.module';
import { PositionsModule } from '../positions/positions.module';
import { FixPipeline } from './fix-pipeline';
import { FixPlaces } from './fix-places';
import { FixPlacesRepository } from './fix-places.repository';
import { PositionsIngestController } from './positions-ingest.controller';

/** The path of a fix, from the request to the events it fires (fix-pipeline.ts lists its stages). */
@Module({
  imports: [PositionsModule, GeofencingModule, NavigationModule],
  controllers: [PositionsIngestController],
  providers: [FixPipeline, FixPlaces, FixPlacesRepository],
  exports: [FixPipeline],
})
export class FixPipelineModule {}
