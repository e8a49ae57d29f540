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
