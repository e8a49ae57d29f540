import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BuildingsModule } from '../buildings/buildings.module';
import { FloorsModule } from '../floors/floors.module';
import { FixPipelineModule } from '../fix-pipeline/fix-pipeline.module';
import { BleBeacon } from './ble-beacon.entity';
import { InfrastructureController } from './infrastructure.controller';
import { InfrastructureService } from './infrastructure.service';
import { ScanPositioningService } from './scan-positioning.service';
import { ScansController } from './scans.controller';
import { ScansService } from './scans.service';
import { TransmitterSites } from './transmitter-sites';
import { WifiAccessPoint } from './wifi-access-point.entity';

@Module({
  imports: [TypeOrmModule.forFeature([WifiAccessPoint, BleBeacon]), BuildingsModule, FloorsModule, FixPipelineModule],
  controllers: [InfrastructureController, ScansController],
  providers: [InfrastructureService, ScanPositioningService, ScansService, TransmitterSites],
  exports: [InfrastructureService, ScanPositioningService],
})
export class InfrastructureModule {}
