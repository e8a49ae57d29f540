import { describe, expect, it } from 'vitest';
import { accountBackoffSeconds, throttleKey, windowRetrySeconds } from './login-limits';

describe('accountBackoffSeconds', () => {
  const limits = { accountBackoffAfter: 20, accountMaxBackoffSeconds: 300 };

  it('imposes nothing below the threshold, then doubles from one second', () => {
    expect(accountBackoffSeconds(0, limits)).toBe(0);
    expect(accountBackoffSeconds(19, limits)).toBe(0);
    expect([20, 21, 22, 23, 28].map((failures) => accountBackoffSeconds(failures, limits))).toEqual([1, 2, 4, 8, 256]);
  });

  it('never waits longer than the cap, however many failures', () => {
    expect(accountBackoffSeconds(29, limits)).toBe(300);
    expect(accountBackoffSeconds(1_000_000, limits)).toBe(300);
  });
});

describe('throttleKey', () => {
  it('names the dimension and its parts', () => {
    expect(throttleKey('pair', 'a@example.test', '192.0.2.1')).toBe('pair:a@example.test|192.0.2.1');
  });

  it('hashes keys too long for the column, distinctly', () => {
    const a = throttleKey('account', `${'a'.repeat(300)}@example.test`);
    const b = throttleKey('account', `${'a'.repeat(301)}@example.test`);
    expect(a).toMatch(/^account#[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
  });
});

describe('windowRetrySeconds', () => {
  it('is what is left of the window, and never more than the window when another attempt opened it a moment later', () => {
    expect(windowRetrySeconds(1_000, 31_000, 60_000)).toBe(30);
    expect(windowRetrySeconds(61_000, 61_000, 60_000)).toBe(60);
    // Opened 5 ms after this attempt read its clock (a parallel burst): 60 s, not 60.005 (Retry-After 61).
    expect(windowRetrySeconds(61_005, 61_000, 60_000)).toBe(60);
  });
});
