import { describe, expect, it } from 'vitest';
import { formatAge, freshness, lastSeenBounds } from './freshness';

describe('device freshness', () => {
  const now = 1_000_000_000;
  it('is online for 30 s, stale until the stale timeout, offline after it (or never seen)', () => {
    expect(freshness(now - 1000, now, 120)).toBe('online');
    expect(freshness(now - 30_000, now, 120)).toBe('online');
    expect(freshness(now - 31_000, now, 120)).toBe('stale');
    expect(freshness(now - 120_000, now, 120)).toBe('stale');
    expect(freshness(now - 121_000, now, 120)).toBe('offline');
    expect(freshness(null, now, 120)).toBe('offline');
    // A stale timeout shorter than 30 s: stale never starts before it ends.
    expect(freshness(now - 8000, now, 10)).toBe('online');
    expect(freshness(now - 11_000, now, 10)).toBe('offline');
  });

  it('says ages in words and bounds each status for the list query', () => {
    expect([formatAge(4_400), formatAge(90_000), formatAge(3 * 3600_000), formatAge(72 * 3600_000)]).toEqual(['4 s', '1 min', '3 h', '3 d']);
    expect(lastSeenBounds('online', now, 120)).toEqual({ last_seen_after: new Date(now - 30_000).toISOString() });
    expect(lastSeenBounds('stale', now, 120)).toEqual({ last_seen_after: new Date(now - 120_000).toISOString(), last_seen_before: new Date(now - 30_000).toISOString() });
    expect(lastSeenBounds('offline', now, 120)).toEqual({ last_seen_before: new Date(now - 120_000).toISOString() });
  });
});
