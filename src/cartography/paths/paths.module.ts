import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BuildingsModule } from '../buildings/buildings.module';
import { DeviceLocations } from './device-locations';
import { DirectionsController } from './directions.controller';
import { DirectionsService } from './directions.service';
import { PathGraph } from './path-graph.entity';
import { PathsController } from './paths.controller';
import { PathsService } from './paths.service';
import { RouteGraphCache } from './route-graphs';

@Module({
  imports: [TypeOrmModule.forFeature([PathGraph]), BuildingsModule],
  controllers: [PathsController, DirectionsController],
  providers: [PathsService, DirectionsService, RouteGraphCache, DeviceLocations],
  exports: [DeviceLocations, DirectionsService],
})
export class PathsModule {}
