import { stringify } from 'csv-stringify/sync';
import { escapeFormula } from './csv-cells';

export { csvCell, csvLines, csvText, escapeFormula, unescapeFormula } from './csv-cells';

/**
 * csv-stringify's options for every CSV the server writes: text cells escaped against formula
 * injection (csv-cells.ts), booleans as `true`/`false`, objects as JSON (escaped too).
 */
export const CSV_CAST = {
  string: (value: string): string => escapeFormula(value),
  boolean: (value: boolean): string => String(value),
  object: (value: object): string => escapeFormula(JSON.stringify(value)),
};

/** The header line of a CSV file (the server's own column names). */
export function csvHeader(columns: readonly string[], recordDelimiter: '\n' | '\r\n' = '\n'): string {
  return stringify([], { columns: [...columns], header: true, cast: CSV_CAST, record_delimiter: recordDelimiter === '\n' ? 'unix' : 'windows' });
}

/**
 * A whole CSV file of rows. A line break inside a field is quoted whatever it is (csv-stringify
 * quotes only the record delimiter by itself).
 */
export function stringifyCsv(rows: ReadonlyArray<ReadonlyArray<unknown>>, recordDelimiter: '\n' | '\r\n' = '\n'): string {
  return stringify(rows as unknown[][], { cast: CSV_CAST, record_delimiter: recordDelimiter === '\n' ? 'unix' : 'windows', quoted_match: /[\r\n]/ });
}
