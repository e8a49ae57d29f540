import { csvCells, CsvCellRules, readCsvImport } from '../common/csv/csv-import';
import { stringifyCsv } from '../common/csv/csv-write';
import { ApiError, FieldError } from '../common/errors/api-error';
import { BleResponseDto, TransmitterType, WifiResponseDto } from './infrastructure.dto';

/**
 * The spreadsheet format of a building's transmitters: one row per access point or beacon,
 * `type` telling which, the columns of the other kind left empty. Both coordinate pairs are
 * written; on import x/y win when both are filled and disagree (installers edit floor metres).
 */
export const CSV_COLUMNS = ['type', 'id', 'floor_id', 'x', 'y', 'lat', 'lng', 'bssid', 'ssid', 'frequency', 'uuid', 'major', 'minor', 'tx_power', 'battery'] as const;

const CELLS: CsvCellRules = {
  columns: CSV_COLUMNS,
  numeric: new Set(['floor_id', 'x', 'y', 'lat', 'lng', 'frequency', 'major', 'minor', 'tx_power', 'battery']),
  // Empty means null for these (an absent value); for the others empty means "not given".
  nullable: new Set(['frequency', 'tx_power', 'battery', 'ssid']),
  ignored: new Set(['id']),
};
const MAX_CSV_ROWS = 20_000;

export function toInfrastructureCsv(wifi: readonly WifiResponseDto[], ble: readonly BleResponseDto[]): string {
  // Numbers stay numbers (a negative tx_power is not a formula); text cells are escaped by the CSV writer.
  const rows = [
    ...wifi.map((item) => ['wifi', item.id, item.floor_id, item.x, item.y, item.lat, item.lng, item.bssid, item.ssid, item.frequency, null, null, null, null, null]),
    ...ble.map((item) => ['ble', item.id, item.floor_id, item.x, item.y, item.lat, item.lng, null, null, null, item.uuid, item.major, item.minor, item.tx_power, item.battery]),
  ];
  return stringifyCsv([[...CSV_COLUMNS], ...rows], '\r\n');
}

export interface CsvItems {
  wifi: Array<Record<string, unknown>>;
  ble: Array<Record<string, unknown>>;
  /** For each item, its error prefix (`line 7.`), by kind and index. */
  prefixes: Record<TransmitterType, string[]>;
}

/** The items of a CSV body, as plain objects for the same validation as JSON; 422 naming the line when malformed. */
export function fromInfrastructureCsv(text: unknown): CsvItems {
  const { names, rows } = readCsvImport(text, { line: 'transmitter', rows: 'transmitters', columns: CSV_COLUMNS, required: ['type'], maxRows: MAX_CSV_ROWS });
  const items: CsvItems = { wifi: [], ble: [], prefixes: { wifi: [], ble: [] } };
  const errors: FieldError[] = [];
  for (const record of rows) {
    const item = csvCells(names, record, CELLS);
    const type = String(item.type ?? '').toLowerCase();
    delete item.type;
    if (type !== 'wifi' && type !== 'ble') {
      errors.push({ message: 'type must be wifi or ble', code: 'invalid', fields: `line ${record.line}.type`, value: type });
      continue;
    }
    items[type].push(item);
    items.prefixes[type].push(`line ${record.line}.`);
  }
  if (errors.length > 0) throw ApiError.validation('Some lines of the CSV are not valid; nothing was changed', errors);
  return items;
}
