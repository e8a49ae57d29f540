import { describe, expect, it } from 'vitest';
import { ReportPacer, reportInBatches, reportTurn, ROWS_PER_BATCH } from './report-batches';
import { csvChunks, jsonChunks, reportFromRows } from './report-stream';

const columns = [
  { name: 'id' as const, type: 'UInt32' },
  { name: 'label' as const, type: 'String' },
];

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const chunk of chunks) out += chunk;
  return out;
}

/** The `elapsed` of the statistics differs between two runs; everything else must not. */
const withoutElapsed = (json: string) => json.replace(/"elapsed":[0-9.e-]+/, '"elapsed":0');

describe('reportInBatches', () => {
  it.each([0, 1, ROWS_PER_BATCH, 2 * ROWS_PER_BATCH + 7])('writes the same JSON and CSV as one batch of every row (%i rows), in batches of %i', async (count) => {
    const sources = Array.from({ length: count }, (_, index) => index);
    const toRow = (index: number) => ({ id: index, label: index % 3 === 0 ? `a "quoted", ${index}` : `row ${index}` });
    const statistics = { rowsRead: count, bytesRead: count * 8 };
    const batched = () => reportInBatches(columns, sources, toRow, statistics, 0);
    const whole = () => reportFromRows(columns, sources.map(toRow), statistics, 0);
    expect(withoutElapsed(await text(jsonChunks(batched())))).toBe(withoutElapsed(await text(jsonChunks(whole()))));
    expect(await text(csvChunks(batched()))).toBe(await text(csvChunks(whole())));
    const sizes: number[] = [];
    for await (const batch of batched().batches ?? []) sizes.push(batch.length);
    expect(sizes.every((size) => size <= ROWS_PER_BATCH)).toBe(true);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(count);
  });
});

const busyFor = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('reportTurn and ReportPacer', () => {
  it('lets waiting work run before the report goes on', async () => {
    let ran = false;
    setImmediate(() => (ran = true));
    await reportTurn();
    expect(ran).toBe(true);
  });

  it('lets other work run only once a slice of work is used up', async () => {
    const pacer = new ReportPacer();
    let ran = false;
    setImmediate(() => (ran = true));
    await pacer.pause();
    expect(ran).toBe(false);
    busyFor(12);
    await pacer.pause();
    expect(ran).toBe(true);
  });
});
