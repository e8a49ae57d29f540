import { Module } from '@nestjs/common';
import { BuildingsModule } from '../buildings/buildings.module';
import { FloorsModule } from '../floors/floors.module';
import { InfrastructureController } from './infrastructure.controller';
import { InfrastructureService } from './infrastructure.service';
import { ScanPositioningService } from './scan-positioning.service';

@Module({
  imports: [BuildingsModule, FloorsModule],
  controllers: [InfrastructureController],
  providers: [InfrastructureService, ScanPositioningService],
  exports: [InfrastructureService, ScanPositioningService],
})
export class InfrastructureModule {}
