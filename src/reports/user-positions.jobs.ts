import { setImmediate as nextTurn } from 'node:timers/promises';
import { JobBatch, JobStatistics, ReportDb, ReportJob } from './worker/report-db';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { csvCell } from '../common/csv/csv-cells';
import { nextSessionFix, SessionTrack } from '../positions/session-mark';
import { DAY_MS } from '../common/time/durations';
import { buildingInstant, buildingPage, deviceTrackPage, fixesElsewhere } from './user-positions-store';

/*
 * The trajectory report's text, written straight from the rows read. Plain code (no Nest, no
 * TypeORM): the report worker loads this file and runs one device's download there.
 */

/** The two formats a report streams in. */
export type TrajectoryFormat = 'json' | 'csv';

/** A trajectory row (the `user_positions` columns). */
export interface TrajectoryRow {
  timestamp: string;
  session_mark: number;
  floor_id: number | null;
  user_id: string | null;
  device_id: string;
  lat: number;
  lng: number;
  building_id: number;
}

/**
 * A row's JSON, as JSON.stringify writes it (the unit tests hold them equal), at about twice
 * its speed: the strings that could need escaping go through JSON.stringify, the numbers
 * and the ISO timestamp are written as they are.
 */
export function userPositionJson(row: TrajectoryRow): string {
  const user = row.user_id === null ? 'null' : JSON.stringify(row.user_id);
  return `{"timestamp":"${row.timestamp}","session_mark":${row.session_mark},"floor_id":${row.floor_id},"user_id":${user},"device_id":${JSON.stringify(row.device_id)},"lat":${row.lat},"lng":${row.lng},"building_id":${row.building_id}}`;
}

/** A row's CSV line as csv-stringify writes it (held equal by the unit tests): only the ids can need quoting or escaping. */
export function userPositionCsv(row: TrajectoryRow): string {
  const floor = row.floor_id === null ? '' : row.floor_id;
  const user = row.user_id === null ? '' : csvCell(row.user_id);
  return `${row.timestamp},${row.session_mark},${floor},${user},${csvCell(row.device_id)},${row.lat},${row.lng},${row.building_id}\n`;
}

/**
 * A double as JavaScript writes it, from what the database gave: SQLite's number, or
 * PostgreSQL's text (its shortest round-trip digits, as JavaScript's; only its exponent form,
 * `1e-05` for 0.00001, and `-0` differ, so those go through Number).
 */
export function doubleText(value: number | string): string {
  if (typeof value === 'number') return String(value);
  return value.includes('e') || value === '-0' ? String(Number(value)) : value;
}

/**
 * Writes a batch of one device's rows as CSV lines or JSON objects straight from what was
 * read, the same bytes as userPositionCsv and userPositionJson (the tests hold them equal):
 * the device and building cells are written once, the user's once per change.
 */
export class UserPositionWriter {
  private text = '';
  private rows = 0;
  private user: string | null | undefined;
  private userCell = '';
  private readonly deviceCell: string;

  constructor(
    private readonly format: TrajectoryFormat,
    deviceId: string,
    private readonly buildingId: number,
  ) {
    this.deviceCell = format === 'csv' ? csvCell(deviceId) : JSON.stringify(deviceId);
  }

  /** One row: its ISO timestamp, session mark, and the floor, user, lat and lng as read (numbers or PostgreSQL's text). */
  add(timestamp: string, mark: number, floor: number | string | null, user: string | null, lat: number | string, lng: number | string): void {
    if (user !== this.user) {
      this.user = user;
      if (this.format === 'csv') this.userCell = user === null ? '' : csvCell(user);
      else this.userCell = user === null ? 'null' : JSON.stringify(user);
    }
    if (this.format === 'csv') {
      this.text += `${timestamp},${mark},${floor === null ? '' : floor},${this.userCell},${this.deviceCell},${doubleText(lat)},${doubleText(lng)},${this.buildingId}\n`;
    } else {
      this.text += `${this.rows > 0 ? ',' : ''}{"timestamp":"${timestamp}","session_mark":${mark},"floor_id":${floor},"user_id":${this.userCell},"device_id":${this.deviceCell},"lat":${doubleText(lat)},"lng":${doubleText(lng)},"building_id":${this.buildingId}}`;
    }
    this.rows++;
  }

  /** The batch written since the last take. */
  take(): JobBatch {
    const batch = { text: this.text, rows: this.rows };
    this.text = '';
    this.rows = 0;
    return batch;
  }
}

/** Bytes a stored row takes, for `bytes_read`: 5 numbers of 8 bytes, a timestamp and the ids. */
export const FIXED_ROW_BYTES = 8 * 6 + 36;
/** A row read only for the session marks: a timestamp, a building and the device id. */
export const SESSION_ROW_BYTES = 8 + 4;
/** A row of one device's track, as read (numbers on SQLite, PostgreSQL's text): user_id, time (SQLite's text, PostgreSQL's epoch ms), floor_id, lat, lng, building_id. */
type DeviceRow = [string | null, string, number | string | null, number | string, number | string, number | string | null];

/**
 * PostgreSQL's time as epoch milliseconds (whole: fixes are stored to the millisecond), the
 * cheapest form to make there (to_char costs more than the rest of the read: docs/decisions.md,
 * "Measurements behind the code") and to read here.
 */
/** 0000-01-01 and 10000-01-01: between them an ISO time has its plain four-digit form. */
const FIRST_PLAIN_ISO_MS = -62_167_219_200_000;
const END_PLAIN_ISO_MS = 253_402_300_800_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/**
 * Stored times read fast (a 30-day download is hundreds of thousands of them): SQLite's
 * `2020-05-08 10:26:34.801` text becomes epoch ms with the day's midnight parsed once per
 * day and the time of day from its digits, and its ISO form by moving two characters;
 * PostgreSQL's epoch milliseconds (or Dates) are read as they are, their ISO form made with
 * the day's part once per day.
 */
export class StoredTimes {
  private day = '';
  private dayStart = 0;
  private isoDayStart = Number.NaN;
  private isoDay = '';

  epoch(value: unknown): number {
    if (typeof value === 'number') return value;
    // PostgreSQL's epoch milliseconds as text (see SqlDialect.bulkTime).
    if (typeof value === 'string' && value.length < 17 && value.charCodeAt(4) !== 45) return Number(value);
    if (value instanceof Date) return value.getTime();
    if (typeof value === 'string' && value.length === 23 && value.charCodeAt(10) === 32) {
      const day = value.slice(0, 10);
      if (day !== this.day) {
        this.day = day;
        this.dayStart = Date.parse(`${day}T00:00:00Z`);
      }
      const digit = (index: number) => value.charCodeAt(index) - 48;
      return (
        this.dayStart +
        (digit(11) * 10 + digit(12)) * 3_600_000 +
        (digit(14) * 10 + digit(15)) * 60_000 +
        (digit(17) * 10 + digit(18)) * 1000 +
        digit(20) * 100 +
        digit(21) * 10 +
        digit(22)
      );
    }
    return parseDatabaseTimestamp(value)!.getTime();
  }

  /** The ISO form of a stored time whose epoch is `ms`. */
  iso(value: unknown, ms: number): string {
    if (typeof value === 'string' && value.length === 23 && value.charCodeAt(10) === 32) return `${value.slice(0, 10)}T${value.slice(11)}Z`;
    return this.isoOfEpoch(ms);
  }

  /** `new Date(ms).toISOString()`, the date made once per day and the time of day from digit tables. */
  isoOfEpoch(ms: number): string {
    let sinceMidnight = ms - this.isoDayStart;
    if (!(sinceMidnight >= 0 && sinceMidnight < DAY_MS && Number.isInteger(ms))) {
      if (!Number.isInteger(ms) || ms < FIRST_PLAIN_ISO_MS || ms >= END_PLAIN_ISO_MS) return new Date(ms).toISOString();
      this.isoDayStart = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
      this.isoDay = new Date(this.isoDayStart).toISOString().slice(0, 11);
      sinceMidnight = ms - this.isoDayStart;
    }
    const seconds = Math.floor(sinceMidnight / 1000);
    return `${this.isoDay}${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}.${THREE_DIGITS[sinceMidnight % 1000]}Z`;
  }
}

/** One device's download: its track in [from, to) and the filters, as the report checked them. */
export interface DeviceTrackInput extends BuildingTrackInput {
  device: string;
}

/**
 * One device: its whole track in the range read once through the (organization, device,
 * time) key, every building included, the building's rows written straight to text (no
 * object per row). Its times are unique, so the keyset is the time alone. PostgreSQL's
 * values come as text (the doubles already in their shortest form), and its next page is
 * read while this one is written. Each page after the first waits a turn of the event loop
 * (what else the thread serves goes first).
 */
export async function* deviceTrackText(db: ReportDb, input: DeviceTrackInput, statistics: JobStatistics): AsyncGenerator<JobBatch> {
  const to = db.dialect.timestamp(input.to);
  const read = (cursor: number) =>
    deviceTrackPage<DeviceRow>(db, input.pageRows, { organization: input.organization, device: input.device, cursor: db.dialect.timestamp(cursor), to });
  const keep = (user: unknown, floor: unknown) => (input.user === undefined || user === input.user) && (input.floor === undefined || Number(floor) === input.floor);
  const buildingId = input.buildingId;
  const writer = new UserPositionWriter(input.format, input.device, buildingId);
  const ownRowBytes = FIXED_ROW_BYTES + input.device.length;
  const times = new StoredTimes();
  const epochOf = (value: string) => times.epoch(value);
  let track: SessionTrack | undefined;
  let next: Promise<DeviceRow[]> | undefined = read(input.from);
  let cursor = input.from;
  for (let page = 0; ; page++) {
    if (page > 0) await nextTurn();
    const rows = await (next ?? read(cursor));
    next = undefined;
    const full = rows.length === input.pageRows;
    if (full) {
      cursor = epochOf(rows[rows.length - 1][1]) + 1;
      // The next page is read while this one is written (on PostgreSQL, at the same time).
      next = read(cursor);
      // Settled even if the download stops before it is awaited (a client gone).
      next.catch(() => undefined);
    }
    for (const row of rows) {
      const time = epochOf(row[1]);
      const rowBuilding = row[5] === null ? null : Number(row[5]);
      track = nextSessionFix(track, time, rowBuilding);
      if (rowBuilding !== buildingId) {
        statistics.bytesRead += SESSION_ROW_BYTES;
        continue;
      }
      statistics.bytesRead += ownRowBytes;
      if (!keep(row[0], row[2])) continue;
      writer.add(times.iso(row[1], time), track.mark, row[2], row[0], row[3], row[4]);
    }
    statistics.rowsRead += rows.length;
    const batch = writer.take();
    if (batch.rows > 0) yield batch;
    if (!full) return;
  }
}

export const DEVICE_TRACK_JOB: ReportJob<DeviceTrackInput> = { module: __filename, name: 'deviceTrackText', run: deviceTrackText };

/** A row of the building, read as an array: device_id, user_id, time, floor_id, lat, lng (and building_id when read for one device). */
type OwnRow = [string, string | null, unknown, number | string | null, number | string, number | string, ...Array<number | string | null>];
/** A fix elsewhere, for the session marks: device_id, time, building_id. */
type ForeignRow = [string, unknown, number | string | null];
/** Whether a row passes the user and floor filters. */
type KeepRow = (user: unknown, floor: unknown) => boolean;

/** Row batches written as text with the fast row writers. */
async function* rowsAsText(format: TrajectoryFormat, batches: AsyncIterable<TrajectoryRow[]>): AsyncGenerator<JobBatch> {
  for await (const batch of batches) {
    let text = '';
    if (format === 'csv') for (const row of batch) text += userPositionCsv(row);
    else for (let i = 0; i < batch.length; i++) text += (i > 0 ? ',' : '') + userPositionJson(batch[i]);
    yield { text, rows: batch.length };
  }
}

/** The page's rows and the fixes elsewhere in its span, merged by time, each device's session state carried on. */
function markPage(
  own: OwnRow[],
  foreign: ForeignRow[],
  buildingId: number,
  tracks: Map<string, SessionTrack>,
  times: StoredTimes,
  keep: KeepRow,
  statistics: JobStatistics,
): TrajectoryRow[] {
  const step = (deviceId: string, time: number, rowBuilding: number | null): number => {
    const known = tracks.get(deviceId);
    const track = nextSessionFix(known, time, rowBuilding);
    if (!known) tracks.set(deviceId, track);
    return track.mark;
  };
  const foreignTimes = foreign.map((row) => times.epoch(row[1]));
  const stepForeign = (index: number) => step(String(foreign[index][0]), foreignTimes[index], foreign[index][2] === null ? null : Number(foreign[index][2]));
  const out: TrajectoryRow[] = [];
  let f = 0;
  for (const row of own) {
    const time = times.epoch(row[2]);
    for (; f < foreign.length && foreignTimes[f] < time; f++) stepForeign(f);
    const deviceId = String(row[0]);
    const mark = step(deviceId, time, buildingId);
    statistics.bytesRead += FIXED_ROW_BYTES + deviceId.length;
    if (!keep(row[1], row[3])) continue;
    out.push({
      timestamp: times.iso(row[2], time),
      session_mark: mark,
      floor_id: row[3] === null ? null : Number(row[3]),
      user_id: row[1],
      device_id: deviceId,
      lat: Number(row[4]),
      lng: Number(row[5]),
      building_id: buildingId,
    });
  }
  for (; f < foreign.length; f++) stepForeign(f);
  return out;
}

/** A building's download: its fixes in [from, to) and the filters, as the report checked them. */
export interface BuildingTrackInput {
  format: TrajectoryFormat;
  organization: string;
  buildingId: number;
  from: number;
  to: number;
  user?: string;
  floor?: number;
  pageRows: number;
}

/**
 * A building's fixes in keyset pages over the (organization, building, time) index, sessions
 * numbered: beside each page the same time span of the devices' fixes elsewhere is read (three
 * columns, usually none), as a visit elsewhere ends a session, and each device's state carries
 * from page to page.
 */
async function* buildingPages(db: ReportDb, input: BuildingTrackInput, statistics: JobStatistics): AsyncGenerator<TrajectoryRow[]> {
  const stamp = (ms: number) => db.dialect.timestamp(ms);
  const base = { organization: input.organization, building: input.buildingId, to: stamp(input.to) };
  const keep: KeepRow = (user, floor) => (input.user === undefined || user === input.user) && (input.floor === undefined || Number(floor) === input.floor);
  const tracks = new Map<string, SessionTrack>();
  const times = new StoredTimes();
  let cursor = input.from;
  for (let page = 0; ; page++) {
    // What else the thread serves goes first between pages.
    if (page > 0) await nextTurn();
    let own = await buildingPage<OwnRow>(db, input.pageRows, { ...base, cursor: stamp(cursor) });
    const full = own.length === input.pageRows;
    // The page covers [cursor, horizon): the rows of its last instant may go on in the next page, so they wait for it.
    let horizon = input.to;
    if (full) {
      const last = times.epoch(own[own.length - 1][2]);
      let end = own.length;
      while (end > 0 && times.epoch(own[end - 1][2]) === last) end--;
      if (end === 0) {
        own = await buildingInstant<OwnRow>(db, { ...base, cursor: stamp(last) });
        horizon = last + 1;
      } else {
        own = own.slice(0, end);
        horizon = last;
      }
    }
    const foreign = await fixesElsewhere<ForeignRow>(db, { ...base, after: stamp(cursor), until: stamp(horizon) });
    statistics.rowsRead += own.length + foreign.length;
    statistics.bytesRead += foreign.length * SESSION_ROW_BYTES;
    const batch = markPage(own, foreign, input.buildingId, tracks, times, keep, statistics);
    if (batch.length > 0) yield batch;
    if (!full) return;
    cursor = horizon;
  }
}

/** A building's download, written with the row writers. */
export function buildingTrackText(db: ReportDb, input: BuildingTrackInput, statistics: JobStatistics): AsyncGenerator<JobBatch> {
  return rowsAsText(input.format, buildingPages(db, input, statistics));
}

export const BUILDING_TRACK_JOB: ReportJob<BuildingTrackInput> = { module: __filename, name: 'buildingTrackText', run: buildingTrackText };
