import { describe, expect, it } from 'vitest';
import type { DataSource, EntityManager } from 'typeorm';
import { TransactionRunner } from './transactions';

/** A data source of the given type whose transactions just run their work. */
function recordingDataSource(type: string): DataSource {
  return {
    options: { type },
    transaction: async (work: (manager: EntityManager) => Promise<unknown>) => {
      const manager = {} as EntityManager;
      return work(manager);
    },
  } as unknown as DataSource;
}

describe('TransactionRunner', () => {
  it('runs SQLite transactions one at a time, each on an event-loop turn of its own', async () => {
    const log: string[] = [];
    const runner = new TransactionRunner(recordingDataSource('better-sqlite3'));
    const transaction = (name: string) =>
      runner.run(async () => {
        log.push(`${name} starts`);
        // Something the event loop would run (an accepted connection, a timer) asks for the next turn.
        setImmediate(() => log.push(`turn after ${name}`));
        await Promise.resolve();
        log.push(`${name} ends`);
        return name;
      });
    const results = await Promise.all([transaction('first'), transaction('second'), transaction('third')]);
    expect(results).toEqual(['first', 'second', 'third']);
    // Chained on promises alone, the three would have run back to back before any turn.
    expect(log).toEqual(['first starts', 'first ends', 'turn after first', 'second starts', 'second ends', 'turn after second', 'third starts', 'third ends']);
  });

  it('keeps the order and goes on after a failed transaction', async () => {
    const runner = new TransactionRunner(recordingDataSource('better-sqlite3'));
    const order: string[] = [];
    const failing = runner.run(async () => {
      order.push('failing');
      throw new Error('refused');
    });
    const next = runner.run(async () => {
      order.push('next');
      return 'ok';
    });
    await expect(failing).rejects.toThrow('refused');
    await expect(next).resolves.toBe('ok');
    expect(order).toEqual(['failing', 'next']);
  });

  it('lets PostgreSQL transactions run at once, side by side', async () => {
    const log: string[] = [];
    const runner = new TransactionRunner(recordingDataSource('postgres'));
    let releaseFirst!: () => void;
    const first = runner.run(async () => {
      log.push('first starts');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      log.push('first ends');
    });
    const second = runner.run(async () => {
      log.push('second runs');
    });
    await second;
    releaseFirst();
    await first;
    expect(log).toEqual(['first starts', 'second runs', 'first ends']);
  });
});

/** A real SQLite database with one table, and every statement the runner's connection ran. */
async function sqlite(): Promise<{ dataSource: DataSource; runner: TransactionRunner; statements: string[]; rows: () => Promise<string[]>; close: () => Promise<void> }> {
  const { DataSource: RealDataSource } = await import('typeorm');
  const dataSource = new RealDataSource({ type: 'better-sqlite3', database: ':memory:' });
  await dataSource.initialize();
  await dataSource.query('CREATE TABLE items (name TEXT PRIMARY KEY)');
  const statements: string[] = [];
  const driver = dataSource.driver as unknown as { databaseConnection: { prepare: (sql: string) => unknown } };
  const prepare = driver.databaseConnection.prepare.bind(driver.databaseConnection);
  // Every statement run, as it runs (TypeORM keeps prepared statements and runs them again).
  driver.databaseConnection.prepare = (sql: string) => {
    const statement = prepare(sql) as Record<string, unknown>;
    for (const method of ['run', 'all', 'get']) {
      const original = statement[method] as (...parameters: unknown[]) => unknown;
      statement[method] = (...parameters: unknown[]) => {
        statements.push(sql);
        return original.apply(statement, parameters);
      };
    }
    return statement;
  };
  return {
    dataSource,
    runner: new TransactionRunner(dataSource),
    statements,
    rows: async () => ((await dataSource.query('SELECT name FROM items ORDER BY name')) as Array<{ name: string }>).map((row) => row.name),
    close: () => dataSource.destroy(),
  };
}

describe('TransactionRunner: group commit on SQLite', () => {
  const insert = (manager: EntityManager, name: string) => manager.query('INSERT INTO items (name) VALUES (?)', [name]);

  it('runs units of one group queued together in one transaction, each in a savepoint, settled after the COMMIT', async () => {
    const db = await sqlite();
    const settled: string[] = [];
    const committed: string[] = [];
    const unit = (name: string) =>
      db.runner
        .run(
          async (manager) => {
            await insert(manager, name);
            db.runner.afterCommit(manager, () => committed.push(name));
            return name;
          },
          { group: 'ingest' },
        )
        .then((value) => {
          settled.push(value);
          return value;
        });
    expect(await Promise.all([unit('a'), unit('b'), unit('c')])).toEqual(['a', 'b', 'c']);
    expect(await db.rows()).toEqual(['a', 'b', 'c']);
    expect(db.statements.filter((sql) => /^(BEGIN|COMMIT)/.test(sql))).toEqual(['BEGIN TRANSACTION', 'COMMIT']);
    expect(db.statements.filter((sql) => sql.startsWith('SAVEPOINT'))).toHaveLength(3);
    expect(committed).toEqual(['a', 'b', 'c']);
    expect(settled).toEqual(['a', 'b', 'c']);
    await db.close();
  });

  it('rolls a failing unit back alone: it is rejected and leaves nothing, the others of its group are stored', async () => {
    const db = await sqlite();
    const committed: string[] = [];
    const unit = (name: string, fail = false) =>
      db.runner.run(
        async (manager) => {
          await insert(manager, name);
          db.runner.afterCommit(manager, () => committed.push(name));
          if (fail) throw new Error(`${name} refused`);
          return name;
        },
        { group: 'ingest' },
      );
    const results = await Promise.allSettled([unit('a'), unit('b', true), unit('c')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('b refused'));
    expect(await db.rows()).toEqual(['a', 'c']);
    // The failed unit's after-commit work went with its savepoint.
    expect(committed).toEqual(['a', 'c']);
    expect(db.statements.filter((sql) => sql === 'COMMIT')).toHaveLength(1);
    await db.close();
  });

  it('rejects every unit of the group when the COMMIT fails, and nothing of the group is stored', async () => {
    const db = await sqlite();
    // A deferred foreign key fails at COMMIT, after every unit's savepoint was released.
    await db.dataSource.query('PRAGMA foreign_keys = ON');
    await db.dataSource.query('CREATE TABLE parents (id INTEGER PRIMARY KEY)');
    await db.dataSource.query('CREATE TABLE children (parent INTEGER REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)');
    const committed: string[] = [];
    const unit = (name: string, orphan = false) =>
      db.runner.run(
        async (manager) => {
          await insert(manager, name);
          if (orphan) await manager.query('INSERT INTO children (parent) VALUES (42)');
          db.runner.afterCommit(manager, () => committed.push(name));
          return name;
        },
        { group: 'ingest' },
      );
    const results = await Promise.allSettled([unit('a'), unit('b', true), unit('c')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await db.rows()).toEqual([]);
    expect(committed).toEqual([]);
    // The runner goes on.
    await expect(unit('d')).resolves.toBe('d');
    expect(await db.rows()).toEqual(['d']);
    await db.close();
  });

  it('never puts units of another group, or ungrouped work, in a group', async () => {
    const db = await sqlite();
    const work = (name: string) => async (manager: EntityManager) => {
      await insert(manager, name);
      return name;
    };
    await Promise.all([
      db.runner.run(work('a'), { group: 'ingest' }),
      db.runner.run(work('b'), { group: 'ingest' }),
      db.runner.run(work('c')),
      db.runner.run(work('d'), { group: 'other' }),
      db.runner.run(work('e'), { group: 'ingest' }),
    ]);
    expect(await db.rows()).toEqual(['a', 'b', 'c', 'd', 'e']);
    // a+b together, then c, d and e each alone.
    expect(db.statements.filter((sql) => sql === 'COMMIT')).toHaveLength(4);
    await db.close();
  });

  it("runs each unit in its caller's async context", async () => {
    const db = await sqlite();
    const { AsyncLocalStorage } = await import('node:async_hooks');
    const caller = new AsyncLocalStorage<string>();
    const unit = (name: string) => caller.run(name, () => db.runner.run(async () => caller.getStore(), { group: 'ingest' }));
    expect(await Promise.all([unit('first'), unit('second'), unit('third')])).toEqual(['first', 'second', 'third']);
    await db.close();
  });
});

describe('TransactionRunner: after-rollback work', () => {
  it('runs when a unit of a group is rolled back alone, or a lone transaction is; never after a commit', async () => {
    const { runner, close } = await sqlite();
    const log: string[] = [];
    const unit = (name: string, fail: boolean) =>
      runner.run(
        async (manager) => {
          runner.afterRollback(manager, () => log.push(`${name} rolled back`));
          runner.afterCommit(manager, () => log.push(`${name} committed`));
          await manager.query('INSERT INTO items (name) VALUES (?)', [name]);
          if (fail) throw new Error(name);
        },
        { group: 'ingest' },
      );
    await Promise.allSettled([unit('a', false), unit('b', true), unit('c', false)]);
    expect(log).toEqual(['b rolled back', 'a committed', 'c committed']);

    // The same name twice: the second insert fails at once inside its unit, a lone transaction.
    log.length = 0;
    await expect(unit('a', false)).rejects.toThrow();
    expect(log).toEqual(['a rolled back']);
    await close();
  });
});
