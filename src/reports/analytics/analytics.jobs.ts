import { JobBatch, JobStatistics, ReportDb, ReportJob } from '../worker/report-db';
import { ReportPacer } from '../report-batches';
import { AnalyticsGrouping, formatReportTime, ReportWindow } from '../report-window';
import { fenceBucketStats, FenceBucketStats, toSeconds, VisitSpan } from './visit-aggregates';
import { ReportFence, visitsByFence } from './visit-rows';

/*
 * Geofencing analytics and the occupancy history as report jobs: the visits read, counted and
 * written as JSON in the report worker (plain code, no Nest), the main thread only sends the
 * bytes. The JSON is what JSON.stringify writes for the whole answer, written in pieces.
 */

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

/** What an analytics job needs, as the service checked it (the caller's fences, the window, the buckets). */
export interface AnalyticsInput {
  organizationId: string;
  fences: ReportFence[];
  window: ReportWindow;
  grouping: AnalyticsGrouping;
  starts: number[];
  now: number;
}

/** Fences per piece of the answer (a few hundred KB of JSON at most): the worker sends each as it is written. */
const FENCES_PER_PIECE = 10;

const seconds = (ms: number | null) => (ms === null ? null : toSeconds(ms));

function analyticsRow(fence: ReportFence, stats: FenceBucketStats, labels: readonly string[]): AnalyticsRow {
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

/**
 * `{"from",…,"data":[` + the items, fence by fence, + `]}`: the bytes of JSON.stringify of the
 * whole answer, in pieces of FENCES_PER_PIECE fences.
 */
async function* answerText<Item>(
  db: ReportDb,
  input: AnalyticsInput,
  statistics: JobStatistics,
  items: (fence: ReportFence, byFence: Map<string, VisitSpan[]>, labels: readonly string[]) => Item[],
): AsyncGenerator<JobBatch> {
  const { window } = input;
  const byFence = await visitsByFence(
    db,
    input.organizationId,
    input.fences.map((fence) => fence.id),
    window,
  );
  for (const visits of byFence.values()) statistics.rowsRead += visits.length;
  const labels = input.starts.map((start) => formatReportTime(start, window.zone));
  const head = JSON.stringify({
    from: formatReportTime(window.fromMs, window.zone),
    to: formatReportTime(window.toMs, window.zone),
    grouping: input.grouping,
    time_zone: window.zone,
    data: [],
  });
  let text = head.slice(0, -2);
  let written = 0;
  let inPiece = 0;
  let fencesInPiece = 0;
  const pacer = new ReportPacer();
  for (const fence of input.fences) {
    for (const item of items(fence, byFence, labels)) {
      text += (written++ > 0 ? ',' : '') + JSON.stringify(item);
      inPiece++;
    }
    if (++fencesInPiece === FENCES_PER_PIECE && text !== '') {
      yield { text, rows: inPiece };
      text = '';
      inPiece = 0;
      fencesInPiece = 0;
    }
    // Fence by fence, so that whatever else the thread serves takes its turns during a long window.
    await pacer.pause();
  }
  yield { text: `${text}]}`, rows: inPiece };
}

/** Geofencing analytics (contract 8.2): per fence and bucket, from the visits (deleted fences only for the visits they had). */
export function analyticsText(db: ReportDb, input: AnalyticsInput, statistics: JobStatistics): AsyncGenerator<JobBatch> {
  return answerText(db, input, statistics, (fence, byFence, labels) => {
    const visits = byFence.get(fence.id) ?? [];
    if (fence.deleted && visits.length === 0) return [];
    return fenceBucketStats(visits, input.starts, input.window, input.now).map((stats) => analyticsRow(fence, stats, labels));
  });
}

/** The occupancy history: per fence, its series of buckets (peak, time-weighted mean, end-of-bucket count). */
export function occupancyHistoryText(db: ReportDb, input: AnalyticsInput, statistics: JobStatistics): AsyncGenerator<JobBatch> {
  return answerText(db, input, statistics, (fence, byFence, labels) => [
    {
      geofence_id: fence.id,
      geofence_name: fence.name,
      geofence_code: fence.code,
      building_id: fence.buildingId,
      floor_id: fence.floorId,
      series: fenceBucketStats(byFence.get(fence.id) ?? [], input.starts, input.window, input.now).map((stats): OccupancyPoint => ({
        bucket: labels[stats.bucket],
        max_occupancy: stats.maxOccupancy,
        avg_occupancy: Math.round(stats.avgOccupancy * 1000) / 1000,
        end_occupancy: stats.endOccupancy,
      })),
    },
  ]);
}

export const ANALYTICS_JOB: ReportJob<AnalyticsInput> = { module: __filename, name: 'analyticsText', run: analyticsText };
export const OCCUPANCY_HISTORY_JOB: ReportJob<AnalyticsInput> = { module: __filename, name: 'occupancyHistoryText', run: occupancyHistoryText };
