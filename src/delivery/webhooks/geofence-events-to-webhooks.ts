import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventConsumer, GeofenceEventPort } from '../../geofencing/events/event-port';
import { GeofenceEventBody } from '../../geofencing/events/geofence-event';
import { DeliveryWake } from './delivery-wake';
import { WebhookDeliveriesService } from './webhook-deliveries.service';

/**
 * Delivery's side of the engine's outbox: each recorded event becomes one delivery per matching
 * endpoint, in the recording transaction; the recorder's after-commit step wakes the workers
 * (through this consumer) when some wait for a claim.
 */
@Injectable()
export class GeofenceEventsToWebhooks implements EventConsumer, OnModuleInit {
  constructor(
    private readonly outbox: GeofenceEventPort,
    private readonly deliveries: WebhookDeliveriesService,
    private readonly wake: DeliveryWake,
  ) {}

  onModuleInit(): void {
    this.outbox.connect(this);
  }

  async enqueue(manager: EntityManager, organizationId: string, events: readonly GeofenceEventBody[]): Promise<boolean> {
    const waiting = await this.deliveries.enqueue(
      manager,
      events.map((event) => ({
        id: event.id,
        type: event.type,
        organizationId,
        occurredAt: new Date(event.occurred_at),
        buildingId: event.building_id,
        geofenceId: event.geofence.id,
        data: event as unknown as Record<string, unknown>,
      })),
    );
    return waiting > 0;
  }

  wakeAfterCommit(manager: EntityManager): void {
    this.wake.afterCommit(manager);
  }
}
