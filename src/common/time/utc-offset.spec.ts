import { describe, expect, it } from 'vitest';
import { utcOffsetProblem } from './utc-offset';

describe('utcOffsetProblem', () => {
  it.each([
    '2026-01-01',
    '2026-01-01T00:00:00Z',
    '2026-01-01T00:00:00',
    '2026-01-01T00:00:00+14:00',
    '2026-01-01T00:00:00-12:00',
    '2026-01-01T00:00+0530',
    '2026-01-01T00:00:00.123-09',
    '2026-01-01T00:00:00-14:00',
  ])('accepts %s', (text) => expect(utcOffsetProblem(text)).toBeNull());

  it.each(['2026-01-01T00:00:00+99:00', '2026-01-01T00:00:00+14:01', '2026-01-01T00:00:00-12:60', '2026-01-01T00:00:00+1500', '2026-01-01T00:00:00-15'])('refuses %s', (text) =>
    expect(utcOffsetProblem(text)).toMatch(/not a real one/),
  );
});
