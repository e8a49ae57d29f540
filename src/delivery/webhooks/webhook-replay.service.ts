import { Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull, LessThan } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { Principal } from '../../access/principal';
import { ApiError, FieldError } from '../../common/errors/api-error';
import { TransactionRunner } from '../../database/transactions';
import { SQL_CHUNK } from '../../database/sql-dialect';
import { GeofenceEventLogRepository } from '../../geofencing/events/event-log.repository';
import { DeliveryWake } from './delivery-wake';
import { matchesEndpoint, newDelivery, OutgoingEvent, payloadOf } from './webhook-deliveries.service';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { ReplayResponseDto, ReplayWebhookDto } from './webhooks.dto';

/** A range replay covers at most this long a time, and at most this many events. */
export const MAX_REPLAY_RANGE_MS = 31 * 24 * 3600 * 1000;
export const MAX_REPLAY_EVENTS = 10_000;

interface StoredEvent {
  id: string;
  body: string;
}

/** Checks the body's form: a range or a list, one of them. `[]` errors means valid. */
export function replayRequestErrors(dto: ReplayWebhookDto): FieldError[] {
  const range = dto.from !== undefined || dto.to !== undefined;
  const list = dto.event_ids !== undefined;
  if (range && list) return [{ message: 'give either from and to, or event_ids', code: 'invalid', fields: 'from,to,event_ids' }];
  if (!range && !list) return [{ message: 'give from and to, or event_ids', code: 'required', fields: 'from,to,event_ids' }];
  if (list) return [];
  const errors: FieldError[] = [];
  if (dto.from === undefined) errors.push({ message: 'required with to', code: 'required', fields: 'from' });
  if (dto.to === undefined) errors.push({ message: 'required with from', code: 'required', fields: 'to' });
  if (errors.length > 0) return errors;
  const from = Date.parse(dto.from!);
  const to = Date.parse(dto.to!);
  if (from > to) errors.push({ message: 'must not be after to', code: 'invalid', fields: 'from' });
  else if (to - from > MAX_REPLAY_RANGE_MS) errors.push({ message: 'the range may span at most 31 days', code: 'invalid', fields: 'from,to' });
  return errors;
}

/**
 * `POST /webhooks/{id}/replay` (contract 7.5): sends events of the log to one webhook again,
 * with their own `webhook-id`, so a receiver that has them already drops them. An event that
 * has never had a delivery to this webhook gets a new one; one that has (succeeded, failed or
 * dead) has that delivery attempted again now, its attempts and log kept (one delivery per
 * event and webhook, as the outbox keeps it).
 */
@Injectable()
export class WebhookReplayService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly endpoints: WebhookEndpointsService,
    private readonly audit: AuditService,
    private readonly wake: DeliveryWake,
    private readonly log: GeofenceEventLogRepository,
  ) {}

  async replay(principal: Principal, endpointId: string, dto: ReplayWebhookDto): Promise<ReplayResponseDto> {
    if (principal.buildingIds !== null) throw ApiError.forbidden('Callers restricted to some buildings cannot manage the organization’s webhooks');
    const errors = replayRequestErrors(dto);
    if (errors.length > 0) throw ApiError.validation('The replay request is not valid', errors);
    const endpoint = await this.endpoints.findForCaller(principal, endpointId);
    const events = dto.event_ids
      ? await this.listed(principal, dto.event_ids)
      : (await this.inRange(principal, Date.parse(dto.from!), Date.parse(dto.to!))).filter((event) => matchesEndpoint(endpoint, event));
    const outcome = await this.transactions.run(async (manager) => {
      const result = await this.enqueue(manager, endpoint, events);
      await this.audit.record(manager, principal, 'webhook.replay', endpoint.id);
      if (result.enqueued > 0) this.wake.afterCommit(manager);
      return result;
    });
    return { webhook_id: endpoint.id, events: events.length, ...outcome };
  }

  /** The listed events of the caller's organization, in seq order; any other id is a 422 naming it. */
  private async listed(principal: Principal, ids: string[]): Promise<OutgoingEvent[]> {
    const unique = [...new Set(ids)];
    const rows: Array<StoredEvent & { seq: number | string }> = [];
    for (let start = 0; start < unique.length; start += SQL_CHUNK) rows.push(...(await this.log.byIds(principal.organizationId, unique.slice(start, start + SQL_CHUNK))));
    const found = new Set(rows.map((row) => row.id));
    const missing = ids.map((id, index) => ({ id, index })).filter(({ id }) => !found.has(id));
    if (missing.length > 0) {
      throw ApiError.validation(
        'Some events are not in the event log',
        missing.map(({ id, index }) => ({ message: 'no such event in the organization’s event log', code: 'not_found', fields: `event_ids[${index}]`, value: id })),
      );
    }
    return rows.sort((x, y) => Number(x.seq) - Number(y.seq)).map(toOutgoing);
  }

  /** The organization's events that occurred in [from, to], in seq order (422 beyond MAX_REPLAY_EVENTS). */
  private async inRange(principal: Principal, from: number, to: number): Promise<OutgoingEvent[]> {
    const rows: StoredEvent[] = await this.log.occurredIn(principal.organizationId, new Date(from), new Date(to), MAX_REPLAY_EVENTS + 1);
    if (rows.length > MAX_REPLAY_EVENTS) {
      throw ApiError.validation(`The range holds more than ${MAX_REPLAY_EVENTS} events: replay it in narrower ranges`, [
        { message: `at most ${MAX_REPLAY_EVENTS} events per replay`, code: 'invalid', fields: 'from,to' },
      ]);
    }
    return rows.map(toOutgoing);
  }

  /**
   * New deliveries for events without one to this endpoint; the others are due again now,
   * unless an attempt holds them right now (that attempt is the replay).
   */
  private async enqueue(manager: EntityManager, endpoint: WebhookEndpoint, events: OutgoingEvent[]): Promise<{ enqueued: number; in_flight: number }> {
    const now = new Date();
    let enqueued = 0;
    let inFlight = 0;
    for (let start = 0; start < events.length; start += SQL_CHUNK) {
      const chunk = events.slice(start, start + SQL_CHUNK);
      const existing = await manager.find(WebhookDelivery, {
        select: { id: true, messageId: true },
        where: { endpointId: endpoint.id, messageId: In(chunk.map((event) => event.id)) },
      });
      const known = new Set(existing.map((row) => row.messageId));
      const fresh = chunk.filter((event) => !known.has(event.id)).map((event) => newDelivery(endpoint.id, event, payloadOf(event), now, now));
      for (let i = 0; i < fresh.length; i += 200) await manager.insert(WebhookDelivery, fresh.slice(i, i + 200));
      enqueued += fresh.length;
      if (existing.length === 0) continue;
      const changes = { status: 'pending' as const, nextAttemptAt: now, updatedAt: now };
      const ids = existing.map((row) => row.id);
      // The lease condition is in the statement, so a claim racing with it wins cleanly.
      const unleased = await manager.update(WebhookDelivery, { id: In(ids), leaseExpiresAt: IsNull() }, changes);
      const lapsed = await manager.update(WebhookDelivery, { id: In(ids), leaseExpiresAt: LessThan(now) }, changes);
      const rearmed = (unleased.affected ?? 0) + (lapsed.affected ?? 0);
      enqueued += rearmed;
      inFlight += existing.length - rearmed;
    }
    return { enqueued, in_flight: inFlight };
  }
}

function toOutgoing(row: StoredEvent): OutgoingEvent {
  const event = JSON.parse(row.body) as { id: string; type: string; organization_id: string; occurred_at: string; building_id: string; geofence: { id: string } };
  return {
    id: event.id,
    type: event.type,
    organizationId: event.organization_id,
    occurredAt: new Date(event.occurred_at),
    buildingId: event.building_id,
    geofenceId: event.geofence.id,
    data: event as unknown as Record<string, unknown>,
  };
}
