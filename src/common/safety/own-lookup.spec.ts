import { describe, expect, it } from 'vitest';
import { parseSort } from '../pagination/pagination';
import { lookupTable, ownValue } from './own-lookup';

const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'];

describe('ownValue and lookupTable', () => {
  it('answers own entries only', () => {
    const table = { name: '"name"' };
    expect(ownValue(table, 'name')).toBe('"name"');
    for (const key of INHERITED) expect(ownValue(table, key), key).toBeUndefined();
  });

  it('builds a frozen table without a prototype', () => {
    const table = lookupTable({ name: 'n' });
    expect(Object.getPrototypeOf(table)).toBeNull();
    expect(Object.isFrozen(table)).toBe(true);
    for (const key of INHERITED) expect((table as Record<string, unknown>)[key], key).toBeUndefined();
    expect(Object.keys(table)).toEqual(['name']);
  });
});

describe('parseSort', () => {
  const allowed = { name: '"name_lower"', created_at: '"created_at"' };
  const fallback = { column: '"created_at"', direction: 'ASC' as const };

  it('resolves known fields in both directions', () => {
    expect(parseSort('name', allowed, fallback)).toEqual({ column: '"name_lower"', direction: 'ASC' });
    expect(parseSort('-name', allowed, fallback)).toEqual({ column: '"name_lower"', direction: 'DESC' });
    expect(parseSort(undefined, allowed, fallback)).toBe(fallback);
  });

  it.each(INHERITED.flatMap((key) => [key, `-${key}`]))('treats %s as an unknown field, on a plain object and a lookup table', (key) => {
    expect(parseSort(key, allowed, fallback)).toBeNull();
    expect(parseSort(key, lookupTable(allowed), fallback)).toBeNull();
  });
});
