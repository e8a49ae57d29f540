import { CsvSyntaxError, parseCsv } from '../common/csv/csv-parse';
import { stringifyCsv, unescapeFormula } from '../common/csv/csv-write';
import { ApiError } from '../common/errors/api-error';
import { GatewayResponseDto } from './gateways.dto';

/**
 * The spreadsheet format of a building's gateways, one row each. Both coordinate pairs are
 * written; on import x/y win when both are filled and disagree, as for beacons.
 */
export const GATEWAY_CSV_COLUMNS = ['id', 'floor_id', 'x', 'y', 'lat', 'lng', 'height_m', 'hardware_id', 'name', 'format'] as const;

const NUMERIC = new Set(['floor_id', 'x', 'y', 'lat', 'lng', 'height_m']);
const NULLABLE = new Set(['height_m']);
const NUMBER = /^[-+]?(\d+([.,]\d*)?|[.,]\d+)([eE][-+]?\d+)?$/;
export const MAX_GATEWAYS_PER_BUILDING = 5_000;

export function toGatewaysCsv(gateways: readonly GatewayResponseDto[]): string {
  // Text cells (hardware_id, name, format) are escaped against formulas by the CSV writer.
  const rows = gateways.map((item) => [item.id, item.floor_id, item.x, item.y, item.lat, item.lng, item.height_m, item.hardware_id, item.name, item.format]);
  return stringifyCsv([[...GATEWAY_CSV_COLUMNS], ...rows], '\r\n');
}

/** The gateways of a CSV body as plain objects (validated as JSON ones are), each with its error prefix; 422 naming the line when malformed. */
export function fromGatewaysCsv(text: unknown): { items: Array<Record<string, unknown>>; prefixes: string[] } {
  if (typeof text !== 'string' || text.trim() === '') {
    throw ApiError.validation('The CSV body is empty', [{ message: 'needs a header line and one line per gateway', code: 'required', fields: 'body' }]);
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
  if (!names.includes('hardware_id')) {
    throw ApiError.validation('The CSV header needs a hardware_id column', [
      { message: `the first line names the columns: ${GATEWAY_CSV_COLUMNS.join(',')}`, code: 'required', fields: 'line 1.hardware_id' },
    ]);
  }
  if (rows.length > MAX_GATEWAYS_PER_BUILDING) {
    throw ApiError.validation(`At most ${MAX_GATEWAYS_PER_BUILDING} gateways per import`, [{ message: 'too many lines', code: 'invalid', fields: 'body' }]);
  }
  const items = rows.map((record) => {
    const item: Record<string, unknown> = {};
    names.forEach((name, index) => {
      if (!(GATEWAY_CSV_COLUMNS as readonly string[]).includes(name) || name === 'id') return;
      // Less the apostrophe the export puts before a formula-like text.
      const raw = unescapeFormula((record.fields[index] ?? '').trim());
      if (raw === '') {
        if (NULLABLE.has(name)) item[name] = null;
        return;
      }
      item[name] = NUMERIC.has(name) && NUMBER.test(raw) ? Number(raw.replace(',', '.')) : raw;
    });
    return item;
  });
  return { items, prefixes: rows.map((record) => `line ${record.line}.`) };
}
