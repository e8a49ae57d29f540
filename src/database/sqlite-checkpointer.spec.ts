import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointOptions, SqliteCheckpointer } from './sqlite-checkpointer';

interface SqliteConnection {
  pragma(statement: string, options?: { simple?: boolean }): unknown;
  exec(sql: string): void;
  prepare(sql: string): { get(): unknown };
  close(): void;
}
// better-sqlite3 ships no types here; the few calls the test makes are declared above.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Database = require('better-sqlite3') as new (file: string, options?: { readonly?: boolean }) => SqliteConnection;

const opened: Array<{ dataSource: DataSource; checkpointer: SqliteCheckpointer; dir?: string }> = [];

async function open(database: string, options: Partial<CheckpointOptions> = {}, dir?: string) {
  const dataSource = new DataSource({ type: 'better-sqlite3', database, enableWAL: database !== ':memory:' });
  await dataSource.initialize();
  await dataSource.query('CREATE TABLE blobs (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const checkpointer = new SqliteCheckpointer(dataSource, options);
  checkpointer.onModuleInit();
  opened.push({ dataSource, checkpointer, dir });
  return { dataSource, checkpointer };
}

const autocheckpoint = (dataSource: DataSource): number =>
  (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection.pragma('wal_autocheckpoint', { simple: true }) as number;

/** About `pages` pages of 4 KiB written in one commit. */
const write = (dataSource: DataSource, pages: number) =>
  dataSource.query(
    `INSERT INTO blobs (body) SELECT printf('%.4000c', 'x') FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${pages}) SELECT i FROM n)`,
  );

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

afterEach(async () => {
  for (const { dataSource, checkpointer, dir } of opened.splice(0)) {
    await checkpointer.onApplicationShutdown();
    if (dataSource.isInitialized) await dataSource.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
});

describe('SqliteCheckpointer', () => {
  it('on a SQLite file, copies the WAL into the database from a worker while the main connection never checkpoints', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
    const file = join(dir, 'db.sqlite');
    const { dataSource, checkpointer } = await open(file, { intervalMs: 10 }, dir);
    expect(checkpointer.offThread).toBe(true);
    expect(autocheckpoint(dataSource)).toBe(0);
    const before = statSync(file).size;
    await write(dataSource, 200);
    // The commit went to the WAL only; the worker then copies its pages into the database file.
    await until(() => statSync(file).size >= before + 200 * 4096);
    expect(Number((await dataSource.query('SELECT count(*) AS n FROM blobs'))[0].n)).toBe(200);
  });

  it('when the WAL grows past the limit, has the main connection checkpoint after its commits until the log restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
    const file = join(dir, 'db.sqlite');
    const { dataSource } = await open(file, { intervalMs: 10, restartAfterPages: 100 }, dir);
    // A reader holding an old snapshot keeps the log from being copied past it, so it grows.
    const reader = new Database(file, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM blobs').get();
    await write(dataSource, 150);
    await until(() => autocheckpoint(dataSource) === 1);
    reader.exec('COMMIT');
    reader.close();
    // Commits now checkpoint, the log restarts from its beginning, and the worker takes over again.
    await until(async () => {
      await write(dataSource, 1);
      return autocheckpoint(dataSource) === 0;
    });
    const [{ log }] = (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>;
    expect(log).toBeLessThan(100);
  });

  it('if the worker stops, the main connection checkpoints itself again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
    const { dataSource, checkpointer } = await open(join(dir, 'db.sqlite'), {}, dir);
    expect(autocheckpoint(dataSource)).toBe(0);
    await (checkpointer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await until(() => autocheckpoint(dataSource) === 1000);
    expect(checkpointer.offThread).toBe(false);
  });

  it('on an in-memory database (no WAL, no file), leaves SQLite as it is', async () => {
    const { dataSource, checkpointer } = await open(':memory:');
    expect(checkpointer.offThread).toBe(false);
    expect(autocheckpoint(dataSource)).toBe(1000);
  });
});
