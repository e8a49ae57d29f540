import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatGeofenceTimestamp, formatOptionalTimestamp, formatRealtimeTime, formatTimestamp } from './timestamps';

// 2020-05-08T10:26:34.801Z, the contract's example.
const EXAMPLE_MS = Date.UTC(2020, 4, 8, 10, 26, 34, 801);
// A whole second: milliseconds must still be printed as ".000".
const WHOLE_SECOND_MS = Date.UTC(2021, 0, 2, 3, 4, 5, 0);
// Milliseconds below 100 keep their leading zeros.
const SMALL_MS = Date.UTC(1999, 11, 31, 23, 59, 59, 7);

describe('timestamps', () => {
  const originalTz = process.env.TZ;

  beforeAll(() => {
    // A zone far from UTC, without daylight saving time, so local and UTC clocks differ.
    process.env.TZ = 'Asia/Kolkata';
  });
  afterAll(() => {
    if (originalTz === undefined) delete process.env.TZ;
    else process.env.TZ = originalTz;
  });

  it('runs in a process whose local time zone is not UTC', () => {
    expect(new Date(EXAMPLE_MS).getTimezoneOffset()).toBe(-330);
    expect(new Date(EXAMPLE_MS).getHours()).toBe(15);
  });

  describe('formatTimestamp (every resource but geofences and realtime)', () => {
    it('prints the contract example', () => {
      expect(formatTimestamp(new Date(EXAMPLE_MS))).toBe('2020-05-08T10:26:34.801+00:00');
    });

    it('prints exactly three fractional digits when the milliseconds are zero', () => {
      expect(formatTimestamp(new Date(WHOLE_SECOND_MS))).toBe('2021-01-02T03:04:05.000+00:00');
    });

    it('keeps leading zeros of the milliseconds', () => {
      expect(formatTimestamp(new Date(SMALL_MS))).toBe('1999-12-31T23:59:59.007+00:00');
    });

    it('prints the epoch', () => {
      expect(formatTimestamp(new Date(0))).toBe('1970-01-01T00:00:00.000+00:00');
    });
  });

  describe('formatGeofenceTimestamp', () => {
    it('prints the contract example', () => {
      expect(formatGeofenceTimestamp(new Date(EXAMPLE_MS))).toBe('2020-05-08T10:26:34.801Z[UTC]');
    });

    it('prints exactly three fractional digits when the milliseconds are zero', () => {
      expect(formatGeofenceTimestamp(new Date(WHOLE_SECOND_MS))).toBe('2021-01-02T03:04:05.000Z[UTC]');
    });

    it('keeps leading zeros of the milliseconds', () => {
      expect(formatGeofenceTimestamp(new Date(SMALL_MS))).toBe('1999-12-31T23:59:59.007Z[UTC]');
    });
  });

  describe('formatRealtimeTime', () => {
    it('prints the contract example', () => {
      expect(formatRealtimeTime(new Date(EXAMPLE_MS))).toBe('2020-05-08T10:26:34.801Z');
    });

    it('prints exactly three fractional digits when the milliseconds are zero', () => {
      expect(formatRealtimeTime(new Date(WHOLE_SECOND_MS))).toBe('2021-01-02T03:04:05.000Z');
    });

    it('keeps leading zeros of the milliseconds', () => {
      expect(formatRealtimeTime(new Date(SMALL_MS))).toBe('1999-12-31T23:59:59.007Z');
    });
  });

  describe('formatOptionalTimestamp', () => {
    it('formats a date like formatTimestamp', () => {
      expect(formatOptionalTimestamp(new Date(EXAMPLE_MS))).toBe('2020-05-08T10:26:34.801+00:00');
    });

    it('maps null and undefined to null', () => {
      expect(formatOptionalTimestamp(null)).toBeNull();
      expect(formatOptionalTimestamp(undefined)).toBeNull();
    });
  });

  it('all three formats describe the same instant', () => {
    const date = new Date(EXAMPLE_MS);
    expect(Date.parse(formatTimestamp(date))).toBe(EXAMPLE_MS);
    expect(Date.parse(formatGeofenceTimestamp(date).replace('[UTC]', ''))).toBe(EXAMPLE_MS);
    expect(Date.parse(formatRealtimeTime(date))).toBe(EXAMPLE_MS);
  });
});
