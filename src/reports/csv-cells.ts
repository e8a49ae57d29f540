import { stringify } from 'csv-stringify/sync';

/* The CSV cells every report writes; plain (no Nest), as the report worker loads it too. */

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell as csv-stringify writes it (RFC 4180: a field with a comma, a quote or a line
 * break is quoted, quotes doubled; null is empty; booleans as `true`/`false`). csv-stringify
 * formats about 13 MB/s here, a quarter of what a trajectory download must stream, so plain
 * cells take this path; the unit tests hold it byte-identical to csv-stringify.
 */
export function csvCell(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return String(value);
  return stringify([[value]]).slice(0, -1);
}

/** Rows as CSV lines (each ending in `\n`, as csv-stringify ends them), in the columns' order. */
export function csvLines<Row>(rows: ReadonlyArray<Row>, columns: ReadonlyArray<keyof Row & string>): string {
  let out = '';
  for (const row of rows) {
    let line = csvCell(row[columns[0]]);
    for (let c = 1; c < columns.length; c++) line += ',' + csvCell(row[columns[c]]);
    out += line + '\n';
  }
  return out;
}
