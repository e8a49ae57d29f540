import { Client } from 'pg';
import { DataSource } from 'typeorm';

// better-sqlite3 ships no types; the calls used here, typed.
interface SqliteConnection {
  prepare(sql: string): { get(): unknown; all(): unknown[] };
  close(): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Database = require('better-sqlite3') as new (path: string, options: { fileMustExist: boolean }) => SqliteConnection;

/** The migrations applied to a database, oldest first (none when it has no migrations table): for `migrate`, `backup` and `restore`. */
export async function appliedMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    if (!(await runner.hasTable('migrations'))) return [];
    const rows: Array<{ name: string }> = await runner.query('SELECT "name" FROM "migrations" ORDER BY "timestamp"');
    return rows.map((row) => row.name);
  } finally {
    await runner.release();
  }
}

/**
 * The migrations applied to a SQLite file, oldest first (none when it has no migrations table).
 * Opened for writing although it only reads: the copy is in WAL mode, and only a connection
 * that may write removes the `-wal` and `-shm` files when it closes.
 */
export function sqliteMigrations(file: string): string[] {
  const db = new Database(file, { fileMustExist: true });
  try {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'migrations'").get();
    if (!table) return [];
    return (db.prepare('SELECT "name" FROM "migrations" ORDER BY "timestamp"').all() as Array<{ name: string }>).map((row) => row.name);
  } finally {
    db.close();
  }
}

export async function postgresMigrations(url: string): Promise<string[]> {
  const client = new Client({ connectionString: url, application_name: 'cartograph-cli' });
  await client.connect();
  try {
    const exists = await client.query<{ present: boolean }>("SELECT to_regclass('migrations') IS NOT NULL AS present");
    if (!exists.rows[0]?.present) return [];
    return (await client.query<{ name: string }>('SELECT "name" FROM "migrations" ORDER BY "timestamp"')).rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}
