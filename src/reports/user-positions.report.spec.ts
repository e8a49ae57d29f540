import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { CSV_CAST } from '../common/csv/csv-write';
import { doubleText, StoredTimes, USER_POSITION_COLUMNS, userPositionCsv, userPositionJson, UserPositionWriter } from './user-positions.report';

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
        expect(userPositionCsv(value)).toBe(stringify([value], { columns, cast: CSV_CAST }));
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

  it('writes epoch milliseconds in ISO form as Date does, days and years apart, before 1970 and beyond 9999', () => {
    const times = new StoredTimes();
    const sameDay = fc.integer({ min: 0, max: 86_399_999 }).map((ms) => Date.UTC(2026, 9, 25) + ms);
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -70_000_000_000_000, max: 260_000_000_000_000 }), sameDay, fc.double({ min: -1e13, max: 1e13, noNaN: true })), (ms) => {
        expect(times.iso(String(ms), ms)).toBe(new Date(ms).toISOString());
      }),
    );
    // Midnight, the last millisecond of a day, and the day after, in a row.
    for (const ms of [Date.UTC(2026, 2, 29), Date.UTC(2026, 2, 29) + 86_399_999, Date.UTC(2026, 2, 30), -1, 0]) {
      expect(times.isoOfEpoch(ms)).toBe(new Date(ms).toISOString());
    }
  });
});

describe('user_positions written straight from what was read', () => {
  // One device's rows: a device code that needs quoting in CSV, users that change or are absent.
  const track = fc.record({
    device: fc.oneof(fc.constant('dev,1'), fc.constant('say "hi"'), fc.string()),
    building: fc.nat(),
    rows: fc.array(
      fc.record({
        timestamp: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((date) => date.toISOString()),
        session_mark: fc.nat(),
        floor_id: fc.option(fc.nat(), { nil: null }),
        user_id: fc.option(fc.constantFrom('u-1', 'u,2', 'u"3'), { nil: null }),
        lat: fc.double({ min: -90, max: 90, noNaN: true }),
        lng: fc.double({ min: -180, max: 180, noNaN: true }),
      }),
      { maxLength: 8 },
    ),
  });

  it('writes the bytes the row writers write, batch after batch, from numbers or from PostgreSQL-style text', () => {
    fc.assert(
      fc.property(track, fc.boolean(), ({ device, building, rows }, asText) => {
        for (const format of ['csv', 'json'] as const) {
          const writer = new UserPositionWriter(format, device, building);
          // Two batches: what one take holds does not leak into the next.
          const half = Math.floor(rows.length / 2);
          const written = [rows.slice(0, half), rows.slice(half)].map((part) => {
            for (const row of part) {
              const floor = asText && row.floor_id !== null ? String(row.floor_id) : row.floor_id;
              const lat = asText ? postgresText(row.lat) : row.lat;
              const lng = asText ? postgresText(row.lng) : row.lng;
              writer.add(row.timestamp, row.session_mark, floor, row.user_id, lat, lng);
            }
            return writer.take();
          });
          written.forEach((batch, index) => {
            const part = index === 0 ? rows.slice(0, half) : rows.slice(half);
            const ordered = part.map(({ timestamp, session_mark, floor_id, user_id, lat, lng }) => ({
              timestamp,
              session_mark,
              floor_id,
              user_id,
              device_id: device,
              lat,
              lng,
              building_id: building,
            }));
            expect(batch.rows).toBe(part.length);
            expect(batch.text).toBe(format === 'csv' ? ordered.map(userPositionCsv).join('') : ordered.map(userPositionJson).join(','));
          });
        }
      }),
    );
  });

  it('quotes a device code with a comma or a quote in CSV, as csv-stringify does', () => {
    const writer = new UserPositionWriter('csv', 'lobby, "east"', 7);
    writer.add('2026-03-29T01:02:03.004Z', 2, 5, null, 42.5, -8);
    expect(writer.take().text).toBe(stringify([['2026-03-29T01:02:03.004Z', 2, 5, null, 'lobby, "east"', 42.5, -8, 7]], { cast: CSV_CAST }));
  });

  it('escapes device and user ids a spreadsheet would run as formulas, never the numbers', () => {
    const writer = new UserPositionWriter('csv', '=HYPERLINK("http://evil.example","x")', 7);
    writer.add('2026-03-29T01:02:03.004Z', 2, 5, '@SUM(1+1)', -42.5, -8);
    expect(writer.take().text).toBe(`2026-03-29T01:02:03.004Z,2,5,'@SUM(1+1),"'=HYPERLINK(""http://evil.example"",""x"")",-42.5,-8,7\n`);
  });

  it("reads PostgreSQL's double text as JavaScript writes the number", () => {
    // PostgreSQL writes the shortest round-trip digits too, in exponent form outside 1e-4 to 1e15.
    expect(doubleText('42.87231806651474')).toBe(String(42.87231806651474));
    expect(doubleText('-8.563381752271818')).toBe('-8.563381752271818');
    expect(doubleText('0.30000000000000004')).toBe(String(0.1 + 0.2));
    expect(doubleText('5')).toBe('5');
    expect(doubleText('1e-05')).toBe('0.00001');
    expect(doubleText('1.5e-07')).toBe('1.5e-7');
    expect(doubleText('-0')).toBe('0');
    expect(doubleText(-0)).toBe('0');
    expect(doubleText(1e-7)).toBe('1e-7');
  });
});

/** A double as PostgreSQL 12+ writes it (extra_float_digits 1): shortest digits, exponent form below 1e-4 (two exponent digits at least). */
function postgresText(value: number): string {
  if (Object.is(value, -0)) return '-0';
  const magnitude = Math.abs(value);
  if (magnitude === 0 || (magnitude >= 1e-4 && magnitude < 1e15)) return String(value);
  const [mantissa, exponent] = value.toExponential().split('e');
  const sign = exponent.startsWith('-') ? '-' : '+';
  return `${mantissa}e${sign}${exponent.replace(/^[+-]/, '').padStart(2, '0')}`;
}
