import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { DataSource } from 'typeorm';
import { webhooksConfig, WebhooksConfig } from '../../config/webhooks.config';
import { TransactionRunner } from '../../database/transactions';
import { lockXactOnText } from '../../database/advisory-locks';
import { noOtherProcessOn } from '../../database/data-dir-lock';

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
  private readonly postgres: boolean;
  private readonly sqliteDirectory: string | null;
  private renewal: NodeJS.Timeout | null = null;

  constructor(
    @Inject(webhooksConfig.KEY) config: WebhooksConfig,
    @InjectDataSource() dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {
    this.renewEveryMs = Math.min(config.streamHeartbeatMs, 15_000);
    this.leaseMs = this.renewEveryMs * 3 + 5_000;
    this.postgres = dataSource.options.type === 'postgres';
    this.sqliteDirectory = this.postgres ? null : dirname(String(dataSource.options.database));
  }

  /**
   * Takes a place for a stream of `organizationId`, or returns null when `limit` streams of the
   * organization are already open on any instance. Taking places of one organization is
   * serialized (an advisory lock on PostgreSQL; SQLite runs one transaction at a time).
   */
  async acquire(organizationId: string, kind: string, limit: number): Promise<string | null> {
    const id = await this.transactions.run(async (manager) => {
      const now = Date.now();
      if (this.postgres) await lockXactOnText(manager, `stream-leases:${organizationId}`);
      await manager.query(...this.transactions.escape('DELETE FROM stream_leases WHERE organization_id = :organizationId AND expires_at <= :now', { organizationId, now }));
      const [{ open }] = (await manager.query(
        ...this.transactions.escape('SELECT COUNT(*) AS open FROM stream_leases WHERE organization_id = :organizationId', { organizationId }),
      )) as Array<{ open: number | string }>;
      if (Number(open) >= limit) return null;
      const lease = randomUUID();
      await manager.query(
        ...this.transactions.escape(
          'INSERT INTO stream_leases (id, organization_id, kind, instance_id, expires_at) VALUES (:lease, :organizationId, :kind, :instanceId, :expiresAt)',
          { lease, organizationId, kind, instanceId: this.instanceId, expiresAt: now + this.leaseMs },
        ),
      );
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
      .run((manager) => manager.query(...this.transactions.escape('DELETE FROM stream_leases WHERE id = :id', { id })))
      .catch((error: unknown) => this.logger.warn(`A stream's place could not be given back (it lapses by itself): ${String(error)}`));
  }

  /** Gives back every place this instance holds (the application is closing). */
  async releaseAll(): Promise<void> {
    this.stopRenewing();
    if (this.held.size === 0) return;
    this.held.clear();
    await this.transactions
      .run((manager) => manager.query(...this.transactions.escape('DELETE FROM stream_leases WHERE instance_id = :instanceId', { instanceId: this.instanceId })))
      .catch((error: unknown) => this.logger.warn(`Stream places could not be given back (they lapse by themselves): ${String(error)}`));
  }

  /**
   * At start, after the migrations, on SQLite (where one process serves the database): places
   * left by a process that crashed are nobody's, and would otherwise count until they lapse.
   * On PostgreSQL they may be another running instance's.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (this.postgres) return;
    // A CLI command beside the running server (organizations:create) must leave the server's places alone.
    if (this.sqliteDirectory !== null && !noOtherProcessOn(this.sqliteDirectory)) return;
    await this.transactions.run((manager) => manager.query('DELETE FROM stream_leases'));
  }

  onModuleDestroy(): void {
    this.stopRenewing();
  }

  /** One statement renews every place this instance holds. */
  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const expiresAt = Date.now() + this.leaseMs;
    await this.transactions
      .run((manager) =>
        manager.query(...this.transactions.escape('UPDATE stream_leases SET expires_at = :expiresAt WHERE instance_id = :instanceId', { expiresAt, instanceId: this.instanceId })),
      )
      .catch((error: unknown) => this.logger.warn(`Stream places could not be renewed: ${String(error)}`));
  }

  private stopRenewing(): void {
    if (this.renewal) clearInterval(this.renewal);
    this.renewal = null;
  }
}
