import { describe, expect, it } from 'vitest';
import { classifyAttempt, DEFAULT_RETRY_SCHEDULE, MAX_RETRY_AFTER_MS, nextAttemptAt, parseRetryAfter, parseRetrySchedule } from './retry-schedule';

const H = 3_600_000;

describe('retry schedule', () => {
  it('parses the contract default: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h', () => {
    expect(parseRetrySchedule(DEFAULT_RETRY_SCHEDULE)).toEqual([0, 5000, 300_000, 1_800_000, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H]);
    expect(parseRetrySchedule('0s, 500ms,1.5s ,1d')).toEqual([0, 500, 1500, 86_400_000]);
  });

  it('names the bad entry', () => {
    expect(() => parseRetrySchedule('5s,5x')).toThrow(/"5x"/);
    expect(() => parseRetrySchedule('5s,,5m')).toThrow(/empty entry/);
    expect(() => parseRetrySchedule('-5s')).toThrow(/"-5s"/);
  });

  it('applies ±10 % jitter around each step and gives up after the last one', () => {
    const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
    const now = new Date('2026-11-23T00:00:00Z');
    const at = (attempts: number, r: number) => nextAttemptAt(schedule, attempts, now, { random: () => r }).at!.getTime() - now.getTime();
    expect(at(0, 0.5)).toBe(0);
    expect(at(1, 0)).toBe(4500);
    expect(at(1, 1)).toBe(5500);
    expect(at(2, 0.5)).toBe(300_000);
    expect(at(9, 0)).toBe(Math.round(24 * H * 0.9));
    expect(nextAttemptAt(schedule, 10, now).at).toBeNull();
    for (let i = 0; i < 200; i++) {
      const d = nextAttemptAt(schedule, 3, now).at!.getTime() - now.getTime();
      expect(d).toBeGreaterThanOrEqual(1_800_000 * 0.9);
      expect(d).toBeLessThanOrEqual(1_800_000 * 1.1);
    }
  });

  it('a Retry-After pushes the next attempt later, never earlier', () => {
    const now = new Date('2026-11-23T00:00:00Z');
    expect(nextAttemptAt([0, 5000], 1, now, { random: () => 0.5, retryAfterMs: 60_000 }).at!.getTime() - now.getTime()).toBe(60_000);
    expect(nextAttemptAt([0, 5000], 1, now, { random: () => 0.5, retryAfterMs: 1000 }).at!.getTime() - now.getTime()).toBe(5000);
  });

  it('classifies attempts: 2xx success, redirects and errors fail, 410 disables, 429/503 carry Retry-After', () => {
    const now = new Date('2026-11-23T00:00:00Z');
    expect(classifyAttempt(200)).toEqual({ kind: 'succeeded' });
    expect(classifyAttempt(204)).toEqual({ kind: 'succeeded' });
    expect(classifyAttempt(301)).toEqual({ kind: 'failed' });
    expect(classifyAttempt(308)).toEqual({ kind: 'failed' });
    expect(classifyAttempt(500)).toEqual({ kind: 'failed' });
    expect(classifyAttempt(null)).toEqual({ kind: 'failed' });
    expect(classifyAttempt(410)).toEqual({ kind: 'endpoint_gone' });
    expect(classifyAttempt(429, '30', now)).toEqual({ kind: 'failed', retryAfterMs: 30_000 });
    expect(classifyAttempt(503, 'Mon, 23 Nov 2026 00:02:00 GMT', now)).toEqual({ kind: 'failed', retryAfterMs: 120_000 });
    expect(classifyAttempt(500, '30', now)).toEqual({ kind: 'failed' });
    expect(classifyAttempt(429, 'soon', now)).toEqual({ kind: 'failed' });
  });

  it('caps Retry-After at a day and reads a past date as now', () => {
    const now = new Date('2026-11-23T00:00:00Z');
    expect(parseRetryAfter('999999999', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('Sun, 22 Nov 2026 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('', now)).toBeNull();
  });
});
