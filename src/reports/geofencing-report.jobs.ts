import { setImmediate as nextTurn } from 'node:timers/promises';
import { JobBatch, JobStatistics, ReportDb, ReportJob } from './worker/report-db';
import { clippedSpan, formatStay, StaySlice, staySlices, toSeconds, VisitSpan } from './analytics/visit-aggregates';
import { mergeVisits, ReportFence, visitsByFence } from './analytics/visit-rows';
import { csvLines } from '../common/csv/csv-cells';
import { ReportPacer, ROWS_PER_BATCH } from './report-batches';
import { ReportColumn } from './report-envelope';
import { bucketStarts, formatReportTime, Grouping, ReportWindow } from './report-window';

/*
 * `geofencing_stay_time` and `geofencing_sessions_matches` as report jobs: the visits read,
 * aggregated and written as text in the report worker (plain code, no Nest), so that the
 * main thread only sends the bytes.
 */

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

/** What a visit report job needs, as the report checked it (the caller's fences, the window). */
export interface VisitReportInput {
  format: 'json' | 'csv';
  organizationId: string;
  fences: ReportFence[];
  window: ReportWindow;
  grouping: Grouping;
  now: number;
}

/** Rows made from `sources` and written ROWS_PER_BATCH at a time as CSV lines or JSON objects, as the object path of report-stream writes them. */
async function* written<Source, Row>(
  format: 'json' | 'csv',
  columns: ReadonlyArray<ReportColumn<Row>>,
  sources: Iterable<Source>,
  toRow: (source: Source) => Row,
): AsyncGenerator<JobBatch> {
  const names = columns.map((column) => column.name);
  const flush = (batch: Row[]): JobBatch => ({ text: format === 'csv' ? csvLines(batch, names) : batch.map((row) => JSON.stringify(row)).join(','), rows: batch.length });
  let batch: Row[] = [];
  for (const source of sources) {
    batch.push(toRow(source));
    if (batch.length === ROWS_PER_BATCH) {
      yield flush(batch);
      batch = [];
      await nextTurn();
    }
  }
  if (batch.length > 0) yield flush(batch);
}

/**
 * `geofencing_stay_time`: the visits' time inside the window per bucket, fence, device and
 * user, split at bucket edges; its row count first (the output cap), then the rows.
 */
export async function* stayTimeText(db: ReportDb, input: VisitReportInput, statistics: JobStatistics): AsyncGenerator<JobBatch> {
  const { window, now } = input;
  const fences = new Map(input.fences.map((fence) => [fence.id, fence]));
  const byFence = await visitsByFence(
    db,
    input.organizationId,
    input.fences.map((fence) => fence.id),
    window,
  );
  const starts = bucketStarts(window, input.grouping);
  // Fence by fence, then merged in the rows' order.
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
  statistics.rowsRead = visitCount;
  statistics.bytesRead = visitCount * VISIT_ROW_BYTES;
  yield { text: '', rows: 0, count: slices.length };
  const labels = starts.map((start) => formatReportTime(start, window.zone));
  yield* written(input.format, stayTimeColumns(window.zone), slices, (slice): StayTimeRow => {
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
  });
}

/** `geofencing_sessions_matches`: one row per visit under way in the window, in `entered_at` order; its row count first. */
export async function* sessionsMatchesText(db: ReportDb, input: VisitReportInput, statistics: JobStatistics): AsyncGenerator<JobBatch> {
  const { window, now } = input;
  const fences = new Map(input.fences.map((fence) => [fence.id, fence]));
  const byFence = await visitsByFence(
    db,
    input.organizationId,
    input.fences.map((fence) => fence.id),
    window,
  );
  const lists = [...byFence.values()];
  const count = lists.reduce((sum, list) => sum + list.length, 0);
  statistics.rowsRead = count;
  statistics.bytesRead = count * VISIT_ROW_BYTES;
  yield { text: '', rows: 0, count };
  yield* written(input.format, sessionMatchColumns(window.zone), mergeVisits(lists), (visit: VisitSpan): SessionMatchRow => {
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
  });
}

export const STAY_TIME_JOB: ReportJob<VisitReportInput> = { module: __filename, name: 'stayTimeText', run: stayTimeText };
export const SESSIONS_MATCHES_JOB: ReportJob<VisitReportInput> = { module: __filename, name: 'sessionsMatchesText', run: sessionsMatchesText };

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
