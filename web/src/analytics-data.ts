/**
 * The analytics page's data shaping, kept pure so it is unit-tested without a browser: the
 * query strings of the three reads (and their CSV downloads), the answers turned into chart
 * series and table rows, and the CSV written in the browser for the one answer the server has
 * no CSV of (the occupancy history).
 */

import { csvText } from '../../src/common/csv/csv-cells';

export type Grouping = 'hour' | 'day' | 'week' | 'month';
export const GROUPINGS: ReadonlyArray<{ value: Grouping; label: string }> = [
  { value: 'hour', label: 'Hour' },
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
];

export interface AnalyticsParams {
  buildingId: number;
  /** Local calendar dates `YYYY-MM-DD`; `to` is inclusive (the server's reading of a date-only end). */
  from: string;
  to: string;
  timeZone: string;
  grouping: Grouping;
}

/** `{date, visitors}` rows of `GET /reports/visitors.json` (contract 8.1). */
export interface VisitorsRow {
  date: string;
  visitors: number;
}

/** The fields of a `GET /geofencing/analytics` row the page uses (contract 8.2). */
export interface AnalyticsRow {
  geofence_id: string;
  geofence_name: string;
  bucket: string;
  entries: number;
  total_stay_seconds: number;
  avg_stay_seconds: number | null;
  max_occupancy: number;
}

export interface OccupancyHistory {
  data: Array<{ geofence_id: string; geofence_name: string; series: Array<{ bucket: string; max_occupancy: number; avg_occupancy: number; end_occupancy: number }> }>;
}

/** `YYYY-MM-DD` of a date in the browser's calendar. */
export function isoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The last seven days, today included. */
export function defaultRange(today: Date): { from: string; to: string } {
  const from = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 6);
  return { from: isoDate(from), to: isoDate(today) };
}

const DATE = /^\d{4}-\d\d-\d\d$/;

/** Reads the page's parameters from its URL, falling back to defaults for what is missing or malformed. */
export function paramsFromSearch(
  search: string,
  defaults: Omit<AnalyticsParams, 'buildingId'> & { buildingId?: number },
): Partial<AnalyticsParams> & Omit<AnalyticsParams, 'buildingId'> {
  const q = new URLSearchParams(search);
  const building = Number(q.get('building_id'));
  const grouping = q.get('grouping');
  return {
    buildingId: Number.isSafeInteger(building) && building > 0 ? building : defaults.buildingId,
    from: DATE.test(q.get('from') ?? '') ? q.get('from')! : defaults.from,
    to: DATE.test(q.get('to') ?? '') ? q.get('to')! : defaults.to,
    timeZone: q.get('time_zone') || defaults.timeZone,
    grouping: GROUPINGS.some((g) => g.value === grouping) ? (grouping as Grouping) : defaults.grouping,
  };
}

/** The page's own URL for these parameters (kept in the address bar so a reload or a shared link shows the same). */
export function searchOf(p: AnalyticsParams): string {
  return `?${new URLSearchParams({ building_id: String(p.buildingId), from: p.from, to: p.to, time_zone: p.timeZone, grouping: p.grouping })}`;
}

/** The report parameters (contract 8.1) shared by the JSON read and its CSV download. */
export function visitorsQuery(p: AnalyticsParams): string {
  return `?${new URLSearchParams({ building_id: String(p.buildingId), from_date: p.from, to_date: p.to, time_zone: p.timeZone, grouping: p.grouping })}`;
}

export function stayTimeReportQuery(p: AnalyticsParams): string {
  return `?${new URLSearchParams({ building_ids: String(p.buildingId), from_date: p.from, to_date: p.to, time_zone: p.timeZone, grouping: p.grouping })}`;
}

export function analyticsQuery(p: AnalyticsParams): string {
  return `?${new URLSearchParams({ building_ids: String(p.buildingId), from: p.from, to: p.to, time_zone: p.timeZone, grouping: p.grouping })}`;
}

export function occupancyQuery(p: AnalyticsParams, geofenceIds: string[]): string {
  return `?${new URLSearchParams({ geofence_ids: geofenceIds.join(','), from: p.from, to: p.to, time_zone: p.timeZone, grouping: p.grouping })}`;
}

/**
 * A bucket label as the server writes it (`2026-11-20T14:00:00.000`, local to the zone, or
 * with `Z` in UTC) shortened to what the grouping means: the hour, the day, the week's Monday,
 * the month.
 */
export function bucketLabel(bucket: string, grouping: Grouping): string {
  const m = /^(\d{4}-\d\d)-(\d\d)T(\d\d:\d\d)/.exec(bucket);
  if (!m) return bucket;
  if (grouping === 'hour') return `${m[1]}-${m[2]} ${m[3]}`;
  if (grouping === 'week') return `Week of ${m[1]}-${m[2]}`;
  if (grouping === 'month') return m[1];
  return `${m[1]}-${m[2]}`;
}

/** Seconds as `H:MM:SS` (hours past 24 kept), as the stay-time report writes them. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  const s = Math.round(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/**
 * One chart's data: the bucket labels (in full, for the tooltip and the table), the short
 * labels of the x axis, and one named series of numbers (or gaps) per line or bar set.
 */
export interface ChartData {
  labels: string[];
  ticks: string[];
  /** `colour`: the series' colour on the whole page (a fence's), when the page gives one. */
  series: Array<{ label: string; values: Array<number | null>; colour?: string }>;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Short x-axis labels that do not run into each other: hours as `14:00`, with the day under
 * the first hour of each day (`00:00` + `Nov 23`); days and weeks as `Nov 23`, with the year
 * under the first one of a year; months as `Nov`, with the year under January and the first.
 */
export function axisTicks(buckets: string[], grouping: Grouping): string[] {
  let lastDay = '';
  let lastYear = '';
  return buckets.map((bucket) => {
    const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d:\d\d)/.exec(bucket);
    if (!m) return bucket;
    const [, year, month, day, time] = m;
    const dayLabel = `${MONTHS[Number(month) - 1]} ${Number(day)}`;
    const newYear = year !== lastYear;
    lastYear = year;
    if (grouping === 'hour') {
      const newDay = `${year}-${month}-${day}` !== lastDay;
      lastDay = `${year}-${month}-${day}`;
      return newDay ? `${time}\n${dayLabel}` : time;
    }
    if (grouping === 'month') return newYear ? `${MONTHS[Number(month) - 1]}\n${year}` : MONTHS[Number(month) - 1];
    return newYear ? `${dayLabel}\n${year}` : dayLabel;
  });
}

export function visitorsChart(rows: VisitorsRow[], grouping: Grouping): ChartData {
  return {
    labels: rows.map((r) => bucketLabel(r.date, grouping)),
    ticks: axisTicks(
      rows.map((r) => r.date),
      grouping,
    ),
    series: [{ label: 'Visitors', values: rows.map((r) => r.visitors) }],
  };
}

export interface FenceStay {
  id: string;
  name: string;
  /** Per bucket, in the order of `buckets`. */
  total: number[];
  average: Array<number | null>;
  entries: number[];
  overallTotal: number;
}

/**
 * The analytics rows (every fence × bucket, empty ones as zeros) regrouped per fence, fences in
 * the order of their total stay (most first, then by name), buckets in time order.
 */
export function stayByFence(rows: AnalyticsRow[]): { buckets: string[]; fences: FenceStay[] } {
  const buckets = [...new Set(rows.map((r) => r.bucket))].sort();
  const index = new Map(buckets.map((b, i) => [b, i]));
  const fences = new Map<string, FenceStay>();
  for (const row of rows) {
    let fence = fences.get(row.geofence_id);
    if (!fence) {
      fence = { id: row.geofence_id, name: row.geofence_name, total: buckets.map(() => 0), average: buckets.map(() => null), entries: buckets.map(() => 0), overallTotal: 0 };
      fences.set(row.geofence_id, fence);
    }
    const i = index.get(row.bucket)!;
    fence.total[i] += row.total_stay_seconds;
    fence.average[i] = row.avg_stay_seconds;
    fence.entries[i] += row.entries;
    fence.overallTotal += row.total_stay_seconds;
  }
  const ordered = [...fences.values()].sort((a, b) => b.overallTotal - a.overallTotal || a.name.localeCompare(b.name));
  return { buckets, fences: ordered };
}

/** Stay time per fence and bucket, in minutes (a readable axis), one series per fence in the fence's colour. */
export function stayChart(stay: { buckets: string[]; fences: FenceStay[] }, grouping: Grouping, maxSeries: number, colours: ReadonlyMap<string, string>): ChartData {
  return {
    labels: stay.buckets.map((b) => bucketLabel(b, grouping)),
    ticks: axisTicks(stay.buckets, grouping),
    series: stay.fences.slice(0, maxSeries).map((f) => ({ label: f.name, values: f.total.map((s) => Math.round((s / 60) * 10) / 10), colour: colours.get(f.id) })),
  };
}

/** Peak occupancy per fence and bucket, one series per fence (the history's fences in its order) in the fence's colour. */
export function occupancyChart(history: OccupancyHistory, grouping: Grouping, colours: ReadonlyMap<string, string>): ChartData {
  const first = history.data[0]?.series ?? [];
  return {
    labels: first.map((p) => bucketLabel(p.bucket, grouping)),
    ticks: axisTicks(
      first.map((p) => p.bucket),
      grouping,
    ),
    series: history.data.map((f) => ({ label: f.geofence_name, values: f.series.map((p) => p.max_occupancy), colour: colours.get(f.geofence_id) })),
  };
}

export function hasData(chart: ChartData): boolean {
  return chart.series.some((s) => s.values.some((v) => v !== null && v !== 0));
}

/** RFC 4180 CSV, CRLF lines, cells escaped against formula injection by the server's one CSV rule (src/common/csv). */
export function toCsv(header: string[], rows: Array<Array<string | number | null>>): string {
  return csvText(header, rows);
}

/** The occupancy history as CSV: one line per fence and bucket, the bucket as the server wrote it. */
export function occupancyCsv(history: OccupancyHistory): string {
  const rows: Array<Array<string | number>> = [];
  for (const fence of history.data) {
    for (const p of fence.series) rows.push([p.bucket, fence.geofence_id, fence.geofence_name, p.max_occupancy, p.avg_occupancy, p.end_occupancy]);
  }
  return toCsv(['bucket', 'geofence_id', 'geofence_name', 'max_occupancy', 'avg_occupancy', 'end_occupancy'], rows);
}

/** The IANA zones the browser knows, with UTC and the current one always offered. */
export function timeZones(supported: string[], current: string): string[] {
  const zones = new Set(supported);
  zones.add('UTC');
  zones.add(current);
  return [...zones].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
}
