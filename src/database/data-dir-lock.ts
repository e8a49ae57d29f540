import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../config/private-files';

// better-sqlite3 ships no types; the calls used here, typed.
interface SqliteConnection {
  pragma(statement: string): unknown;
  exec(sql: string): unknown;
  close(): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Database = require('better-sqlite3') as new (path: string, options: { timeout?: number }) => SqliteConnection;

/** The lock file in DATA_DIR (a tiny SQLite database that nothing reads). */
export const DATA_DIR_LOCK_FILE = 'cartograph.lock';

/** Another process holds the DATA_DIR lock: a running server, or a restore or `migrate down` under way. */
export class DataDirectoryInUse extends Error {
  readonly lockPath: string;

  constructor(readonly dataDir: string) {
    super(`DATA_DIR ${dataDir} is in use by another Cartograph process (it holds ${join(dataDir, DATA_DIR_LOCK_FILE)})`);
    this.lockPath = join(dataDir, DATA_DIR_LOCK_FILE);
    this.name = 'DataDirectoryInUse';
  }
}

export interface DataDirectoryLock {
  release(): void;
}

/** Held by this process for its lifetime; a reference keeps the connection (and its lock) from being collected. */
const held = new Map<string, SqliteConnection>();

/**
 * Takes the SQLite DATA_DIR for this process alone, or throws DataDirectoryInUse at once.
 *
 * The lock is SQLite's own: an exclusive lock (`locking_mode=EXCLUSIVE`, kept after the first
 * write) on a separate file, so it is an operating-system lock (fcntl) that the kernel
 * drops when the process ends in any way, SIGKILL and crashes included: nothing stale is
 * left behind, unlike a PID file. It is not taken on the database itself, whose readers in
 * worker threads (reports, checkpoints) need WAL's shared memory, which exclusive locking
 * mode turns off. SQLite also tracks locks between connections of one process, so a second
 * lock from this process is refused too.
 */
export function lockDataDirectory(dataDir: string): DataDirectoryLock {
  const path = join(dataDir, DATA_DIR_LOCK_FILE);
  if (!existsSync(path)) closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  const connection = new Database(path, { timeout: 0 });
  try {
    // No journal file beside the lock: nothing in it is worth a rollback.
    connection.pragma('journal_mode = MEMORY');
    connection.pragma('locking_mode = EXCLUSIVE');
    connection.exec('BEGIN EXCLUSIVE');
    connection.exec('CREATE TABLE IF NOT EXISTS lock (held INTEGER); DELETE FROM lock');
    connection.exec('COMMIT');
  } catch (error) {
    connection.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY' || (error as { code?: string }).code === 'SQLITE_LOCKED') throw new DataDirectoryInUse(dataDir);
    throw error;
  }
  held.set(path, connection);
  return {
    release: () => {
      if (held.get(path) !== connection) return;
      held.delete(path);
      connection.close();
    },
  };
}

/**
 * Whether no other process holds DATA_DIR: this one holds the lock, or nobody does (a test
 * application, or a server that has not started). Work that assumes it is the only process
 * on the SQLite database (clearing what a crashed process left) asks this first.
 */
export function noOtherProcessOn(dataDir: string): boolean {
  if (held.has(join(dataDir, DATA_DIR_LOCK_FILE))) return true;
  if (!existsSync(join(dataDir, DATA_DIR_LOCK_FILE))) return true;
  try {
    lockDataDirectory(dataDir).release();
    return true;
  } catch (error) {
    if (error instanceof DataDirectoryInUse) return false;
    throw error;
  }
}
