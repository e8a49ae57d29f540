import 'reflect-metadata';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namedRows, orderedStatement, orderedValues, positional, registeredStatements, sentTo, SqlStatement, statement, textFor } from './statements';
import type { DialectKind } from './sql-dialect';

const ROOT = join(__dirname, '..', '..');
const KINDS: DialectKind[] = ['postgres', 'sqlite'];

/** Every repository and store, so that every declared statement is registered. */
async function loadRepositories(): Promise<void> {
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter(
    (file) => /(\.repository|-store|\.store)\.ts$/.test(file) && !file.endsWith('.spec.ts'),
  );
  for (const file of files.sort()) await import(join(ROOT, 'src', file));
}

/** The parameters in the order of first use: the order of the values a batch statement takes (`SqlRunner.inOrder`). */
function parameters(sql: SqlStatement, kind: DialectKind): string {
  const names = [...new Set(positional(textFor(sql, kind), kind).names)];
  return names.length === 0 ? '' : `-- parameters: ${names.join(', ')}\n`;
}

/** One database's snapshot: each statement by name, as that database receives it. */
function snapshot(kind: DialectKind): string {
  const header = `-- Every statement the repositories send to ${kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}, as the driver receives it.\n-- Written by \`npm run sql:snapshot\`; src/database/statements.spec.ts fails when it is stale.\n`;
  return (
    header +
    registeredStatements()
      .filter((sql) => !sql.name.startsWith('statements-spec.'))
      .map(
        (sql) =>
          `\n-- ${sql.name}\n${sentTo(sql, kind) ? `${parameters(sql, kind)}${positional(textFor(sql, kind), kind).text.trim()};` : `-- not sent to ${kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}`}\n`,
      )
      .join('')
  );
}

describe('the statements of the repositories', () => {
  it('are what the committed snapshots in sql/ say, per database (`npm run sql:snapshot` writes them)', async () => {
    await loadRepositories();
    expect(registeredStatements().length).toBeGreaterThan(0);
    for (const kind of KINDS) {
      const file = join(ROOT, 'sql', `${kind}.sql`);
      const written = snapshot(kind);
      if (process.env.UPDATE_SQL_SNAPSHOT === '1') {
        mkdirSync(join(ROOT, 'sql'), { recursive: true });
        writeFileSync(file, written);
      }
      expect(readFileSync(file, 'utf8'), `sql/${kind}.sql is stale: run npm run sql:snapshot`).toBe(written);
    }
  });

  it('have one translator: :name to $n (one number a name) or ? (one a use), casts and quoted text left alone', () => {
    const text = `SELECT :a, :b::int, ':c', "x:d", :a FROM t WHERE "it's" = 'it''s :e' AND y = :b_2`;
    expect(positional(text, 'postgres')).toEqual({ text: `SELECT $1, $2::int, ':c', "x:d", $1 FROM t WHERE "it's" = 'it''s :e' AND y = $3`, names: ['a', 'b', 'b_2'] });
    expect(positional(text, 'sqlite')).toEqual({ text: `SELECT ?, ?::int, ':c', "x:d", ? FROM t WHERE "it's" = 'it''s :e' AND y = ?`, names: ['a', 'b', 'a', 'b_2'] });
  });

  it("take a batch's values as an array in the order of their names' first use, one value a use on SQLite", () => {
    const rows = statement('statements-spec.rows', `INSERT INTO t (a, "time") VALUES ${namedRows(['a', '"time"'], 2)} ON CONFLICT DO NOTHING`);
    expect(textFor(rows, 'sqlite')).toBe('INSERT INTO t (a, "time") VALUES (:a_0, :time_0), (:a_1, :time_1) ON CONFLICT DO NOTHING');
    expect(orderedStatement(rows, 'postgres')).toEqual({ text: 'INSERT INTO t (a, "time") VALUES ($1, $2), ($3, $4) ON CONFLICT DO NOTHING', expand: null });
    expect(orderedStatement(rows, 'sqlite').expand).toBeNull();
    const repeated = statement('statements-spec.repeated', 'UPDATE t SET a = :a, at = :now WHERE id = :id AND at <= :now');
    const sqlite = orderedStatement(repeated, 'sqlite');
    expect(sqlite.text).toBe('UPDATE t SET a = ?, at = ? WHERE id = ? AND at <= ?');
    expect(orderedValues(sqlite, [1, 'now', 'x'])).toEqual([1, 'now', 'x', 'now']);
    const postgres = orderedStatement(repeated, 'postgres');
    expect(postgres.text).toBe('UPDATE t SET a = $1, at = $2 WHERE id = $3 AND at <= $2');
    expect(orderedValues(postgres, [1, 'now', 'x'])).toEqual([1, 'now', 'x']);
    expect(orderedStatement(repeated, 'sqlite')).toBe(sqlite);
  });

  it('refuses one name declared twice with different text', () => {
    statement('statements-spec.same', 'SELECT 1');
    expect(() => statement('statements-spec.same', 'SELECT 1')).not.toThrow();
    expect(() => statement('statements-spec.same', 'SELECT 2')).toThrow(/declared twice/);
  });
});
