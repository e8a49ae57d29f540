import { ApiError } from '../errors/api-error';
import { CsvRecord, CsvSyntaxError, parseCsv } from './csv-parse';
import { unescapeFormula } from './csv-write';

/** What a CSV import of one resource takes: its columns, those the header must name, and how many lines at most. */
export interface CsvImportSpec {
  /** What each line holds, for the message of an empty body ("gateway": "one line per gateway"). */
  line: string;
  /** What the rows are, in the message of too many ("gateways": "At most 5000 gateways per import"). */
  rows: string;
  /** The columns the export writes, named in the header's errors. */
  columns: readonly string[];
  /** The columns the header must name. */
  required: readonly string[];
  maxRows: number;
}

/** A CSV body's header (names lower-cased and trimmed) and its lines. */
export interface CsvImport {
  names: string[];
  rows: CsvRecord[];
}

/**
 * The CSV body of an import, read: 422 in the contract's shape when it is empty, malformed (naming
 * the line), lacks a required column (naming it) or has more lines than the import takes.
 */
export function readCsvImport(text: unknown, spec: CsvImportSpec): CsvImport {
  if (typeof text !== 'string' || text.trim() === '') {
    throw ApiError.validation('The CSV body is empty', [{ message: `needs a header line and one line per ${spec.line}`, code: 'required', fields: 'body' }]);
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
  const missing = spec.required.filter((name) => !names.includes(name));
  if (missing.length > 0) {
    throw ApiError.validation(
      missing.length === 1 && spec.required.length === 1 ? `The CSV header needs a ${missing[0]} column` : 'The CSV header lacks columns',
      missing.map((name) => ({ message: `the first line names the columns: ${spec.columns.join(',')}`, code: 'required', fields: `line 1.${name}` })),
    );
  }
  if (rows.length > spec.maxRows) {
    throw ApiError.validation(`At most ${spec.maxRows} ${spec.rows} per import`, [{ message: 'too many lines', code: 'invalid', fields: 'body' }]);
  }
  return { names, rows };
}

/** A number as a sheet writes it, a decimal comma (from a semicolon-separated sheet) too. */
const NUMBER = /^[-+]?(\d+([.,]\d*)?|[.,]\d+)([eE][-+]?\d+)?$/;

/** How the cells of a line become a JSON-like item. */
export interface CsvCellRules {
  columns: readonly string[];
  /** Columns read as numbers when they are one (anything else is kept as sent, and fails validation). */
  numeric: ReadonlySet<string>;
  /** Columns where an empty cell means null (an absent value); elsewhere empty means "not given". */
  nullable?: ReadonlySet<string>;
  /** Columns of the export that an import ignores (the `id` it assigns). */
  ignored?: ReadonlySet<string>;
}

/** A line's cells by the header's names: the known columns only, less the apostrophe the export puts before a formula-like text. */
export function csvCells(names: readonly string[], record: CsvRecord, rules: CsvCellRules): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  names.forEach((name, index) => {
    if (!rules.columns.includes(name) || rules.ignored?.has(name)) return;
    const raw = unescapeFormula((record.fields[index] ?? '').trim());
    if (raw === '') {
      if (rules.nullable?.has(name)) item[name] = null;
      return;
    }
    item[name] = rules.numeric.has(name) && NUMBER.test(raw) ? Number(raw.replace(',', '.')) : raw;
  });
  return item;
}
