import { describe, expect, it } from 'vitest';
import type { EntityManager } from 'typeorm';
import type { WebhooksConfig } from '../../config/webhooks.config';
import type { TransactionRunner } from '../../database/transactions';
import type { LeasedDelivery } from '../webhooks/delivery-leases.repository';
import type { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity';
import { DeliveryQueues } from './delivery-queues';
import { SqliteHandoff } from './handoffs';

const config = { concurrency: 64, perEndpointConcurrency: 4, leaseMs: 60_000, attemptTimeoutMs: 15_000 } as unknown as WebhooksConfig;

/** A transaction runner whose transaction ends when the test says: the hooks registered for it, run on commit or on rollback. */
function transactionsUntilEnd() {
  const commits: Array<() => void> = [];
  const rollbacks: Array<() => void> = [];
  const runner = {
    afterCommit: (_manager: EntityManager, callback: () => void) => commits.push(callback),
    afterRollback: (_manager: EntityManager, callback: () => void) => rollbacks.push(callback),
  } as unknown as TransactionRunner;
  return { runner, commit: () => commits.splice(0).forEach((f) => f()), rollBack: () => rollbacks.splice(0).forEach((f) => f()) };
}

/** Queues whose attempts stay under way until `finish()`. */
function setUp() {
  const sent: string[] = [];
  const released: string[] = [];
  const answers: Array<() => void> = [];
  const queues = new DeliveryQueues(config, {
    attempt: (_loop, delivery) => {
      sent.push(delivery.id);
      return new Promise<void>((resolve) => answers.push(resolve));
    },
    release: (deliveries) => released.push(...deliveries.map((d) => d.id)),
  });
  const transactions = transactionsUntilEnd();
  const handoff = new SqliteHandoff('instance-a', config.leaseMs, queues, transactions.runner);
  const finish = async () => {
    answers.splice(0).forEach((answer) => answer());
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { queues, handoff, transactions, sent, released, finish };
}

const endpoint = { id: 'endpoint-a' } as WebhookEndpoint;
const deliveries = (n: number, lease: Date): LeasedDelivery[] =>
  Array.from({ length: n }, (_, i) => ({ id: `d${i}`, endpointId: endpoint.id, messageId: `m${i}`, payload: '{}', attempts: 0, leaseExpiresAt: lease }));

describe('the SQLite hand-off', () => {
  it('takes nothing while the worker is stopped', () => {
    const { handoff } = setUp();
    expect(handoff.lease(new Date())).toBeNull();
    expect(handoff.room(endpoint.id)).toBe(0);
  });

  it('holds the room of a transaction not yet committed, so transactions sharing a COMMIT do not each take the same room; sends on commit', async () => {
    const { queues, handoff, transactions, sent, finish } = setUp();
    queues.start();
    const now = new Date();
    const lease = handoff.lease(now)!;
    expect(lease).toEqual({ owner: 'instance-a', expiresAt: new Date(now.getTime() + config.leaseMs) });
    const room = handoff.room(endpoint.id);
    expect(room).toBe(config.perEndpointConcurrency);
    handoff.take({} as EntityManager, endpoint, deliveries(room, lease.expiresAt));
    expect(handoff.room(endpoint.id)).toBe(0);
    expect(sent).toEqual([]);
    transactions.commit();
    expect(sent).toEqual(['d0', 'd1', 'd2', 'd3']);
    // Being sent: still no room for this endpoint, and the instance's room counts them until they are recorded.
    expect(handoff.room(endpoint.id)).toBe(0);
    await finish();
    expect(handoff.room(endpoint.id)).toBe(config.perEndpointConcurrency);
    expect(queues.room()).toBe(queues.capacity - room);
    queues.settled(room);
    expect(queues.room()).toBe(queues.capacity);
  });

  it('gives the room back, once, when the transaction rolls back, and sends nothing', () => {
    const { queues, handoff, transactions, sent } = setUp();
    queues.start();
    const room = handoff.room(endpoint.id);
    handoff.take({} as EntityManager, endpoint, deliveries(room, new Date(Date.now() + config.leaseMs)));
    expect(handoff.room(endpoint.id)).toBe(0);
    transactions.rollBack();
    transactions.rollBack();
    expect(handoff.room(endpoint.id)).toBe(room);
    expect(sent).toEqual([]);
  });

  it('gives back what it is handed once the worker stopped, unsent', () => {
    const { queues, handoff, transactions, sent, released } = setUp();
    queues.start();
    handoff.take({} as EntityManager, endpoint, deliveries(2, new Date(Date.now() + config.leaseMs)));
    queues.close();
    transactions.commit();
    expect(sent).toEqual([]);
    expect(released).toEqual(['d0', 'd1']);
  });
});

describe('the delivery queues', () => {
  it('send at most perEndpointConcurrency of one endpoint at once, and give back deliveries whose lease is too short to start an attempt in', async () => {
    const { queues, sent, released, finish } = setUp();
    queues.start();
    const soon = new Date(Date.now() + config.attemptTimeoutMs);
    queues.add(endpoint, [...deliveries(6, new Date(Date.now() + config.leaseMs)), { ...deliveries(1, soon)[0], id: 'short' }]);
    queues.pump();
    expect(sent).toEqual(['d0', 'd1', 'd2', 'd3']);
    expect(queues.heldFor(endpoint.id)).toBe(7);
    expect(released).toEqual([]);
    await finish();
    expect(sent).toEqual(['d0', 'd1', 'd2', 'd3', 'd4', 'd5']);
    expect(released).toEqual(['short']);
    // Sent, not yet recorded: still held; the short one is not.
    expect(queues.room()).toBe(queues.capacity - 6);
  });
});
