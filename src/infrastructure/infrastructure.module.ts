import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BuildingsModule } from '../cartography/buildings/buildings.module';
import { FloorsModule } from '../cartography/floors/floors.module';
import { FixPipelineModule } from '../fix-pipeline/fix-pipeline.module';
import { PositionsModule } from '../positions/positions.module';
import { BleBeacon } from './ble-beacon.entity';
import { Gateway } from './gateway.entity';
import { GatewayHealthRepository } from './gateway-health.repository';
import { GatewayIngestController } from './gateway-ingest.controller';
import { GatewayIngestService } from './gateway-ingest.service';
import { GatewaysController } from './gateways.controller';
import { GatewaysService } from './gateways.service';
import { InfrastructureController } from './infrastructure.controller';
import { InfrastructureService } from './infrastructure.service';
import { ScanPositioningService } from './scan-positioning.service';
import { ScansController } from './scans.controller';
import { ScansService } from './scans.service';
import { TransmitterSites } from './transmitter-sites';
import { TransmitterSitesRepository } from './transmitter-sites.repository';
import { TrackingSettingsRepository } from './tracking-settings.repository';
import { WifiAccessPoint } from './wifi-access-point.entity';
import { RadioModelRecord } from './radio-model.entity';
import { RadioModelsRepository } from './radio-models.repository';
import { RadioModelsService } from './radio-models.service';
import { RadioModelController } from './radio-model.controller';
import { ReferencePoint } from './reference-point.entity';
import { ReferencePointsController } from './reference-points.controller';
import { ReferencePointsRepository } from './reference-points.repository';
import { ReferencePointsService } from './reference-points.service';
import { ScanTracking } from './scan-tracking';
import { TagLocatingService } from './tag-locating.service';
import { TrackingSettingsController } from './tracking-settings.controller';
import { TrackingSettingsService } from './tracking-settings.service';

@Module({
  imports: [TypeOrmModule.forFeature([WifiAccessPoint, BleBeacon, Gateway, ReferencePoint, RadioModelRecord]), BuildingsModule, FloorsModule, FixPipelineModule, PositionsModule],
  controllers: [
    GatewaysController,
    GatewayIngestController,
    InfrastructureController,
    ScansController,
    ReferencePointsController,
    RadioModelController,
    TrackingSettingsController,
  ],
  providers: [
    InfrastructureService,
    GatewaysService,
    GatewayIngestService,
    GatewayHealthRepository,
    ScanPositioningService,
    ScansService,
    ScanTracking,
    TagLocatingService,
    TrackingSettingsService,
    TransmitterSites,
    TransmitterSitesRepository,
    TrackingSettingsRepository,
    RadioModelsRepository,
    RadioModelsService,
    ReferencePointsRepository,
    ReferencePointsService,
  ],
  exports: [InfrastructureService, ScanPositioningService, GatewayIngestService],
})
export class InfrastructureModule {}
