import fc from 'fast-check';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, detectDelimiter, parseCsv } from './csv-parse';

const rows = (text: string) => parseCsv(text).map((record) => record.fields);

describe('parseCsv (RFC 4180)', () => {
  it('reads plain records with CRLF or LF line ends, with or without a final line break', () => {
    expect(rows('a,b,c\r\n1,2,3\r\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
    expect(rows('a,b,c\n1,2,3')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('reads quoted fields: delimiters, doubled quotes and line breaks inside', () => {
    expect(rows('name,note\r\n"Hall, east","say ""hi""\r\nthen go"\r\n')).toEqual([
      ['name', 'note'],
      ['Hall, east', 'say "hi"\r\nthen go'],
    ]);
  });

  it('keeps empty fields, including the last one, and skips blank lines', () => {
    expect(rows('a,,c,\n\n,,,\n')).toEqual([
      ['a', '', 'c', ''],
      ['', '', '', ''],
    ]);
    expect(rows('""\n')).toEqual([['']]);
  });

  it('drops a byte order mark and names the line where each record starts', () => {
    const records = parseCsv('\uFEFFa,b\n"x\ny",z\nlast,one\n');
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x\ny', 'z'] },
      { line: 4, fields: ['last', 'one'] },
    ]);
  });

  it('takes the header line delimiter: semicolons or tabs when they outnumber commas', () => {
    expect(detectDelimiter('type;x;y\n')).toBe(';');
    expect(detectDelimiter('type\tx\ty')).toBe('\t');
    expect(detectDelimiter('"a;b",c')).toBe(',');
    expect(rows('type;x;y\nble;1,5;2\n')).toEqual([
      ['type', 'x', 'y'],
      ['ble', '1,5', '2'],
    ]);
  });

  it.each([
    ['a,"open\n', 'A quoted field is not closed', 1],
    ['a,b\nx"y,z\n', 'A quote inside an unquoted field', 2],
    ['a\n"x"y,z\n', 'Text after the closing quote', 2],
  ])('refuses malformed text %j with the line', (text, message, line) => {
    try {
      parseCsv(text);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CsvSyntaxError);
      expect((error as CsvSyntaxError).message).toContain(message);
      expect((error as CsvSyntaxError).line).toBe(line);
    }
  });

  it('reads back whatever csv-stringify writes (property)', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', ',', ';', '"', '\n', '\r', 'é', '\t') });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 6 }), (table) => {
        const width = table[0].length;
        const rectangular = table.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? 'x'));
        // A record of only empty fields in one column writes an empty line, which readers skip.
        const kept = rectangular.filter((row) => width > 1 || row[0] !== '');
        // csv-stringify leaves a lone CR or LF unquoted unless told: the exporter tells it too.
        const text = stringify(kept, { record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
        expect(parseCsv(text, ',').map((record) => record.fields)).toEqual(kept);
      }),
      { seed: 15, numRuns: 300 },
    );
  });
});

describe('parseCsv line numbers', () => {
  it('counts a CRLF inside a quoted field as one line (csv-parse counts two)', () => {
    expect(parseCsv('a,b\r\n"x\r\ny",z\r\nlast,one\r\n"p\r\nq\r\nr",s\r\nend,x\r\n').map((record) => record.line)).toEqual([1, 2, 4, 5, 8]);
  });

  it('names the line of a fault after a CRLF inside a quoted field', () => {
    try {
      parseCsv('a,b\r\n"x\r\ny",z\r\nbad"quote,q\r\n');
      expect.unreachable();
    } catch (error) {
      expect((error as CsvSyntaxError).line).toBe(4);
    }
  });
});
