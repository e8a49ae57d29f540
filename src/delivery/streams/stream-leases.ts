import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { webhooksConfig, WebhooksConfig } from '../../config/webhooks.config';
import { TransactionLocks } from '../../database/transaction-locks';
import { TransactionRunner } from '../../database/transactions';
import { StreamLeasesRepository } from './stream-leases.repository';

/**
 * The places of the per-organization stream bound (contract 7.4), shared by every instance:
 * one `stream_leases` row per open stream, renewed by the instance that holds it. A stream
 * counts against its organization wherever it is open; a crashed instance's streams stop
 * counting once their leases lapse (three renewals missed).
 */
@Injectable()
export class StreamLeases implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(StreamLeases.name);
  /** Names this process's rows; a restart is a new holder (its old rows lapse). */
  private readonly instanceId = randomUUID();
  private readonly held = new Set<string>();
  private readonly renewEveryMs: number;
  private readonly leaseMs: number;
  private renewal: NodeJS.Timeout | null = null;

  constructor(
    @Inject(webhooksConfig.KEY) config: WebhooksConfig,
    private readonly transactions: TransactionRunner,
    private readonly locks: TransactionLocks,
    private readonly leases: StreamLeasesRepository,
  ) {
    this.renewEveryMs = Math.min(config.streamHeartbeatMs, 15_000);
    this.leaseMs = this.renewEveryMs * 3 + 5_000;
  }

  /**
   * Takes a place for a stream of `organizationId`, or returns null when `limit` streams of the
   * organization are already open on any instance. Taking places of one organization is
   * serialized (an advisory lock on PostgreSQL; SQLite runs one transaction at a time).
   */
  async acquire(organizationId: string, kind: string, limit: number): Promise<string | null> {
    const id = await this.transactions.run(async (manager) => {
      const now = Date.now();
      await this.locks.takeNamed(manager, `stream-leases:${organizationId}`);
      if ((await this.leases.openOf(manager, organizationId, now)) >= limit) return null;
      const lease = randomUUID();
      await this.leases.insert(manager, { lease, organizationId, kind, instanceId: this.instanceId, expiresAt: now + this.leaseMs });
      return lease;
    });
    if (id) {
      this.held.add(id);
      this.renewal ??= setInterval(() => void this.renew(), this.renewEveryMs).unref();
    }
    return id;
  }

  /** Gives the place back (the stream ended); a failure only leaves the row to lapse. */
  async release(id: string): Promise<void> {
    if (!this.held.delete(id)) return;
    if (this.held.size === 0) this.stopRenewing();
    await this.transactions
      .run((manager) => this.leases.delete(manager, id))
      .catch((error: unknown) => this.logger.warn(`A stream's place could not be given back (it lapses by itself): ${String(error)}`));
  }

  /** Gives back every place this instance holds (the application is closing). */
  async releaseAll(): Promise<void> {
    this.stopRenewing();
    if (this.held.size === 0) return;
    this.held.clear();
    await this.transactions
      .run((manager) => this.leases.deleteOfInstance(manager, this.instanceId))
      .catch((error: unknown) => this.logger.warn(`Stream places could not be given back (they lapse by themselves): ${String(error)}`));
  }

  /** At start, after the migrations: the places a crashed process left, where they can only be its (see clearLeftOver). */
  async onApplicationBootstrap(): Promise<void> {
    await this.transactions.run((manager) => this.leases.clearLeftOver(manager));
  }

  onModuleDestroy(): void {
    this.stopRenewing();
  }

  /** One statement renews every place this instance holds. */
  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const expiresAt = Date.now() + this.leaseMs;
    await this.transactions
      .run((manager) => this.leases.renew(manager, this.instanceId, expiresAt))
      .catch((error: unknown) => this.logger.warn(`Stream places could not be renewed: ${String(error)}`));
  }

  private stopRenewing(): void {
    if (this.renewal) clearInterval(this.renewal);
    this.renewal = null;
  }
}
