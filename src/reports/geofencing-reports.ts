import { Inject, Injectable } from '@nestjs/common';
import { Principal } from '../access/principal';
import { appConfig, AppConfig } from '../config/app.config';
import { ReportJob } from './worker/report-db';
import { ReportQueries } from './worker/report-queries';
import { idList, singleValue, uuidList } from './analytics/visit-query';
import { ReportFence, VisitReader } from './analytics/visit-reader';
import { ReportColumn } from './report-envelope';
import { SESSIONS_MATCHES_JOB, sessionMatchColumns, SessionMatchRow, STAY_TIME_JOB, stayTimeColumns, StayTimeRow, VisitReportInput } from './geofencing-report.jobs';
import { enforceOutputCap, ReportFormat, ReportStream } from './report-stream';
import { parseGrouping, parseReportWindow, REPORT_GROUPINGS, ReportWindow } from './report-window';

export { mergeByBucket, sessionMatchColumns, stayTimeColumns } from './geofencing-report.jobs';
export type { SessionMatchRow, StayTimeRow } from './geofencing-report.jobs';

/**
 * `geofencing_stay_time` and `geofencing_sessions_matches` (contract 8.1), over the visits the
 * evaluator wrote with its events: a session is a visit (same `visit_id` as its events), and
 * the stay times are the visits' time inside the window, split at bucket edges. Parameters
 * and the caller's fences are checked here; the visits are read, aggregated and written in
 * the report worker (geofencing-report.jobs.ts), which announces its row count first so that
 * the output cap answers 507 before any byte.
 */
@Injectable()
export class GeofencingReports {
  constructor(
    private readonly reader: VisitReader,
    private readonly reports: ReportQueries,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
  ) {}

  async stayTime(principal: Principal, raw: Record<string, unknown>, format: ReportFormat, now = Date.now()): Promise<ReportStream<StayTimeRow>> {
    const startedAt = performance.now();
    const { window, fences } = await this.read(principal, raw);
    const grouping = parseGrouping(singleValue(raw, 'grouping'), 'grouping', REPORT_GROUPINGS, 'day');
    return this.open(STAY_TIME_JOB, { format, organizationId: principal.organizationId, fences, window, grouping, now }, stayTimeColumns(window.zone), startedAt);
  }

  async sessionsMatches(principal: Principal, raw: Record<string, unknown>, format: ReportFormat, now = Date.now()): Promise<ReportStream<SessionMatchRow>> {
    const startedAt = performance.now();
    const { window, fences } = await this.read(principal, raw);
    // Checked although the rows are not bucketed, so that one query string serves every report.
    const grouping = parseGrouping(singleValue(raw, 'grouping'), 'grouping', REPORT_GROUPINGS, 'day');
    return this.open(SESSIONS_MATCHES_JOB, { format, organizationId: principal.organizationId, fences, window, grouping, now }, sessionMatchColumns(window.zone), startedAt);
  }

  /** Starts the job, waits for its row count and answers 507 over the cap (REPORTS_MAX_ROWS), else hands back its text. */
  private async open<Row>(job: ReportJob<VisitReportInput>, input: VisitReportInput, columns: ReadonlyArray<ReportColumn<Row>>, startedAt: number): Promise<ReportStream<Row>> {
    const statistics = { rowsRead: 0, bytesRead: 0 };
    const { first, batches } = await this.reports.start(job, input, statistics);
    try {
      enforceOutputCap(first?.count ?? 0, this.config.positions.reportMaxRows, 'narrow the range, the buildings or the fences');
    } catch (error) {
      await batches.return?.();
      throw error;
    }
    return { columns, statistics, startedAt, text: () => batches, release: async () => batches.return?.() };
  }

  private async read(principal: Principal, raw: Record<string, unknown>): Promise<{ window: ReportWindow; fences: ReportFence[] }> {
    const window = parseReportWindow(
      { from: singleValue(raw, 'from_date'), to: singleValue(raw, 'to_date'), timeZone: singleValue(raw, 'time_zone') },
      { from: 'from_date', to: 'to_date', timeZone: 'time_zone' },
    );
    const buildingIds = idList(raw, 'building_ids', true);
    const geofenceIds = uuidList(raw, 'geofence_ids');
    const fences = await this.reader.fences(principal, { buildingIds, geofenceIds });
    return { window, fences };
  }
}
