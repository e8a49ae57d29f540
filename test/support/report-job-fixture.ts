import { readFileSync } from 'node:fs';
import { JobBatch, JobStatistics, ReportDb, ReportJob } from '../../src/reports/worker/report-db';

/* Report jobs for the tests of ReportQueries: plain code the report worker loads by its path. */

/** Jobs stopped before their end, in this thread (the worker's, when run there). */
let stopped = 0;

/** The visits of a fence with at least `min` seconds, one CSV line each, `perBatch` lines a batch, their count first. */
export async function* visitLines(db: ReportDb, input: { fence: string; min: number; perBatch: number }, statistics: JobStatistics): AsyncGenerator<JobBatch> {
  const rows = await db.arrays<[string, number]>('SELECT id, seconds FROM visits WHERE fence = :fence AND seconds >= :min ORDER BY id', input);
  statistics.rowsRead = rows.length;
  yield { text: '', rows: 0, count: rows.length };
  for (let start = 0; start < rows.length; start += input.perBatch) {
    const batch = rows.slice(start, start + input.perBatch);
    yield { text: batch.map(([id, seconds]) => `${id},${seconds}\n`).join(''), rows: batch.length };
  }
}

/** Lines without end (a long download), counting itself stopped when its consumer lets go. */
export async function* endless(): AsyncGenerator<JobBatch> {
  try {
    for (let line = 0; ; line++) yield { text: `line ${line} é\n`, rows: 1 };
  } finally {
    stopped++;
  }
}

export async function* stoppedJobs(): AsyncGenerator<JobBatch> {
  yield { text: String(stopped), rows: 1 };
}

/** Two batches of JSON objects, each longer than a piece the worker sends at once. */
export async function* longObjects(): AsyncGenerator<JobBatch> {
  for (const batch of [0, 1]) {
    const objects = [0, 1, 2].map((index) => JSON.stringify({ batch, index, pad: 'é'.repeat(20_000 + index) }));
    yield { text: objects.join(','), rows: objects.length };
  }
}

/** The nice value of the thread the job runs on (Linux), as text. */
export async function* threadNice(): AsyncGenerator<JobBatch> {
  yield { text: readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[16], rows: 1 };
}

export async function* failing(db: ReportDb): AsyncGenerator<JobBatch> {
  yield { text: 'before\n', rows: 1 };
  await db.arrays('SELECT nope FROM visits', {});
}

export const VISIT_LINES_JOB: ReportJob<{ fence: string; min: number; perBatch: number }> = { module: __filename, name: 'visitLines', run: visitLines };
export const ENDLESS_JOB: ReportJob<null> = { module: __filename, name: 'endless', run: endless };
export const STOPPED_JOBS_JOB: ReportJob<null> = { module: __filename, name: 'stoppedJobs', run: stoppedJobs };
export const LONG_OBJECTS_JOB: ReportJob<null> = { module: __filename, name: 'longObjects', run: longObjects };
export const THREAD_NICE_JOB: ReportJob<null> = { module: __filename, name: 'threadNice', run: threadNice };
export const FAILING_JOB: ReportJob<null> = { module: __filename, name: 'failing', run: failing };
