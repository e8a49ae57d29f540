import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { KeyObject, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DataSource, EntityManager, In } from 'typeorm';
import { webhooksConfig, WebhooksConfig } from '../../config/webhooks.config';
import { NotificationBus } from '../../database/notification-bus';
import { PreparedQueries } from '../../database/prepared-queries';
import { TransactionRunner } from '../../database/transactions';
import { registerDeliveryQueueMetrics, webhookAttemptDuration, webhookAttempts, webhookDead } from './delivery.metrics';
import { AttemptOutcome, classifyAttempt, nextAttemptAt } from './retry-schedule';
import { DeliveryStatus, WebhookDelivery } from './webhook-delivery.entity';
import { DeliveryClaims, LeasedDelivery } from './delivery-claims';
import { RecordedOutcome, recordOutcomes } from './delivery-outcomes';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { AttemptResult, deliveryAgents, sendWebhook } from './webhook-sender';
import { signingKeys, signWithKeys } from './webhook-signing';
import { WorkerHeartbeats } from './worker-heartbeats';
import { ADVISORY_LOCKS, lockXact } from '../../database/advisory-locks';

/** Told, after an enqueue commits on any instance, that deliveries are due: every other instance's worker looks at once. */
export const WEBHOOK_DELIVERIES_CHANNEL = 'webhook_deliveries';

/** Deliveries of one endpoint this instance may hold leased at once (sent at most `perEndpointConcurrency` at a time). */
const MAX_BATCH_PER_ENDPOINT = 256;
/**
 * Finished attempts are recorded together once this many wait, or this long after the first
 * of them finished: a transaction per few attempts cost more (its commit above all) than the
 * attempts themselves. Only the record waits, never a delivery.
 */
const RECORD_BATCH = 128;
const RECORD_DELAY_MS = 10;
/** An attempt is started only while its lease still outlasts the attempt timeout by this much. */
const LEASE_MARGIN_MS = 1000;

/** The deliveries of one endpoint this instance holds, and how many of them are being sent. */
interface EndpointQueue {
  endpoint: WebhookEndpoint;
  waiting: LeasedDelivery[];
  sending: number;
}

interface Finished {
  delivery: LeasedDelivery;
  endpoint: WebhookEndpoint;
  startedAt: Date;
  finishedAt: Date;
  result: AttemptResult;
  outcome: AttemptOutcome;
}

/**
 * Attempts due deliveries. Every instance runs one; a delivery is attempted by whoever holds its
 * lease, and a lease only lapses when its holder died (it outlasts the attempt timeout, and an
 * attempt starts only while it still does), so a crashed instance's work is picked up and nothing
 * is sent twice at once. A dead holder's leases are given back within seconds, when its heartbeat
 * stops (WorkerHeartbeats). Outcomes are written only while the lease is still ours.
 *
 * For throughput to a fast receiver (contract target: 2,000 deliveries/s to one endpoint, with at
 * most 4 in flight), an instance that is alone on an endpoint leases a batch of its due
 * deliveries (as many as its recent attempt times let it send within the lease) and sends them 4
 * at a time from memory, refilling a slot as soon as its answer is read; outcomes are recorded
 * together (RECORD_BATCH, RECORD_DELAY_MS). Another instance claims an endpoint's deliveries only
 * while fewer than 4 are leased elsewhere, and then no more than the 4 allow, so 4 in flight per
 * endpoint holds across instances. On SQLite fresh deliveries skip the claim: the transaction
 * that writes them hands them over (see handoffRoom).
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  readonly instance = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | null = null;
  /** Leased by this instance and not yet recorded (waiting, being sent, or being recorded). */
  private held = 0;
  /** Hand-offs written in transactions not yet committed, in total and per endpoint. */
  private reservedTotal = 0;
  private readonly reserved = new Map<string, number>();
  private readonly queues = new Map<string, EndpointQueue>();
  /**
   * Recent attempt duration per endpoint (ms, moving average): how many this instance can lease
   * and still send within the lease. Kept after an endpoint's queue empties, so a trickle of
   * deliveries does not start over at the cautious first batch each time.
   */
  private readonly pace = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private finished: Finished[] = [];
  private recording: Promise<void> | null = null;
  private recordTimer: NodeJS.Timeout | undefined;
  private ticking = false;
  private wakeAgain = false;
  /**
   * Whether due deliveries may wait unclaimed: set by a wake-up and by a claim that left some
   * behind, cleared by a claim that took all it found. While clear, a queue running low does not
   * claim again (handed-off deliveries need no claim); the poll still looks.
   */
  private moreDue = true;
  private stopped = true;
  private unsubscribe: (() => void) | undefined;
  private announcing = false;
  private announceAgain = false;
  /** URL and opened signing keys per endpoint row state (see `targetOf`). */
  private readonly targetCache = new Map<string, { key: string; url: URL; keys: KeyObject[]; until: number }>();
  /** Connections to receivers are kept open between attempts (a new one per attempt would cost more than the attempt). */
  private readonly agents = deliveryAgents();
  private readonly claims: DeliveryClaims;
  /** Whether fresh deliveries are handed to this worker by the transaction that writes them (see handoffRoom). */
  private readonly handsOff: boolean;
  /** This worker's liveness, and the release of the leases of workers that died (see WorkerHeartbeats). */
  private readonly heartbeats: WorkerHeartbeats;

  constructor(
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly endpoints: WebhookEndpointsService,
    private readonly notifications: NotificationBus,
    private readonly prepared: PreparedQueries,
  ) {
    this.claims = new DeliveryClaims(prepared, dataSource.options.type === 'postgres');
    this.handsOff = dataSource.options.type !== 'postgres';
    this.heartbeats = new WorkerHeartbeats(this.instance, transactions, dataSource.options.type === 'postgres', config.heartbeatMs, () => this.wake());
  }

  async onApplicationBootstrap(): Promise<void> {
    registerDeliveryQueueMetrics(this.dataSource);
    if (!this.config.workerEnabled) return;
    // Before the first claim: the leases a crashed process left are given back (see WorkerHeartbeats).
    await this.heartbeats.start();
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
    // Attempts under way finish (bounded by their timeout) and are recorded; nothing new starts, and what waited is released.
    await this.drain();
    if (this.config.workerEnabled) await this.heartbeats.stop();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** Stops claiming and waits for the attempts under way (tests that count a request's queries). */
  async pause(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.ticking) await new Promise((resolve) => setTimeout(resolve, 5));
    await this.drain();
    // Holding no lease now, it needs no heartbeat either (and counted queries stay exact).
    this.heartbeats.suspend();
  }

  resume(): void {
    if (!this.config.workerEnabled) return;
    this.heartbeats.resume();
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

  /**
   * Hand-off (DeliveryHandoff): how many fresh deliveries of an endpoint this worker takes
   * from the transaction that writes them. SQLite only: there one process holds every lease, so
   * taking them without the claim's look at other instances' leases keeps 4 in flight per
   * endpoint (a dead process's leases are not in flight). On PostgreSQL another instance may be
   * sending to the endpoint, and only the claim, under its lock, may decide; its claims do not
   * wait in a queue there.
   */
  handoffRoom(endpointId: string): number {
    if (this.stopped || !this.handsOff) return 0;
    return Math.min(this.capacity - this.held - this.reservedTotal, this.batchFor(endpointId) - this.heldFor(endpointId) - (this.reserved.get(endpointId) ?? 0));
  }

  /** Room taken by hand-offs not yet committed (see DeliveryHandoff.reserve); the function returned gives it back, once. */
  reserveHandoff(endpointId: string, count: number): () => void {
    this.reservedTotal += count;
    this.reserved.set(endpointId, (this.reserved.get(endpointId) ?? 0) + count);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.reservedTotal -= count;
      const left = (this.reserved.get(endpointId) ?? 0) - count;
      if (left > 0) this.reserved.set(endpointId, left);
      else this.reserved.delete(endpointId);
    };
  }

  handoffLease(now: Date): { owner: string; expiresAt: Date } | null {
    if (this.stopped || !this.handsOff) return null;
    return { owner: this.instance, expiresAt: new Date(now.getTime() + this.config.leaseMs) };
  }

  /** The handed-off deliveries, committed: queued and sent like claimed ones (given back if the worker stopped meanwhile). */
  accept(endpoint: WebhookEndpoint, deliveries: LeasedDelivery[]): void {
    if (this.stopped) {
      void this.release(deliveries).catch((e) => this.logger.warn(`releasing deliveries failed: ${(e as Error).message}`));
      return;
    }
    this.enqueueLeased(endpoint, deliveries);
    this.pump();
  }

  private enqueueLeased(endpoint: WebhookEndpoint, deliveries: LeasedDelivery[]): void {
    let queue = this.queues.get(endpoint.id);
    if (!queue) this.queues.set(endpoint.id, (queue = { endpoint, waiting: [], sending: 0 }));
    queue.endpoint = endpoint;
    for (const delivery of deliveries) queue.waiting.push(delivery);
    this.held += deliveries.length;
  }

  /** Look for due deliveries now (after an enqueue committed on this instance). */
  wake(): void {
    this.moreDue = true;
    this.lookNow();
  }

  private lookNow(): void {
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

  /** Waits until nothing is being sent or recorded; deliveries still waiting are released for whoever comes next. */
  private async drain(): Promise<void> {
    while (this.inFlight.size > 0 || this.recording || this.finished.length > 0) {
      await Promise.allSettled([...this.inFlight]);
      await this.record();
    }
    const waiting = [...this.queues.values()].flatMap((queue) => queue.waiting.splice(0));
    if (waiting.length > 0) await this.release(waiting).catch((e) => this.logger.warn(`releasing deliveries failed: ${(e as Error).message}`));
  }

  private get capacity(): number {
    // Leased beyond what is being sent: enough to keep every slot busy between two claims.
    return this.config.concurrency * 4;
  }

  /** The most one endpoint's deliveries may take of the room: half, so one endpoint's batch never leaves the others none. */
  private get maxBatch(): number {
    return Math.max(this.config.perEndpointConcurrency, Math.min(MAX_BATCH_PER_ENDPOINT, Math.floor(this.capacity / 2)));
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.ticking) return;
    this.ticking = true;
    this.wakeAgain = false;
    let claimed = 0;
    let room = 0;
    try {
      room = this.capacity - this.held - this.reservedTotal;
      if (room > 0) claimed = await this.claim(room);
    } catch (e) {
      this.logger.warn(`claiming deliveries failed: ${(e as Error).message}`);
    } finally {
      this.ticking = false;
    }
    this.pump();
    // A full claim may have left more behind; otherwise wait for a wake-up or the next poll.
    this.schedule(this.wakeAgain || (room > 0 && claimed === room) ? 0 : this.config.pollIntervalMs);
  }

  /**
   * Leases due deliveries, at most `limit`, and queues them per endpoint. An endpoint whose
   * deliveries another instance holds gets only what keeps its total under the in-flight cap.
   * Returns how many were leased.
   */
  async claim(limit: number): Promise<number> {
    const chosen = await this.transactions.run(async (manager) => {
      const postgres = manager.connection.options.type === 'postgres';
      if (postgres) await lockXact(manager, ADVISORY_LOCKS.webhookClaims);
      const now = new Date();
      const due = await this.claims.due(now, this.maxBatch, limit);
      // Found fewer than asked, and no endpoint at its per-claim cap: nothing due is left behind unless a pick below skips some.
      const perEndpoint = new Map<string, number>();
      for (const d of due) perEndpoint.set(d.endpointId, (perEndpoint.get(d.endpointId) ?? 0) + 1);
      this.moreDue = due.length >= limit || [...perEndpoint.values()].some((n) => n >= this.maxBatch);
      if (due.length === 0) return [];
      const endpointIds = [...new Set(due.map((d) => d.endpointId))];
      const elsewhere = await this.claims.leasedElsewhere(endpointIds, now, this.instance);
      const allowed = new Map<string, number>();
      for (const id of endpointIds) {
        const mine = this.heldFor(id);
        const others = elsewhere.get(id) ?? 0;
        // Alone on it: a batch, as many as can be sent within the lease; shared: only up to the in-flight cap together.
        allowed.set(id, others === 0 ? this.batchFor(id) - mine : this.config.perEndpointConcurrency - others - mine);
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
      const leaseExpiresAt = new Date(now.getTime() + this.config.leaseMs);
      const rows = await this.claims.lease(picked, this.instance, now, leaseExpiresAt);
      if (rows.length === 0) return [];
      const endpoints = await manager.find(WebhookEndpoint, { where: { id: In([...new Set(rows.map((d) => d.endpointId))]) } });
      const byId = new Map(endpoints.map((e) => [e.id, e]));
      // Oldest due first, as they were picked.
      const order = new Map(picked.map((id, index) => [id, index]));
      rows.sort((x, y) => order.get(x.id)! - order.get(y.id)!);
      return rows.map((delivery) => ({ delivery, endpoint: byId.get(delivery.endpointId)! }));
    });
    for (const { delivery, endpoint } of chosen) this.enqueueLeased(endpoint, [delivery]);
    return chosen.length;
  }

  /** Whether a queue (or the whole instance) has so little left that another claim should look for more now. */
  private runningLow(): boolean {
    if (this.queues.size === 0) return true;
    // Low enough that a claim (queued behind other transactions on SQLite) ends before the queue runs dry.
    for (const queue of this.queues.values()) if (queue.waiting.length < this.config.perEndpointConcurrency * 8) return true;
    return false;
  }

  private heldFor(endpointId: string): number {
    const queue = this.queues.get(endpointId);
    return queue ? queue.waiting.length + queue.sending : 0;
  }

  /** How many deliveries of an endpoint to lease at once: what 4 at a time can send within the lease at its recent pace. */
  private batchFor(endpointId: string): number {
    const cap = this.config.perEndpointConcurrency;
    const averageMs = this.pace.get(endpointId) ?? 0;
    if (averageMs <= 0) return cap;
    const slackMs = this.config.leaseMs - this.config.attemptTimeoutMs - LEASE_MARGIN_MS;
    const rounds = Math.floor(slackMs / 2 / averageMs);
    return Math.max(cap, Math.min(this.maxBatch, rounds * cap));
  }

  /** Starts what the in-flight bounds allow: `concurrency` on this instance, `perEndpointConcurrency` per endpoint. */
  private pump(): void {
    if (this.stopped) return;
    for (const queue of this.queues.values()) {
      while (queue.waiting.length > 0 && queue.sending < this.config.perEndpointConcurrency && this.inFlight.size < this.config.concurrency) {
        const delivery = queue.waiting.shift()!;
        // Waited too long in memory: its lease may lapse during the attempt, and another instance would then send it too.
        if (delivery.leaseExpiresAt!.getTime() - Date.now() < this.config.attemptTimeoutMs + LEASE_MARGIN_MS) {
          this.held--;
          void this.release([delivery]).catch(() => undefined);
          continue;
        }
        queue.sending++;
        const work = this.attempt(queue, delivery)
          .catch((e) => this.logger.warn(`delivery ${delivery.id} attempt failed: ${(e as Error).message}`))
          .finally(() => {
            queue.sending--;
            this.inFlight.delete(work);
            if (queue.sending === 0 && queue.waiting.length === 0 && this.queues.get(queue.endpoint.id) === queue) this.queues.delete(queue.endpoint.id);
            this.pump();
          });
        this.inFlight.add(work);
      }
    }
  }

  private async attempt(queue: EndpointQueue, delivery: LeasedDelivery): Promise<void> {
    const endpoint = queue.endpoint;
    const startedAt = new Date();
    const target = this.targetOf(endpoint, startedAt);
    const result: AttemptResult =
      target.keys.length === 0
        ? { status: null, retryAfter: null, durationMs: 0, error: 'the signing secret cannot be opened (was the server secret changed?)' }
        : await sendWebhook(target.url, { ...signWithKeys(target.keys, delivery.messageId, startedAt, delivery.payload) }, delivery.payload, {
            timeoutMs: this.config.attemptTimeoutMs,
            blockPrivateNetworks: this.config.blockPrivateNetworks,
            recordResponseBodies: this.config.recordResponseBodies,
            agents: this.agents,
          });
    const finishedAt = new Date();
    const averageMs = this.pace.get(endpoint.id);
    const tookMs = result.durationMs || 1;
    if (this.pace.size > 10_000) this.pace.clear();
    this.pace.set(endpoint.id, averageMs === undefined ? tookMs : averageMs * 0.8 + tookMs * 0.2);
    this.finished.push({ delivery, endpoint, startedAt, finishedAt, result, outcome: classifyAttempt(result.status, result.retryAfter, finishedAt) });
    this.scheduleRecord();
  }

  /**
   * The endpoint's URL and signing keys, kept per endpoint row state: opening the sealed
   * secrets per attempt would cost more than the attempt. The key is the sealed values
   * themselves, so a rotation (or any secret change another instance committed) is seen at the
   * next claim, which reloads the endpoint row.
   */
  private targetOf(endpoint: WebhookEndpoint, at: Date): { url: URL; keys: KeyObject[] } {
    const key = `${endpoint.url}|${endpoint.secretSealed}|${endpoint.previousSecretSealed ?? ''}|${endpoint.previousSecretExpiresAt?.getTime() ?? ''}`;
    const cached = this.targetCache.get(endpoint.id);
    if (cached && cached.key === key && at.getTime() < cached.until) return cached;
    const keys = signingKeys(this.endpoints.secretsOf(endpoint, at));
    // A rotated-out secret stops signing at its expiry: the cache entry ends there too.
    const until =
      endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt.getTime() > at.getTime() ? endpoint.previousSecretExpiresAt.getTime() : Number.MAX_SAFE_INTEGER;
    if (this.targetCache.size > 10_000) this.targetCache.clear();
    const entry = { key, url: new URL(endpoint.url), keys, until };
    this.targetCache.set(endpoint.id, entry);
    return entry;
  }

  /** Records what finished once RECORD_BATCH attempts wait or RECORD_DELAY_MS after the first did. */
  private scheduleRecord(): void {
    if (this.recording) return; // it records again when done
    if (this.finished.length >= RECORD_BATCH) {
      clearTimeout(this.recordTimer);
      this.recordTimer = undefined;
      void this.record();
    } else this.recordTimer ??= setTimeout(() => void this.record(), RECORD_DELAY_MS);
  }

  /** Records finished attempts, one transaction for all of them; then claims more. */
  private record(): Promise<void> {
    clearTimeout(this.recordTimer);
    this.recordTimer = undefined;
    if (this.recording) return this.recording;
    if (this.finished.length === 0) return Promise.resolve();
    const batch = this.finished.splice(0);
    this.recording = this.transactions
      .run((manager) => this.recordBatch(manager, batch))
      .catch((e) => this.logger.warn(`recording ${batch.length} attempts failed: ${(e as Error).message}`))
      .finally(() => {
        this.held -= batch.length;
        this.recording = null;
        if (this.finished.length > 0) this.scheduleRecord();
        // Claim again once a queue runs low (not after every record: a claim per record would cost more than the attempts).
        if (this.moreDue && this.runningLow()) this.lookNow();
      });
    return this.recording;
  }

  private async recordBatch(manager: EntityManager, batch: Finished[]): Promise<void> {
    const outcomes: RecordedOutcome[] = batch.map(({ delivery, finishedAt, startedAt, result, outcome }) => {
      const attempt = delivery.attempts + 1;
      let status: DeliveryStatus;
      let nextAt: Date | null = null;
      if (outcome.kind === 'succeeded') status = 'succeeded';
      else if (outcome.kind === 'endpoint_gone') status = 'dead';
      else {
        const next = nextAttemptAt(this.config.retrySchedule, attempt, finishedAt, { retryAfterMs: outcome.retryAfterMs });
        status = next.at ? 'failed' : 'dead';
        nextAt = next.at;
      }
      const error = result.error ? result.error.slice(0, 512) : null;
      return { deliveryId: delivery.id, attempt, status, nextAttemptAt: nextAt, statusCode: result.status, error, startedAt, finishedAt, durationMs: result.durationMs };
    });
    const written = await recordOutcomes(this.prepared, manager.connection.options.type === 'postgres', this.instance, outcomes);
    for (let i = 0; i < batch.length; i++) {
      const { endpoint, finishedAt, outcome } = batch[i];
      // Our lease lapsed and another instance took the delivery over: its record wins.
      if (!written.has(outcomes[i].deliveryId)) continue;
      webhookAttempts.inc({ outcome: outcome.kind });
      webhookAttemptDuration.observe({ outcome: outcome.kind }, outcomes[i].durationMs / 1000);
      if (outcomes[i].status === 'dead') webhookDead.inc();
      if (outcome.kind === 'endpoint_gone') {
        await manager.update(WebhookEndpoint, { id: endpoint.id }, { enabled: false, disabledReason: 'endpoint_gone', updatedAt: finishedAt });
        // What waits for it here is not sent (the endpoint is disabled): released, the claim query leaves it alone.
        const queue = this.queues.get(endpoint.id);
        if (queue) {
          const dropped = queue.waiting.splice(0);
          this.held -= dropped.length;
          void this.release(dropped).catch(() => undefined);
        }
      }
    }
  }

  /** Gives leased deliveries back unattempted (shutdown, or a lease too short to start an attempt in). */
  private async release(deliveries: LeasedDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.transactions.run(async (manager) => {
      for (let i = 0; i < deliveries.length; i += 500) {
        await manager.update(WebhookDelivery, { id: In(deliveries.slice(i, i + 500).map((d) => d.id)), leaseOwner: this.instance }, { leaseOwner: null, leaseExpiresAt: null });
      }
    });
  }
}
