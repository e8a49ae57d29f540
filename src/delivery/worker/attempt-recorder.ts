import { Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TransactionRunner } from '../../database/transactions';
import { webhookAttemptDuration, webhookAttempts, webhookDead } from '../webhooks/delivery.metrics';
import { DeliveryLeasesRepository, LeasedDelivery, RecordedOutcome } from '../webhooks/delivery-leases.repository';
import { AttemptOutcome, classifyAttempt, nextAttemptAt } from '../webhooks/retry-schedule';
import { DeliveryStatus } from '../webhooks/webhook-delivery.entity';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity';
import { SentAttempt } from './webhook-attempts';

/**
 * Finished attempts are recorded together once this many wait, or this long after the first
 * of them finished: a transaction per few attempts cost more (its commit above all) than the
 * attempts themselves. Only the record waits, never a delivery.
 */
const RECORD_BATCH = 128;
const RECORD_DELAY_MS = 10;

interface Finished extends SentAttempt {
  delivery: LeasedDelivery;
  endpoint: WebhookEndpoint;
  outcome: AttemptOutcome;
}

export interface RecorderHooks {
  /** `count` attempts were recorded (or could not be: their leases lapse). */
  recorded(count: number): void;
  /** The endpoint answered that it is gone, and is now disabled: what waits for it must not be sent. */
  endpointGone(endpointId: string): void;
}

/**
 * Writes what finished attempts came to, in batches (RECORD_BATCH, RECORD_DELAY_MS): each
 * delivery's next state by the retry schedule, its attempt log row, the metrics, and an endpoint
 * that is gone disabled. Only while this instance still holds the lease: another instance that
 * took a lapsed one over wins.
 */
export class AttemptRecorder {
  private readonly logger = new Logger('Webhooks');
  private finished: Finished[] = [];
  private recording: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly instance: string,
    private readonly retrySchedule: readonly number[],
    private readonly transactions: TransactionRunner,
    private readonly leases: DeliveryLeasesRepository,
    private readonly hooks: RecorderHooks,
  ) {}

  /** Whether attempts wait to be recorded or are being recorded. */
  get busy(): boolean {
    return this.recording !== null || this.finished.length > 0;
  }

  add(endpoint: WebhookEndpoint, delivery: LeasedDelivery, sent: SentAttempt): void {
    this.finished.push({ ...sent, delivery, endpoint, outcome: classifyAttempt(sent.result.status, sent.result.retryAfter, sent.finishedAt) });
    this.schedule();
  }

  /** Records what finished once RECORD_BATCH attempts wait or RECORD_DELAY_MS after the first did. */
  private schedule(): void {
    if (this.recording) return; // it records again when done
    if (this.finished.length >= RECORD_BATCH) {
      clearTimeout(this.timer);
      this.timer = undefined;
      void this.flush();
    } else this.timer ??= setTimeout(() => void this.flush(), RECORD_DELAY_MS);
  }

  /** Records what finished, one transaction for all of it (or waits for the record under way). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.recording) return this.recording;
    if (this.finished.length === 0) return Promise.resolve();
    const batch = this.finished.splice(0);
    this.recording = this.transactions
      .run((manager) => this.record(manager, batch))
      .catch((e) => this.logger.warn(`recording ${batch.length} attempts failed: ${(e as Error).message}`))
      .finally(() => {
        this.recording = null;
        if (this.finished.length > 0) this.schedule();
        this.hooks.recorded(batch.length);
      });
    return this.recording;
  }

  private async record(manager: EntityManager, batch: Finished[]): Promise<void> {
    const outcomes: RecordedOutcome[] = batch.map(({ delivery, finishedAt, startedAt, result, outcome }) => {
      const attempt = delivery.attempts + 1;
      let status: DeliveryStatus;
      let nextAt: Date | null = null;
      if (outcome.kind === 'succeeded') status = 'succeeded';
      else if (outcome.kind === 'endpoint_gone') status = 'dead';
      else {
        const next = nextAttemptAt(this.retrySchedule, attempt, finishedAt, { retryAfterMs: outcome.retryAfterMs });
        status = next.at ? 'failed' : 'dead';
        nextAt = next.at;
      }
      const error = result.error ? result.error.slice(0, 512) : null;
      return { deliveryId: delivery.id, attempt, status, nextAttemptAt: nextAt, statusCode: result.status, error, startedAt, finishedAt, durationMs: result.durationMs };
    });
    const written = await this.leases.record(this.instance, outcomes);
    for (let i = 0; i < batch.length; i++) {
      const { endpoint, finishedAt, outcome } = batch[i];
      // Our lease lapsed and another instance took the delivery over: its record wins.
      if (!written.has(outcomes[i].deliveryId)) continue;
      webhookAttempts.inc({ outcome: outcome.kind });
      webhookAttemptDuration.observe({ outcome: outcome.kind }, outcomes[i].durationMs / 1000);
      if (outcomes[i].status === 'dead') webhookDead.inc();
      if (outcome.kind === 'endpoint_gone') {
        await manager.update(WebhookEndpoint, { id: endpoint.id }, { enabled: false, disabledReason: 'endpoint_gone', updatedAt: finishedAt });
        this.hooks.endpointGone(endpoint.id);
      }
    }
  }
}
