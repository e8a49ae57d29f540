import { bucketIndex, ReportWindow } from '../report-window';

/** A visit as the evaluator wrote it (its enter and exit events' times), read for a report. */
export interface VisitSpan {
  id: string;
  fenceId: string;
  deviceId: string;
  userId: string | null;
  enteredAt: number;
  /** null while the visit is under way. */
  exitedAt: number | null;
  exitReason: string | null;
}

/**
 * The part of a visit inside the window, in ms: from the later of its enter and the window
 * start to the earlier of its exit and the window end. A visit under way counts up to now
 * (never past the window end): it has lasted that long so far, and no longer.
 */
export function clippedSpan(visit: VisitSpan, window: ReportWindow, now: number): { start: number; end: number } | null {
  const start = Math.max(visit.enteredAt, window.fromMs);
  const end = Math.min(visit.exitedAt ?? Math.max(visit.enteredAt, now), window.toMs);
  return end < start ? null : { start, end };
}

/** The end of bucket `index`: the next start, the window end for the last. */
const bucketEnd = (starts: readonly number[], index: number, window: ReportWindow) => (index + 1 < starts.length ? starts[index + 1] : window.toMs);

/** Calls `visit(index, ms)` for every bucket a clipped span touches, with the ms of the span inside it (0 for a visit of no length). */
function forEachSlice(span: { start: number; end: number }, starts: readonly number[], window: ReportWindow, visit: (index: number, ms: number) => void): void {
  let index = Math.max(0, bucketIndex(starts, span.start));
  do {
    const from = Math.max(span.start, starts[index]);
    const to = Math.min(span.end, bucketEnd(starts, index, window));
    visit(index, Math.max(0, to - from));
    index++;
  } while (index < starts.length && starts[index] < span.end);
}

export interface StaySlice {
  bucket: number;
  fenceId: string;
  deviceId: string;
  userId: string | null;
  ms: number;
  sessions: number;
}

/**
 * `geofencing_stay_time`: per bucket, fence, device and user, the time spent inside and the
 * visits that touched the bucket. A visit crossing a bucket edge is split at it and counts
 * as a session in each bucket it touches. Ordered by bucket, fence, device, user.
 */
export function staySlices(visits: readonly VisitSpan[], starts: readonly number[], window: ReportWindow, now: number): StaySlice[] {
  // Each (fence, device, user) becomes a small integer once per visit, so that a slice's key
  // and its sort key are numbers: 50,000 visits by hour are ~100,000 slices.
  const groups = new Map<string, number>();
  const members: Array<Pick<StaySlice, 'fenceId' | 'deviceId' | 'userId'>> = [];
  const slices = new Map<number, StaySlice>();
  const pending: Array<{ group: number; bucket: number; ms: number }> = [];
  for (const visit of visits) {
    const span = clippedSpan(visit, window, now);
    if (!span) continue;
    const name = `${visit.fenceId}\u0000${visit.deviceId}\u0000${visit.userId ?? ''}`;
    let group = groups.get(name);
    if (group === undefined) {
      group = members.length;
      groups.set(name, group);
      members.push({ fenceId: visit.fenceId, deviceId: visit.deviceId, userId: visit.userId });
    }
    const owner = group;
    forEachSlice(span, starts, window, (bucket, ms) => pending.push({ group: owner, bucket, ms }));
  }
  // Ranks in (fence, device, user) order: the rows sort on bucket × groups + rank.
  const compare = (a: string | null, b: string | null) => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0);
  const order = members
    .map((_, index) => index)
    .sort((x, y) => compare(members[x].fenceId, members[y].fenceId) || compare(members[x].deviceId, members[y].deviceId) || compare(members[x].userId, members[y].userId));
  const rank = new Array<number>(members.length);
  order.forEach((group, position) => (rank[group] = position));
  for (const { group, bucket, ms } of pending) {
    const key = bucket * members.length + rank[group];
    const slice = slices.get(key);
    if (slice) {
      slice.ms += ms;
      slice.sessions++;
    } else {
      slices.set(key, { bucket, ...members[group], ms, sessions: 1 });
    }
  }
  return [...slices.keys()].sort((a, b) => a - b).map((key) => slices.get(key)!);
}

/** Linear interpolation between the closest ranks (PostgreSQL's percentile_cont), over ascending values. */
export function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  const rank = fraction * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}

export interface FenceBucketStats {
  bucket: number;
  entries: number;
  exits: number;
  uniqueDevices: number;
  uniqueUsers: number;
  /** The visits that touched the bucket, and their stay inside it. */
  visits: number;
  totalMs: number;
  avgMs: number | null;
  p50Ms: number | null;
  p90Ms: number | null;
  maxOccupancy: number;
  /** Time-weighted mean of the concurrent visits over the bucket's part of the window. */
  avgOccupancy: number;
  /** Concurrent visits at the bucket's last instant. */
  endOccupancy: number;
}

/**
 * Per bucket of one fence's visits: entries and exits dated in the bucket, distinct devices
 * and users present, the stay inside the bucket (total, mean, p50, p90 per visit) and the
 * occupancy (a sweep over the clipped spans, exits before enters at the same instant, so
 * back-to-back visits are never counted twice). Every bucket is answered, empty ones too.
 */
export function fenceBucketStats(visits: readonly VisitSpan[], starts: readonly number[], window: ReportWindow, now: number): FenceBucketStats[] {
  // Made on first use: most buckets of a fine grouping stay empty.
  const stays: Array<number[] | undefined> = new Array(starts.length);
  const devices: Array<Set<string> | undefined> = new Array(starts.length);
  const users: Array<Set<string> | undefined> = new Array(starts.length);
  const entries = new Array<number>(starts.length).fill(0);
  const exits = new Array<number>(starts.length).fill(0);
  const changes: Array<[number, number]> = [];
  const counted = (ms: number) => ms >= window.fromMs && ms < window.toMs;
  for (const visit of visits) {
    if (counted(visit.enteredAt)) entries[bucketIndex(starts, visit.enteredAt)]++;
    if (visit.exitedAt !== null && counted(visit.exitedAt)) exits[bucketIndex(starts, visit.exitedAt)]++;
    const span = clippedSpan(visit, window, now);
    if (!span) continue;
    forEachSlice(span, starts, window, (index, ms) => {
      (stays[index] ??= []).push(ms);
      (devices[index] ??= new Set()).add(visit.deviceId);
      if (visit.userId !== null) (users[index] ??= new Set()).add(visit.userId);
    });
    if (span.end > span.start) changes.push([span.start, 1], [span.end, -1]);
  }
  changes.sort((a, b) => a[0] - b[0] || a[1] - b[1]);

  let next = 0;
  let current = 0;
  return starts.map((start, index) => {
    const from = Math.max(start, window.fromMs);
    const to = bucketEnd(starts, index, window);
    while (next < changes.length && changes[next][0] <= from) current += changes[next++][1];
    let max = current;
    let area = 0;
    let last = from;
    while (next < changes.length && changes[next][0] < to) {
      const [time, change] = changes[next++];
      area += current * (time - last);
      last = time;
      current += change;
      if (current > max) max = current;
    }
    area += current * (to - last);
    const values = stays[index]?.sort((a, b) => a - b) ?? [];
    const totalMs = values.reduce((sum, ms) => sum + ms, 0);
    return {
      bucket: index,
      entries: entries[index],
      exits: exits[index],
      uniqueDevices: devices[index]?.size ?? 0,
      uniqueUsers: users[index]?.size ?? 0,
      visits: values.length,
      totalMs,
      avgMs: values.length === 0 ? null : totalMs / values.length,
      p50Ms: percentile(values, 0.5),
      p90Ms: percentile(values, 0.9),
      maxOccupancy: max,
      avgOccupancy: to > from ? area / (to - from) : current,
      endOccupancy: current,
    };
  });
}

/** Seconds with millisecond precision, as every stay in the reports reads. */
export const toSeconds = (ms: number): number => Math.round(ms) / 1000;

/** `HH:MM:SS` of a stay, whole seconds, hours past 24 kept (a 25 h DST day reads 25:00:00). */
export function formatStay(ms: number): string {
  const total = Math.floor(ms / 1000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}
