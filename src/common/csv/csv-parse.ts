/**
 * A small RFC 4180 reader: quoted fields (with "" for a quote, and line breaks inside),
 * CRLF or LF line ends, an optional UTF-8 byte order mark, and the delimiter of the header
 * line (comma, or the semicolon spreadsheets write in locales with a decimal comma).
 * Malformed text throws a CsvSyntaxError naming its line.
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

/** Every record, blank lines skipped. */
export function parseCsv(input: string, delimiter: string = detectDelimiter(input.replace(/^\uFEFF/, ''))): CsvRecord[] {
  const text = input.replace(/^\uFEFF/, '');
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let index = 0;
  // Whether the current record has any content (a blank line is not a record).
  let started = false;

  const endField = () => {
    fields.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    if (started) records.push({ line: recordLine, fields });
    fields = [];
    started = false;
  };

  while (index < text.length) {
    const char = text[index];
    if (char === '"') {
      if (field.length > 0) throw new CsvSyntaxError('A quote inside an unquoted field (quote the whole field and double the quote)', line);
      started = true;
      index += 1;
      const quoteLine = line;
      for (;;) {
        if (index >= text.length) throw new CsvSyntaxError('A quoted field is not closed', quoteLine);
        const inner = text[index];
        if (inner === '"') {
          if (text[index + 1] === '"') {
            field += '"';
            index += 2;
            continue;
          }
          index += 1;
          break;
        }
        if (inner === '\n') line += 1;
        field += inner;
        index += 1;
      }
      const next = text[index];
      if (index < text.length && next !== delimiter && next !== '\r' && next !== '\n') {
        throw new CsvSyntaxError('Text after the closing quote of a field', line);
      }
      continue;
    }
    if (char === delimiter) {
      started = true;
      endField();
      index += 1;
      continue;
    }
    if (char === '\r' || char === '\n') {
      endRecord();
      index += char === '\r' && text[index + 1] === '\n' ? 2 : 1;
      line += 1;
      recordLine = line;
      continue;
    }
    started = true;
    field += char;
    index += 1;
  }
  if (started || fields.length > 0) endRecord();
  return records;
}
