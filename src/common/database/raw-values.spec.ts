import { describe, expect, it } from 'vitest';
import { parseDatabaseTimestamp } from './raw-values';

const EXAMPLE_MS = Date.UTC(2020, 4, 8, 10, 26, 34, 801);

describe('parseDatabaseTimestamp', () => {
  it('reads SQLite text as UTC', () => {
    expect(parseDatabaseTimestamp('2020-05-08 10:26:34.801')?.getTime()).toBe(EXAMPLE_MS);
  });

  it('reads SQLite text without milliseconds as UTC', () => {
    expect(parseDatabaseTimestamp('2020-05-08 10:26:34')?.getTime()).toBe(Date.UTC(2020, 4, 8, 10, 26, 34, 0));
  });

  it('reads SQLite text as UTC even when the process time zone is not UTC', () => {
    const originalTz = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      expect(new Date(EXAMPLE_MS).getTimezoneOffset()).not.toBe(0);
      expect(parseDatabaseTimestamp('2020-05-08 10:26:34.801')?.getTime()).toBe(EXAMPLE_MS);
    } finally {
      if (originalTz === undefined) delete process.env.TZ;
      else process.env.TZ = originalTz;
    }
  });

  it('returns a Date unchanged', () => {
    const date = new Date(EXAMPLE_MS);
    expect(parseDatabaseTimestamp(date)).toBe(date);
  });

  it('reads ISO 8601 with Z', () => {
    expect(parseDatabaseTimestamp('2020-05-08T10:26:34.801Z')?.getTime()).toBe(EXAMPLE_MS);
  });

  it('reads ISO 8601 with an explicit offset', () => {
    expect(parseDatabaseTimestamp('2020-05-08T12:26:34.801+02:00')?.getTime()).toBe(EXAMPLE_MS);
    expect(parseDatabaseTimestamp('2020-05-08T10:26:34.801+00:00')?.getTime()).toBe(EXAMPLE_MS);
  });

  it('reads epoch milliseconds', () => {
    expect(parseDatabaseTimestamp(EXAMPLE_MS)?.getTime()).toBe(EXAMPLE_MS);
  });

  it('maps null and undefined to null', () => {
    expect(parseDatabaseTimestamp(null)).toBeNull();
    expect(parseDatabaseTimestamp(undefined)).toBeNull();
  });

  it.each(['garbage', '', 'zzz', 'not a date Z', '2020-13-45 99:99:99'])('maps the unparseable text %j to null', (value) => {
    expect(parseDatabaseTimestamp(value)).toBeNull();
  });

  it.each([{}, [], true, { getTime: () => EXAMPLE_MS }])('maps the unsupported value %j to null', (value) => {
    expect(parseDatabaseTimestamp(value)).toBeNull();
  });
});
