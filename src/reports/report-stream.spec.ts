import fc from 'fast-check';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { CSV_CAST } from '../common/csv/csv-write';
import { toReportEnvelope } from './report-envelope';
import { csvCell, csvChunks, csvLines, enforceOutputCap, jsonChunks, ReportStream } from './report-stream';

interface Row {
  name: string;
  count: number;
  ratio: number | null;
  flag: boolean;
}
const COLUMNS = [
  { name: 'name', type: 'String' },
  { name: 'count', type: 'UInt32' },
  { name: 'ratio', type: 'Nullable(Float64)' },
  { name: 'flag', type: 'Bool' },
] as const;

const row = fc.record({
  name: fc.string({ unit: fc.constantFrom('a', 'é', ',', '"', '\n', '\r', ' ', 'x', ';', '=', '-', '@', "'") }),
  count: fc.integer(),
  ratio: fc.option(fc.double({ noNaN: true }), { nil: null }),
  flag: fc.boolean(),
});
const batches = fc.array(fc.array(row, { maxLength: 5 }), { maxLength: 5 });

function streamOf(parts: Row[][]): ReportStream<Row> {
  return {
    columns: COLUMNS as unknown as ReportStream<Row>['columns'],
    statistics: { rowsRead: 7, bytesRead: 99 },
    startedAt: performance.now(),
    batches: (async function* () {
      for (const part of parts) yield part;
    })(),
  };
}
const collect = async (chunks: AsyncIterable<string>) => {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
};

describe('streamed report envelope', () => {
  it('parses to the same envelope the in-memory writer builds, whatever the batches', async () => {
    await fc.assert(
      fc.asyncProperty(batches, async (parts) => {
        const streamed = JSON.parse(await collect(jsonChunks(streamOf(parts))));
        const whole = toReportEnvelope({ columns: COLUMNS as never, data: parts.flat(), rowsRead: 7, bytesRead: 99, startedAt: performance.now() });
        expect(Object.keys(streamed)).toEqual(['meta', 'data', 'rows', 'statistics']);
        expect({ ...streamed, statistics: { ...streamed.statistics, elapsed: 0 } }).toEqual(
          JSON.parse(JSON.stringify({ ...whole, statistics: { ...whole.statistics, elapsed: 0 } })),
        );
        expect(streamed.statistics.elapsed).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('writes CSV byte for byte as csv-stringify does with the shared cast (RFC 4180 quoting, formulas escaped), header first', async () => {
    await fc.assert(
      fc.asyncProperty(batches, async (parts) => {
        const text = await collect(csvChunks(streamOf(parts)));
        const expected = stringify(parts.flat(), { header: true, columns: ['name', 'count', 'ratio', 'flag'], cast: CSV_CAST });
        expect(text).toBe(expected.length > 0 ? expected : 'name,count,ratio,flag\n');
      }),
    );
  });

  it("frames a report's own text batches as it frames row batches (commas between, empty batches skipped, rows counted)", async () => {
    await fc.assert(
      fc.asyncProperty(batches, async (parts) => {
        const written: ReportStream<Row> = {
          ...streamOf([]),
          text: async function* (format) {
            for (const part of parts) {
              yield { text: format === 'csv' ? csvLines(part, ['name', 'count', 'ratio', 'flag']) : part.map((row) => JSON.stringify(row)).join(','), rows: part.length };
            }
          },
        };
        const fromRows = JSON.parse(await collect(jsonChunks(streamOf(parts))));
        const fromText = JSON.parse(await collect(jsonChunks(written)));
        expect({ ...fromText, statistics: { ...fromText.statistics, elapsed: 0 } }).toEqual({ ...fromRows, statistics: { ...fromRows.statistics, elapsed: 0 } });
        expect(await collect(csvChunks(written))).toBe(await collect(csvChunks(streamOf(parts))));
      }),
    );
  });

  it('quotes only what needs it and writes null empty', () => {
    expect(csvLines([{ a: 'x,"y"', b: null, c: 1.5, d: 'line\nbreak' }], ['a', 'b', 'c', 'd'])).toBe('"x,""y""",,1.5,"line\nbreak"\n');
    expect(csvCell(false)).toBe('false');
    expect(csvCell({ k: 1 })).toBe(stringify([[{ k: 1 }]]).slice(0, -1));
  });

  it('answers 507 output_too_large only beyond the cap', () => {
    expect(() => enforceOutputCap(10, 10, 'narrow it')).not.toThrow();
    expect(() => enforceOutputCap(11, 10, 'narrow it')).toThrow(expect.objectContaining({ status: 507, code: 'output_too_large' }));
  });
});
