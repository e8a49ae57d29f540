import { EntityManager } from 'typeorm';
import { LeasedDelivery } from './delivery-leases.repository';
import { WebhookEndpoint } from './webhook-endpoint.entity';

/**
 * This instance's worker taking fresh deliveries straight from the transaction that writes
 * them: they are written already leased to it and, once that transaction commits, queued and
 * sent, with no claim in between (on SQLite a claim waits its turn behind every queued write
 * transaction, which cost webhooks hundreds of ms under ingest load).
 */
export abstract class DeliveryHandoff {
  /** The lease to write fresh deliveries with; null when none are handed off (they wait for a claim). */
  abstract lease(now: Date): { owner: string; expiresAt: Date } | null;
  /** How many new deliveries of this endpoint the worker takes now (0: they wait for a claim). */
  abstract room(endpointId: string): number;
  /**
   * Deliveries of an endpoint written with that lease in `manager`'s transaction: their room is
   * held until it ends (transactions sharing a COMMIT, SQLite's group commit, must not each take
   * the same room); they are sent once it commits, and the room is given back if it rolls back.
   */
  abstract take(manager: EntityManager, endpoint: WebhookEndpoint, deliveries: LeasedDelivery[]): void;
}
