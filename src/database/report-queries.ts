import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { DataSource } from 'typeorm';
import { PreparedQueries } from './prepared-queries';

interface Pending {
  resolve(results: unknown[][]): void;
  reject(error: Error): void;
}

type Reply = { id: number; results: unknown[][] } | { id: number; error: string };

/** One statement of {@link ReportQueries.many}, with `:name` parameters. */
export interface ReportStatement {
  sql: string;
  parameters: Record<string, string | number | Date | null>;
}

/** Statements of one {@link ReportQueries.many} call run at once on PostgreSQL (a report makes two such calls at a time): a few, so that ingest keeps its connections. */
const POOL_STATEMENTS_IN_FLIGHT = 2;

/** better-sqlite3's entry point, resolved here so that the worker loads the same copy. */
function betterSqlitePath(): string {
  const base = typeof __filename === 'string' ? __filename : `${process.cwd()}/package.json`;
  return createRequire(base).resolve('better-sqlite3');
}

/** Prepared statements the worker keeps, by SQL text (reports use a handful of shapes). */
const MAX_WORKER_STATEMENTS = 200;

/**
 * The worker: its own read-only connection to the database file, one statement at a time.
 * WAL lets it read the last committed state while the main connection writes.
 */
const workerSource = (modulePath: string): string => `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(${JSON.stringify(modulePath)});
const db = new Database(workerData.path, { readonly: true, fileMustExist: true, timeout: workerData.busyTimeoutMs });
db.pragma('busy_timeout = ' + Number(workerData.busyTimeoutMs));
const statements = new Map();
const run = ({ sql, values }) => {
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size >= ${MAX_WORKER_STATEMENTS}) statements.delete(statements.keys().next().value);
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement.all(...values);
};
parentPort.on('message', ({ id, statements: batch }) => {
  try {
    parentPort.postMessage({ id, results: batch.map(run) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

/**
 * Reads for reports and analytics (read-only SQL, `:name` parameters), kept off the event
 * loop: better-sqlite3 answers synchronously, so on SQLite a long aggregation read on the
 * main connection would hold up every request (ingest waited seconds beside a report). There
 * they run in a worker thread with a read-only connection of its own to the same file; on
 * PostgreSQL, and on an in-memory SQLite database (which no other connection can open), on
 * the application's own connections as prepared statements.
 *
 * The worker sees what is committed, as any other connection would: reports never read
 * inside a transaction.
 */
@Injectable()
export class ReportQueries implements OnModuleDestroy {
  private readonly file: string | null;
  private readonly busyTimeoutMs: number;
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queries: PreparedQueries,
  ) {
    const options = dataSource.options as { type: string; database?: unknown; timeout?: number };
    const database = typeof options.database === 'string' ? options.database : '';
    this.file = options.type === 'better-sqlite3' && database !== '' && database !== ':memory:' && !database.startsWith('file::memory:') ? database : null;
    this.busyTimeoutMs = options.timeout ?? 5000;
  }

  /** Whether reads leave the event loop (SQLite on a file). */
  get offThread(): boolean {
    return this.file !== null;
  }

  /** Rows of a read-only statement (`:name` parameters; scalar values, Dates on PostgreSQL). */
  async rows<Row>(sql: string, parameters: ReportStatement['parameters']): Promise<Row[]> {
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
      const runOne = ({ sql, parameters }: ReportStatement) => this.queries.cached<unknown>(sql)(parameters as Record<string, string | number | null>);
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
    return this.send(
      statements.map(({ sql, parameters }) => {
        const [text, values] = this.dataSource.driver.escapeQueryWithParameters(sql, parameters);
        return { sql: text, values };
      }),
    );
  }

  async onModuleDestroy(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failPending(new Error('The server is shutting down'));
    await worker?.terminate().catch(() => undefined);
  }

  private send(statements: Array<{ sql: string; values: unknown[] }>): Promise<unknown[][]> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<unknown[][]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // A worker with work to do keeps the process alive; an idle one must not.
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, statements });
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerSource(betterSqlitePath()), { eval: true, workerData: { path: this.file, busyTimeoutMs: this.busyTimeoutMs } });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if ('error' in reply) pending.reject(new Error(reply.error));
      else pending.resolve(reply.results);
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
  }
}
