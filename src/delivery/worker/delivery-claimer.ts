import { Logger } from '@nestjs/common';
import { In } from 'typeorm';
import { WebhooksConfig } from '../../config/webhooks.config';
import { ADVISORY_LOCKS } from '../../database/advisory-locks';
import { TransactionLocks } from '../../database/transaction-locks';
import { TransactionRunner } from '../../database/transactions';
import { DeliveryLeasesRepository, LeasedDelivery } from '../webhooks/delivery-leases.repository';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity';
import { DeliveryQueues } from './delivery-queues';

/**
 * Leases due deliveries into the queues: at every poll, at once when woken (an enqueue committed
 * somewhere, leases were given back), and again while a loop runs low. An endpoint whose
 * deliveries another instance holds gets only what keeps the total under the in-flight cap, so
 * `perEndpointConcurrency` in flight per endpoint holds across instances; an endpoint this
 * instance is alone on gets a batch, as many as its pace lets it send within the lease. On
 * PostgreSQL the claim holds a lock, so no two instances pick at once.
 */
export class DeliveryClaimer {
  private readonly logger = new Logger('Webhooks');
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private wakeAgain = false;
  private running = false;
  /**
   * Whether due deliveries may wait unclaimed: set by a wake-up and by a claim that left some
   * behind, cleared by a claim that took all it found. While clear, a loop running low does not
   * claim again (handed-off deliveries need no claim); the poll still looks.
   */
  private moreDue = true;

  constructor(
    private readonly instance: string,
    private readonly config: WebhooksConfig,
    private readonly transactions: TransactionRunner,
    private readonly locks: TransactionLocks,
    private readonly leases: DeliveryLeasesRepository,
    private readonly queues: DeliveryQueues,
  ) {}

  start(): void {
    this.running = true;
    this.schedule(0);
  }

  /** No claim starts any more; `idle` waits for one under way. */
  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
  }

  async idle(): Promise<void> {
    while (this.ticking) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  /** Due deliveries may be waiting: look now. */
  wake(): void {
    this.moreDue = true;
    this.lookNow();
  }

  /** Attempts were recorded: claim again once a loop runs low (not after every record: a claim per record would cost more than the attempts). */
  recorded(): void {
    if (this.moreDue && this.queues.runningLow()) this.lookNow();
  }

  private lookNow(): void {
    if (!this.running) return;
    if (this.ticking) {
      this.wakeAgain = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (!this.running || this.ticking) return;
    this.ticking = true;
    this.wakeAgain = false;
    let claimed = 0;
    let room = 0;
    try {
      room = this.queues.room();
      if (room > 0) claimed = await this.claim(room);
    } catch (e) {
      this.logger.warn(`claiming deliveries failed: ${(e as Error).message}`);
    } finally {
      this.ticking = false;
    }
    this.queues.pump();
    // A full claim may have left more behind; otherwise wait for a wake-up or the next poll.
    this.schedule(this.wakeAgain || (room > 0 && claimed === room) ? 0 : this.config.pollIntervalMs);
  }

  /** Leases due deliveries, at most `limit`, and gives them to the queues. Returns how many were leased. */
  private async claim(limit: number): Promise<number> {
    const maxBatch = this.queues.maxBatch;
    const chosen = await this.transactions.run(async (manager) => {
      await this.locks.take(manager, ADVISORY_LOCKS.webhookClaims);
      const now = new Date();
      const due = await this.leases.due(now, maxBatch, limit);
      // Found fewer than asked, and no endpoint at its per-claim cap: nothing due is left behind unless a pick below skips some.
      const perEndpoint = new Map<string, number>();
      for (const d of due) perEndpoint.set(d.endpointId, (perEndpoint.get(d.endpointId) ?? 0) + 1);
      this.moreDue = due.length >= limit || [...perEndpoint.values()].some((n) => n >= maxBatch);
      if (due.length === 0) return [];
      const endpointIds = [...perEndpoint.keys()];
      const elsewhere = await this.leases.leasedElsewhere(endpointIds, now, this.instance);
      const allowed = new Map<string, number>();
      for (const id of endpointIds) {
        const mine = this.queues.heldFor(id);
        const others = elsewhere.get(id) ?? 0;
        // Alone on it: a batch, as many as can be sent within the lease; shared: only up to the in-flight cap together.
        allowed.set(id, others === 0 ? this.queues.batchFor(id) - mine : this.config.perEndpointConcurrency - others - mine);
      }
      const picked: string[] = [];
      for (const d of due) {
        const left = allowed.get(d.endpointId)!;
        if (left <= 0) continue;
        allowed.set(d.endpointId, left - 1);
        picked.push(d.id);
      }
      if (picked.length < due.length) this.moreDue = true;
      if (picked.length === 0) return [];
      const rows = await this.leases.lease(picked, this.instance, now, new Date(now.getTime() + this.config.leaseMs));
      if (rows.length === 0) return [];
      const endpoints = await manager.find(WebhookEndpoint, { where: { id: In([...new Set(rows.map((d) => d.endpointId))]) } });
      const byId = new Map(endpoints.map((e) => [e.id, e]));
      // Oldest due first, as they were picked.
      const order = new Map(picked.map((id, index) => [id, index]));
      rows.sort((x, y) => order.get(x.id)! - order.get(y.id)!);
      return rows.map((delivery): [WebhookEndpoint, LeasedDelivery] => [byId.get(delivery.endpointId)!, delivery]);
    });
    for (const [endpoint, delivery] of chosen) this.queues.add(endpoint, [delivery]);
    return chosen.length;
  }
}
