import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Principal } from '../../auth/principal';
import { Notifications } from '../../database/notifications';
import { renderRealtimeFeature } from '../../positions/realtime.mapper';
import { RealtimePositionsService } from '../../positions/realtime-positions.service';
import { POSITION_CHANGES_CHANNEL, PositionChangesMessage } from './position-changes';
import { SseStream } from './sse-stream';
import { ChangeTracker } from './stream-cursor';
import { StreamsService } from './streams.service';

/** How far behind its watermark each read looks, for transactions that commit after later ones. */
const COMMIT_LAG_MS = 5000;

/** One client's position stream: reads what changed since its watermark whenever woken, one read at a time. */
class PositionStream {
  private reading = false;
  private again = false;

  constructor(
    readonly principal: Principal,
    private readonly buildingIds: number[] | undefined,
    private readonly stream: SseStream,
    private readonly tracker: ChangeTracker,
    private readonly realtime: RealtimePositionsService,
    private readonly logger: Logger,
  ) {}

  /** Coalesced: wakes during a read cause one more read after it, not one per wake. */
  wake(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void this.drain();
  }

  private async drain(): Promise<void> {
    try {
      do {
        this.again = false;
        if (!this.stream.open) return;
        const changes = await this.realtime.changedSince(this.principal, this.buildingIds, this.tracker.readFrom);
        const before = this.tracker.current;
        const fresh = this.tracker.select(changes.map((change) => ({ ...change, id: change.row.id })));
        let watermark = before;
        for (let i = 0; i < fresh.length; i++) {
          if (!(await this.stream.writable())) return;
          watermark = Math.max(watermark, fresh[i].changedAt);
          // The id goes on the last frame of a stamp only: a client cut off inside a stamp gets all of it again.
          const lastOfStamp = i === fresh.length - 1 || fresh[i + 1].changedAt !== fresh[i].changedAt;
          this.stream.send(lastOfStamp ? String(watermark) : null, 'position', renderRealtimeFeature(fresh[i].row, fresh[i].poiId));
        }
      } while (this.again);
    } catch (error) {
      // The next ingest wakes the stream again; its watermark has not moved.
      this.logger.warn(`A position stream could not read: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.reading = false;
    }
  }
}

/**
 * `GET /realtime/stream` (contract 7.4): each device's new latest fix as a 6.1 feature.
 * Ingests on any instance announce their commit on `position_changes`; every instance's
 * streams of that organization then read the devices table (the source of truth) from their
 * watermark, so a missed or coalesced announcement loses nothing.
 */
@Injectable()
export class PositionStreamsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('PositionStreams');
  private readonly byOrganization = new Map<string, Set<PositionStream>>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly streams: StreamsService,
    private readonly realtime: RealtimePositionsService,
    private readonly notifications: Notifications,
  ) {}

  async onModuleInit(): Promise<void> {
    this.unsubscribe = await this.notifications.subscribe<PositionChangesMessage>(POSITION_CHANGES_CHANNEL, (message) => {
      if (message && typeof message.organization === 'string') for (const stream of this.byOrganization.get(message.organization) ?? []) stream.wake();
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** Opens the stream (or throws 429); `after` resumes strictly after that watermark, otherwise it starts now. */
  open(principal: Principal, buildingIds: number[] | undefined, after: number | null, reply: FastifyReply, stillAuthorized: () => Promise<boolean>): void {
    const sse = this.streams.open('positions', principal, reply, stillAuthorized);
    const stream = new PositionStream(principal, buildingIds, sse, new ChangeTracker(after ?? Date.now(), COMMIT_LAG_MS), this.realtime, this.logger);
    let set = this.byOrganization.get(principal.organizationId);
    if (!set) this.byOrganization.set(principal.organizationId, (set = new Set()));
    set.add(stream);
    sse.onClose(() => {
      set.delete(stream);
      if (set.size === 0 && this.byOrganization.get(principal.organizationId) === set) this.byOrganization.delete(principal.organizationId);
    });
    // The first read replays what the client missed (or learns what is already out) and goes live.
    stream.wake();
  }
}
