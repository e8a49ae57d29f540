import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BuildingsModule } from '../buildings/buildings.module';
import { ImagesModule } from '../../images/images.module';
import { Poi } from '../pois/poi.entity';
import { PoiCategory } from './poi-category.entity';
import { PoiCategoriesController } from './poi-categories.controller';
import { PoiCategoriesService } from './poi-categories.service';

@Module({
  imports: [TypeOrmModule.forFeature([PoiCategory, Poi]), ImagesModule, BuildingsModule],
  controllers: [PoiCategoriesController],
  providers: [PoiCategoriesService],
  exports: [PoiCategoriesService],
})
export class PoiCategoriesModule {}
