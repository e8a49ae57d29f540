import { csvCells, CsvCellRules, readCsvImport } from '../common/csv/csv-import';
import { stringifyCsv } from '../common/csv/csv-write';
import { ApiError, FieldError } from '../common/errors/api-error';
import { ReferencePointResponseDto } from './reference-points.dto';

/**
 * The spreadsheet format of reference points: one row per reading, the rows of one point
 * sharing its `point` label (the id on export; any label on import) and its position.
 * Every text cell is escaped against formula injection (infrastructure.csv's rule); numbers
 * are written as they are.
 */
export const REFERENCE_CSV_COLUMNS = ['point', 'floor_id', 'x', 'y', 'lat', 'lng', 'type', 'uuid', 'major', 'minor', 'bssid', 'rssi'] as const;

const CELLS: CsvCellRules = { columns: REFERENCE_CSV_COLUMNS, numeric: new Set(['floor_id', 'x', 'y', 'lat', 'lng', 'major', 'minor', 'rssi']) };
const TEXT = new Set(['point', 'type', 'uuid', 'bssid']);
/** At most this many rows (readings) per import. */
export const MAX_REFERENCE_CSV_ROWS = 200_000;

export function toReferencePointsCsv(points: readonly ReferencePointResponseDto[]): string {
  // Text cells are escaped by the one CSV writer; numbers are written as numbers.
  const cell = (value: unknown, column: number) => (value === null || value === undefined ? '' : TEXT.has(REFERENCE_CSV_COLUMNS[column]) ? String(value) : value);
  const rows: unknown[][] = [];
  for (const point of points) {
    const place = [point.id, point.floor_id, point.x, point.y, point.lat, point.lng];
    for (const reading of point.ble) rows.push([...place, 'ble', reading.uuid, reading.major, reading.minor, '', reading.rssi].map(cell));
    for (const reading of point.wifi) rows.push([...place, 'wifi', '', '', '', reading.bssid, reading.rssi].map(cell));
  }
  return stringifyCsv([[...REFERENCE_CSV_COLUMNS], ...rows], '\r\n');
}

export interface CsvReferencePoints {
  /** One item per point, as a JSON body would give it. */
  items: Array<Record<string, unknown>>;
  /** Each item's error prefix (`line 7.`): its first line. */
  prefixes: string[];
}

/** The points of a CSV body, for the same validation as JSON; 422 naming the line when malformed. */
export function fromReferencePointsCsv(text: unknown): CsvReferencePoints {
  const { names, rows } = readCsvImport(text, {
    line: 'reading',
    rows: 'readings',
    columns: REFERENCE_CSV_COLUMNS,
    required: ['point', 'floor_id', 'type', 'rssi'],
    maxRows: MAX_REFERENCE_CSV_ROWS,
  });
  const points = new Map<string, { item: Record<string, unknown>; prefix: string }>();
  const errors: FieldError[] = [];
  for (const record of rows) {
    const row = csvCells(names, record, CELLS);
    const prefix = `line ${record.line}.`;
    const label = String(row.point ?? '');
    if (label === '') {
      errors.push({ message: 'every reading names its point', code: 'required', fields: `${prefix}point` });
      continue;
    }
    let point = points.get(label);
    if (!point) {
      point = { item: { floor_id: row.floor_id, x: row.x, y: row.y, lat: row.lat, lng: row.lng, ble: [], wifi: [] }, prefix };
      for (const key of ['x', 'y', 'lat', 'lng']) if (point.item[key] === undefined) delete point.item[key];
      points.set(label, point);
    } else {
      for (const key of ['floor_id', 'x', 'y', 'lat', 'lng'] as const) {
        if (row[key] !== undefined && point.item[key] !== undefined && row[key] !== point.item[key]) {
          errors.push({ message: `point ${label} is at one place: ${key} differs from its ${point.prefix.slice(0, -1)}`, code: 'invalid', fields: `${prefix}${key}` });
        }
      }
    }
    const type = String(row.type ?? '').toLowerCase();
    if (type === 'ble') (point.item.ble as unknown[]).push({ uuid: row.uuid, major: row.major, minor: row.minor, rssi: row.rssi });
    else if (type === 'wifi') (point.item.wifi as unknown[]).push({ bssid: row.bssid, rssi: row.rssi });
    else errors.push({ message: 'type must be ble or wifi', code: 'invalid', fields: `${prefix}type`, value: type });
  }
  if (errors.length > 0) throw ApiError.validation('Some lines of the CSV are not valid; nothing was changed', errors);
  const list = [...points.values()];
  return { items: list.map((point) => point.item), prefixes: list.map((point) => point.prefix) };
}
