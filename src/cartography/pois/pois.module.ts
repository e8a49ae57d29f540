import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BuildingsModule } from '../buildings/buildings.module';
import { FloorsModule } from '../floors/floors.module';
import { PoiCategoriesModule } from '../poi-categories/poi-categories.module';
import { Poi } from './poi.entity';
import { PoisController } from './pois.controller';
import { PoisService } from './pois.service';

@Module({
  imports: [TypeOrmModule.forFeature([Poi]), BuildingsModule, FloorsModule, PoiCategoriesModule],
  controllers: [PoisController],
  providers: [PoisService],
})
export class PoisModule {}
