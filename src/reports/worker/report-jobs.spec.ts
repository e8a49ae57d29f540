import { dialectFor } from '../../database/sql-dialect';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonChunks } from '../report-stream';
import { ENDLESS_JOB, FAILING_JOB, LONG_OBJECTS_JOB, STOPPED_JOBS_JOB, THREAD_NICE_JOB, VISIT_LINES_JOB } from '../../../test/support/report-job-fixture';
import { PreparedQueries } from '../../database/prepared-queries';
import { positional } from './report-db';
import { ReportQueries, StreamedBatch } from './report-queries';
import { PIECE_CHARS, REPORT_WORKER_NICE } from './report-worker';

const opened: Array<{ dataSource: DataSource; reports: ReportQueries; dir?: string }> = [];

async function open(onFile: boolean) {
  const dir = onFile ? mkdtempSync(join(tmpdir(), 'report-jobs-')) : undefined;
  const dataSource = new DataSource({ type: 'better-sqlite3', database: dir ? join(dir, 'db.sqlite') : ':memory:', enableWAL: onFile });
  await dataSource.initialize();
  await dataSource.query('CREATE TABLE visits (id TEXT PRIMARY KEY, fence TEXT NOT NULL, seconds INTEGER NOT NULL)');
  await dataSource.query("INSERT INTO visits VALUES ('v1', 'a', 10), ('v2', 'a', 20), ('v3', 'b', 30), ('v4', 'a', 40), ('v5', 'a', 50)");
  const reports = new ReportQueries(dataSource, new PreparedQueries(dataSource));
  opened.push({ dataSource, reports, dir });
  return { dataSource, reports };
}

afterEach(async () => {
  for (const { dataSource, reports, dir } of opened.splice(0)) {
    await reports.onModuleDestroy();
    await dataSource.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
});

const text = (batch: StreamedBatch) => batch.text;

async function collect(batches: AsyncIterable<StreamedBatch>): Promise<Array<{ text: string; rows: number; count?: number }>> {
  const out: Array<{ text: string; rows: number; count?: number }> = [];
  for await (const batch of batches) out.push({ text: text(batch), rows: batch.rows, ...(batch.count === undefined ? {} : { count: batch.count }) });
  return out;
}

describe('positional', () => {
  it('numbers each name once on PostgreSQL, in order of first use; SQLite takes one ? per use', () => {
    expect(positional('a = :x AND b > :y AND c < :x', dialectFor('postgres'))).toEqual({ text: 'a = $1 AND b > $2 AND c < $1', names: ['x', 'y'] });
    expect(positional('a = :x AND b > :y AND c < :x', dialectFor('sqlite'))).toEqual({ text: 'a = ? AND b > ? AND c < ?', names: ['x', 'y', 'x'] });
  });
});

describe('ReportQueries report jobs', () => {
  const expected = [
    { text: '', rows: 0, count: 3 },
    { text: 'v2,20\nv4,40\n', rows: 2 },
    { text: 'v5,50\n', rows: 1 },
  ];

  it('on a SQLite file, runs the job in the worker: its count first, then its text, and its statistics', async () => {
    const { dataSource, reports } = await open(true);
    const statistics = { rowsRead: 0, bytesRead: 0 };
    const batches: StreamedBatch[] = [];
    for await (const batch of reports.stream(VISIT_LINES_JOB, { fence: 'a', min: 15, perBatch: 2 }, statistics)) batches.push(batch);
    expect(batches.map((batch) => ({ text: text(batch), rows: batch.rows, ...(batch.count === undefined ? {} : { count: batch.count }) }))).toEqual(expected);
    expect(statistics.rowsRead).toBe(3);
    // What the main connection commits next is what the next job reads.
    await dataSource.query("INSERT INTO visits VALUES ('v6', 'a', 60)");
    expect((await collect(reports.stream(VISIT_LINES_JOB, { fence: 'a', min: 55, perBatch: 2 }, statistics))).map((batch) => batch.text)).toEqual(['', 'v6,60\n']);
  });

  it('on an in-memory database, runs the same job on the main connection, with the same text', async () => {
    const { reports } = await open(false);
    expect(await collect(reports.stream(VISIT_LINES_JOB, { fence: 'a', min: 15, perBatch: 2 }, { rowsRead: 0, bytesRead: 0 }))).toEqual(expected);
  });

  it('start() hands back the first batch, then every batch from the first on', async () => {
    const { reports } = await open(true);
    const { first, batches } = await reports.start(VISIT_LINES_JOB, { fence: 'a', min: 15, perBatch: 2 }, { rowsRead: 0, bytesRead: 0 });
    expect(first?.count).toBe(3);
    expect(await collect(batches)).toEqual(expected);
  });

  it('a consumer that lets go stops the job in the worker (before or after taking a batch); UTF-8 text arrives whole', async () => {
    const { reports } = await open(true);
    const taken = reports.stream(ENDLESS_JOB, null, { rowsRead: 0, bytesRead: 0 });
    const first = await taken.next();
    expect(text(first.value as StreamedBatch)).toBe('line 0 é\n');
    await taken.return(undefined);
    const started = await reports.start(ENDLESS_JOB, null, { rowsRead: 0, bytesRead: 0 });
    await started.batches.return?.();
    // The worker answers the next job once both have stopped.
    for (let attempt = 0; attempt < 50; attempt++) {
      const [count] = await collect(reports.stream(STOPPED_JOBS_JOB, null, { rowsRead: 0, bytesRead: 0 }));
      if (count.text === '2') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await collect(reports.stream(STOPPED_JOBS_JOB, null, { rowsRead: 0, bytesRead: 0 })))[0].text).toBe('2');
  });

  it('sends a long batch in pieces (the rows on the last), which the JSON envelope frames as the whole batch', async () => {
    const { reports } = await open(true);
    const batches = await collect(reports.stream(LONG_OBJECTS_JOB, null, { rowsRead: 0, bytesRead: 0 }));
    expect(batches.length).toBeGreaterThan(2);
    expect(batches.every((batch) => batch.text.length <= PIECE_CHARS)).toBe(true);
    expect(batches.filter((batch) => batch.rows > 0).map((batch) => batch.rows)).toEqual([3, 3]);
    const statistics = { rowsRead: 0, bytesRead: 0 };
    const report = { columns: [], statistics, startedAt: 0, text: () => reports.stream(LONG_OBJECTS_JOB, null, statistics) };
    let json = '';
    for await (const chunk of jsonChunks(report)) json += chunk;
    const envelope = JSON.parse(json);
    expect(envelope.rows).toBe(6);
    expect(envelope.data.map((row: { batch: number; index: number; pad: string }) => [row.batch, row.index, row.pad.length])).toEqual([
      [0, 0, 20_000],
      [0, 1, 20_001],
      [0, 2, 20_002],
      [1, 0, 20_000],
      [1, 1, 20_001],
      [1, 2, 20_002],
    ]);
  });

  it.runIf(existsSync('/proc/thread-self'))('runs its jobs on a thread of lower priority than the event loop (Linux)', async () => {
    const { reports } = await open(true);
    const [nice] = await collect(reports.stream(THREAD_NICE_JOB, null, { rowsRead: 0, bytesRead: 0 }));
    // The test runner's own thread keeps its priority (a process already niced further keeps its value).
    const runnerNice = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[16]);
    expect(Number(nice.text)).toBe(Math.max(REPORT_WORKER_NICE, runnerNice));
  });

  it('a failing job rejects with its message after what it wrote, and the worker goes on', async () => {
    const { reports } = await open(true);
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const batch of reports.stream(FAILING_JOB, null, { rowsRead: 0, bytesRead: 0 })) seen.push(text(batch));
      })(),
    ).rejects.toThrow(/no such column: nope/);
    expect(seen).toEqual(['before\n']);
    expect(await reports.rows('SELECT count(*) AS n FROM visits', {})).toEqual([{ n: 5 }]);
  });
});
