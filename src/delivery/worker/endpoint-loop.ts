import { LeasedDelivery } from '../webhooks/delivery-leases.repository';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity';

/** An attempt is started only while its lease still outlasts the attempt timeout by this much. */
export const LEASE_MARGIN_MS = 1000;

export interface LoopLimits {
  /** Sent at once to one endpoint (across instances: the claim keeps the total). */
  perEndpointConcurrency: number;
  leaseMs: number;
  attemptTimeoutMs: number;
  /** The most of one endpoint's deliveries this instance holds leased at once. */
  maxBatch: number;
}

/**
 * One endpoint's deliveries held by this instance (Tile38 gives each hook a loop of its own): its
 * queue, how many are being sent, and its pace. The pace (a moving average of its attempts'
 * durations) says how many to lease at once; it is kept while the queue is empty, so that a
 * trickle of deliveries does not start over at the cautious first batch each time.
 */
export class EndpointLoop {
  readonly waiting: LeasedDelivery[] = [];
  sending = 0;
  private averageMs: number | undefined;

  constructor(
    /** The endpoint's row as last read (each claim reloads it: a rotated secret is seen there). */
    public endpoint: WebhookEndpoint,
    private readonly limits: LoopLimits,
  ) {}

  /** Leased here and not yet finished (waiting or being sent). */
  get held(): number {
    return this.waiting.length + this.sending;
  }

  /** How many deliveries to lease at once: what `perEndpointConcurrency` at a time can send within the lease at its recent pace. */
  batch(): number {
    const cap = this.limits.perEndpointConcurrency;
    if (this.averageMs === undefined || this.averageMs <= 0) return cap;
    const slackMs = this.limits.leaseMs - this.limits.attemptTimeoutMs - LEASE_MARGIN_MS;
    const rounds = Math.floor(slackMs / 2 / this.averageMs);
    return Math.max(cap, Math.min(this.limits.maxBatch, rounds * cap));
  }

  /** An attempt took `tookMs`. */
  paced(tookMs: number): void {
    this.averageMs = this.averageMs === undefined ? tookMs : this.averageMs * 0.8 + tookMs * 0.2;
  }

  /**
   * The next delivery to send now, if its cap allows one more: deliveries that waited so long in
   * memory that their lease may lapse during the attempt (another instance would then send them
   * too) are put in `expired` and skipped.
   */
  next(now: number, expired: LeasedDelivery[]): LeasedDelivery | undefined {
    while (this.waiting.length > 0 && this.sending < this.limits.perEndpointConcurrency) {
      const delivery = this.waiting.shift()!;
      if (delivery.leaseExpiresAt.getTime() - now < this.limits.attemptTimeoutMs + LEASE_MARGIN_MS) {
        expired.push(delivery);
        continue;
      }
      this.sending++;
      return delivery;
    }
    return undefined;
  }
}
