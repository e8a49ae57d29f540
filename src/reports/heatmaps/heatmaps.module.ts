import { Module } from '@nestjs/common';
import { BuildingsModule } from '../../cartography/buildings/buildings.module';
import { FloorsModule } from '../../cartography/floors/floors.module';
import { ReportWorkerModule } from '../worker/report-worker.module';
import { HeatmapStore } from './heatmap-store';
import { HeatmapsController } from './heatmaps.controller';
import { HeatmapsService } from './heatmaps.service';

@Module({
  imports: [BuildingsModule, FloorsModule, ReportWorkerModule],
  controllers: [HeatmapsController],
  providers: [HeatmapsService, HeatmapStore],
})
export class HeatmapsModule {}
