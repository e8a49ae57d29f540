/*
 * The CSV cells every CSV the server (and its dashboard) writes is made of. Plain code with no
 * imports: the report worker and the dashboard's bundle load it too. csv-write.ts writes whole
 * files with csv-stringify under the same rule, and the unit tests hold the two byte-identical.
 */

/**
 * CSV injection (OWASP): a spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a
 * formula, and a tab or carriage return in front does not stop it. A text cell starting so
 * (after any apostrophes already there) gets one more leading apostrophe, which spreadsheets
 * show as text; imports take one off again, so a file sent back changes nothing. Numbers the
 * server writes as numbers (a negative latitude) are never prefixed: only text is.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const ESCAPED_FORMULA_START = /^'+[=+\-@\t\r]/;

export const escapeFormula = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);
export const unescapeFormula = (text: string): string => (ESCAPED_FORMULA_START.test(text) ? text.slice(1) : text);

/** First characters that may need the apostrophe: = + - @ tab CR, and ' (an apostrophe before one). */
const RISKY_FIRST = new Set([61, 43, 45, 64, 9, 13, 39]);
const NEEDS_QUOTES = /[",\r\n]/;

const quoted = (text: string): string => (NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/**
 * One CSV cell as csv-stringify writes it with csv-write's cast (RFC 4180: a field with a comma,
 * a quote or a line break is quoted, quotes doubled; text escaped as above; null is empty;
 * booleans as `true`/`false`; dates as epoch ms; objects as JSON). csv-stringify is too slow for
 * what a trajectory download must stream (docs/decisions.md, "Measurements behind the code"), so
 * reports take this path.
 */
export function csvCell(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return quoted(value.length > 0 && RISKY_FIRST.has(value.charCodeAt(0)) ? escapeFormula(value) : value);
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return String(value.getTime());
  return quoted(escapeFormula(JSON.stringify(value)));
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

/** A CSV file of a header and rows, CRLF line ends, from cells written as above (the dashboard's downloads). */
export function csvText(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
