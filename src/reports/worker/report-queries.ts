import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { DataSource } from 'typeorm';
import { DialectKind, dialectFor } from '../../database/sql-dialect';
import { PreparedQueries } from '../../database/prepared-queries';
import { positional, PositionalStatement } from '../../database/statements';
import { JobStatistics, ReportDb, ReportJob, ReportSql, reportText } from './report-db';
import { ReportConnectionOptions, reportConnection, ReportWorkerData } from './report-db-store';
import type { WorkerReply } from './report-worker';

interface Pending {
  resolve(results: unknown[][]): void;
  reject(error: Error): void;
}

/** One statement of {@link ReportQueries.many}, with `:name` parameters. */
export interface ReportStatement {
  sql: ReportSql;
  parameters: Record<string, string | number | Date | null>;
}

/** Statement texts whose positional form is kept (reports use a handful of shapes). */
const MAX_WORKER_SHAPES = 200;
const SQLITE = dialectFor('sqlite');

/** Statements of one {@link ReportQueries.many} call run at once on PostgreSQL (a report makes two such calls at a time): a few, so that ingest keeps its connections. */
const POOL_STATEMENTS_IN_FLIGHT = 2;

/**
 * The worker's entry: the compiled report-worker.js, or under the test runner its TypeScript
 * source, which the worker compiles as it loads it (and the report jobs it requires) with
 * TypeScript's transpiler.
 */
function workerBootstrap(): { source: string; entry: string; typescript: string | null } {
  const ownFile = typeof __filename === 'string' ? __filename : join(process.cwd(), 'src/reports/worker/report-queries.ts');
  const extension = extname(ownFile);
  const entry = join(dirname(ownFile), `report-worker${extension}`);
  const typescript = extension === '.ts' ? createRequire(ownFile).resolve('typescript') : null;
  const source = `
const { workerData } = require('node:worker_threads');
if (workerData.typescript) {
  const ts = require(workerData.typescript);
  const { readFileSync } = require('node:fs');
  const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, experimentalDecorators: true };
  require.extensions['.ts'] = (module, filename) => module._compile(ts.transpileModule(readFileSync(filename, 'utf8'), { fileName: filename, compilerOptions }).outputText, filename);
}
require(workerData.entry);
`;
  return { source, entry, typescript };
}

type JobReply = Exclude<WorkerReply, { results: unknown[][] }>;

/** A job under way, as the main thread sees it: the worker's replies not yet taken, and the wake-up of the reader waiting for one. */
interface JobInbox {
  replies: JobReply[];
  wake?: () => void;
}

/**
 * A batch of a report's text. From the worker a long batch comes in pieces: each piece but
 * the last has no rows and begins the batch that the next ones finish (see TextBatch).
 */
export interface StreamedBatch {
  text: string;
  rows: number;
  /** A job's announced row count (a batch of no rows and no text; see JobBatch). */
  count?: number;
}

/**
 * Reads for reports and analytics (read-only SQL, `:name` parameters), and whole report jobs,
 * kept off the event loop. better-sqlite3 answers synchronously, so on SQLite a long
 * aggregation read on the main connection would hold up every request (ingest waited seconds
 * beside a report): there statement batches run in a worker thread with a read-only
 * connection of its own to the same file. Report jobs (read, aggregate, format) run in that
 * worker on both databases (on PostgreSQL with a small pool of its own), so that the main
 * thread only hands finished text to the socket. On an in-memory SQLite database (which no
 * other connection can open) everything runs on the main connection; on PostgreSQL statement
 * batches run on the application's own connections as prepared statements.
 *
 * The worker sees what is committed, as any other connection would: reports never read
 * inside a transaction.
 */
@Injectable()
export class ReportQueries implements OnModuleDestroy {
  private readonly kind: DialectKind;
  private readonly file: string | null;
  private readonly workerData: ReportWorkerData | null;
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private readonly jobs = new Map<number, JobInbox>();
  private nextId = 0;
  /** The positional form of the statements sent to the worker, by text. */
  private readonly workerShapes = new Map<string, PositionalStatement>();
  /** Jobs run here when no worker can open the database. */
  private readonly mainDb: ReportDb;
  /** The reads of report jobs for code on the main thread: in the worker on a SQLite file (one round trip each), else on the main connections. */
  readonly db: ReportDb;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly queries: PreparedQueries,
  ) {
    const connection = reportConnection(dataSource.options as ReportConnectionOptions);
    this.kind = connection.kind;
    this.file = connection.file;
    this.workerData = connection.worker;
    this.mainDb = {
      dialect: dialectFor(connection.kind),
      arrays: <Row extends unknown[]>(sql: ReportSql, parameters: Record<string, unknown>, arrayOptions: { text?: boolean } = {}) =>
        this.queries.cachedArrays<Row>(reportText(sql, this.kind), { planEachRun: true, text: arrayOptions.text })(parameters as Record<string, string | number | null>),
    };
    this.db =
      this.file === null
        ? this.mainDb
        : {
            dialect: dialectFor('sqlite'),
            arrays: async <Row extends unknown[]>(sql: ReportSql, parameters: Record<string, unknown>) => {
              const [rows] = await this.send([{ ...this.forWorker(sql, parameters as ReportStatement['parameters']), arrays: true }]);
              return rows as Row[];
            },
          };
  }

  /** Whether statement reads leave the event loop (SQLite on a file). */
  get offThread(): boolean {
    return this.file !== null;
  }

  /** Rows of a read-only statement (`:name` parameters; scalar values, Dates on PostgreSQL). */
  async rows<Row>(sql: ReportSql, parameters: ReportStatement['parameters']): Promise<Row[]> {
    const [rows] = await this.many([{ sql, parameters }]);
    return rows as Row[];
  }

  /**
   * The rows of several statements, in their order: on SQLite one round trip to the worker
   * for all of them (a report reads hundreds of small ranges), on PostgreSQL a few at a time.
   */
  async many(statements: readonly ReportStatement[]): Promise<unknown[][]> {
    if (this.file === null) {
      const results: unknown[][] = new Array(statements.length);
      let next = 0;
      const runOne = ({ sql, parameters }: ReportStatement) => this.queries.cached<unknown>(reportText(sql, this.kind))(parameters as Record<string, string | number | null>);
      await Promise.all(
        Array.from({ length: Math.min(POOL_STATEMENTS_IN_FLIGHT, statements.length) }, async () => {
          while (next < statements.length) {
            const index = next++;
            results[index] = await runOne(statements[index]);
          }
        }),
      );
      return results;
    }
    return this.send(statements.map(({ sql, parameters }) => this.forWorker(sql, parameters)));
  }

  /** A statement as the worker's SQLite connection runs it: positional text (the one translator), its values as SQLite takes them. */
  private forWorker(sql: ReportSql, parameters: ReportStatement['parameters']): { sql: string; values: unknown[] } {
    const text = reportText(sql, 'sqlite');
    let shape = this.workerShapes.get(text);
    if (!shape) {
      if (this.workerShapes.size >= MAX_WORKER_SHAPES) this.workerShapes.clear();
      this.workerShapes.set(text, (shape = positional(text, 'sqlite')));
    }
    const values = shape.names.map((name) => {
      const value = parameters[name];
      return value instanceof Date ? SQLITE.timestamp(value.getTime()) : typeof value === 'boolean' ? SQLITE.boolean(value) : value;
    });
    return { sql: shape.text, values };
  }

  /**
   * A report job's text, batch by batch as the consumer takes them: run in the worker (its
   * text in small pieces; the worker stays a few batches ahead, no more), or on the main
   * connection where no worker can open the database. `statistics` is kept up to date. A
   * consumer that stops early (a client gone) stops the job.
   */
  async *stream<Input>(job: ReportJob<Input>, input: Input, statistics: JobStatistics): AsyncGenerator<StreamedBatch> {
    if (this.workerData === null) {
      yield* job.run(this.mainDb, input, statistics);
      return;
    }
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const inbox: JobInbox = { replies: [] };
    this.jobs.set(id, inbox);
    this.refWhileBusy(worker);
    let finished = false;
    try {
      worker.postMessage({ id, job: { module: job.module, name: job.name }, input });
      // Between batches (not between the pieces of one), a batch already waiting is still taken on the loop's next turn: whatever else waits (a request) goes first.
      let betweenBatches = false;
      for (;;) {
        if (betweenBatches) await nextTurn();
        betweenBatches = false;
        while (inbox.replies.length === 0) await new Promise<void>((resolve) => (inbox.wake = resolve));
        const reply = inbox.replies.shift()!;
        if ('error' in reply) {
          finished = true;
          throw new Error(reply.error);
        }
        if ('piece' in reply) {
          yield { text: reply.piece, rows: 0 };
          continue;
        }
        Object.assign(statistics, reply.statistics);
        if ('end' in reply) {
          finished = true;
          return;
        }
        if ('count' in reply) {
          yield { text: '', rows: 0, count: reply.count };
          continue;
        }
        yield { text: reply.text, rows: reply.rows };
        worker.postMessage({ id, ack: true });
        betweenBatches = true;
      }
    } finally {
      this.jobs.delete(id);
      if (!finished && this.worker === worker) worker.postMessage({ id, cancel: true });
      this.unrefWhenIdle(worker);
    }
  }

  /**
   * {@link stream}, its first batch awaited (a row count, or the start of the text), so that
   * what fails before any byte fails here, with its status. The batches then come from the
   * first on; ending them early (a client gone, even before the first was taken) stops the job.
   */
  async start<Input>(job: ReportJob<Input>, input: Input, statistics: JobStatistics): Promise<{ first: StreamedBatch | undefined; batches: AsyncIterableIterator<StreamedBatch> }> {
    const source = this.stream(job, input, statistics);
    const head = await source.next();
    const first = head.done ? undefined : head.value;
    let pending = first;
    const batches: AsyncIterableIterator<StreamedBatch> = {
      next: async () => {
        if (pending === undefined) return source.next();
        const value = pending;
        pending = undefined;
        return { done: false, value };
      },
      return: async () => {
        pending = undefined;
        return source.return(undefined);
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
    return { first, batches };
  }

  async onModuleDestroy(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failPending(new Error('The server is shutting down'));
    await worker?.terminate().catch(() => undefined);
  }

  private send(statements: Array<{ sql: string; values: unknown[]; arrays?: boolean }>): Promise<unknown[][]> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<unknown[][]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.refWhileBusy(worker);
      worker.postMessage({ id, statements });
    });
  }

  /** A worker with work to do keeps the process alive; an idle one must not. */
  private refWhileBusy(worker: Worker): void {
    if (this.pending.size + this.jobs.size === 1) worker.ref();
  }

  private unrefWhenIdle(worker: Worker): void {
    if (this.pending.size + this.jobs.size === 0) worker.unref();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const { source, entry, typescript } = workerBootstrap();
    const worker = new Worker(source, { eval: true, workerData: { entry, typescript, reportWorker: this.workerData } });
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const inbox = this.jobs.get(reply.id);
      if (inbox) {
        inbox.replies.push(reply as JobReply);
        inbox.wake?.();
        inbox.wake = undefined;
        return;
      }
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      this.unrefWhenIdle(worker);
      if ('error' in reply) pending.reject(new Error(reply.error));
      else if ('results' in reply) pending.resolve(reply.results);
    });
    const lost = (error: Error) => {
      if (this.worker !== worker) return;
      // The next read starts a new one.
      this.worker = null;
      this.failPending(error);
    };
    worker.on('error', lost);
    worker.on('exit', () => lost(new Error('The report reader stopped')));
    this.worker = worker;
    return worker;
  }

  private failPending(error: Error): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const job of pending) job.reject(error);
    for (const inbox of this.jobs.values()) {
      inbox.replies.push({ id: -1, error: error.message });
      inbox.wake?.();
      inbox.wake = undefined;
    }
  }
}
