import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { DataSource } from 'typeorm';

/** SQLite's own default: the main connection checkpoints itself again when no worker does. */
const AUTOCHECKPOINT_PAGES = 1000;

export interface CheckpointOptions {
  /** How often the worker copies the WAL into the database file. */
  intervalMs: number;
  /** A WAL this long (in pages, 4 KiB by default) is restarted with the main connection's help (see the worker). */
  restartAfterPages: number;
}

const DEFAULT_OPTIONS: CheckpointOptions = { intervalMs: 50, restartAfterPages: 4000 };
/** Tests inject smaller figures here. */
export const CHECKPOINT_OPTIONS = Symbol('CHECKPOINT_OPTIONS');

interface SqliteConnection {
  pragma(statement: string, options?: { simple?: boolean }): unknown;
}

/**
 * The worker: a connection of its own to the database file, copying the WAL into it on a timer
 * (PASSIVE takes no lock a writer needs). The log itself only restarts from its beginning when
 * a writer starts a transaction with every frame copied, which commits arriving during the
 * worker's copy can keep from happening; when the log grows long, the worker asks the main
 * connection to checkpoint after its commits for a while: with the worker's copy done, that
 * checkpoint has little left to copy, and no commit can come in between.
 */
const workerSource = (modulePath: string): string => `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(${JSON.stringify(modulePath)});
const db = new Database(workerData.path, { fileMustExist: true, timeout: workerData.busyTimeoutMs });
db.pragma('busy_timeout = ' + Number(workerData.busyTimeoutMs));
db.pragma('wal_autocheckpoint = 0');
let asked = false;
const timer = setInterval(() => {
  let log;
  try {
    log = db.pragma('wal_checkpoint(PASSIVE)')[0].log;
  } catch (error) {
    // A busy database now is a checkpoint later; anything else ends the worker, which the main thread notices.
    if (!/busy|locked/i.test(String(error && error.message))) throw error;
    return;
  }
  if (!asked && log >= workerData.restartAfterPages) parentPort.postMessage('checkpoint-after-commits');
  else if (asked && log < workerData.restartAfterPages / 2) parentPort.postMessage('no-checkpoint-after-commits');
  else return;
  asked = !asked;
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Keeps WAL checkpoints off the event loop on SQLite. better-sqlite3 runs every statement on
 * the main thread, and with SQLite's automatic checkpoint the COMMIT that crosses 1,000 WAL
 * pages copies them all into the database file before it returns: under ingest that was about
 * a third of the COMMIT time, every few batches. Here a worker thread with its own connection
 * copies the WAL, on the other core, and the main connection only checkpoints the little left
 * when the log is to restart (see the worker). If the worker stops, the
 * main connection goes back to checkpointing itself, so the WAL never grows without bound.
 * An in-memory database has no WAL and no file another connection could open: nothing to do.
 */
@Injectable()
export class SqliteCheckpointer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SqliteCheckpointer.name);
  private readonly file: string | null;
  private readonly busyTimeoutMs: number;
  private readonly options: CheckpointOptions;
  private worker: Worker | null = null;
  private stopping = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() @Inject(CHECKPOINT_OPTIONS) checkpointOptions?: Partial<CheckpointOptions>,
  ) {
    this.options = { ...DEFAULT_OPTIONS, ...checkpointOptions };
    const options = dataSource.options as { type: string; database?: unknown; timeout?: number };
    const database = typeof options.database === 'string' ? options.database : '';
    this.file = options.type === 'better-sqlite3' && database !== '' && database !== ':memory:' && !database.startsWith('file::memory:') ? database : null;
    this.busyTimeoutMs = options.timeout ?? 5000;
  }

  onModuleInit(): void {
    if (this.file === null || this.connection === null) return;
    const worker = new Worker(workerSource(betterSqlitePath()), {
      eval: true,
      workerData: { path: this.file, busyTimeoutMs: this.busyTimeoutMs, ...this.options },
    });
    // Its timer must not keep a finished process alive.
    worker.unref();
    const lost = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.setAutocheckpoint(AUTOCHECKPOINT_PAGES);
      if (!this.stopping) this.logger.warn(`WAL checkpoints are back on the main thread: ${reason}`);
    };
    worker.on('message', (message: string) => {
      if (this.worker === worker) this.setAutocheckpoint(message === 'checkpoint-after-commits' ? 1 : 0);
    });
    worker.on('error', (error) => lost(String(error)));
    worker.on('exit', (code) => lost(`the checkpoint worker exited (${code})`));
    this.worker = worker;
    this.setAutocheckpoint(0);
  }

  async onApplicationShutdown(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.stopping = true;
    const exited = new Promise((done) => worker.once('exit', done));
    worker.postMessage('stop');
    // Not unref'd: with the worker unref'd, an unref'd timer would let the process end here, before
    // shutdown logs that it stopped.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((done) => (timer = setTimeout(done, 2000)))]);
    clearTimeout(timer);
    await worker.terminate().catch(() => undefined);
  }

  /** Whether a worker checkpoints (the main connection then does not). */
  get offThread(): boolean {
    return this.worker !== null;
  }

  private get connection(): SqliteConnection | null {
    return (this.dataSource.driver as unknown as { databaseConnection?: SqliteConnection }).databaseConnection ?? null;
  }

  private setAutocheckpoint(pages: number): void {
    try {
      this.connection?.pragma(`wal_autocheckpoint = ${pages}`);
    } catch (error) {
      // Closed already (shutdown): nothing left to checkpoint for.
      this.logger.debug(`wal_autocheckpoint not set: ${String(error)}`);
    }
  }
}

/** better-sqlite3's entry point, resolved here so that the worker loads the same copy. */
function betterSqlitePath(): string {
  const base = typeof __filename === 'string' ? __filename : `${process.cwd()}/package.json`;
  return createRequire(base).resolve('better-sqlite3');
}
