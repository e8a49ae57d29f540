import { Module } from '@nestjs/common';
import { BuildingsModule } from '../cartography/buildings/buildings.module';
import { GeofencingAnalyticsModule } from './analytics/analytics.module';
import { BuildingReports } from './building-reports';
import { BuildingReportsController } from './building-reports.controller';
import { BuildingReportsRepository } from './building-reports.repository';
import { GeofencingReports } from './geofencing-reports';
import { HeatmapsModule } from './heatmaps/heatmaps.module';
import { ReportsController } from './reports.controller';
import { ReportWorkerModule } from './worker/report-worker.module';
import { UserPositionsReport } from './user-positions.report';
import { UserPositionsRepository } from './user-positions.repository';

@Module({
  imports: [BuildingsModule, GeofencingAnalyticsModule, HeatmapsModule, ReportWorkerModule],
  controllers: [ReportsController, BuildingReportsController],
  providers: [UserPositionsReport, GeofencingReports, BuildingReports, UserPositionsRepository, BuildingReportsRepository],
})
export class ReportsModule {}
