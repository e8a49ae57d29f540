import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { JobBatch, JobStatistics, ReportDb } from './report-db';
import { openReportConnection, ReportWorkerData } from './report-db-store';

/*
 * The report worker's body (see ReportQueries): a read-only connection of its own (SQLite's
 * file, or a small PostgreSQL pool; report-db-store.ts) that answers statement batches and runs
 * report jobs, sending each job's text in small strings a few batches ahead of what the
 * main thread has taken, so that reading, aggregating and formatting a report never run on
 * the event loop that serves ingest.
 */
export type { ReportWorkerData } from './report-db-store';

export type WorkerRequest =
  | { id: number; statements: Array<{ sql: string; values: unknown[]; arrays?: boolean }> }
  | { id: number; job: { module: string; name: string }; input: unknown }
  | { id: number; ack: true }
  | { id: number; cancel: true };

export type WorkerReply =
  | { id: number; results: unknown[][] }
  | { id: number; piece: string }
  | { id: number; text: string; rows: number; statistics: JobStatistics }
  | { id: number; count: number; statistics: JobStatistics }
  | { id: number; end: true; statistics: JobStatistics }
  | { id: number; error: string };

/** Batches a job may send before the main thread has taken them: enough to keep the socket busy, little memory. */
export const BATCHES_AHEAD = 3;
/**
 * A batch's text goes to the main thread in strings of at most this many characters: small
 * enough to be allocated and die in its young generation (whole batches as transferred bytes
 * set off full collections in the middle of ingest: docs/decisions.md, "Measurements behind
 * the code").
 */
export const PIECE_CHARS = 32 * 1024;
/**
 * The worker thread's nice value: where it and the event loop want the same core, the event
 * loop (ingest, reads) gets about nine tenths of it. Raising one's own nice value needs no
 * privilege.
 */
export const REPORT_WORKER_NICE = 10;

/** A running job's flow control: the batches it may still send, and the wake-up when the main thread takes one. */
interface RunningJob {
  credits: number;
  cancelled: boolean;
  wake?: () => void;
}

/**
 * Lowers this thread's scheduling priority (Linux: a thread is a task with its own id, named by
 * /proc/thread-self). Elsewhere, or if refused, the worker runs at the process's priority.
 */
export function lowerThreadPriority(nice: number): boolean {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(threadId) || threadId <= 0) return false;
    setPriority(threadId, nice);
    return true;
  } catch {
    return false;
  }
}

function serve(data: ReportWorkerData): void {
  lowerThreadPriority(REPORT_WORKER_NICE);
  const port = parentPort!;
  const { db, run: runStatement } = openReportConnection(data);
  const jobs = new Map<number, RunningJob>();
  const post = (reply: WorkerReply) => port.postMessage(reply);

  const runJob = async (id: number, job: { module: string; name: string }, input: unknown) => {
    const running: RunningJob = { credits: BATCHES_AHEAD, cancelled: false };
    jobs.set(id, running);
    const statistics: JobStatistics = { rowsRead: 0, bytesRead: 0 };
    try {
      // A job names the module that holds it: loaded the first time it runs here.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const run = (require(job.module) as Record<string, (db: ReportDb, input: unknown, statistics: JobStatistics) => AsyncIterable<JobBatch>>)[job.name];
      if (typeof run !== 'function') throw new Error(`No report job ${job.name} in ${job.module}`);
      for await (const batch of run(db, input, statistics)) {
        if (running.cancelled) break;
        if (batch.text === '') {
          if (batch.count !== undefined) post({ id, count: batch.count, statistics });
          continue;
        }
        const text = batch.text;
        let start = 0;
        for (; text.length - start > PIECE_CHARS; start += PIECE_CHARS) post({ id, piece: text.slice(start, start + PIECE_CHARS) });
        running.credits--;
        post({ id, text: start === 0 ? text : text.slice(start), rows: batch.rows, statistics });
        while (running.credits <= 0 && !running.cancelled) await new Promise<void>((resolve) => (running.wake = resolve));
        if (running.cancelled) break;
      }
      if (!running.cancelled) post({ id, end: true, statistics });
    } catch (error) {
      if (!running.cancelled) post({ id, error: String((error as Error)?.message ?? error) });
    } finally {
      jobs.delete(id);
    }
  };

  port.on('message', (message: WorkerRequest) => {
    if ('ack' in message || 'cancel' in message) {
      const running = jobs.get(message.id);
      if (!running) return;
      if ('cancel' in message) running.cancelled = true;
      else running.credits++;
      running.wake?.();
      running.wake = undefined;
      return;
    }
    if ('job' in message) {
      void runJob(message.id, message.job, message.input);
      return;
    }
    try {
      if (!runStatement) throw new Error('Statement batches are read on the main connection on PostgreSQL');
      post({ id: message.id, results: message.statements.map(({ sql, values, arrays }) => runStatement(sql, values, arrays === true)) });
    } catch (error) {
      post({ id: message.id, error: String((error as Error)?.message ?? error) });
    }
  });
}

if (!isMainThread && (workerData as { reportWorker?: ReportWorkerData } | null)?.reportWorker) serve((workerData as { reportWorker: ReportWorkerData }).reportWorker);
