import { describe, expect, it } from 'vitest';
import { metricsRegistry, reportPool, statementKind } from './metrics.registry';

describe('statementKind', () => {
  it('labels a query by its first word, from a bounded set, never by its text', () => {
    expect(statementKind('SELECT 1')).toBe('select');
    expect(statementKind('  insert into "x" values (?)')).toBe('insert');
    expect(statementKind('UPDATE "users" SET ...')).toBe('update');
    expect(statementKind('DELETE FROM "a"')).toBe('delete');
    expect(statementKind('WITH q AS (...) SELECT ...')).toBe('with');
    expect(statementKind('PRAGMA busy_timeout = 5')).toBe('other');
    expect(statementKind('')).toBe('other');
  });
});

describe('cartograph_db_pool_connections', () => {
  it('sums the registered pools at scrape time and forgets an unregistered one', async () => {
    const read = async () => (await metricsRegistry.getSingleMetric('cartograph_db_pool_connections')!.get()).values;
    const stopA = reportPool(() => ({ totalCount: 3, idleCount: 1, waitingCount: 0 }));
    const stopB = reportPool(() => ({ totalCount: 2, idleCount: 0, waitingCount: 4 }));
    const stopGone = reportPool(() => undefined);
    expect((await read()).map((sample) => [sample.labels.state, sample.value])).toEqual([
      ['total', 5],
      ['idle', 1],
      ['waiting', 4],
    ]);
    stopB();
    stopGone();
    expect((await read()).find((sample) => sample.labels.state === 'waiting')?.value).toBe(0);
    stopA();
  });
});
