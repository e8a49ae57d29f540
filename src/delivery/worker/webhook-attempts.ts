import { KeyObject } from 'node:crypto';
import { WebhooksConfig } from '../../config/webhooks.config';
import { LeasedDelivery } from '../webhooks/delivery-leases.repository';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity';
import { WebhookEndpointsService } from '../webhooks/webhook-endpoints.service';
import { AttemptResult, deliveryAgents, sendWebhook } from '../webhooks/webhook-sender';
import { signingKeys, signWithKeys } from '../webhooks/webhook-signing';

/** One attempt, sent. */
export interface SentAttempt {
  startedAt: Date;
  finishedAt: Date;
  result: AttemptResult;
}

/**
 * Sends one delivery to its endpoint, signed: connections to receivers are kept open between
 * attempts (a new one per attempt would cost more than the attempt), and each endpoint's URL and
 * opened signing keys are kept per row state.
 */
export class WebhookAttempts {
  private readonly agents = deliveryAgents();
  private readonly targets = new Map<string, { key: string; url: URL; keys: KeyObject[]; until: number }>();

  constructor(
    private readonly config: WebhooksConfig,
    private readonly endpoints: WebhookEndpointsService,
  ) {}

  async send(endpoint: WebhookEndpoint, delivery: LeasedDelivery): Promise<SentAttempt> {
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
    return { startedAt, finishedAt: new Date(), result };
  }

  /** Closes the kept connections. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /**
   * The endpoint's URL and signing keys, kept per endpoint row state: opening the sealed
   * secrets per attempt would cost more than the attempt. The key is the sealed values
   * themselves, so a rotation (or any secret change another instance committed) is seen at the
   * next claim, which reloads the endpoint row.
   */
  private targetOf(endpoint: WebhookEndpoint, at: Date): { url: URL; keys: KeyObject[] } {
    const key = `${endpoint.url}|${endpoint.secretSealed}|${endpoint.previousSecretSealed ?? ''}|${endpoint.previousSecretExpiresAt?.getTime() ?? ''}`;
    const cached = this.targets.get(endpoint.id);
    if (cached && cached.key === key && at.getTime() < cached.until) return cached;
    const keys = signingKeys(this.endpoints.secretsOf(endpoint, at));
    // A rotated-out secret stops signing at its expiry: the cache entry ends there too.
    const until =
      endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt.getTime() > at.getTime() ? endpoint.previousSecretExpiresAt.getTime() : Number.MAX_SAFE_INTEGER;
    if (this.targets.size > 10_000) this.targets.clear();
    const entry = { key, url: new URL(endpoint.url), keys, until };
    this.targets.set(endpoint.id, entry);
    return entry;
  }
}
