import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BuildingDocumentCache } from './building-document.cache';
import { BuildingRevisions } from './building-revisions';
import { BuildingRevisionsRepository } from './building-revisions.repository';
import { Building } from './building.entity';
import { BuildingsController } from './buildings.controller';
import { BuildingsService } from './buildings.service';

@Module({
  imports: [TypeOrmModule.forFeature([Building])],
  controllers: [BuildingsController],
  providers: [BuildingsService, BuildingRevisions, BuildingRevisionsRepository, BuildingDocumentCache],
  exports: [BuildingsService, BuildingRevisions],
})
export class BuildingsModule {}
