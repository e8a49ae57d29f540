import { EntityManager } from 'typeorm';
import { TransactionRunner } from '../../database/transactions';
import { DeliveryHandoff } from '../webhooks/delivery-handoff';
import { LeasedDelivery } from '../webhooks/delivery-leases.repository';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity';
import { DeliveryQueues } from './delivery-queues';

/**
 * PostgreSQL: another instance may be sending to an endpoint, and only the claim, under its lock,
 * may decide how many more go; fresh deliveries wait for it (woken by the enqueue's notice).
 */
export class NoHandoff extends DeliveryHandoff {
  lease(): null {
    return null;
  }

  room(): number {
    return 0;
  }

  take(): void {
    throw new Error('no deliveries are handed off here');
  }
}

/**
 * SQLite: one process holds every lease, so taking fresh deliveries without the claim's look at
 * other instances' leases keeps the per-endpoint cap (a dead process's leases are not in flight).
 */
export class SqliteHandoff extends DeliveryHandoff {
  constructor(
    private readonly owner: string,
    private readonly leaseMs: number,
    private readonly queues: DeliveryQueues,
    private readonly transactions: TransactionRunner,
  ) {
    super();
  }

  lease(now: Date): { owner: string; expiresAt: Date } | null {
    return this.queues.isOpen ? { owner: this.owner, expiresAt: new Date(now.getTime() + this.leaseMs) } : null;
  }

  room(endpointId: string): number {
    return this.queues.isOpen ? this.queues.roomFor(endpointId) : 0;
  }

  take(manager: EntityManager, endpoint: WebhookEndpoint, deliveries: LeasedDelivery[]): void {
    const giveBack = this.queues.reserve(endpoint.id, deliveries.length);
    this.transactions.afterRollback(manager, giveBack);
    this.transactions.afterCommit(manager, () => {
      giveBack();
      this.queues.add(endpoint, deliveries);
      this.queues.pump();
    });
  }
}
