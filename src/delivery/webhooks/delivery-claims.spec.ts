import { describe, expect, it } from 'vitest';
import { dialectSql, sqliteTime } from './delivery-claims';

describe('delivery claim SQL for both databases', () => {
  const template = 'UPDATE t SET a = {now}, b = {owner} WHERE id IN_LIST {ids:list} AND c < {now}';

  it('numbers each name once on PostgreSQL and casts a list to a uuid array', () => {
    const { text, order } = dialectSql(template.replace('IN_LIST', '='), true);
    expect(text).toBe('UPDATE t SET a = $1, b = $2 WHERE id = ANY(CAST($3 AS uuid[])) AND c < $1');
    expect(order).toEqual(['now', 'owner', 'ids']);
  });

  it('binds a name used twice twice on SQLite, and reads a list from a JSON array', () => {
    const { text, order } = dialectSql(template.replace('IN_LIST', 'IN'), false);
    expect(text).toBe('UPDATE t SET a = ?, b = ? WHERE id IN (SELECT value FROM json_each(?)) AND c < ?');
    expect(order).toEqual(['now', 'owner', 'ids', 'now']);
  });

  it('writes SQLite times as the UTC text TypeORM stores, which sorts like the time', () => {
    expect(sqliteTime(new Date('2026-11-23T07:01:02.345Z'))).toBe('2026-11-23 07:01:02.345');
    expect(sqliteTime(null)).toBeNull();
    expect(sqliteTime(new Date('2026-11-23T07:01:02.345Z'))! < sqliteTime(new Date('2026-11-23T07:01:02.346Z'))!).toBe(true);
  });
});
