import { WebhooksConfig } from '../../config/webhooks.config';
import { LeasedDelivery } from '../webhooks/delivery-leases.repository';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity';
import { EndpointLoop } from './endpoint-loop';

/** Deliveries of one endpoint this instance may hold leased at once (sent at most `perEndpointConcurrency` at a time). */
const MAX_BATCH_PER_ENDPOINT = 256;
/** Loops kept (idle ones keep only their pace); past this, the idle ones are forgotten. */
const MAX_LOOPS = 10_000;

export interface QueueHooks {
  /** Sends one delivery of the loop's endpoint; the loop's `sending` is counted down when it settles. */
  attempt(loop: EndpointLoop, delivery: LeasedDelivery): Promise<void>;
  /** Gives deliveries back unattempted. */
  release(deliveries: LeasedDelivery[]): void;
}

/**
 * What this instance holds leased: one loop per endpoint, sent from at most `concurrency` at once
 * in all, and the room left to lease (`capacity`), less the room hand-offs hold for transactions
 * not yet committed. Memory only; the leases themselves are in the database.
 */
export class DeliveryQueues {
  private readonly loops = new Map<string, EndpointLoop>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Leased by this instance and not yet recorded (waiting, being sent, or being recorded). */
  private heldTotal = 0;
  /** Room hand-offs hold for transactions not yet committed, in total and per endpoint. */
  private reservedTotal = 0;
  private readonly reserved = new Map<string, number>();
  /** Whether deliveries are sent; while not, what is given to the queues goes back. */
  private open = false;

  constructor(
    private readonly config: WebhooksConfig,
    private readonly hooks: QueueHooks,
  ) {}

  /** Leased beyond what is being sent: enough to keep every slot busy between two claims. */
  get capacity(): number {
    return this.config.concurrency * 4;
  }

  /** The most one endpoint's deliveries may take of the room: half, so one endpoint's batch never leaves the others none. */
  get maxBatch(): number {
    return Math.max(this.config.perEndpointConcurrency, Math.min(MAX_BATCH_PER_ENDPOINT, Math.floor(this.capacity / 2)));
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** How many more deliveries this instance may lease now. */
  room(): number {
    return this.capacity - this.heldTotal - this.reservedTotal;
  }

  /** How many more of one endpoint's deliveries a hand-off may give this instance now. */
  roomFor(endpointId: string): number {
    return Math.min(this.room(), this.batchFor(endpointId) - this.heldFor(endpointId) - (this.reserved.get(endpointId) ?? 0));
  }

  heldFor(endpointId: string): number {
    return this.loops.get(endpointId)?.held ?? 0;
  }

  /** How many of an endpoint's deliveries to lease at once (its loop's pace; the cap for one not seen yet). */
  batchFor(endpointId: string): number {
    return this.loops.get(endpointId)?.batch() ?? this.config.perEndpointConcurrency;
  }

  /** Holds room for `count` deliveries of an endpoint; the function returned gives it back, once. */
  reserve(endpointId: string, count: number): () => void {
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

  /** Leased deliveries of an endpoint, to send (given back if the queues are closed). */
  add(endpoint: WebhookEndpoint, deliveries: LeasedDelivery[]): void {
    if (!this.open) {
      this.hooks.release(deliveries);
      return;
    }
    let loop = this.loops.get(endpoint.id);
    if (!loop) {
      if (this.loops.size >= MAX_LOOPS) for (const [id, idle] of this.loops) if (idle.held === 0) this.loops.delete(id);
      const limits = {
        perEndpointConcurrency: this.config.perEndpointConcurrency,
        leaseMs: this.config.leaseMs,
        attemptTimeoutMs: this.config.attemptTimeoutMs,
        maxBatch: this.maxBatch,
      };
      this.loops.set(endpoint.id, (loop = new EndpointLoop(endpoint, limits)));
    }
    loop.endpoint = endpoint;
    for (const delivery of deliveries) loop.waiting.push(delivery);
    this.heldTotal += deliveries.length;
  }

  /** Recorded (or given back): no longer held. */
  settled(count: number): void {
    this.heldTotal -= count;
  }

  /** Whether a loop has so little left that a claim should look for more now. */
  runningLow(): boolean {
    let active = 0;
    for (const loop of this.loops.values()) {
      if (loop.held === 0) continue;
      active++;
      // Low enough that a claim (queued behind other transactions on SQLite) ends before the queue runs dry.
      if (loop.waiting.length < this.config.perEndpointConcurrency * 8) return true;
    }
    return active === 0;
  }

  /** Starts what the bounds allow: `concurrency` on this instance, `perEndpointConcurrency` per endpoint. */
  pump(): void {
    if (!this.open) return;
    const expired: LeasedDelivery[] = [];
    const now = Date.now();
    for (const loop of this.loops.values()) {
      while (this.inFlight.size < this.config.concurrency) {
        const delivery = loop.next(now, expired);
        if (!delivery) break;
        const work = this.hooks.attempt(loop, delivery).finally(() => {
          loop.sending--;
          this.inFlight.delete(work);
          this.pump();
        });
        this.inFlight.add(work);
      }
    }
    if (expired.length > 0) {
      this.heldTotal -= expired.length;
      this.hooks.release(expired);
    }
  }

  /** Starts sending (after `close`). */
  start(): void {
    this.open = true;
    this.pump();
  }

  /** Nothing new starts; what is being sent goes on (see `whenSent`). */
  close(): void {
    this.open = false;
  }

  /** Whether an attempt is under way. */
  get sending(): boolean {
    return this.inFlight.size > 0;
  }

  /** Waits for the attempts under way. */
  async whenSent(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** Takes out what waits for an endpoint, unsent (it was disabled), or for every endpoint (shutdown). */
  takeWaiting(endpointId?: string): LeasedDelivery[] {
    const loops = endpointId === undefined ? [...this.loops.values()] : [this.loops.get(endpointId)].filter((loop) => loop !== undefined);
    const taken = loops.flatMap((loop) => loop.waiting.splice(0));
    this.heldTotal -= taken.length;
    return taken;
  }
}
