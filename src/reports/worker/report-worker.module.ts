import { Module } from '@nestjs/common';
import { ReportQueries } from './report-queries';

/** The reports' reads and jobs, on a worker thread with a connection of its own (see ReportQueries). */
@Module({
  providers: [ReportQueries],
  exports: [ReportQueries],
})
export class ReportWorkerModule {}
