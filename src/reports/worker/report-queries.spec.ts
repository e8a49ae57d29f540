import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { afterEach, describe, expect, it } from 'vitest';
import { PreparedQueries } from '../../database/prepared-queries';
import { ReportQueries } from './report-queries';

const opened: Array<{ dataSource: DataSource; reports: ReportQueries; dir?: string }> = [];

async function open(database: string, dir?: string) {
  const dataSource = new DataSource({ type: 'better-sqlite3', database, enableWAL: database !== ':memory:' });
  await dataSource.initialize();
  await dataSource.query('CREATE TABLE visits (id TEXT PRIMARY KEY, fence TEXT NOT NULL, seconds INTEGER NOT NULL)');
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

describe('ReportQueries', () => {
  it('on a SQLite file, reads in a worker what the main connection committed, with named parameters', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-queries-'));
    const { dataSource, reports } = await open(join(dir, 'db.sqlite'), dir);
    expect(reports.offThread).toBe(true);
    await dataSource.query("INSERT INTO visits VALUES ('v1', 'a', 10), ('v2', 'a', 20), ('v3', 'b', 30)");
    const sql = 'SELECT id, seconds FROM visits WHERE fence = :fence AND seconds >= :min ORDER BY id';
    expect(await reports.rows(sql, { fence: 'a', min: 0 })).toEqual([
      { id: 'v1', seconds: 10 },
      { id: 'v2', seconds: 20 },
    ]);
    // A later write is seen by the next read (WAL: the worker reads the last commit).
    await dataSource.query("INSERT INTO visits VALUES ('v4', 'a', 40)");
    const [many, few] = await Promise.all([reports.rows<{ id: string }>(sql, { fence: 'a', min: 0 }), reports.rows<{ id: string }>(sql, { fence: 'a', min: 25 })]);
    expect(many.map((row) => row.id)).toEqual(['v1', 'v2', 'v4']);
    expect(few.map((row) => row.id)).toEqual(['v4']);
    expect(await reports.rows(sql, { fence: 'a', min: 35 })).toEqual([{ id: 'v4', seconds: 40 }]);
  });

  it('rejects a failing statement with its message and keeps answering; its connection cannot write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-queries-'));
    const { reports } = await open(join(dir, 'db.sqlite'), dir);
    await expect(reports.rows('SELECT nope FROM visits', {})).rejects.toThrow(/no such column: nope/);
    await expect(reports.rows("INSERT INTO visits VALUES ('x', 'x', 1) RETURNING id", {})).rejects.toThrow(/readonly/);
    expect(await reports.rows('SELECT count(*) AS n FROM visits', {})).toEqual([{ n: 0 }]);
  });

  it('shutting down fails the reads still waiting instead of leaving them hanging', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-queries-'));
    const { reports } = await open(join(dir, 'db.sqlite'), dir);
    // A statement that runs long enough to be cut off.
    const slow = reports.rows('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT count(*) AS n FROM n', {});
    const failed = expect(slow).rejects.toThrow(/shutting down/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await reports.onModuleDestroy();
    await failed;
  });

  it('on an in-memory database (no other connection can open it), reads on the main connection', async () => {
    const { dataSource, reports } = await open(':memory:');
    expect(reports.offThread).toBe(false);
    await dataSource.query("INSERT INTO visits VALUES ('v1', 'a', 10)");
    expect(await reports.rows('SELECT id FROM visits WHERE fence = :fence', { fence: 'a' })).toEqual([{ id: 'v1' }]);
  });
});
