import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { countGeofenceEvents } from '../../common/metrics/operations.metrics';
import { NotificationBus } from '../../database/notification-bus';
import { TransactionRunner } from '../../database/transactions';
import { PendingEvent } from '../engine/batch';
import { GeofenceStateRepository, VisitChange } from '../state/geofence-state.repository';
import { GeofenceEventPort } from './event-port';
import { eventBody, GEOFENCE_EVENTS_CHANNEL, GeofenceEventBody, newEventId } from './geofence-event';

/** What a transaction recorded, for its after-commit step (`announce`). */
export interface RecordedEvents {
  organizationId: string;
  events: GeofenceEventBody[];
  /** Deliveries of them wait for a worker to claim them. */
  deliveriesWaiting: boolean;
}

/**
 * Records what the engine decided, in the deciding transaction: the events numbered from the
 * organization's counter, the visits they open, mark and close, and the outbox (`write`); then,
 * once committed, the event channel's notice, the metrics and delivery's wake (`announce`).
 * Ingest, the timer and fence writes all end here: the fix pipeline calls the two steps itself,
 * its after-commit step announcing positions and events together; the others call `record`.
 */
@Injectable()
export class GeofenceEventRecorder {
  constructor(
    private readonly state: GeofenceStateRepository,
    private readonly outbox: GeofenceEventPort,
    private readonly notifications: NotificationBus,
    private readonly transactions: TransactionRunner,
  ) {}

  async record(manager: EntityManager, organizationId: string, pending: readonly PendingEvent[], detectedAt: number): Promise<GeofenceEventBody[]> {
    const recorded = await this.write(manager, organizationId, pending, detectedAt);
    this.announce(manager, recorded);
    return recorded.events;
  }

  /** The events, their visits and their outbox rows, in `manager`'s transaction. */
  async write(manager: EntityManager, organizationId: string, pending: readonly PendingEvent[], detectedAt: number): Promise<RecordedEvents> {
    if (pending.length === 0) return { organizationId, events: [], deliveriesWaiting: false };
    const firstSeq = await this.state.takeSeq(manager, organizationId, pending.length);
    const events = pending.map((item, offset) =>
      eventBody(item.event, { id: newEventId(), seq: firstSeq + offset, detectedAt, organizationId, fence: item.fence, deviceId: item.deviceId, userId: item.userId }),
    );
    await this.state.insertEvents(manager, organizationId, events);
    await this.state.writeVisits(manager, organizationId, visitChanges(pending));
    const deliveriesWaiting = await this.outbox.enqueue(manager, organizationId, events);
    return { organizationId, events, deliveriesWaiting };
  }

  /** Once `manager`'s transaction commits: the metrics, the event channel's notice (every instance's streams), delivery woken. */
  announce(manager: EntityManager, { organizationId, events, deliveriesWaiting }: RecordedEvents): void {
    if (events.length === 0) return;
    this.transactions.afterCommit(manager, () => countGeofenceEvents(events));
    this.notifications.publishAfterCommit(manager, GEOFENCE_EVENTS_CHANNEL, { organization_id: organizationId, last_seq: events[events.length - 1].seq });
    if (deliveriesWaiting) this.outbox.wakeAfterCommit(manager);
  }
}

/** Each visit's change over a batch's events: opened by its enter, marked by its dwell, closed by its exit. */
function visitChanges(pending: readonly PendingEvent[]): VisitChange[] {
  const changes = new Map<string, VisitChange>();
  for (const { event, fence, deviceId, userId } of pending) {
    let change = changes.get(event.visitId);
    if (!change) changes.set(event.visitId, (change = { visitId: event.visitId }));
    if (event.type === 'geofence.enter') change.opened = { fenceId: fence.id, deviceId, userId, enteredAt: event.occurredAt };
    if (event.type === 'geofence.dwell') change.dwell = true;
    if (event.type === 'geofence.exit') {
      change.exitedAt = event.occurredAt;
      change.reason = event.reason;
    }
  }
  return [...changes.values()];
}
