import { describe, expect, it } from 'vitest';
import { dialectFor, namedList } from './sql-dialect';

const timestampParameter = (kind: 'postgres' | 'sqlite', ms: number) => dialectFor(kind).timestamp(ms);

describe('namedList', () => {
  it('pads IN lists to a power of two with the last value, so few statement shapes exist', () => {
    expect(namedList('f', [7])).toEqual({ sql: ':f0', parameters: { f0: 7 } });
    expect(namedList('f', [7, 8, 9])).toEqual({ sql: ':f0, :f1, :f2, :f3', parameters: { f0: 7, f1: 8, f2: 9, f3: 9 } });
    const shapes = new Set(
      Array.from(
        { length: 1000 },
        (_, n) =>
          namedList(
            'd',
            Array.from({ length: n + 1 }, (_, i) => `id-${i}`),
          ).sql,
      ),
    );
    expect(shapes.size).toBe(11);
  });
});

describe('timestampParameter', () => {
  it('writes SQLite times as the sortable UTC text TypeORM uses, PostgreSQL times as Dates', () => {
    const ms = Date.UTC(2026, 10, 23, 9, 5, 7, 42);
    expect(timestampParameter('sqlite', ms)).toBe('2026-11-23 09:05:07.042');
    expect(timestampParameter('postgres', ms)).toEqual(new Date(ms));
  });
});
