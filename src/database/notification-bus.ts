import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { databaseConfig, DatabaseConfig } from '../config/database.config';
import { ADVISORY_LOCKS } from './advisory-locks';
import { TransactionRunner } from './transactions';

/**
 * NotificationBus: fire-and-forget messages from one instance to every instance (itself
 * included) that shares the database. The one home for cross-instance signals such as
 * "drop what you cached about user X" or "geofences of floor Y changed".
 *
 * - `publish(channel, payload)` sends now; `publish(channel, payload, { transaction })` sends
 *   when that transaction commits and never if it rolls back; `publishAfterCommit(manager, ...)`
 *   sends once the transaction has committed, as a statement of its own.
 * - `subscribe(channel, handler)` receives every payload published on `channel` from the time
 *   the returned promise resolves; the returned function unsubscribes.
 * - `onDeliveryGap(handler)` is called whenever notifications may have been missed: when the
 *   listening connection drops and again when it is back and listening (`resubscribed`).
 *   Whoever caches data on the strength of notifications flushes it there.
 * - `reliable` is false while notifications can be missed (the listener is down). Caches
 *   must not serve entries then.
 *
 * PostgreSQL: one dedicated `pg` client per process runs LISTEN (outside the pool, so that it
 * is never handed to a query) and reconnects with exponential backoff; a heartbeat query
 * notices a silently dead connection. NOTIFY goes through `pg_notify` on the pool or in the
 * caller's transaction. Delivery is at most once and in commit order per sender. A heartbeat
 * every second proves the listener alive; without an answer for 2.5 s it counts as down.
 * SQLite (a single process): delivery is in process and synchronous; with a transaction it
 * happens right after the commit.
 *
 * Channels are lower-case identifiers (`[a-z][a-z0-9_]*`, at most 63 characters); payloads
 * are JSON values of at most 7,900 bytes once serialized (PostgreSQL's limit is 8,000).
 */
export type NotificationHandler<T = unknown> = (payload: T) => void;

export type DeliveryGap = 'interrupted' | 'resubscribed';

const CHANNEL = /^[a-z][a-z0-9_]{0,62}$/;
const MAX_PAYLOAD_BYTES = 7900;
const RECONNECT_MIN_MS = 50;
const RECONNECT_MAX_MS = 5000;
const HEARTBEAT_MS = 1000;
/** Without a sign of life for this long the listener counts as down, even before its socket says so. */
const LIVENESS_MS = 2500;
const CLOSE_WAIT_MS = 1000;

export function assertChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`Invalid notification channel "${channel}"`);
}

export function serializePayload(payload: unknown): string {
  const text = JSON.stringify(payload ?? null);
  if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) throw new Error(`A notification payload is limited to ${MAX_PAYLOAD_BYTES} bytes`);
  return text;
}

/**
 * NOTIFY in `manager`'s transaction, for a process without the bus (the CLI): every instance on
 * the PostgreSQL database hears it on commit. On SQLite there is no channel between processes:
 * nothing is sent.
 */
export async function notifyWithoutBus(manager: EntityManager, channel: string, payload: unknown): Promise<void> {
  if (manager.connection.options.type !== 'postgres') return;
  await manager.query('SELECT pg_notify($1, $2)', [channel, serializePayload(payload)]);
}

/** Delay before the n-th reconnection attempt (0-based): doubling, capped, with jitter. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** Math.min(attempt, 16));
  return Math.round(base / 2 + (base / 2) * random());
}

@Injectable()
export class NotificationBus implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(NotificationBus.name);
  private readonly handlers = new Map<string, Set<NotificationHandler>>();
  private readonly gapHandlers = new Set<(gap: DeliveryGap) => void>();
  private readonly postgres: boolean;
  private client: Client | undefined;
  private listening = false;
  private closed = false;
  private attempts = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private connecting: Promise<void> | undefined;
  private lastSignOfLife = 0;
  private heartbeatPending = false;
  private readonly listenerTails = new WeakMap<Client, Promise<unknown>>();

  constructor(
    @Inject(databaseConfig.KEY) private readonly config: DatabaseConfig,
    private readonly transactions: TransactionRunner,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.postgres = config.kind === 'postgres';
  }

  /** False while notifications may be missed (PostgreSQL listener down). */
  get reliable(): boolean {
    return !this.postgres || (this.listening && Date.now() - this.lastSignOfLife < LIVENESS_MS);
  }

  async onModuleInit(): Promise<void> {
    if (!this.postgres) return;
    await this.connect();
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), HEARTBEAT_MS);
    this.heartbeatTimer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.heartbeatTimer);
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    // A hung server would keep end() waiting for ever.
    if (client) await Promise.race([client.end().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
  }

  async subscribe<T>(channel: string, handler: NotificationHandler<T>): Promise<() => void> {
    assertChannel(channel);
    let set = this.handlers.get(channel);
    const first = !set;
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler as NotificationHandler);
    // When down, the reconnection LISTENs to every channel that has handlers.
    if (first && this.listening && this.client) await this.onListener(this.client, `LISTEN "${channel}"`);
    return () => {
      set.delete(handler as NotificationHandler);
      if (set.size === 0 && this.handlers.get(channel) === set) {
        this.handlers.delete(channel);
        if (this.listening && this.client) this.onListener(this.client, `UNLISTEN "${channel}"`).catch(() => undefined);
      }
    };
  }

  onDeliveryGap(handler: (gap: DeliveryGap) => void): () => void {
    this.gapHandlers.add(handler);
    return () => this.gapHandlers.delete(handler);
  }

  /** Sends now, outside any transaction (what changed is committed already). */
  async publish(channel: string, payload: unknown): Promise<void> {
    assertChannel(channel);
    const text = serializePayload(payload);
    if (!this.postgres) return this.dispatch(channel, text);
    await this.dataSource.manager.query('SELECT pg_notify($1, $2)', [channel, text]);
  }

  /**
   * Sent with `manager`'s transaction: on PostgreSQL the NOTIFY is part of it, so it is delivered
   * exactly when the transaction commits and never lost (an instance that dies right after its
   * commit still tells the others), at the price of NOTIFY's commit-time lock; for what must
   * not be missed (revoked credentials, changed building content), never for ingest. `here` is
   * what this instance does itself once committed, before the change is acknowledged, without
   * waiting for its own notice.
   */
  async publishWithCommit(manager: EntityManager, channel: string, payload: unknown, here?: () => void): Promise<void> {
    assertChannel(channel);
    const text = serializePayload(payload);
    if (this.postgres) await manager.query('SELECT pg_notify($1, $2)', [channel, text]);
    this.transactions.afterCommit(manager, () => {
      here?.();
      if (!this.postgres) this.dispatch(channel, text);
    });
  }

  /**
   * Sends once `manager`'s transaction has committed, outside it; failures are logged. With
   * publishWithCommit, the one route for "something changed" signals. `coalesce`: a message equal to one still being sent
   * is sent once more after it instead of again and again (a burst of commits costs a few
   * notices, not one each); for wake-ups whose receivers read the database for what changed.
   */
  publishAfterCommit(manager: EntityManager, channel: string, payload: unknown, options: { coalesce?: boolean } = {}): void {
    assertChannel(channel);
    const text = serializePayload(payload);
    this.transactions.afterCommit(manager, () => {
      if (options.coalesce) this.publishCoalesced(channel, text);
      else this.publish(channel, JSON.parse(text)).catch((error: unknown) => this.logger.error(`Could not notify ${channel}: ${String(error)}`));
    });
  }

  /** Messages being sent (PostgreSQL), and whether an equal one came meanwhile. */
  private readonly sending = new Map<string, { again: boolean }>();

  private publishCoalesced(channel: string, text: string): void {
    if (!this.postgres) return this.dispatch(channel, text);
    const key = `${channel}\u0000${text}`;
    const under = this.sending.get(key);
    if (under) {
      under.again = true;
      return;
    }
    const state = { again: false };
    this.sending.set(key, state);
    void (async () => {
      try {
        do {
          state.again = false;
          await this.publish(channel, JSON.parse(text));
        } while (state.again);
      } catch (error) {
        this.logger.error(`Could not notify ${channel}: ${String(error)}`);
      } finally {
        this.sending.delete(key);
      }
    })();
  }

  private dispatch(channel: string, text: string | undefined): void {
    const handlers = this.handlers.get(channel);
    if (!handlers) return;
    let payload: unknown;
    try {
      payload = JSON.parse(text ?? 'null');
    } catch {
      this.logger.warn(`Ignored a notification on ${channel} that is not JSON`);
      return;
    }
    for (const handler of handlers) {
      try {
        handler(payload);
      } catch (error) {
        this.logger.error(`A ${channel} notification handler failed: ${String(error)}`);
      }
    }
  }

  private gap(kind: DeliveryGap): void {
    for (const handler of this.gapHandlers) {
      try {
        handler(kind);
      } catch (error) {
        this.logger.error(`A delivery-gap handler failed: ${String(error)}`);
      }
    }
  }

  private connect(): Promise<void> {
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<void> {
    if (this.config.kind !== 'postgres' || this.closed) return;
    const client = new Client({
      connectionString: this.config.url,
      connectionTimeoutMillis: this.config.connectTimeoutMs,
      query_timeout: this.config.queryTimeoutMs,
      keepAlive: true,
      application_name: 'cartograph-notifications',
    });
    client.on('notification', (message) => {
      this.lastSignOfLife = Date.now();
      this.dispatch(message.channel, message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      // This instance is live for as long as this connection is: `migrate down` looks for it (see ADVISORY_LOCKS.liveInstances).
      await client.query('SELECT pg_advisory_lock_shared($1)', [ADVISORY_LOCKS.liveInstances]);
      // Channels subscribed while this loop awaits are picked up by the next pass.
      const listened = new Set<string>();
      for (let pending = [...this.handlers.keys()]; pending.length > 0; pending = [...this.handlers.keys()].filter((c) => !listened.has(c))) {
        for (const channel of pending) {
          await client.query(`LISTEN "${channel}"`);
          listened.add(channel);
        }
      }
    } catch (error) {
      client.removeAllListeners('end');
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      this.scheduleReconnect(error);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    const wasReconnect = this.attempts > 0;
    this.client = client;
    this.listening = true;
    this.lastSignOfLife = Date.now();
    this.attempts = 0;
    if (wasReconnect) {
      this.logger.log('Notification listener reconnected');
      this.gap('resubscribed');
    }
  }

  private lost(client: Client, error: unknown): void {
    if (client !== this.client || this.closed) return;
    this.client = undefined;
    this.listening = false;
    client.removeAllListeners('end');
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    this.gap('interrupted');
    this.scheduleReconnect(error);
  }

  private scheduleReconnect(error: unknown): void {
    if (this.closed || this.reconnectTimer) return;
    const delay = reconnectDelay(this.attempts++);
    this.logger.warn(`Notification listener down (${error instanceof Error ? error.message : String(error)}); retrying in ${delay} ms`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  /** The listening connection's queries, one after another (pg deprecates overlapping queries on one client). */
  private onListener(client: Client, query: string | { text: string; query_timeout: number }): Promise<unknown> {
    const previous = this.listenerTails.get(client) ?? Promise.resolve();
    const result = previous.then(() => client.query(query as never));
    this.listenerTails.set(
      client,
      result.catch(() => undefined),
    );
    return result;
  }

  /**
   * A connection that died without a TCP reset is noticed here rather than never: `reliable`
   * turns false after LIVENESS_MS without an answer, and a failed or late answer reconnects.
   */
  private async heartbeat(): Promise<void> {
    const client = this.client;
    if (!client || !this.listening || this.heartbeatPending) return;
    this.heartbeatPending = true;
    try {
      await this.onListener(client, { text: 'SELECT 1', query_timeout: LIVENESS_MS });
      this.lastSignOfLife = Date.now();
    } catch (error) {
      this.lost(client, error);
    } finally {
      this.heartbeatPending = false;
    }
  }
}
