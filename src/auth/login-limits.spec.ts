import { describe, expect, it } from 'vitest';
import { accountBackoffSeconds, throttleKey } from './login-limits';

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
