import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationBus } from '../../src/database/notification-bus';
import { TransactionRunner } from '../../src/database/transactions';
import { createTestApp, TestApp } from '../support/test-app';

/** Waits until `condition` holds (notifications arrive asynchronously on PostgreSQL). */
async function eventually(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the notifications home', () => {
  let t: TestApp;
  let notifications: NotificationBus;
  let transactions: TransactionRunner;

  beforeAll(async () => {
    t = await createTestApp();
    notifications = t.app.get(NotificationBus);
    transactions = t.app.get(TransactionRunner);
  });
  afterAll(async () => t?.close());

  it('delivers a payload to every subscriber of the channel and to no one else', async () => {
    const received: unknown[] = [];
    const other: unknown[] = [];
    const stop = await notifications.subscribe('test_channel_a', (payload) => received.push(payload));
    const stopOther = await notifications.subscribe('test_channel_b', (payload) => other.push(payload));
    await notifications.publish('test_channel_a', { hello: 'world', n: 1 });
    await eventually(() => received.length === 1);
    expect(received).toEqual([{ hello: 'world', n: 1 }]);
    stop();
    await notifications.publish('test_channel_a', { after: 'unsubscribe' });
    await notifications.publish('test_channel_b', 'marker');
    await eventually(() => other.length === 1);
    expect(received).toHaveLength(1);
    stopOther();
  });

  it('sends with a transaction only when it commits', async () => {
    const received: unknown[] = [];
    const stop = await notifications.subscribe('test_channel_tx', (payload) => received.push(payload));
    await expect(
      transactions.run(async (manager) => {
        await notifications.publishWithCommit(manager, 'test_channel_tx', 'rolled back');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await transactions.run(async (manager) => {
      await notifications.publishWithCommit(manager, 'test_channel_tx', 'committed');
      notifications.publishAfterCommit(manager, 'test_channel_tx', 'after commit');
    });
    await eventually(() => received.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toEqual(['committed', 'after commit']);
    stop();
  });

  it('runs after-commit work before the transaction resolves, never after a rollback', async () => {
    const calls: string[] = [];
    let kept: Parameters<Parameters<TransactionRunner['run']>[0]>[0] | undefined;
    await transactions.run(async (manager) => {
      kept = manager;
      transactions.afterCommit(manager, () => calls.push('committed'));
      calls.push('in transaction');
    });
    calls.push('resolved');
    await transactions
      .run(async (manager) => {
        transactions.afterCommit(manager, () => calls.push('rolled back'));
        throw new Error('no');
      })
      .catch(() => undefined);
    // A manager kept past its transaction has nothing to wait for.
    transactions.afterCommit(kept!, () => calls.push('late'));
    expect(calls).toEqual(['in transaction', 'committed', 'resolved', 'late']);
  });

  it('refuses channel names that would need quoting and payloads over the limit', async () => {
    await expect(notifications.subscribe('Bad-Channel', () => undefined)).rejects.toThrow(/Invalid notification channel/);
    await expect(notifications.publish('test_channel_a', 'x'.repeat(8000))).rejects.toThrow(/7900 bytes/);
    expect(notifications.reliable).toBe(true);
  });
});
