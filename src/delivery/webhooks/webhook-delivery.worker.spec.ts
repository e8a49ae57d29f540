import { describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import type { WebhooksConfig } from '../../config/webhooks.config';
import type { TransactionRunner } from '../../database/transactions';
import type { NotificationBus } from '../../database/notification-bus';
import type { PreparedQueries } from '../../database/prepared-queries';
import type { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';

/** A SQLite worker (it takes hand-offs), started without its timers or database. */
function sqliteWorker(): WebhookDeliveryWorker {
  const config = { concurrency: 64, perEndpointConcurrency: 4, leaseMs: 60_000, attemptTimeoutMs: 15_000 } as unknown as WebhooksConfig;
  const worker = new WebhookDeliveryWorker(
    config,
    { options: { type: 'better-sqlite3' } } as unknown as DataSource,
    {} as TransactionRunner,
    {} as WebhookEndpointsService,
    {} as NotificationBus,
    {} as PreparedQueries,
  );
  (worker as unknown as { stopped: boolean }).stopped = false;
  return worker;
}

describe('WebhookDeliveryWorker hand-off room', () => {
  it('is taken by a reservation until it is given back, once, so transactions sharing a COMMIT do not each take the same room', () => {
    const worker = sqliteWorker();
    const room = worker.handoffRoom('endpoint-a');
    expect(room).toBeGreaterThan(0);
    const giveBack = worker.reserveHandoff('endpoint-a', room);
    expect(worker.handoffRoom('endpoint-a')).toBe(0);
    giveBack();
    giveBack();
    expect(worker.handoffRoom('endpoint-a')).toBe(room);
  });
});
