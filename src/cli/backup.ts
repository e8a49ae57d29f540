import { cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DatabaseConfig } from '../config/database.config';

// better-sqlite3 ships no types; the two calls used here, typed.
interface SqliteConnection {
  backup(destination: string): Promise<unknown>;
  close(): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Database = require('better-sqlite3') as new (path: string, options: { readonly?: boolean; fileMustExist?: boolean }) => SqliteConnection;

export interface BackupResult {
  directory: string;
  /** The SQLite copy, or undefined on PostgreSQL (back it up with pg_dump). */
  database: string | undefined;
  /** Files and folders of DATA_DIR copied beside it (jwt-secret, images/...). */
  files: string[];
}

/** DATA_DIR entries that are the live database: copied through SQLite's backup API, never as files. */
const SQLITE_FILES = (file: string) => [file, `${file}-wal`, `${file}-shm`, `${file}-journal`].map((path) => basename(path));

/**
 * A consistent copy of a running server's data: the SQLite database through SQLite's
 * online backup (a snapshot that concurrent writes cannot tear; the server keeps serving),
 * then every other entry of DATA_DIR (the generated JWT secret, local images). Refuses a
 * target that exists and is not empty, so a backup never mixes with an older one.
 */
export async function backupDataDirectory(dataDir: string, database: DatabaseConfig, target: string): Promise<BackupResult> {
  if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) {
    throw new Error(`The backup target ${target} exists and is not an empty directory`);
  }
  mkdirSync(target, { recursive: true });
  let databaseCopy: string | undefined;
  const skip = new Set<string>();
  if (database.kind === 'sqlite') {
    databaseCopy = join(target, basename(database.path));
    const source = new Database(database.path, { readonly: true, fileMustExist: true });
    try {
      await source.backup(databaseCopy);
    } finally {
      source.close();
    }
    for (const name of SQLITE_FILES(database.path)) skip.add(name);
  }
  const files: string[] = [];
  for (const entry of readdirSync(dataDir)) {
    if (skip.has(entry)) continue;
    cpSync(join(dataDir, entry), join(target, entry), { recursive: true, preserveTimestamps: true });
    files.push(entry);
  }
  writeFileSync(
    join(target, 'BACKUP.json'),
    `${JSON.stringify({ created_at: new Date().toISOString(), database: database.kind, data_dir: dataDir, files }, null, 2)}\n`,
  );
  return { directory: target, database: databaseCopy, files };
}

export const PG_DUMP_HINT =
  'PostgreSQL is backed up with its own tools, online and consistent: pg_dump --format=custom --file=cartograph.dump "$DATABASE_URL" ' +
  '(restore with pg_restore --clean --if-exists --dbname="$DATABASE_URL" cartograph.dump).';
