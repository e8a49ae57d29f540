import { Module } from '@nestjs/common';
import { BuildingsModule } from '../buildings/buildings.module';
import { BuildingReports } from './building-reports';
import { BuildingReportsController } from './building-reports.controller';
import { ReportsController } from './reports.controller';
import { UserPositionsReport } from './user-positions.report';

@Module({
  imports: [BuildingsModule],
  controllers: [ReportsController, BuildingReportsController],
  providers: [UserPositionsReport, BuildingReports],
})
export class ReportsModule {}
