import { Module } from '@nestjs/common';
import { ReportWorkerModule } from '../worker/report-worker.module';
import { GeofencingAnalyticsController } from './analytics.controller';
import { GeofencingAnalyticsService } from './analytics.service';
import { ReportFencesRepository } from './report-fences.repository';
import { VisitReader } from './visit-reader';

/** Numbers over the evaluator's visits (contract 8.2, and the visit reports of 8.1 through VisitReader). */
@Module({
  imports: [ReportWorkerModule],
  controllers: [GeofencingAnalyticsController],
  providers: [GeofencingAnalyticsService, VisitReader, ReportFencesRepository],
  exports: [VisitReader],
})
export class GeofencingAnalyticsModule {}
