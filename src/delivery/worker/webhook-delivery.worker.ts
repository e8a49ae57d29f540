import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DataSource } from 'typeorm';
import { webhooksConfig, WebhooksConfig } from '../../config/webhooks.config';
import { NotificationBus } from '../../database/notification-bus';
import { TransactionLocks } from '../../database/transaction-locks';
import { TransactionRunner } from '../../database/transactions';
import { registerDeliveryQueueMetrics } from '../webhooks/delivery.metrics';
import { DeliveryLeasesRepository, LeasedDelivery } from '../webhooks/delivery-leases.repository';
import { WEBHOOK_DELIVERIES_CHANNEL } from '../webhooks/delivery-wake';
import { WebhookEndpointsService } from '../webhooks/webhook-endpoints.service';
import { AttemptRecorder } from './attempt-recorder';
import { DeliveryClaimer } from './delivery-claimer';
import { DeliveryQueues } from './delivery-queues';
import { WebhookAttempts } from './webhook-attempts';
import { WorkerLiveness } from './worker-liveness';

/**
 * Attempts due deliveries. Every instance runs one; a delivery is attempted by whoever holds its
 * lease, and a lease only lapses when its holder died (it outlasts the attempt timeout, and an
 * attempt starts only while it still does), so a crashed instance's work is picked up and nothing
 * is sent twice at once. A dead holder's leases are given back within seconds (WorkerLiveness).
 *
 * The parts, as Tile38 delivers hooks: the claimer leases due deliveries into the queues, one
 * loop per endpoint that owns its queue, in-flight count and pace (DeliveryQueues, EndpointLoop);
 * the attempts are sent signed (WebhookAttempts) and recorded in batches (AttemptRecorder), which
 * asks the claimer for more once a loop runs low. On SQLite fresh deliveries skip the claim: the
 * transaction that writes them hands them over (SqliteHandoff). The worker only starts, pauses
 * and stops them, and is woken by one route: the deliveries channel (DeliveryWake).
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  readonly instance = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly queues: DeliveryQueues;
  private readonly claimer: DeliveryClaimer;
  private readonly recorder: AttemptRecorder;
  private readonly attempts: WebhookAttempts;
  private unsubscribe: (() => void) | undefined;

  constructor(
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    locks: TransactionLocks,
    endpoints: WebhookEndpointsService,
    private readonly notifications: NotificationBus,
    private readonly leases: DeliveryLeasesRepository,
    private readonly liveness: WorkerLiveness,
  ) {
    this.attempts = new WebhookAttempts(config, endpoints);
    this.queues = new DeliveryQueues(config, {
      attempt: async (loop, delivery) => {
        try {
          const sent = await this.attempts.send(loop.endpoint, delivery);
          loop.paced(sent.result.durationMs || 1);
          this.recorder.add(loop.endpoint, delivery, sent);
        } catch (e) {
          // Not an answer of the endpoint (those are recorded) but a fault here: no longer held, and its lease given back for the next claim.
          this.logger.warn(`delivery ${delivery.id} attempt failed: ${(e as Error).message}`);
          this.queues.settled(1);
          this.release([delivery]);
        }
      },
      release: (deliveries) => this.release(deliveries),
    });
    this.claimer = new DeliveryClaimer(this.instance, config, transactions, locks, leases, this.queues);
    this.recorder = new AttemptRecorder(this.instance, config.retrySchedule, transactions, leases, {
      recorded: (count) => {
        this.queues.settled(count);
        this.claimer.recorded();
      },
      // What waits for it here is not sent (the endpoint is disabled): released, the claim leaves it alone.
      endpointGone: (endpointId) => this.release(this.queues.takeWaiting(endpointId)),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    registerDeliveryQueueMetrics(this.dataSource);
    if (!this.config.workerEnabled) return;
    // Before the first claim: the leases a crashed process left are given back.
    await this.liveness.start(this.instance, () => this.claimer.wake());
    // An enqueue committed on any instance (this one too) wakes the claimer at once, not at the next poll.
    this.unsubscribe = await this.notifications.subscribe(WEBHOOK_DELIVERIES_CHANNEL, () => this.claimer.wake());
    this.queues.start();
    this.claimer.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.unsubscribe?.();
    this.claimer.stop();
    this.queues.close();
    // Attempts under way finish (bounded by their timeout) and are recorded; nothing new starts, and what waited is released.
    await this.drain();
    if (this.config.workerEnabled) await this.liveness.stop();
    this.attempts.close();
  }

  /** Stops claiming and waits for the attempts under way (tests that count a request's queries). */
  async pause(): Promise<void> {
    this.claimer.stop();
    this.queues.close();
    await this.claimer.idle();
    await this.drain();
    // Holding no lease now, it needs no heartbeat either (and counted queries stay exact).
    this.liveness.suspend();
  }

  resume(): void {
    if (!this.config.workerEnabled) return;
    this.liveness.resume();
    this.queues.start();
    this.claimer.start();
  }

  /** Waits until nothing is being sent or recorded; deliveries still waiting are released for whoever comes next. */
  private async drain(): Promise<void> {
    while (this.queues.sending || this.recorder.busy) {
      await this.queues.whenSent();
      await this.recorder.flush();
    }
    await this.releaseNow(this.queues.takeWaiting());
  }

  /** Gives leased deliveries back unattempted (a lease too short to start an attempt in, a disabled endpoint). */
  private release(deliveries: LeasedDelivery[]): void {
    void this.releaseNow(deliveries);
  }

  private async releaseNow(deliveries: LeasedDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.transactions
      .run((manager) =>
        this.leases.release(
          manager,
          deliveries.map((d) => d.id),
          this.instance,
        ),
      )
      .catch((e) => this.logger.warn(`releasing deliveries failed: ${(e as Error).message}`));
  }
}
