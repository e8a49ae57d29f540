import { Injectable, StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';
import { assertCallerOrganization } from '../../access/caller-organization';
import { Principal } from '../../access/principal';
import { ApiError } from '../../common/errors/api-error';
import { ErrorCode } from '../../common/errors/error-code';
import { ReportJob } from '../worker/report-db';
import { ReportQueries, StreamedBatch } from '../worker/report-queries';
import { ANALYTICS_GROUPINGS, AnalyticsGrouping, bucketStarts, parseGrouping, parseReportWindow } from '../report-window';
import { ANALYTICS_JOB, AnalyticsInput, OCCUPANCY_HISTORY_JOB } from './analytics.jobs';
import { aliased, idList, organizationIdOf, singleValue, uuidList } from './visit-query';
import { VisitReader } from './visit-reader';

export type { AnalyticsAnswer, AnalyticsRow, OccupancyHistoryAnswer, OccupancyPoint } from './analytics.jobs';

/** Rows (fences × buckets) one analytics or occupancy answer may hold; beyond it 507 output_too_large. */
export const MAX_ANALYTICS_ROWS = 200_000;

/**
 * Geofencing analytics (contract 8.2) and the occupancy history: per fence and bucket, from
 * the visits the evaluator wrote with its events, so every number agrees with the event log
 * and with the `geofencing_*` reports. Parameters, fences and the size cap are checked here;
 * the visits are read, counted and written as JSON in the report worker (analytics.jobs.ts).
 */
@Injectable()
export class GeofencingAnalyticsService {
  constructor(
    private readonly reader: VisitReader,
    private readonly reports: ReportQueries,
  ) {}

  async analytics(principal: Principal, raw: Record<string, unknown>, now = Date.now()): Promise<StreamableFile> {
    assertCallerOrganization(principal, organizationIdOf(raw));
    return this.answer(ANALYTICS_JOB, await this.prepare(principal, raw, now, 'none', false));
  }

  async occupancyHistory(principal: Principal, raw: Record<string, unknown>, now = Date.now()): Promise<StreamableFile> {
    return this.answer(OCCUPANCY_HISTORY_JOB, await this.prepare(principal, raw, now, 'hour', true));
  }

  /**
   * The answer's JSON as the report worker writes it. Its first piece comes once every visit
   * is read, so a failed read still answers with its error status; the rest streams.
   */
  private async answer(job: ReportJob<AnalyticsInput>, input: AnalyticsInput): Promise<StreamableFile> {
    const { batches } = await this.reports.start(job, input, { rowsRead: 0, bytesRead: 0 });
    return new StreamableFile(Readable.from(texts(batches)), { type: 'application/json; charset=utf-8' });
  }

  /** Window, grouping, buckets and the caller's fences; 507 before any work when fences × buckets is too many. */
  private async prepare(principal: Principal, raw: Record<string, unknown>, now: number, defaultGrouping: AnalyticsGrouping, fencesRequired: boolean): Promise<AnalyticsInput> {
    const from = aliased(raw, 'from', 'from_date');
    const to = aliased(raw, 'to', 'to_date');
    const window = parseReportWindow({ from: from.value, to: to.value, timeZone: singleValue(raw, 'time_zone') }, { from: from.name, to: to.name, timeZone: 'time_zone' });
    const grouping = parseGrouping(singleValue(raw, 'grouping'), 'grouping', ANALYTICS_GROUPINGS, defaultGrouping);
    const geofenceIds = uuidList(raw, 'geofence_ids', fencesRequired);
    const buildingIds = fencesRequired ? [] : idList(raw, 'building_ids');
    const fences = await this.reader.fences(principal, { buildingIds, geofenceIds });
    const starts = grouping === 'none' ? [window.fromMs] : bucketStarts(window, grouping);
    if (fences.length * starts.length > MAX_ANALYTICS_ROWS) {
      throw new ApiError(507, ErrorCode.OutputTooLarge, `The answer would hold more than ${MAX_ANALYTICS_ROWS} fence buckets; narrow the range, the fences or the grouping`);
    }
    return { organizationId: principal.organizationId, window, grouping, fences, starts, now };
  }
}

/** The batches' text, ending them if the stream is destroyed before or while it reads. */
function texts(batches: AsyncIterableIterator<StreamedBatch>): AsyncIterableIterator<string> {
  return {
    next: async () => {
      const next = await batches.next();
      return next.done ? { done: true, value: undefined } : { done: false, value: next.value.text };
    },
    return: async () => {
      await batches.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
