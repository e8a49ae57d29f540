import { Module } from '@nestjs/common';
import { BuildingsModule } from '../buildings/buildings.module';
import { FloorsModule } from '../floors/floors.module';
import { HeatmapsController } from './heatmaps.controller';
import { HeatmapsService } from './heatmaps.service';

@Module({
  imports: [BuildingsModule, FloorsModule],
  controllers: [HeatmapsController],
  providers: [HeatmapsService],
})
export class HeatmapsModule {}
