import { csvCells, CsvCellRules, readCsvImport } from '../common/csv/csv-import';
import { stringifyCsv } from '../common/csv/csv-write';
import { GatewayResponseDto } from './gateways.dto';

/**
 * The spreadsheet format of a building's gateways, one row each. Both coordinate pairs are
 * written; on import x/y win when both are filled and disagree, as for beacons.
 */
export const GATEWAY_CSV_COLUMNS = ['id', 'floor_id', 'x', 'y', 'lat', 'lng', 'height_m', 'hardware_id', 'name', 'format'] as const;

const CELLS: CsvCellRules = {
  columns: GATEWAY_CSV_COLUMNS,
  numeric: new Set(['floor_id', 'x', 'y', 'lat', 'lng', 'height_m']),
  nullable: new Set(['height_m']),
  ignored: new Set(['id']),
};
export const MAX_GATEWAYS_PER_BUILDING = 5_000;

export function toGatewaysCsv(gateways: readonly GatewayResponseDto[]): string {
  // Text cells (hardware_id, name, format) are escaped against formulas by the CSV writer.
  const rows = gateways.map((item) => [item.id, item.floor_id, item.x, item.y, item.lat, item.lng, item.height_m, item.hardware_id, item.name, item.format]);
  return stringifyCsv([[...GATEWAY_CSV_COLUMNS], ...rows], '\r\n');
}

/** The gateways of a CSV body as plain objects (validated as JSON ones are), each with its error prefix; 422 naming the line when malformed. */
export function fromGatewaysCsv(text: unknown): { items: Array<Record<string, unknown>>; prefixes: string[] } {
  const { names, rows } = readCsvImport(text, { line: 'gateway', rows: 'gateways', columns: GATEWAY_CSV_COLUMNS, required: ['hardware_id'], maxRows: MAX_GATEWAYS_PER_BUILDING });
  const items = rows.map((record) => csvCells(names, record, CELLS));
  return { items, prefixes: rows.map((record) => `line ${record.line}.`) };
}
