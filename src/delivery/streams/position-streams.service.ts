import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Principal } from '../../access/principal';
import { NotificationBus } from '../../database/notification-bus';
import { renderRealtimeFeature } from '../../positions/realtime.mapper';
import { ChangedFix, RealtimePositionsService } from '../../positions/realtime-positions.service';
import { POSITION_CHANGES_CHANNEL, PositionChangesMessage } from '../../positions/position-changes';
import { DeviceNavigationsRepository } from '../../navigation/device-navigations.repository';
import { toNavigationResponse } from '../../navigation/navigation.mapper';
import { FedStream, OrganizationFeed } from './organization-feed';
import { FrameQueue } from './frame-queue';
import { SseStream } from './sse-stream';
import { ChangeTracker } from './stream-cursor';
import { StreamsService } from './streams.service';

/** How far behind its watermark each read looks, for transactions that commit after later ones. */
const COMMIT_LAG_MS = 5000;

/** The buildings a stream shows: those asked for, within the caller's restriction; null for all. */
export function visibleBuildings(principal: Principal, asked: number[] | undefined): Set<number> | null {
  if (principal.buildingIds === null) return asked === undefined ? null : new Set(asked);
  const allowed = new Set(principal.buildingIds);
  return new Set(asked === undefined ? allowed : asked.filter((id) => allowed.has(id)));
}

/** One client's position stream: keeps what it may see of each read, and sends it at the client's pace. */
/** A changed fix as the streams send it: with the device's navigation progress (JSON text) when it is guided. */
interface StreamedFix extends ChangedFix {
  navigation: string | null;
}

class PositionStream implements FedStream<StreamedFix> {
  private readonly frames: FrameQueue;

  constructor(
    private readonly visible: Set<number> | null,
    private readonly sse: SseStream,
    private readonly tracker: ChangeTracker,
  ) {
    this.frames = new FrameQueue(sse);
  }

  get open(): boolean {
    return this.sse.open;
  }

  get readFrom(): number {
    return this.tracker.readFrom;
  }

  /** A read that covered this stream's window: `newest` is the latest stamp it saw. */
  offer(changes: StreamedFix[], newest: number): void {
    const mine = this.visible === null ? changes : changes.filter((change) => change.row.buildingId !== null && this.visible!.has(change.row.buildingId));
    let watermark = this.tracker.current;
    const fresh = this.tracker.select(mine.map((change) => ({ ...change, id: change.row.id })));
    this.tracker.seen(newest);
    for (let i = 0; i < fresh.length; i++) {
      watermark = Math.max(watermark, fresh[i].changedAt);
      // The id goes on the last frame of a stamp only: a client cut off inside a stamp gets all of it again.
      const lastOfStamp = i === fresh.length - 1 || fresh[i + 1].changedAt !== fresh[i].changedAt;
      this.frames.push({ id: lastOfStamp ? String(watermark) : null, event: 'position', data: renderRealtimeFeature(fresh[i].row, fresh[i].poiId, fresh[i].navigation) });
    }
    this.frames.flush();
  }
}

/**
 * `GET /realtime/stream` (contract 7.4): each device's new latest fix as a 6.1 feature.
 * Ingests on any instance announce their commit on `position_changes`; every instance then
 * reads the organization's changed devices from the database (the source of truth) from its
 * streams' watermarks, so a missed or coalesced announcement loses nothing.
 */
@Injectable()
export class PositionStreamsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('PositionStreams');
  private readonly feeds = new Map<string, OrganizationFeed<StreamedFix, PositionStream>>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly streams: StreamsService,
    private readonly realtime: RealtimePositionsService,
    private readonly notifications: NotificationBus,
    private readonly navigations: DeviceNavigationsRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    this.unsubscribe = await this.notifications.subscribe<PositionChangesMessage>(POSITION_CHANGES_CHANNEL, (message) => {
      if (message && typeof message.organization === 'string') this.feeds.get(message.organization)?.wake();
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** Opens the stream (or throws 429); `after` resumes strictly after that watermark, otherwise it starts now. */
  async open(principal: Principal, buildingIds: number[] | undefined, after: number | null, reply: FastifyReply, stillAuthorized: () => Promise<boolean>): Promise<void> {
    const sse = await this.streams.open('positions', principal, reply, stillAuthorized);
    const stream = new PositionStream(visibleBuildings(principal, buildingIds), sse, new ChangeTracker(after ?? Date.now(), COMMIT_LAG_MS));
    const organization = principal.organizationId;
    let feed = this.feeds.get(organization);
    if (!feed) {
      feed = new OrganizationFeed<StreamedFix, PositionStream>(
        async (since) => {
          const items = await this.withNavigation(organization, await this.realtime.changedSince(organization, since));
          return { items, upTo: items.length > 0 ? items[items.length - 1].changedAt : since, more: false };
        },
        (error) => this.logger.warn(`Position streams could not read: ${error instanceof Error ? error.message : String(error)}`),
      );
      this.feeds.set(organization, feed);
    }
    feed.streams.add(stream);
    sse.onClose(() => {
      feed.streams.delete(stream);
      if (feed.streams.size === 0 && this.feeds.get(organization) === feed) this.feeds.delete(organization);
    });
    // The first read replays what the client missed (or learns what is already out) and goes live.
    feed.wake();
  }

  /** The guided devices' progress beside their fixes (an arrival's last one included): one query on the key per read. */
  private async withNavigation(organizationId: string, changes: ChangedFix[]): Promise<StreamedFix[]> {
    if (changes.length === 0) return [];
    const rows = await this.navigations.ofDevicesNow(organizationId, [...new Set(changes.map((change) => change.row.id))]);
    const progress = new Map(rows.map((row) => [row.deviceId, JSON.stringify(toNavigationResponse(row))]));
    return changes.map((change) => ({ ...change, navigation: progress.get(change.row.id) ?? null }));
  }
}
