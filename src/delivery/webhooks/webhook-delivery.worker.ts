import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DataSource, EntityManager, In } from 'typeorm';
import { webhooksConfig, WebhooksConfig } from '../../config/webhooks.config';
import { Notifications } from '../../database/notifications';
import { TransactionRunner } from '../../database/transactions';
import { registerDeliveryQueueMetrics, webhookAttempts, webhookDead } from './delivery.metrics';
import { classifyAttempt, nextAttemptAt } from './retry-schedule';
import { WebhookDelivery, WebhookDeliveryAttempt } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { sendWebhook } from './webhook-sender';
import { signDelivery } from './webhook-signing';

/** Told, after an enqueue commits on any instance, that deliveries are due: every other instance's worker looks at once. */
export const WEBHOOK_DELIVERIES_CHANNEL = 'webhook_deliveries';

/** Serializes claims across instances on PostgreSQL (SQLite: one process, transactions in turn). */
const CLAIM_LOCK_ID = 0x63617274_77686b; // "cart" "whk"

/**
 * Attempts due deliveries. Every instance runs one; a delivery is attempted by whoever holds its
 * lease, and a lease only lapses when its holder died mid-attempt (it outlasts the attempt
 * timeout), so a crashed instance's work is picked up and nothing is sent twice at once.
 * Outcomes are written only while the lease is still ours.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  readonly instance = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | null = null;
  private running = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private ticking = false;
  private wakeAgain = false;
  private stopped = true;
  private unsubscribe: (() => void) | undefined;
  private announcing = false;
  private announceAgain = false;

  constructor(
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly endpoints: WebhookEndpointsService,
    private readonly notifications: Notifications,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    registerDeliveryQueueMetrics(this.dataSource);
    if (!this.config.workerEnabled) return;
    // Another instance's enqueue (an instance without a worker, or one whose worker is full) wakes this one at once, not at the next poll.
    this.unsubscribe = await this.notifications.subscribe<{ instance?: unknown }>(WEBHOOK_DELIVERIES_CHANNEL, (message) => {
      if (message?.instance !== this.instance) this.wake();
    });
    this.stopped = false;
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    // Attempts under way finish (bounded by their timeout); nothing new is claimed.
    await Promise.allSettled([...this.inFlight]);
  }

  /** Stops claiming and waits for the attempts under way (tests that count a request's queries). */
  async pause(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.ticking) await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.allSettled([...this.inFlight]);
  }

  resume(): void {
    if (!this.config.workerEnabled) return;
    this.stopped = false;
    this.schedule(0);
  }

  /**
   * Deliveries were enqueued and committed here: this worker looks now, and every other
   * instance's is told (one notice at a time per instance; enqueues during one are covered by
   * one more after it, so a burst of ingests costs a few notices, not one each).
   */
  announce(): void {
    this.wake();
    if (this.announcing) {
      this.announceAgain = true;
      return;
    }
    this.announcing = true;
    void (async () => {
      try {
        do {
          this.announceAgain = false;
          await this.notifications.publish(WEBHOOK_DELIVERIES_CHANNEL, { instance: this.instance });
        } while (this.announceAgain);
      } catch (error) {
        // The others find the deliveries at their next poll.
        this.logger.warn(`could not announce deliveries: ${(error as Error).message}`);
      } finally {
        this.announcing = false;
      }
    })();
  }

  /** Look for due deliveries now (after an enqueue committed on this instance). */
  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.wakeAgain = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    this.wakeAgain = false;
    let claimed: WebhookDelivery[] = [];
    try {
      const room = this.config.concurrency - this.running;
      if (room > 0) claimed = await this.claim(room);
    } catch (e) {
      this.logger.warn(`claiming deliveries failed: ${(e as Error).message}`);
    } finally {
      this.ticking = false;
    }
    for (const delivery of claimed) this.start(delivery);
    // A full claim may have left more behind; otherwise wait for a wake-up or the next poll.
    this.schedule(this.wakeAgain || claimed.length === this.config.concurrency ? 0 : this.config.pollIntervalMs);
  }

  private start(delivery: WebhookDelivery): void {
    this.running++;
    const work = this.attempt(delivery)
      .catch((e) => this.logger.warn(`delivery ${delivery.id} attempt failed to record: ${(e as Error).message}`))
      .finally(() => {
        this.running--;
        this.inFlight.delete(work);
        this.wake();
      });
    this.inFlight.add(work);
  }

  /** Leases up to `limit` due deliveries, at most `perEndpointConcurrency` in flight per endpoint over all instances. */
  async claim(limit: number): Promise<WebhookDelivery[]> {
    return this.transactions.run(async (manager) => {
      const postgres = manager.connection.options.type === 'postgres';
      if (postgres) await manager.query('SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK_ID]);
      const now = new Date();
      const due = await manager
        .createQueryBuilder(WebhookDelivery, 'd')
        .innerJoin(WebhookEndpoint, 'e', 'e.id = d.endpointId AND e.enabled = :enabled', { enabled: true })
        .where('d.status IN (:...statuses)', { statuses: ['pending', 'failed'] })
        .andWhere('d.nextAttemptAt <= :now', { now })
        .andWhere('(d.leaseExpiresAt IS NULL OR d.leaseExpiresAt < :now)', { now })
        .orderBy('d.nextAttemptAt', 'ASC')
        .addOrderBy('d.id', 'ASC')
        .take(limit * this.config.perEndpointConcurrency)
        .getMany();
      if (due.length === 0) return [];
      const busyRows: Array<{ endpointId: string; n: string | number }> = await manager
        .createQueryBuilder(WebhookDelivery, 'f')
        .select('f.endpointId', 'endpointId')
        .addSelect('COUNT(*)', 'n')
        .where('f.endpointId IN (:...ids)', { ids: [...new Set(due.map((d) => d.endpointId))] })
        .andWhere('f.leaseExpiresAt > :now', { now })
        .andWhere('f.status IN (:...statuses)', { statuses: ['pending', 'failed'] })
        .groupBy('f.endpointId')
        .getRawMany();
      const busy = new Map(busyRows.map((r) => [r.endpointId, Number(r.n)]));
      const chosen: WebhookDelivery[] = [];
      for (const d of due) {
        if (chosen.length >= limit) break;
        const n = busy.get(d.endpointId) ?? 0;
        if (n >= this.config.perEndpointConcurrency) continue;
        busy.set(d.endpointId, n + 1);
        chosen.push(d);
      }
      const leaseExpiresAt = new Date(now.getTime() + this.config.leaseMs);
      await manager.update(WebhookDelivery, { id: In(chosen.map((d) => d.id)) }, { leaseOwner: this.instance, leaseExpiresAt, updatedAt: now });
      return chosen.map((d) => ({ ...d, leaseOwner: this.instance, leaseExpiresAt }));
    });
  }

  private async attempt(delivery: WebhookDelivery): Promise<void> {
    const endpoint = await this.dataSource.manager.findOne(WebhookEndpoint, { where: { id: delivery.endpointId } });
    if (!endpoint) return; // deleted meanwhile: its deliveries went with it
    const startedAt = new Date();
    const secrets = this.endpoints.secretsOf(endpoint, startedAt);
    const result =
      secrets.length === 0
        ? { status: null, retryAfter: null, durationMs: 0, error: 'the signing secret cannot be opened (was the server secret changed?)' }
        : await sendWebhook(new URL(endpoint.url), { ...signDelivery(secrets, delivery.messageId, startedAt, delivery.payload) }, delivery.payload, {
            timeoutMs: this.config.attemptTimeoutMs,
            blockPrivateNetworks: this.config.blockPrivateNetworks,
          });
    const finishedAt = new Date();
    const outcome = classifyAttempt(result.status, result.retryAfter, finishedAt);
    const attempts = delivery.attempts + 1;
    let changes: Partial<WebhookDelivery>;
    if (outcome.kind === 'succeeded') changes = { status: 'succeeded', nextAttemptAt: null };
    else if (outcome.kind === 'endpoint_gone') changes = { status: 'dead', nextAttemptAt: null };
    else {
      const next = nextAttemptAt(this.config.retrySchedule, attempts, finishedAt, { retryAfterMs: outcome.retryAfterMs });
      changes = next.at ? { status: 'failed', nextAttemptAt: next.at } : { status: 'dead', nextAttemptAt: null };
    }
    await this.transactions.run(async (manager: EntityManager) => {
      const updated = await manager.update(
        WebhookDelivery,
        { id: delivery.id, leaseOwner: this.instance },
        {
          ...changes,
          attempts,
          leaseOwner: null,
          leaseExpiresAt: null,
          lastStatusCode: result.status,
          lastError: result.error ? result.error.slice(0, 512) : null,
          lastAttemptAt: startedAt,
          updatedAt: finishedAt,
        },
      );
      // Our lease lapsed and another instance took the delivery over: its record wins.
      if (!updated.affected) return;
      webhookAttempts.inc({ outcome: outcome.kind });
      if (changes.status === 'dead') webhookDead.inc();
      await manager.insert(WebhookDeliveryAttempt, {
        id: randomUUID(),
        deliveryId: delivery.id,
        attempt: attempts,
        startedAt,
        durationMs: result.durationMs,
        statusCode: result.status,
        error: result.error ? result.error.slice(0, 512) : null,
        instance: this.instance,
      });
      if (outcome.kind === 'endpoint_gone') {
        await manager.update(WebhookEndpoint, { id: endpoint.id }, { enabled: false, disabledReason: 'endpoint_gone', updatedAt: finishedAt });
      }
    });
  }
}
