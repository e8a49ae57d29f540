import { DateTime, IANAZone } from 'luxon';
import { ApiError } from '../common/errors/api-error';
import { assertUtcOffset } from '../common/time/utc-offset';

/** Date-only (`2026-11-23`) or an ISO 8601 date-time; without a zone it is UTC. */
export const REPORT_DATE = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:?\d\d)?)?$/i;

/** Buckets of a report (contract 8.1); analytics also has `none`: one bucket for the whole window. */
export type Grouping = 'hour' | 'day' | 'week' | 'month';
export type AnalyticsGrouping = Grouping | 'none';
export const REPORT_GROUPINGS: readonly Grouping[] = ['hour', 'day', 'week', 'month'];
export const ANALYTICS_GROUPINGS: readonly AnalyticsGrouping[] = ['none', 'hour', 'day', 'week', 'month'];

/** A report's time range: absolute instants, `toMs` exclusive, and the IANA zone its buckets and times are read in. */
export interface ReportWindow {
  fromMs: number;
  toMs: number;
  zone: string;
}

export interface WindowNames {
  from: string;
  to: string;
  timeZone: string;
}

export interface WindowOptions {
  /** Longest range in (local, calendar) days; default 366 (contract 8.1). */
  maxDays?: number;
  /** When false, a missing `to` is now and a missing `from` is `defaultDays` before `to`. */
  required?: boolean;
  defaultDays?: number;
  /** The clock, for tests. */
  now?: number;
}

export const DEFAULT_MAX_RANGE_DAYS = 366;
export const DEFAULT_WINDOW_DAYS = 30;
/** Date-only (`2026-11-23`) or an ISO 8601 date-time, with or without an offset. */
const DATE_ONLY = /^\d{4}-\d\d-\d\d$/;
/** IANA names only: `Intl` also takes bare offsets such as `+01:00`, which are not zones and have no DST rules. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;
const UTC_NAMES = new Set(['utc', 'etc/utc', 'etc/uct', 'uct', 'zulu', 'etc/zulu', 'universal', 'etc/universal']);

function invalid(name: string, message: string, value?: unknown): ApiError {
  const error = { message, code: 'invalid', fields: name, ...(value === undefined ? {} : { value }) };
  return ApiError.badRequest(`Invalid query parameter ${name}: ${message}`, [error]);
}

function missing(name: string): ApiError {
  return ApiError.badRequest(`${name} is required`, [{ message: `${name} is required`, code: 'required', fields: name }]);
}

/** An IANA zone name (case as given, `UTC` for its aliases); `undefined` or empty is UTC. 400 naming the parameter otherwise. */
export function parseTimeZone(value: string | undefined, name: string): string {
  if (value === undefined || value === '') return 'UTC';
  if (typeof value !== 'string' || value.length > 64 || !ZONE_NAME.test(value) || !IANAZone.isValidZone(value)) {
    throw invalid(name, 'must be an IANA time zone name such as Europe/Madrid', typeof value === 'string' ? value.slice(0, 64) : undefined);
  }
  return UTC_NAMES.has(value.toLowerCase()) ? 'UTC' : value;
}

/**
 * One bound of a report: a date-only value is that local midnight in `zone` (the next one
 * for an inclusive end); a date-time without offset is local to `zone`; with an offset or
 * `Z` it is that instant. NaN when the text is not such a date.
 */
export function parseReportInstant(value: string, zone: string, inclusiveEnd: boolean): number {
  if (!REPORT_DATE.test(value)) return Number.NaN;
  let time = DateTime.fromISO(value, { zone, setZone: false });
  if (!time.isValid) return Number.NaN;
  if (DATE_ONLY.test(value) && inclusiveEnd) time = time.plus({ days: 1 });
  return time.toMillis();
}

/** Parses and checks `from`/`to`/`time_zone` of a report or analytics request (400 naming the parameter on any fault; 422 for an impossible UTC offset). */
export function parseReportWindow(input: { from?: string; to?: string; timeZone?: string }, names: WindowNames, options: WindowOptions = {}): ReportWindow {
  const maxDays = options.maxDays ?? DEFAULT_MAX_RANGE_DAYS;
  const required = options.required ?? true;
  const zone = parseTimeZone(input.timeZone, names.timeZone);
  const present = (value: string | undefined) => value !== undefined && value !== '';
  if (required && !present(input.from)) throw missing(names.from);
  if (required && !present(input.to)) throw missing(names.to);

  const bound = (value: string | undefined, name: string, end: boolean): number | undefined => {
    if (!present(value)) return undefined;
    assertUtcOffset(value, name);
    const ms = typeof value === 'string' ? parseReportInstant(value, zone, end) : Number.NaN;
    if (!Number.isFinite(ms)) throw invalid(name, 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time', typeof value === 'string' ? value.slice(0, 64) : undefined);
    return ms;
  };
  const to = bound(input.to, names.to, true) ?? options.now ?? Date.now();
  const from =
    bound(input.from, names.from, false) ??
    DateTime.fromMillis(to, { zone })
      .minus({ days: Math.min(options.defaultDays ?? DEFAULT_WINDOW_DAYS, maxDays) })
      .toMillis();
  if (to <= from) throw invalid(names.to, `must be after ${names.from}`, input.to);
  // Calendar days in the zone: a range of 366 local days that crosses a DST change is 366 × 24 h ± 1 h.
  if (to > DateTime.fromMillis(from, { zone }).plus({ days: maxDays }).toMillis()) {
    throw invalid(names.to, `must be at most ${maxDays} days after ${names.from}`, input.to);
  }
  return { fromMs: from, toMs: to, zone };
}

/** `grouping` (or any enumerated parameter): trimmed, lower-cased, one of `allowed`, else 400 naming it. */
export function parseGrouping<T extends string>(value: string | undefined, name: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === '') return fallback;
  const normal = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!(allowed as readonly string[]).includes(normal)) throw invalid(name, `must be one of ${allowed.join(', ')}`, typeof value === 'string' ? value.slice(0, 64) : undefined);
  return normal as T;
}

/**
 * UTC ms of the local bucket starts covering [fromMs, toMs): the first is the start of the
 * bucket holding `fromMs` (so ≤ fromMs), the last starts before `toMs`. Days, weeks (ISO,
 * from Monday) and months follow the zone's calendar, so a DST day is 23 or 25 h long;
 * hours are real hours (a 25 h day has 25 of them).
 */
export function bucketStarts(window: ReportWindow, grouping: Grouping): number[] {
  const starts: number[] = [];
  const first = DateTime.fromMillis(window.fromMs, { zone: window.zone }).startOf(grouping);
  const firstMs = first.toMillis();
  for (let step = 0; ; step++) {
    // From the first start each time: adding months one by one would drift (31 Jan + 1 month = 28 Feb).
    const start = grouping === 'hour' ? firstMs + step * 3_600_000 : first.plus({ [`${grouping}s`]: step }).toMillis();
    if (start >= window.toMs) break;
    // A local midnight that does not exist (DST at 00:00) resolves forward; never repeat a start.
    if (starts.length === 0 || start > starts[starts.length - 1]) starts.push(start);
  }
  return starts;
}

/** Index of the bucket holding `ms`: the last start ≤ ms (binary search); -1 before the first. */
export function bucketIndex(starts: readonly number[], ms: number): number {
  let low = 0;
  let high = starts.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (starts[middle] <= ms) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/**
 * A time as a report shows it (contract 8.1): in UTC the ISO instant with `Z`; in another
 * zone the local wall time without offset (`2026-03-29T00:00:00.000`). Buckets and row
 * times share it, so a bucket label sorts with the rows.
 */
export function formatReportTime(ms: number, zone: string): string {
  if (zone === 'UTC') return new Date(ms).toISOString();
  return new Date(ms + zoneOffsetMinutes(zone, ms) * 60_000).toISOString().slice(0, 23);
}

const OFFSET_SLOT_MS = 15 * 60_000;
const MAX_CACHED_OFFSETS = 100_000;
const offsetCache = new Map<string, number>();

/**
 * The zone's UTC offset at `ms`, in minutes. Asking `Intl` costs microseconds, and a report
 * formats every row's times, so offsets are cached per 15-minute slot. No zone changes its
 * offset twice within 15 minutes, so an offset that is the same at both ends of a slot holds
 * inside it; a slot holding a transition is answered exactly each time.
 */
export function zoneOffsetMinutes(zone: string, ms: number): number {
  const slot = Math.floor(ms / OFFSET_SLOT_MS);
  const key = `${zone}\u0000${slot}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  const iana = IANAZone.create(zone);
  const start = iana.offset(slot * OFFSET_SLOT_MS);
  if (start !== iana.offset((slot + 1) * OFFSET_SLOT_MS - 1)) return iana.offset(ms);
  if (offsetCache.size >= MAX_CACHED_OFFSETS) offsetCache.clear();
  offsetCache.set(key, start);
  return start;
}
