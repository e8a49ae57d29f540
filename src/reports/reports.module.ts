import { Module } from '@nestjs/common';
import { BuildingsModule } from '../buildings/buildings.module';
import { GeofencingAnalyticsModule } from '../geofencing/analytics/analytics.module';
import { GeofencingReports } from './geofencing-reports';
import { ReportsController } from './reports.controller';
import { UserPositionsReport } from './user-positions.report';

@Module({
  imports: [BuildingsModule, GeofencingAnalyticsModule],
  controllers: [ReportsController],
  providers: [UserPositionsReport, GeofencingReports],
})
export class ReportsModule {}
