import { Injectable } from '@nestjs/common';
import { Principal } from '../../auth/principal';
import { ApiError } from '../../common/errors/api-error';
import { ErrorCode } from '../../common/errors/error-code';
import { ReportPacer } from '../../reports/report-batches';
import { ANALYTICS_GROUPINGS, AnalyticsGrouping, bucketStarts, formatReportTime, parseGrouping, parseReportWindow } from '../../reports/report-window';
import { fenceBucketStats, FenceBucketStats, toSeconds } from './visit-aggregates';
import { aliased, assertOwnOrganization, idList, singleValue, uuidList } from './visit-query';
import { ReportFence, VisitReader } from './visit-reader';

/** Rows (fences × buckets) one analytics or occupancy answer may hold; beyond it 507 output_too_large. */
export const MAX_ANALYTICS_ROWS = 200_000;

export interface AnalyticsRow {
  geofence_id: string;
  geofence_name: string;
  geofence_code: string;
  building_id: number;
  floor_id: number;
  bucket: string;
  entries: number;
  exits: number;
  unique_devices: number;
  unique_users: number;
  total_stay_seconds: number;
  avg_stay_seconds: number | null;
  p50_stay_seconds: number | null;
  p90_stay_seconds: number | null;
  max_occupancy: number;
}

export interface AnalyticsAnswer {
  from: string;
  to: string;
  grouping: AnalyticsGrouping;
  time_zone: string;
  data: AnalyticsRow[];
}

export interface OccupancyPoint {
  bucket: string;
  max_occupancy: number;
  avg_occupancy: number;
  end_occupancy: number;
}

export interface OccupancyHistoryAnswer {
  from: string;
  to: string;
  grouping: AnalyticsGrouping;
  time_zone: string;
  data: Array<{ geofence_id: string; geofence_name: string; geofence_code: string; building_id: number; floor_id: number; series: OccupancyPoint[] }>;
}

const seconds = (ms: number | null) => (ms === null ? null : toSeconds(ms));

/**
 * Geofencing analytics (contract 8.2) and the occupancy history: per fence and bucket, from
 * the visits the evaluator wrote with its events, so every number agrees with the event log
 * and with the `geofencing_*` reports.
 */
@Injectable()
export class GeofencingAnalyticsService {
  constructor(private readonly reader: VisitReader) {}

  async analytics(principal: Principal, raw: Record<string, unknown>, now = Date.now()): Promise<AnalyticsAnswer> {
    assertOwnOrganization(raw, principal.organizationId);
    const { window, grouping, fences, starts, byFence } = await this.prepare(principal, raw, now, 'none', false);
    const labels = starts.map((start) => formatReportTime(start, window.zone));
    const data: AnalyticsRow[] = [];
    const pacer = new ReportPacer();
    for (const fence of fences) {
      const visits = byFence.get(fence.id) ?? [];
      // Deleted fences are answered only for the visits they had.
      if (fence.deleted && visits.length === 0) continue;
      for (const stats of fenceBucketStats(visits, starts, window, now)) data.push(this.analyticsRow(fence, stats, labels));
      // Fence by fence, so that ingest and reads take their turns during a long window.
      await pacer.pause();
    }
    return { from: formatReportTime(window.fromMs, window.zone), to: formatReportTime(window.toMs, window.zone), grouping, time_zone: window.zone, data };
  }

  async occupancyHistory(principal: Principal, raw: Record<string, unknown>, now = Date.now()): Promise<OccupancyHistoryAnswer> {
    const { window, grouping, fences, starts, byFence } = await this.prepare(principal, raw, now, 'hour', true);
    const labels = starts.map((start) => formatReportTime(start, window.zone));
    const data: OccupancyHistoryAnswer['data'] = [];
    const pacer = new ReportPacer();
    for (const fence of fences) {
      data.push({
        geofence_id: fence.id,
        geofence_name: fence.name,
        geofence_code: fence.code,
        building_id: fence.buildingId,
        floor_id: fence.floorId,
        series: fenceBucketStats(byFence.get(fence.id) ?? [], starts, window, now).map((stats) => ({
          bucket: labels[stats.bucket],
          max_occupancy: stats.maxOccupancy,
          avg_occupancy: Math.round(stats.avgOccupancy * 1000) / 1000,
          end_occupancy: stats.endOccupancy,
        })),
      });
      await pacer.pause();
    }
    return { from: formatReportTime(window.fromMs, window.zone), to: formatReportTime(window.toMs, window.zone), grouping, time_zone: window.zone, data };
  }

  /** Window, grouping, fences and their visits; 507 before any work when fences × buckets is too many. */
  private async prepare(principal: Principal, raw: Record<string, unknown>, now: number, defaultGrouping: AnalyticsGrouping, fencesRequired: boolean) {
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
    const byFence = await this.reader.visitsByFence(principal.organizationId, fences.map((fence) => fence.id), window);
    return { window, grouping, fences, starts, byFence };
  }

  private analyticsRow(fence: ReportFence, stats: FenceBucketStats, labels: readonly string[]): AnalyticsRow {
    return {
      geofence_id: fence.id,
      geofence_name: fence.name,
      geofence_code: fence.code,
      building_id: fence.buildingId,
      floor_id: fence.floorId,
      bucket: labels[stats.bucket],
      entries: stats.entries,
      exits: stats.exits,
      unique_devices: stats.uniqueDevices,
      unique_users: stats.uniqueUsers,
      total_stay_seconds: toSeconds(stats.totalMs),
      avg_stay_seconds: seconds(stats.avgMs),
      p50_stay_seconds: seconds(stats.p50Ms),
      p90_stay_seconds: seconds(stats.p90Ms),
      max_occupancy: stats.maxOccupancy,
    };
  }
}
