import { stringify } from 'csv-stringify/sync';
import { CsvSyntaxError, parseCsv } from '../common/csv/csv-parse';
import { ApiError, FieldError } from '../common/errors/api-error';
import { BleResponseDto, TransmitterType, WifiResponseDto } from './infrastructure.dto';

/**
 * The spreadsheet format of a building's transmitters: one row per access point or beacon,
 * `type` telling which, the columns of the other kind left empty. Both coordinate pairs are
 * written; on import x/y win when both are filled and disagree (installers edit floor metres).
 */
export const CSV_COLUMNS = ['type', 'id', 'floor_id', 'x', 'y', 'lat', 'lng', 'bssid', 'ssid', 'frequency', 'uuid', 'major', 'minor', 'tx_power', 'battery'] as const;

const NUMERIC = new Set(['floor_id', 'x', 'y', 'lat', 'lng', 'frequency', 'major', 'minor', 'tx_power', 'battery']);
/** Empty means null for these (an absent value); for the others empty means "not given". */
const NULLABLE = new Set(['frequency', 'tx_power', 'battery', 'ssid']);
const MAX_CSV_ROWS = 20_000;

/**
 * CSV injection: a spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return
 * before one) as a formula, and an SSID is whatever the installer typed. Text cells starting so
 * (after any quotes already there) get one more leading apostrophe, which spreadsheets show as
 * text, and the import takes one off again, so an export sent back changes nothing.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const ESCAPED_FORMULA_START = /^'+[=+\-@\t\r]/;
const TEXT_COLUMNS = new Set(['type', 'bssid', 'ssid', 'uuid']);

export const escapeFormula = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);
export const unescapeFormula = (text: string): string => (ESCAPED_FORMULA_START.test(text) ? text.slice(1) : text);

export function toInfrastructureCsv(wifi: readonly WifiResponseDto[], ble: readonly BleResponseDto[]): string {
  // Numbers (negative ones start with "-") are written as they are; text cells are escaped.
  const cell = (value: unknown, column: number) => (value === null || value === undefined ? '' : TEXT_COLUMNS.has(CSV_COLUMNS[column]) ? escapeFormula(String(value)) : String(value));
  const rows = [
    ...wifi.map((item) => ['wifi', item.id, item.floor_id, item.x, item.y, item.lat, item.lng, item.bssid, item.ssid, item.frequency, '', '', '', '', ''].map(cell)),
    ...ble.map((item) => ['ble', item.id, item.floor_id, item.x, item.y, item.lat, item.lng, '', '', '', item.uuid, item.major, item.minor, item.tx_power, item.battery].map(cell)),
  ];
  // Line breaks inside a field are quoted whatever they are (csv-stringify quotes only the record delimiter).
  return stringify([[...CSV_COLUMNS], ...rows], { record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
}

export interface CsvItems {
  wifi: Array<Record<string, unknown>>;
  ble: Array<Record<string, unknown>>;
  /** For each item, its error prefix (`line 7.`), by kind and index. */
  prefixes: Record<TransmitterType, string[]>;
}

/** The items of a CSV body, as plain objects for the same validation as JSON; 422 naming the line when malformed. */
export function fromInfrastructureCsv(text: unknown): CsvItems {
  if (typeof text !== 'string' || text.trim() === '') {
    throw ApiError.validation('The CSV body is empty', [{ message: 'needs a header line and one line per transmitter', code: 'required', fields: 'body' }]);
  }
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    throw ApiError.validation('The CSV is malformed', [{ message: error.message, code: 'invalid', fields: `line ${error.line}` }]);
  }
  const [header, ...rows] = records;
  const names = header.fields.map((name) => name.trim().toLowerCase());
  if (!names.includes('type')) {
    throw ApiError.validation('The CSV header needs a type column', [
      { message: `the first line names the columns: ${CSV_COLUMNS.join(',')}`, code: 'required', fields: 'line 1.type' },
    ]);
  }
  if (rows.length > MAX_CSV_ROWS) {
    throw ApiError.validation(`At most ${MAX_CSV_ROWS} transmitters per import`, [{ message: 'too many lines', code: 'invalid', fields: 'body' }]);
  }
  const items: CsvItems = { wifi: [], ble: [], prefixes: { wifi: [], ble: [] } };
  const errors: FieldError[] = [];
  for (const record of rows) {
    const item: Record<string, unknown> = {};
    names.forEach((name, index) => {
      if (!(CSV_COLUMNS as readonly string[]).includes(name) || name === 'id') return;
      // Less the apostrophe the export puts before a formula-like text.
      const raw = unescapeFormula((record.fields[index] ?? '').trim());
      if (raw === '') {
        if (NULLABLE.has(name)) item[name] = null;
        return;
      }
      // Numbers as numbers (a decimal comma from a semicolon-separated sheet too); anything else fails validation as sent.
      const number = Number(raw.replace(',', '.'));
      item[name] = NUMERIC.has(name) && /^[-+]?(\d+([.,]\d*)?|[.,]\d+)([eE][-+]?\d+)?$/.test(raw) ? number : raw;
    });
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
