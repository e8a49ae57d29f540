import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { EntityManager, In, Repository } from 'typeorm';
import { Principal } from '../../access/principal';
import { ApiError } from '../../common/errors/api-error';
import { Page, pageWindow, toPage } from '../../common/pagination/pagination';
import { formatTimestamp } from '../../common/time/timestamps';
import { webhooksConfig, WebhooksConfig } from '../../config/webhooks.config';
import { TransactionRunner } from '../../database/transactions';
import { TEST_EVENT_TYPE } from './event-types';
import { WebhookDelivery, WebhookDeliveryAttempt } from './webhook-delivery.entity';
import { DeliveryHandoff } from './delivery-handoff';
import { LeasedDelivery } from './delivery-leases.repository';
import { DeliveryWake } from './delivery-wake';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { DeliveryResponseDto, ListDeliveriesQuery } from './webhooks.dto';

/** What the outbox needs of an event; `data` is the event object of contract 7.3. */
export interface OutgoingEvent {
  id: string;
  type: string;
  organizationId: string;
  occurredAt: Date;
  buildingId?: string | null;
  geofenceId?: string | null;
  data: Record<string, unknown>;
}

export function matchesEndpoint(endpoint: Pick<WebhookEndpoint, 'eventTypes' | 'filterBuildingIds' | 'filterGeofenceIds'>, event: OutgoingEvent): boolean {
  if (event.type === TEST_EVENT_TYPE) return true;
  if (!endpoint.eventTypes.includes(event.type)) return false;
  if (endpoint.filterBuildingIds.length > 0 && !(event.buildingId && endpoint.filterBuildingIds.includes(event.buildingId))) return false;
  if (endpoint.filterGeofenceIds.length > 0 && !(event.geofenceId && endpoint.filterGeofenceIds.includes(event.geofenceId))) return false;
  return true;
}

@Injectable()
export class WebhookDeliveriesService {
  constructor(
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    private readonly wake: DeliveryWake,
    private readonly handoff: DeliveryHandoff,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * The outbox: one delivery per (event, matching enabled endpoint), written with the caller's
   * manager so it commits or rolls back with the events themselves. One read of the
   * organizations' endpoints and one multi-row insert, however many events.
   *
   * The deliveries this instance's worker has room for are written leased to it and handed to
   * it when the transaction commits (see DeliveryHandoff). Returns how many wait for a claim:
   * when some do, the caller wakes the workers after the commit (DeliveryWake).
   */
  async enqueue(manager: EntityManager, events: readonly OutgoingEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const organizations = [...new Set(events.map((e) => e.organizationId))];
    const endpoints = await manager.find(WebhookEndpoint, { where: { organizationId: In(organizations), enabled: true } });
    if (endpoints.length === 0) return 0;
    const now = new Date();
    const firstAttemptAt = new Date(now.getTime() + this.config.retrySchedule[0]);
    const dueAtOnce = firstAttemptAt.getTime() <= now.getTime();
    const lease = dueAtOnce ? this.handoff.lease(now) : null;
    const rows: WebhookDelivery[] = [];
    const handedOff = new Map<WebhookEndpoint, LeasedDelivery[]>();
    const room = new Map<string, number>();
    for (const event of events) {
      const payload = payloadOf(event);
      for (const endpoint of endpoints) {
        if (endpoint.organizationId !== event.organizationId || !matchesEndpoint(endpoint, event)) continue;
        const row = newDelivery(endpoint.id, event, payload, now, firstAttemptAt);
        rows.push(row);
        if (!lease) continue;
        let left = room.get(endpoint.id);
        if (left === undefined) room.set(endpoint.id, (left = this.handoff.room(endpoint.id)));
        if (left <= 0) continue;
        room.set(endpoint.id, left - 1);
        row.leaseOwner = lease.owner;
        row.leaseExpiresAt = lease.expiresAt;
        let taken = handedOff.get(endpoint);
        if (!taken) handedOff.set(endpoint, (taken = []));
        taken.push({ id: row.id, endpointId: endpoint.id, messageId: row.messageId, payload, attempts: 0, leaseExpiresAt: lease.expiresAt });
      }
    }
    handedOff.forEach((deliveries, endpoint) => this.handoff.take(manager, endpoint, deliveries));
    for (let i = 0; i < rows.length; i += 200) await manager.insert(WebhookDelivery, rows.slice(i, i + 200));
    let taken = 0;
    handedOff.forEach((deliveries) => (taken += deliveries.length));
    return rows.length - taken;
  }

  /** `POST /webhooks/{id}/test`: a `webhook.test` event for this endpoint alone, delivered like any other. */
  async sendTest(principal: Principal, endpoint: WebhookEndpoint): Promise<DeliveryResponseDto> {
    const id = `msg_test_${randomUUID().replace(/-/g, '')}`;
    const occurredAt = new Date();
    const data = { id, type: TEST_EVENT_TYPE, occurred_at: occurredAt.toISOString(), organization_id: principal.organizationId, webhook_id: endpoint.id };
    const event: OutgoingEvent = { id, type: TEST_EVENT_TYPE, organizationId: principal.organizationId, occurredAt, data };
    const delivery = await this.transactions.run(async (manager) => {
      const now = new Date();
      const row = newDelivery(endpoint.id, event, payloadOf(event), now, now);
      await manager.insert(WebhookDelivery, row);
      this.wake.afterCommit(manager);
      return row;
    });
    return toDeliveryResponse(delivery, []);
  }

  async list(principal: Principal, endpointId: string, query: ListDeliveriesQuery): Promise<Page<DeliveryResponseDto>> {
    const window = pageWindow(query);
    const [rows, total] = await this.deliveries.findAndCount({
      where: { organizationId: principal.organizationId, endpointId, ...(query.status && { status: query.status }) },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: window.offset,
      take: window.size,
    });
    const attempts = rows.length ? await this.deliveries.manager.find(WebhookDeliveryAttempt, { where: { deliveryId: In(rows.map((r) => r.id)) }, order: { attempt: 'ASC' } }) : [];
    const byDelivery = new Map<string, WebhookDeliveryAttempt[]>();
    for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
    return toPage(
      rows.map((r) => toDeliveryResponse(r, byDelivery.get(r.id) ?? [])),
      total,
      window,
    );
  }

  /** One more attempt now; a delivery being attempted right now is left alone (409). */
  async retry(principal: Principal, endpointId: string, deliveryId: string): Promise<DeliveryResponseDto> {
    const delivery = await this.transactions.run(async (manager) => {
      const row = await manager.findOne(WebhookDelivery, { where: { id: deliveryId, endpointId, organizationId: principal.organizationId } });
      if (!row) throw ApiError.notFound('Delivery', deliveryId);
      const now = new Date();
      if (row.leaseExpiresAt && row.leaseExpiresAt.getTime() > now.getTime()) throw ApiError.conflict('The delivery is being attempted right now');
      const changes = { status: 'pending' as const, nextAttemptAt: now, updatedAt: now };
      await manager.update(WebhookDelivery, { id: row.id }, changes);
      this.wake.afterCommit(manager);
      return { ...row, ...changes };
    });
    return toDeliveryResponse(delivery, []);
  }
}

/** The body every attempt sends (contract 7.5), fixed when the delivery is enqueued. */
export function payloadOf(event: OutgoingEvent): string {
  return JSON.stringify({ type: event.type, timestamp: event.occurredAt.toISOString(), data: event.data });
}

export function newDelivery(endpointId: string, event: OutgoingEvent, payload: string, now: Date, firstAttemptAt: Date): WebhookDelivery {
  return {
    id: randomUUID(),
    organizationId: event.organizationId,
    endpointId,
    messageId: event.id,
    eventType: event.type,
    eventTime: event.occurredAt,
    payload,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: firstAttemptAt,
    leaseOwner: null,
    leaseExpiresAt: null,
    lastStatusCode: null,
    lastError: null,
    lastAttemptAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

export function toDeliveryResponse(d: WebhookDelivery, attempts: WebhookDeliveryAttempt[]): DeliveryResponseDto {
  return {
    id: d.id,
    webhook_id: d.endpointId,
    message_id: d.messageId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt ? formatTimestamp(d.nextAttemptAt) : null,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    last_attempt_at: d.lastAttemptAt ? formatTimestamp(d.lastAttemptAt) : null,
    created_at: formatTimestamp(d.createdAt),
    attempt_log: attempts.map((a) => ({
      attempt: a.attempt,
      started_at: formatTimestamp(a.startedAt),
      duration_ms: a.durationMs,
      status_code: a.statusCode,
      error: a.error,
    })),
  };
}
