import { Module } from '@nestjs/common';
import { BuildingsModule } from '../buildings/buildings.module';
import { ReportsController } from './reports.controller';
import { UserPositionsReport } from './user-positions.report';

@Module({
  imports: [BuildingsModule],
  controllers: [ReportsController],
  providers: [UserPositionsReport],
})
export class ReportsModule {}
