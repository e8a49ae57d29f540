import 'reflect-metadata';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Principal } from '../access/principal';
import { SqliteDialect } from '../database/sql-dialect';
import { LivePositionsRepository } from './live-positions.repository';
import { isoTime, RealtimePositionsService } from './realtime-positions.service';

describe('isoTime', () => {
  it('writes the UTC text of either database as …SSSZ, cutting microseconds as a Date would', () => {
    expect(isoTime('2026-11-23 10:26:34.801')).toBe('2026-11-23T10:26:34.801Z');
    expect(isoTime('2026-11-23 10:26:34.8')).toBe('2026-11-23T10:26:34.800Z');
    expect(isoTime('2026-11-23 10:26:34.08')).toBe('2026-11-23T10:26:34.080Z');
    expect(isoTime('2026-11-23 10:26:34')).toBe('2026-11-23T10:26:34.000Z');
    expect(isoTime('2026-11-23 10:26:34.801999')).toBe('2026-11-23T10:26:34.801Z');
    expect(isoTime('2026-11-23 10:26:34.000001')).toBe('2026-11-23T10:26:34.000Z');
  });

  it('agrees with a Date for any millisecond and any precision PostgreSQL prints', () => {
    for (let i = 0; i < 2000; i++) {
      const date = new Date(Date.UTC(2000 + (i % 60), i % 12, 1 + (i % 28), i % 24, (i * 7) % 60, (i * 13) % 60, i % 1000));
      const micros = String((i * 37) % 1000).padStart(3, '0');
      const full = `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 23)}${micros}`;
      // PostgreSQL drops trailing zeros of the fraction, and the dot with them.
      const printed = full.replace(/0+$/, '').replace(/\.$/, '');
      expect(isoTime(printed), printed).toBe(date.toISOString());
    }
  });

  it('falls back to a full parse for any other form', () => {
    expect(isoTime('2026-11-23T10:26:34.801Z')).toBe('2026-11-23T10:26:34.801Z');
  });
});

describe('RealtimePositionsService.list: identical reads arriving together share one read', () => {
  const row = (id: string) => [
    id,
    'code',
    null,
    '2026-11-23 10:26:34.801',
    null,
    null,
    null,
    42.5,
    -8.5,
    null,
    null,
    3,
    null,
    '2026-11-23 10:00:00.000',
    '2026-11-23 10:26:34.801',
  ];
  afterEach(() => vi.restoreAllMocks());
  const principal = (organizationId: string, buildingIds: number[] | null = null) => ({ organizationId, buildingIds }) as Principal;

  function service() {
    const reads: Array<Record<string, unknown>> = [];
    const sql = {
      prepared: () => async () => [],
      preparedArrays: () => async (parameters: Record<string, unknown>) => {
        reads.push(parameters);
        return [row(`device-of-${String(parameters.organization)}-${reads.length}`)];
      },
    };
    const dialect = new SqliteDialect();
    const config = { positions: { defaultMaxSecThreshold: 60 } };
    const rows = new LivePositionsRepository(sql as never, dialect, { flushNewest: async () => undefined } as never);
    return { reads, realtime: new RealtimePositionsService(config as never, rows, {} as never) };
  }
  const ids = (answer: Buffer) => (JSON.parse(answer.toString('utf8')) as { features: Array<{ id: string }> }).features.map((feature) => feature.id);

  it('reads once for identical reads that arrive together, and anew once the rows are in', async () => {
    const { reads, realtime } = service();
    const together = await Promise.all([1, 2, 3].map(() => realtime.list(principal('org-a'), { building_ids: [7] })));
    expect(reads).toHaveLength(1);
    expect(together.map(ids)).toEqual([['device-of-org-a-1'], ['device-of-org-a-1'], ['device-of-org-a-1']]);
    expect(ids(await realtime.list(principal('org-a'), { building_ids: [7] }))).toEqual(['device-of-org-a-2']);
    expect(reads).toHaveLength(2);
  });

  it('never shares a read across organizations, building scopes or filters', async () => {
    const { reads, realtime } = service();
    const answers = await Promise.all([
      realtime.list(principal('org-a'), { building_ids: [7] }),
      realtime.list(principal('org-b'), { building_ids: [7] }),
      realtime.list(principal('org-a', [7, 8]), {}),
      realtime.list(principal('org-a', [8]), {}),
      realtime.list(principal('org-a'), { building_ids: [7], max_sec_threshold: 5 }),
      realtime.list(principal('org-a'), { building_ids: [7], indoor: true }),
      realtime.list(principal('org-a'), { building_ids: [7] }),
    ]);
    expect(reads).toHaveLength(6);
    expect(reads.map((parameters) => parameters.organization)).toEqual(['org-a', 'org-b', 'org-a', 'org-a', 'org-a', 'org-a']);
    expect(answers.map((answer) => ids(answer)[0].replace(/-\d+$/, ''))).toEqual([
      'device-of-org-a',
      'device-of-org-b',
      'device-of-org-a',
      'device-of-org-a',
      'device-of-org-a',
      'device-of-org-a',
      'device-of-org-a',
    ]);
    expect(answers[6]).toBe(answers[0]);
  });

  it('lets a request join a read under way only if its query was sent at most 20 ms before', async () => {
    const { realtime } = service();
    const pending: Array<() => void> = [];
    let reads = 0;
    (realtime as unknown as { rows: { sql: unknown } }).rows.sql = {
      prepared: () => async () => [],
      preparedArrays: () => () => {
        const n = ++reads;
        return new Promise((resolve) => pending.push(() => resolve([row(`read-${n}`)])));
      },
    };
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const first = realtime.list(principal('org-a'), {});
    await turn();
    expect(reads).toBe(1);
    now += 20;
    const joined = realtime.list(principal('org-a'), {});
    now += 1;
    const own = realtime.list(principal('org-a'), {});
    await turn();
    expect(reads).toBe(2);
    for (const resolve of pending) resolve();
    expect((await Promise.all([first, joined, own])).map(ids)).toEqual([['read-1'], ['read-1'], ['read-2']]);
  });

  it('hands a failed read to every request that shared it, and reads anew after it', async () => {
    const { realtime } = service();
    let fail = true;
    (realtime as unknown as { rows: { sql: unknown } }).rows.sql = {
      prepared: () => async () => [],
      preparedArrays: () => async () => {
        if (fail) throw new Error('database gone');
        return [row('back')];
      },
    };
    const results = await Promise.allSettled([1, 2].map(() => realtime.list(principal('org-a'), {})));
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(ids(await realtime.list(principal('org-a'), {}))).toEqual(['back']);
  });
});
