import { Inject, Injectable } from '@nestjs/common';
import { Principal } from '../auth/principal';
import { appConfig, AppConfig } from '../config/app.config';
import { clippedSpan, formatStay, StaySlice, staySlices, toSeconds, VisitSpan } from '../geofencing/analytics/visit-aggregates';
import { idList, singleValue, uuidList } from '../geofencing/analytics/visit-query';
import { mergeVisits, ReportFence, VisitReader } from '../geofencing/analytics/visit-reader';
import { ReportColumn } from './report-envelope';
import { ReportPacer, reportInBatches } from './report-batches';
import { enforceOutputCap, ReportStream } from './report-stream';
import { bucketStarts, formatReportTime, parseGrouping, parseReportWindow, REPORT_GROUPINGS, ReportWindow } from './report-window';

export interface StayTimeRow {
  timestamp: string;
  device_id: string;
  user_id: string | null;
  building_id: number;
  floor_id: number;
  matched_fence_id: string;
  seconds_in_fence: number;
  stay_time: string;
  sessions_count: number;
}

export interface SessionMatchRow {
  visit_id: string;
  device_id: string;
  user_id: string | null;
  building_id: number;
  floor_id: number;
  matched_fence_id: string;
  fence_name: string;
  entered_at: string;
  exited_at: string | null;
  exit_reason: string | null;
  seconds_in_fence: number;
  stay_time: string;
}

const TIME = (zone: string) => (zone === 'UTC' ? "DateTime64(3, 'UTC')" : 'String');

export const stayTimeColumns = (zone: string): ReadonlyArray<ReportColumn<StayTimeRow>> => [
  { name: 'timestamp', type: TIME(zone) },
  { name: 'device_id', type: 'String' },
  { name: 'user_id', type: 'Nullable(String)' },
  { name: 'building_id', type: 'Int64' },
  { name: 'floor_id', type: 'Int64' },
  { name: 'matched_fence_id', type: 'String' },
  { name: 'seconds_in_fence', type: 'Float64' },
  { name: 'stay_time', type: 'String' },
  { name: 'sessions_count', type: 'UInt32' },
];

export const sessionMatchColumns = (zone: string): ReadonlyArray<ReportColumn<SessionMatchRow>> => [
  { name: 'visit_id', type: 'String' },
  { name: 'device_id', type: 'String' },
  { name: 'user_id', type: 'Nullable(String)' },
  { name: 'building_id', type: 'Int64' },
  { name: 'floor_id', type: 'Int64' },
  { name: 'matched_fence_id', type: 'String' },
  { name: 'fence_name', type: 'String' },
  { name: 'entered_at', type: TIME(zone) },
  { name: 'exited_at', type: `Nullable(${TIME(zone)})` },
  { name: 'exit_reason', type: 'Nullable(String)' },
  { name: 'seconds_in_fence', type: 'Float64' },
  { name: 'stay_time', type: 'String' },
];

/** Bytes a visit row takes when read, for `bytes_read`: its id, two uuids, two timestamps, a reason. */
const VISIT_ROW_BYTES = 40 + 36 * 2 + 8 * 2 + 16;

/**
 * `geofencing_stay_time` and `geofencing_sessions_matches` (contract 8.1), over the visits the
 * evaluator wrote with its events: a session is a visit (same `visit_id` as its events), and
 * the stay times are the visits' time inside the window, split at bucket edges.
 */
@Injectable()
export class GeofencingReports {
  constructor(
    private readonly reader: VisitReader,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
  ) {}

  /** 507 before any byte of the answer when the rows are more than the reports' cap (REPORTS_MAX_ROWS). */
  private checkCap(rows: number): void {
    enforceOutputCap(rows, this.config.positions.reportMaxRows, 'narrow the range, the buildings or the fences');
  }

  async stayTime(principal: Principal, raw: Record<string, unknown>, now = Date.now()): Promise<ReportStream<StayTimeRow>> {
    const startedAt = performance.now();
    const { window, fences, byFence } = await this.read(principal, raw);
    const grouping = parseGrouping(singleValue(raw, 'grouping'), 'grouping', REPORT_GROUPINGS, 'day');
    const starts = bucketStarts(window, grouping);
    // Fence by fence (event-loop turns between them), then merged in the rows' order.
    const perFence: StaySlice[][] = [];
    const pacer = new ReportPacer();
    let visitCount = 0;
    for (const fenceId of [...byFence.keys()].sort(compareIds)) {
      const visits = byFence.get(fenceId)!;
      visitCount += visits.length;
      if (visits.length === 0) continue;
      perFence.push(staySlices(visits, starts, window, now));
      await pacer.pause();
    }
    const slices = mergeByBucket(perFence);
    this.checkCap(slices.length);
    const labels = starts.map((start) => formatReportTime(start, window.zone));
    return reportInBatches(
      stayTimeColumns(window.zone),
      slices,
      (slice) => {
        const fence = fences.get(slice.fenceId)!;
        return {
          timestamp: labels[slice.bucket],
          device_id: slice.deviceId,
          user_id: slice.userId,
          building_id: fence.buildingId,
          floor_id: fence.floorId,
          matched_fence_id: fence.id,
          seconds_in_fence: toSeconds(slice.ms),
          stay_time: formatStay(slice.ms),
          sessions_count: slice.sessions,
        };
      },
      { rowsRead: visitCount, bytesRead: visitCount * VISIT_ROW_BYTES },
      startedAt,
    );
  }

  async sessionsMatches(principal: Principal, raw: Record<string, unknown>, now = Date.now()): Promise<ReportStream<SessionMatchRow>> {
    const startedAt = performance.now();
    const { window, fences, byFence } = await this.read(principal, raw);
    // Checked although the rows are not bucketed, so that one query string serves every report.
    parseGrouping(singleValue(raw, 'grouping'), 'grouping', REPORT_GROUPINGS, 'day');
    const lists = [...byFence.values()];
    const count = lists.reduce((sum, list) => sum + list.length, 0);
    this.checkCap(count);
    return reportInBatches(
      sessionMatchColumns(window.zone),
      mergeVisits(lists),
      (visit) => {
        const span = clippedSpan(visit, window, now);
        const fence = fences.get(visit.fenceId)!;
        const ms = span ? span.end - span.start : 0;
        return {
          visit_id: visit.id,
          device_id: visit.deviceId,
          user_id: visit.userId,
          building_id: fence.buildingId,
          floor_id: fence.floorId,
          matched_fence_id: fence.id,
          fence_name: fence.name,
          entered_at: formatReportTime(visit.enteredAt, window.zone),
          exited_at: visit.exitedAt === null ? null : formatReportTime(visit.exitedAt, window.zone),
          exit_reason: visit.exitReason,
          seconds_in_fence: toSeconds(ms),
          stay_time: formatStay(ms),
        };
      },
      { rowsRead: count, bytesRead: count * VISIT_ROW_BYTES },
      startedAt,
    );
  }

  private async read(principal: Principal, raw: Record<string, unknown>): Promise<{ window: ReportWindow; fences: Map<string, ReportFence>; byFence: Map<string, VisitSpan[]> }> {
    const window = parseReportWindow(
      { from: singleValue(raw, 'from_date'), to: singleValue(raw, 'to_date'), timeZone: singleValue(raw, 'time_zone') },
      { from: 'from_date', to: 'to_date', timeZone: 'time_zone' },
    );
    const buildingIds = idList(raw, 'building_ids', true);
    const geofenceIds = uuidList(raw, 'geofence_ids');
    const fenceList = await this.reader.fences(principal, { buildingIds, geofenceIds });
    const fences = new Map(fenceList.map((fence) => [fence.id, fence]));
    const byFence = await this.reader.visitsByFence(principal.organizationId, fenceList.map((fence) => fence.id), window);
    return { window, fences, byFence };
  }
}

/** Ids as staySlices orders fences (plain string order). */
const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Slices of each fence (each list ordered by bucket, then device and user; the lists in fence
 * order) as one list ordered by bucket, fence, device, user: what staySlices gives for all
 * the visits at once.
 */
export function mergeByBucket(perFence: ReadonlyArray<readonly StaySlice[]>): StaySlice[] {
  const merged: StaySlice[] = [];
  const cursors = perFence.map(() => 0);
  let remaining = perFence.reduce((sum, slices) => sum + slices.length, 0);
  for (let bucket = 0; remaining > 0; bucket++) {
    for (let fence = 0; fence < perFence.length; fence++) {
      const slices = perFence[fence];
      let cursor = cursors[fence];
      while (cursor < slices.length && slices[cursor].bucket === bucket) merged.push(slices[cursor++]);
      remaining -= cursor - cursors[fence];
      cursors[fence] = cursor;
    }
  }
  return merged;
}
