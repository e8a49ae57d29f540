import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { authConfig, AuthConfig } from '../config/auth.config';
import { NotificationBus } from '../database/notification-bus';
import { CacheTicket, CredentialCache, CredentialCacheStats } from './credential-cache';
import { Principal } from '../access/principal';
import { CREDENTIAL_REVOCATIONS_CHANNEL, credentialRevocationMessage, CredentialRevocationMessage } from './credential-revocations';

/** Live caches of this process (tests run several apps in one process), for the metrics. */
export const liveCredentialCaches = new Set<CredentialCacheService>();

/**
 * The process's credential cache, kept honest across instances: every change to what a
 * credential may do goes through `revokeUser`, which drops the user's entries here right
 * after the commit and, through the notifications home, on every other instance. While the
 * listener is down nothing is served from the cache, and everything is dropped when it comes
 * back; the cache's maximum age bounds whatever slips past (a write made by other means).
 */
@Injectable()
export class CredentialCacheService implements OnModuleInit, OnModuleDestroy {
  private readonly cache: CredentialCache;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    @Inject(authConfig.KEY) config: AuthConfig,
    private readonly notifications: NotificationBus,
  ) {
    this.cache = new CredentialCache({
      maxAgeMs: config.credentialCacheMaxAgeSeconds * 1000,
      maxEntries: config.credentialCacheMaxEntries,
      maxBytes: config.credentialCacheMaxBytes,
    });
  }

  async onModuleInit(): Promise<void> {
    liveCredentialCaches.add(this);
    this.unsubscribe.push(
      await this.notifications.subscribe<CredentialRevocationMessage>(CREDENTIAL_REVOCATIONS_CHANNEL, (message) => {
        if (message && typeof message.user === 'string') this.cache.invalidateUser(message.user);
      }),
      this.notifications.onDeliveryGap(() => this.cache.clear()),
    );
  }

  onModuleDestroy(): void {
    liveCredentialCaches.delete(this);
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.cache.clear();
  }

  get enabled(): boolean {
    return this.cache.enabled;
  }

  lookup(key: string): Principal | undefined {
    // A revocation sent while the listener is down would be missed: verify everything then.
    if (!this.notifications.reliable) return undefined;
    return this.cache.get(key);
  }

  ticket(): CacheTicket {
    return this.cache.ticket();
  }

  store(key: string, principal: Principal, expiresAt: number | null, ticket: CacheTicket): void {
    if (this.notifications.reliable) this.cache.set(key, principal, expiresAt, ticket);
  }

  /**
   * Call inside the transaction of any change to what the user's credentials may do (a
   * session, key, password, role, building restriction or e-mail change, a deletion). This
   * instance forgets them as soon as the transaction commits, before the change is
   * acknowledged; the others when the notification (sent on commit) reaches them.
   */
  async revokeUser(manager: EntityManager, userId: string): Promise<void> {
    await this.notifications.publishWithCommit(manager, CREDENTIAL_REVOCATIONS_CHANNEL, credentialRevocationMessage(userId), () => this.cache.invalidateUser(userId));
  }

  /** Forgets everything this instance cached (tests that count queries start from here). */
  flush(): void {
    this.cache.clear();
  }

  stats(): CredentialCacheStats {
    return this.cache.stats();
  }
}
