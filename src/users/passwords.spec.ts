import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit, generatePassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, PasswordHasher, passwordPolicyErrors } from './passwords';

const EMAIL = 'Alice.Admin@Example.com';

describe('passwordPolicyErrors', () => {
  it('has a 12-character minimum', () => {
    expect(MIN_PASSWORD_LENGTH).toBe(12);
  });

  it('accepts a password of exactly 12 characters', () => {
    expect(passwordPolicyErrors('a'.repeat(12), EMAIL)).toEqual([]);
  });

  it('refuses a password of 11 characters, naming the field', () => {
    expect(passwordPolicyErrors('a'.repeat(11), EMAIL)).toEqual([{ message: 'the password must be at least 12 characters long', code: 'invalid', fields: 'password' }]);
  });

  it('refuses the empty password', () => {
    const errors = passwordPolicyErrors('', EMAIL);
    expect(errors).toHaveLength(1);
    expect(errors[0].fields).toBe('password');
  });

  it('uses the given field name', () => {
    expect(passwordPolicyErrors('short', EMAIL, 'new_password').map((error) => error.fields)).toEqual(['new_password']);
  });

  it('refuses the e-mail address as password', () => {
    expect(passwordPolicyErrors(EMAIL, EMAIL)).toEqual([{ message: 'the password must not be the e-mail address', code: 'invalid', fields: 'password' }]);
  });

  it.each(['alice.admin@example.com', 'ALICE.ADMIN@EXAMPLE.COM', ' alice.admin@example.com '])('refuses the e-mail address whatever its case: %j', (password) => {
    expect(passwordPolicyErrors(password, EMAIL).map((error) => error.message)).toContain('the password must not be the e-mail address');
  });

  it('accepts a long password that merely contains the e-mail', () => {
    expect(passwordPolicyErrors(`${EMAIL}!`, EMAIL)).toEqual([]);
  });

  it('reports both problems of a short password equal to a short e-mail', () => {
    expect(passwordPolicyErrors('a@b.co', 'A@B.CO').map((error) => error.message)).toEqual([
      'the password must be at least 12 characters long',
      'the password must not be the e-mail address',
    ]);
  });

  it('refuses a password over the maximum length', () => {
    expect(passwordPolicyErrors('a'.repeat(MAX_PASSWORD_LENGTH), EMAIL)).toEqual([]);
    expect(passwordPolicyErrors('a'.repeat(MAX_PASSWORD_LENGTH + 1), EMAIL)).toEqual([
      { message: `the password must be at most ${MAX_PASSWORD_LENGTH} characters long`, code: 'invalid', fields: 'password' },
    ]);
  });
});

describe('generatePassword', () => {
  it('produces a password the policy accepts, different each time', () => {
    const first = generatePassword();
    const second = generatePassword();
    expect(passwordPolicyErrors(first, EMAIL)).toEqual([]);
    expect(first).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(first).not.toBe(second);
  });
});

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher();
  const PASSWORD = 'correct horse battery staple';

  it('hashes with argon2id, salted', async () => {
    const first = await hasher.hash(PASSWORD);
    const second = await hasher.hash(PASSWORD);
    expect(first.startsWith('$argon2id$')).toBe(true);
    expect(first).not.toContain(PASSWORD);
    expect(first).not.toBe(second);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hasher.hash(PASSWORD);
    expect(await hasher.verify(hash, PASSWORD)).toBe(true);
    expect(await hasher.verify(hash, `${PASSWORD}!`)).toBe(false);
    expect(await hasher.verify(hash, PASSWORD.toUpperCase())).toBe(false);
    expect(await hasher.verify(hash, '')).toBe(false);
  });

  it('refuses every password when the user is unknown (hash undefined), even the empty one', async () => {
    expect(await hasher.verify(undefined, '')).toBe(false);
    expect(await hasher.verify(undefined, PASSWORD)).toBe(false);
    expect(await hasher.verify(undefined, 'anything-at-all')).toBe(false);
  });

  it('refuses a password over the maximum length without failing', async () => {
    const long = 'a'.repeat(MAX_PASSWORD_LENGTH + 1);
    const hash = await hasher.hash(long);
    expect(await hasher.verify(hash, long)).toBe(false);
  });

  it('answers false for a malformed stored hash instead of throwing', async () => {
    await expect(hasher.verify('not-a-hash', PASSWORD)).resolves.toBe(false);
    await expect(hasher.verify('', PASSWORD)).resolves.toBe(false);
  });
});

describe('ConcurrencyLimit', () => {
  it('runs at most `limit` tasks at once and all of them eventually, in order', async () => {
    const limit = new ConcurrencyLimit(2);
    let running = 0;
    let peak = 0;
    const finished: number[] = [];
    const task = (index: number) => async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      finished.push(index);
      return index;
    };
    const results = await Promise.all([0, 1, 2, 3, 4].map((index) => limit.run(task(index))));
    expect(results).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(finished).toHaveLength(5);
  });

  it('frees its place when a task fails', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limit.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
