import fc from 'fast-check';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv-parse';
import { CSV_CAST, csvCell, csvHeader, csvLines, csvText, escapeFormula, stringifyCsv, unescapeFormula } from './csv-write';

const FORMULAS = ['=HYPERLINK("http://evil.example","x")', '@SUM(1+1)', '+1', '-2+3', '\t=1', '\r=1', "'=already", "''@twice"];

describe('the CSV writer', () => {
  it('puts an apostrophe before every text cell a spreadsheet would run (OWASP: = + - @ tab CR)', () => {
    expect(FORMULAS.map(escapeFormula)).toEqual([`'=HYPERLINK("http://evil.example","x")`, "'@SUM(1+1)", "'+1", "'-2+3", "'\t=1", "'\r=1", "''=already", "'''@twice"]);
    for (const safe of ['plain', "it's", 'a=b', '', '1-2', ' =x']) expect(escapeFormula(safe)).toBe(safe);
    for (const text of [...FORMULAS, 'plain', "it's"]) expect(unescapeFormula(escapeFormula(text))).toBe(text);
  });

  it('writes numbers as numbers, negative ones included, and escapes text that looks like a negative number', () => {
    expect(csvLines([{ lat: -8.5, id: '-5', name: '=1+1' }], ['lat', 'id', 'name'])).toBe("-8.5,'-5,'=1+1\n");
    expect(stringifyCsv([[-8.5, '-5', '=1+1']])).toBe("-8.5,'-5,'=1+1\n");
    expect(csvText(['n', 'v'], [['-1', -1]])).toBe("n,v\r\n'-1,-1\r\n");
  });

  it('writes each cell exactly as csv-stringify does with the shared cast (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', '=', '+', '-', '@', '\t', '\r', '\n', '"', ',', "'", ' ', 'é') });
    const value = fc.oneof(text, fc.double(), fc.integer(), fc.constant(null), fc.boolean(), fc.dictionary(fc.string({ maxLength: 3 }), text, { maxKeys: 2 }));
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 6 }), (row) => {
        const expected = stringify([row], { cast: CSV_CAST, quoted_match: /[\r\n]/ });
        expect(row.map(csvCell).join(',') + '\n').toBe(expected);
        expect(stringifyCsv([row])).toBe(expected);
      }),
      { seed: 27, numRuns: 500 },
    );
  });

  it('reads back every text it wrote, formulas included, once the apostrophe is taken off (property)', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', '=', '@', '-', '\t', '"', ',', '\n', "'", ' ') });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (table) => {
        const width = table[0].length;
        const rows = table.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? 'x'));
        const read = parseCsv(stringifyCsv(rows, '\r\n'), ',').map((record) => record.fields.map(unescapeFormula));
        expect(read).toEqual(rows);
      }),
      { seed: 27, numRuns: 300 },
    );
  });

  it('writes the header of our own column names', () => {
    expect(csvHeader(['timestamp', 'device_id'])).toBe('timestamp,device_id\n');
    expect(csvHeader(['a', 'b'], '\r\n')).toBe('a,b\r\n');
  });
});
