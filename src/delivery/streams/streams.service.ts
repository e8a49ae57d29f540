import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CREDENTIAL_REVOCATIONS_CHANNEL } from '../../auth/credential-revocations';
import { Principal } from '../../access/principal';
import { ApiError } from '../../common/errors/api-error';
import { ErrorCode } from '../../common/errors/error-code';
import { webhooksConfig, WebhooksConfig } from '../../config/webhooks.config';
import { NotificationBus } from '../../database/notification-bus';
import { SseStream, StreamEndReason, StreamKind } from './sse-stream';
import { StreamLeases } from './stream-leases';
import { liveStreamRegistries, registerStreamMetrics, StreamCounts } from './streams.metrics';

interface OpenStream {
  kind: StreamKind;
  principal: Principal;
  stream: SseStream;
  /** Whether the stream's credentials still hold (asked when a revocation names its user). */
  stillAuthorized: () => Promise<boolean>;
}

/**
 * Every live stream of this instance: its place in the per-organization bound (held in the
 * database, so the bound holds across instances), the end of a stream whose
 * credentials changed (the credential cache's revocation notices, which every instance
 * receives), and the end of all of them when the application closes, so that closing never
 * waits on a client.
 */
@Injectable()
export class StreamsService implements OnModuleInit, OnModuleDestroy {
  private readonly streams = new Set<OpenStream>();
  private readonly ended = new Map<string, number>();
  private readonly unsubscribe: Array<() => void> = [];
  /** Places being given back (a stream ended): shutdown waits for them. */
  private readonly releasing = new Set<Promise<void>>();
  private closing = false;

  constructor(
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    private readonly notifications: NotificationBus,
    private readonly leases: StreamLeases,
  ) {}

  async onModuleInit(): Promise<void> {
    registerStreamMetrics();
    liveStreamRegistries.add(this);
    this.unsubscribe.push(
      await this.notifications.subscribe<{ user?: unknown }>(CREDENTIAL_REVOCATIONS_CHANNEL, (message) => {
        if (message && typeof message.user === 'string') this.recheckUser(message.user);
      }),
      // A revocation may have been missed while the listener was down: every stream authenticates again.
      this.notifications.onDeliveryGap((gap) => {
        if (gap === 'resubscribed') this.endWhere(() => true, 'credential_revoked');
      }),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.endAll();
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    liveStreamRegistries.delete(this);
  }

  /**
   * The server is stopping: refuses new streams, ends the open ones (`event: close`,
   * `shutdown`: clients reconnect to another instance) and gives their places back before
   * it resolves, so the database is never closed under a release and another instance can
   * open as many streams at once. Idempotent.
   */
  async endAll(): Promise<void> {
    this.closing = true;
    this.endWhere(() => true, 'shutdown');
    await Promise.all([...this.releasing]);
    await this.leases.releaseAll();
  }

  /**
   * Opens a stream for `principal` on `reply` (hijacked from here on), or throws the
   * contract's 429 when its organization already has the most streams allowed open, counted
   * over every instance.
   */
  async open(kind: StreamKind, principal: Principal, reply: FastifyReply, stillAuthorized: () => Promise<boolean>): Promise<SseStream> {
    if (this.closing) throw ApiError.serviceUnavailable('The server is shutting down');
    const lease = await this.leases.acquire(principal.organizationId, kind, this.config.streamsPerOrganization);
    if (!lease) {
      throw new ApiError(429, ErrorCode.TooManyRequests, `At most ${this.config.streamsPerOrganization} live streams per organization are open at once`, [], {
        'Retry-After': '30',
      });
    }
    if (this.closing) {
      await this.leases.release(lease);
      throw ApiError.serviceUnavailable('The server is shutting down');
    }
    const stream = new SseStream(reply, { heartbeatMs: this.config.streamHeartbeatMs, maxBufferedBytes: this.config.streamMaxBufferedBytes });
    const open: OpenStream = { kind, principal, stream, stillAuthorized };
    this.streams.add(open);
    stream.onClose(() => {
      if (!this.streams.delete(open)) return;
      if (stream.endReason) this.ended.set(stream.endReason, (this.ended.get(stream.endReason) ?? 0) + 1);
      const releasing = this.leases.release(lease).finally(() => this.releasing.delete(releasing));
      this.releasing.add(releasing);
    });
    return stream;
  }

  counts(): StreamCounts {
    const open = new Map<string, number>();
    for (const stream of this.streams) open.set(stream.kind, (open.get(stream.kind) ?? 0) + 1);
    return { open, ended: new Map(this.ended) };
  }

  /** The user's credentials changed: each of its streams whose credentials no longer hold ends. */
  private recheckUser(userId: string): void {
    for (const open of this.streams) {
      if (open.principal.userId !== userId) continue;
      void open.stillAuthorized().then((ok) => {
        if (!ok) open.stream.end('credential_revoked');
      });
    }
  }

  private endWhere(predicate: (open: OpenStream) => boolean, reason: StreamEndReason): void {
    for (const open of [...this.streams]) {
      if (!predicate(open)) continue;
      open.stream.end(reason);
    }
  }
}
