import { CsvError, parse } from 'csv-parse/sync';

/**
 * Reading CSV bodies with csv-parse (RFC 4180: quoted fields with "" for a quote and line
 * breaks inside, CRLF or LF line ends), plus what imports need around it: an optional UTF-8
 * byte order mark, the delimiter of the header line (comma, or the semicolon spreadsheets
 * write in locales with a decimal comma), and the line each record starts on, for error
 * messages. Malformed text throws a CsvSyntaxError naming its line.
 */

export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    /** 1-based line of the file where the problem is. */
    readonly line: number,
  ) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

export interface CsvRecord {
  /** 1-based line where the record starts. */
  line: number;
  fields: string[];
}

export function detectDelimiter(text: string): ',' | ';' | '\t' {
  let end = text.search(/\r|\n/);
  if (end < 0) end = text.length;
  const header = text.slice(0, end);
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const char of header) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char in counts) counts[char as keyof typeof counts] += 1;
  }
  if (counts[';'] > counts[','] && counts[';'] >= counts['\t']) return ';';
  if (counts['\t'] > counts[',']) return '\t';
  return ',';
}

/** Our words for csv-parse's errors (its own name the parser's internals). */
const MESSAGES: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'A quoted field is not closed',
  INVALID_OPENING_QUOTE: 'A quote inside an unquoted field (quote the whole field and double the quote)',
  CSV_INVALID_CLOSING_QUOTE: 'Text after the closing quote of a field',
};

const countMatches = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0;

/** Every record, blank lines skipped. */
export function parseCsv(input: string, delimiter: string = detectDelimiter(input.replace(/^\uFEFF/, ''))): CsvRecord[] {
  // csv-parse counts a CRLF inside a quoted field as two lines: the surplus so far comes off its line numbers.
  let surplus = 0;
  try {
    const records: CsvRecord[] = [];
    parse(input, {
      bom: true,
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (fields: string[], context: { lines: number }) => {
        surplus += fields.reduce((sum, field) => sum + countMatches(field, /\r\n/g), 0);
        // The record's own line breaks (inside quoted fields) lie between its first line and its last.
        const inside = fields.reduce((sum, field) => sum + countMatches(field, /\r\n|\r|\n/g), 0);
        records.push({ line: context.lines - surplus - inside, fields });
        return null;
      },
    });
    return records;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = Math.max(1, ((error as CsvError & { lines?: number }).lines ?? 1) - surplus);
    throw new CsvSyntaxError(MESSAGES[error.code] ?? 'The text is not valid CSV', line);
  }
}
