import { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LoginThrottleService } from '../../src/auth/login-throttle.service';
import { PasswordHasher } from '../../src/users/passwords';
import { TransactionRunner } from '../../src/database/transactions';
import { asBasic, createOrganization, TestOrganization } from '../support/auth';
import { createTestApp, freshDatabase, TestApp, testDatabaseKind } from '../support/test-app';

const LIMITS = {
  LOGIN_FAILURE_LIMIT: '5',
  LOGIN_ADDRESS_FAILURE_LIMIT: '8',
  LOGIN_FAILURE_WINDOW_SECONDS: '60',
  LOGIN_ACCOUNT_BACKOFF_AFTER: '6',
  LOGIN_ACCOUNT_MAX_BACKOFF_SECONDS: '2',
  TRUSTED_PROXIES: 'loopback',
};

async function listening(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
}

const login = (base: string, from: string, email: string, password: string) =>
  request(base).post('/api/v1/auth/access_tokens').set('X-Forwarded-For', from).set(asBasic(email, password));

const statuses = (responses: Array<{ status: number }>) =>
  responses.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

let addressCounter = 0;
/** A client address no other test has used. */
const freshAddress = () => `198.18.${Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`;

describe('failed-login limits', () => {
  let t: TestApp;
  let base: string;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await createTestApp({ env: LIMITS });
    base = await listening(t);
  });
  afterAll(async () => t?.close());
  afterEach(() => vi.restoreAllMocks());

  it('counts a parallel burst from one address atomically: exactly the limit is hashed, the rest is 429', async () => {
    org = await createOrganization(t, 'Burst');
    const verify = vi.spyOn(t.app.get(PasswordHasher), 'verify');
    const attacker = freshAddress();
    const burst = await Promise.all(Array.from({ length: 40 }, () => login(base, attacker, org.email, 'wrong-password-123')));
    expect(statuses(burst)).toEqual({ 401: 5, 429: 35 });
    expect(verify).toHaveBeenCalledTimes(5);
    for (const refused of burst.filter((response) => response.status === 429)) {
      expect(refused.body).toMatchObject({ status: 429, code: 'too_many_requests', errors: [] });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // The owner, from anywhere else, is not affected.
    await login(base, freshAddress(), org.email, org.password).expect(201);
  });

  it('limits one address across accounts, in parallel too', async () => {
    const attacker = freshAddress();
    const burst = await Promise.all(Array.from({ length: 30 }, (_, index) => login(base, attacker, `nobody-${index}@example.test`, 'wrong-password-123')));
    expect(statuses(burst)).toEqual({ 401: 8, 429: 22 });
    const other = await createOrganization(t, 'Neighbour');
    await login(base, attacker, other.email, other.password).expect(429);
    await login(base, freshAddress(), other.email, other.password).expect(201);
  });

  it('backs off on an account attacked from many addresses, without locking its owner out', async () => {
    const victim = await createOrganization(t, 'Victim');
    const familiar = freshAddress();
    await login(base, familiar, victim.email, victim.password).expect(201);
    // Six failures, each from a new address: no address reaches its own limit.
    for (let attempt = 0; attempt < 6; attempt += 1) await login(base, freshAddress(), victim.email, 'wrong-password-123').expect(401);
    // The account now makes new addresses wait, briefly, whoever they are.
    const delayed = await login(base, freshAddress(), victim.email, victim.password).expect(429);
    const retryAfter = Number(delayed.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    // The address the owner logs in from is not delayed at all (and its success resets the account).
    await login(base, familiar, victim.email, victim.password).expect(201);
    for (let attempt = 0; attempt < 6; attempt += 1) await login(base, freshAddress(), victim.email, 'wrong-password-123').expect(401);
    // More failures keep the wait bounded by the configured maximum.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      await login(base, freshAddress(), victim.email, 'wrong-password-123').expect(401);
    }
    const capped = await login(base, freshAddress(), victim.email, victim.password).expect(429);
    expect(Number(capped.headers['retry-after'])).toBeLessThanOrEqual(2);
    // Once the wait is over, the right password works from a new address, and resets the account.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await login(base, freshAddress(), victim.email, victim.password).expect(201);
    await login(base, freshAddress(), victim.email, victim.password).expect(201);
    const rows: Array<{ key: string }> = await t.dataSource.query(`SELECT "key" FROM "login_failures" WHERE "key" = 'account:${victim.email}'`);
    expect(rows).toEqual([]);
  }, 30_000);

  it('does not count refused attempts against the account', async () => {
    const victim = await createOrganization(t, 'Patient');
    const attacker = freshAddress();
    // 5 failures reach the (account, address) limit; 20 more are refused without counting.
    for (let attempt = 0; attempt < 25; attempt += 1) await login(base, attacker, victim.email, 'wrong-password-123');
    const [row]: Array<{ failures: number | string }> = await t.dataSource.query(`SELECT "failures" FROM "login_failures" WHERE "key" = 'account:${victim.email}'`);
    expect(Number(row.failures)).toBe(5);
    await login(base, freshAddress(), victim.email, victim.password).expect(201);
  });
});

describe('stale login counters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: LIMITS });
  });
  afterAll(async () => t?.close());

  it('are purged in the background: old windows, idle accounts and addresses unused for 30 days', async () => {
    const now = Date.now();
    const ago = (days: number) => new Date(now - days * 24 * 3600 * 1000);
    const rows: Array<[string, Date]> = [
      ['ip:203.0.113.1', ago(2)],
      ['pair:old@example.test|203.0.113.1', ago(2)],
      ['account:old@example.test', ago(2)],
      ['known:old@example.test|203.0.113.1', ago(31)],
      ['ip:203.0.113.2', ago(0)],
      ['account:recent@example.test', ago(0)],
      ['known:recent@example.test|203.0.113.2', ago(10)],
    ];
    for (const [key, started] of rows) {
      await t.app.get(TransactionRunner).run(async (manager) => {
        await manager.insert('login_failures', { key, windowStartedAt: started, failures: 3 });
      });
    }
    await t.app.get(LoginThrottleService).reserveAttempt('203.0.113.9', 'someone@example.test');
    const deadline = Date.now() + 3_000;
    let left: string[] = [];
    while (Date.now() < deadline) {
      left = ((await t.dataSource.query('SELECT "key" FROM "login_failures"')) as Array<{ key: string }>).map((row) => row.key).sort();
      if (!left.includes('ip:203.0.113.1')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(left).toEqual(
      [
        'account:recent@example.test',
        'account:someone@example.test',
        'ip:203.0.113.2',
        'ip:203.0.113.9',
        'known:recent@example.test|203.0.113.2',
        'pair:someone@example.test|203.0.113.9',
      ].sort(),
    );
  });
});

describe.skipIf(testDatabaseKind() !== 'postgres')('failed-login limits across two instances on one PostgreSQL database', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    const database = await freshDatabase();
    first = await createTestApp({ env: LIMITS, database });
    second = await createTestApp({ env: { ...LIMITS, JWT_SECRET: first.env.JWT_SECRET }, database: { ...database, drop: async () => undefined } });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('shares one count: a burst split over both instances hashes exactly the limit', async () => {
    const org = await createOrganization(first, 'Shared');
    const bases = [await listening(first), await listening(second)];
    const attacker = freshAddress();
    const burst = await Promise.all(Array.from({ length: 40 }, (_, index) => login(bases[index % 2], attacker, org.email, 'wrong-password-123')));
    expect(statuses(burst)).toEqual({ 401: 5, 429: 35 });
  });
});
