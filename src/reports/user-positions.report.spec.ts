import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { StoredTimes, USER_POSITION_COLUMNS, userPositionCsv, userPositionJson } from './user-positions.report';

const row = fc.record({
      timestamp: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((date) => date.toISOString()),
      session_mark: fc.nat(),
      floor_id: fc.option(fc.nat(), { nil: null }),
      user_id: fc.option(fc.oneof(fc.uuid(), fc.string()), { nil: null }),
      device_id: fc.string(),
      lat: fc.double({ min: -90, max: 90, noNaN: true }),
      lng: fc.double({ min: -180, max: 180, noNaN: true }),
      building_id: fc.nat(),
    });

describe('user_positions fast paths', () => {
  it('writes each row exactly as JSON.stringify does', () => {
    fc.assert(
      fc.property(row, (value) => {
        expect(userPositionJson(value)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('writes each CSV line exactly as csv-stringify does', () => {
    const columns = USER_POSITION_COLUMNS.map((column) => column.name);
    fc.assert(
      fc.property(row, (value) => {
        expect(userPositionCsv(value)).toBe(stringify([value], { columns }));
      }),
    );
  });

  it('reads stored times like Date does, across days, and gives their ISO form', () => {
    const times = new StoredTimes();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000_000 }), (ms) => {
        const stored = new Date(ms).toISOString().replace('T', ' ').slice(0, 23);
        expect(times.epoch(stored)).toBe(ms);
        expect(times.iso(stored, ms)).toBe(new Date(ms).toISOString());
      }),
    );
    const date = new Date(Date.UTC(2026, 2, 29, 1, 2, 3, 4));
    expect(times.epoch(date)).toBe(date.getTime());
    expect(times.iso(date, date.getTime())).toBe('2026-03-29T01:02:03.004Z');
    expect(times.epoch('2026-03-29T01:02:03Z')).toBe(Date.UTC(2026, 2, 29, 1, 2, 3));
  });
});
