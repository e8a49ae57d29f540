import { Module } from '@nestjs/common';
import { BuildingsModule } from '../buildings/buildings.module';
import { FloorsModule } from '../floors/floors.module';
import { PositionsModule } from '../positions/positions.module';
import { InfrastructureController } from './infrastructure.controller';
import { InfrastructureService } from './infrastructure.service';
import { ScanPositioningService } from './scan-positioning.service';
import { ScansController } from './scans.controller';
import { ScansService } from './scans.service';
import { TransmitterSites } from './transmitter-sites';
import { RadioModelsRepository } from './radio-models.repository';
import { RadioModelsService } from './radio-models.service';
import { RadioModelController } from './radio-model.controller';
import { ReferencePointsController } from './reference-points.controller';
import { ReferencePointsRepository } from './reference-points.repository';
import { ReferencePointsService } from './reference-points.service';

@Module({
  imports: [BuildingsModule, FloorsModule, PositionsModule],
  controllers: [InfrastructureController, ScansController, ReferencePointsController, RadioModelController],
  providers: [InfrastructureService, ScanPositioningService, ScansService, TransmitterSites, RadioModelsRepository, RadioModelsService, ReferencePointsRepository, ReferencePointsService],
  exports: [InfrastructureService, ScanPositioningService],
})
export class InfrastructureModule {}
