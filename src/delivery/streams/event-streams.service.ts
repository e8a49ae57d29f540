import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Principal } from '../../access/principal';
import { NotificationBus } from '../../database/notification-bus';
import { TransactionRunner } from '../../database/transactions';
import { EventLogQuery, MAX_EVENT_PAGE } from '../../geofencing/events/event-log-query';
import { GeofenceEventLog } from '../../geofencing/events/event-log.service';
import { GeofenceEventLogRepository } from '../../geofencing/events/event-log.repository';
import { GEOFENCE_EVENTS_CHANNEL } from '../../geofencing/events/geofence-event';
import { GeofenceEventBody } from '../../geofencing/events/geofence-event';
import { eventStreamFilter } from './event-stream-filter';
import { FedStream, OrganizationFeed } from './organization-feed';
import { FrameQueue } from './frame-queue';
import { SseStream } from './sse-stream';
import { StreamsService } from './streams.service';

/** Events read from the log at once, by the live feed and by a replay page. */
const READ_BATCH = MAX_EVENT_PAGE;
/**
 * A safety net under the notifications: a notice lost after its commit (a publish that failed)
 * would otherwise hold an organization's events back until its next event.
 */
const SAFETY_WAKE_MS = 5000;

/** One stored event: its seq, its body as the log serves it (the stored JSON), and the body parsed for the filters. */
interface LoggedEvent {
  seq: number;
  json: string;
  event: GeofenceEventBody;
}

interface GeofencingEventsMessage {
  organization_id?: unknown;
  last_seq?: unknown;
}

/** One client's live event stream: its filters, how far the log has been looked at for it, and frames waiting for the client. */
class EventStream implements FedStream<LoggedEvent> {
  private readonly frames: FrameQueue;

  constructor(
    private readonly matches: (event: GeofenceEventBody) => boolean,
    private readonly sse: SseStream,
    /** Every event with a seq at or below this was sent or did not match. */
    public cursor: number,
  ) {
    this.frames = new FrameQueue(sse);
  }

  get open(): boolean {
    return this.sse.open;
  }

  get readFrom(): number {
    return this.cursor;
  }

  /** A read of the organization's log in seq order, up to `lastSeq`. */
  offer(events: readonly LoggedEvent[], lastSeq: number): void {
    for (const logged of events) {
      if (logged.seq > this.cursor && this.matches(logged.event)) this.frames.push({ id: String(logged.seq), event: logged.event.type, data: logged.json });
    }
    if (lastSeq > this.cursor) this.cursor = lastSeq;
    this.frames.flush();
  }
}

/**
 * `GET /geofencing/events/stream` (contract 7.4): the event log, live. The evaluator announces
 * each commit on `geofencing_events` (every instance hears it, LISTEN/NOTIFY on PostgreSQL);
 * each instance then reads the organization's log after its streams' cursors. The log is the
 * source of truth and `seq` its order: an organization's seq is taken under a row lock held to
 * commit, so once an event is visible every smaller seq of its organization is too, and reading
 * `seq > cursor` neither skips nor repeats an event, whichever instance committed it.
 */
@Injectable()
export class EventStreamsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('EventStreams');
  private readonly feeds = new Map<string, OrganizationFeed<LoggedEvent, EventStream>>();
  private unsubscribe: (() => void) | undefined;
  private safetyTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly streams: StreamsService,
    private readonly log: GeofenceEventLog,
    private readonly logRows: GeofenceEventLogRepository,
    private readonly notifications: NotificationBus,
    private readonly transactions: TransactionRunner,
  ) {}

  async onModuleInit(): Promise<void> {
    this.unsubscribe = await this.notifications.subscribe<GeofencingEventsMessage>(GEOFENCE_EVENTS_CHANNEL, (message) => {
      if (message && typeof message.organization_id === 'string') this.feeds.get(message.organization_id)?.wake();
    });
    this.safetyTimer = setInterval(() => {
      for (const feed of this.feeds.values()) feed.wake();
    }, SAFETY_WAKE_MS);
    this.safetyTimer.unref();
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    clearInterval(this.safetyTimer);
  }

  /**
   * Opens the stream (or throws 429). With `after`, the log's events after it that pass the
   * filters are replayed first, at the client's pace; then (or at once) the stream is live.
   */
  async open(principal: Principal, query: EventLogQuery, after: number | null, reply: FastifyReply, stillAuthorized: () => Promise<boolean>): Promise<void> {
    const sse = await this.streams.open('events', principal, reply, stillAuthorized);
    try {
      const cursor = after === null ? await this.committedSeq(principal.organizationId) : await this.replay(principal, query, after, sse);
      if (cursor === null || !sse.open) return;
      const stream = new EventStream(eventStreamFilter(query, principal), sse, cursor);
      const organization = principal.organizationId;
      let feed = this.feeds.get(organization);
      if (!feed) this.feeds.set(organization, (feed = this.feedOf(organization)));
      feed.streams.add(stream);
      sse.onClose(() => {
        feed.streams.delete(stream);
        if (feed.streams.size === 0 && this.feeds.get(organization) === feed) this.feeds.delete(organization);
      });
      // Whatever committed since the cursor was taken goes out now.
      feed.wake();
    } catch (error) {
      // The reply is already the stream's: a failed read ends it, and the client resumes with its Last-Event-ID.
      this.logger.warn(`An event stream could not start: ${error instanceof Error ? error.message : String(error)}`);
      sse.end('shutdown');
    }
  }

  private feedOf(organizationId: string): OrganizationFeed<LoggedEvent, EventStream> {
    return new OrganizationFeed(
      async (since) => {
        const items = await this.readAfter(organizationId, since, READ_BATCH);
        return { items, upTo: items.length > 0 ? items[items.length - 1].seq : since, more: items.length === READ_BATCH };
      },
      (error) => this.logger.warn(`Event streams could not read the log: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  /**
   * Sends the log's matching events after `after`, a page at a time, then returns the cursor the
   * live part starts from: the organization's committed seq read before the last page (every
   * event up to it was in that page's view), or further when the page saw later ones.
   * null when the client went away.
   */
  private async replay(principal: Principal, query: EventLogQuery, after: number, sse: SseStream): Promise<number | null> {
    const raw = rawQuery(query);
    let cursor = after;
    for (;;) {
      const committed = await this.committedSeq(principal.organizationId);
      const page = await this.transactions.read(() => this.log.list(principal, { ...raw, after: String(cursor), limit: String(READ_BATCH) }));
      for (const event of page.data) {
        if (!(await sse.writable())) return null;
        sse.send(String(event.seq), event.type, JSON.stringify(event));
        cursor = event.seq;
      }
      if (!page.has_more) return Math.max(cursor, committed);
    }
  }

  /** The organization's highest committed seq (0 before its first event). */
  private async committedSeq(organizationId: string): Promise<number> {
    return this.transactions.read((manager) => this.logRows.committedSeq(manager, organizationId));
  }

  private async readAfter(organizationId: string, after: number, limit: number): Promise<LoggedEvent[]> {
    const rows = await this.transactions.read((manager) => this.logRows.after(manager, organizationId, after, limit));
    return rows.map((row) => ({ seq: Number(row.seq), json: row.body, event: JSON.parse(row.body) as GeofenceEventBody }));
  }
}

/** The checked filters back in the log's query form, for replay pages through `GeofenceEventLog.list`. */
function rawQuery(query: EventLogQuery): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  if (query.types.length > 0) raw.types = query.types.join(',');
  if (query.geofenceIds.length > 0) raw.geofence_ids = query.geofenceIds.join(',');
  if (query.deviceIds.length > 0) raw.device_ids = query.deviceIds;
  if (query.userIds.length > 0) raw.user_ids = query.userIds.join(',');
  if (query.buildingIds.length > 0) raw.building_ids = query.buildingIds.join(',');
  if (query.from !== null) raw.from = new Date(query.from).toISOString();
  if (query.to !== null) raw.to = new Date(query.to).toISOString();
  return raw;
}
