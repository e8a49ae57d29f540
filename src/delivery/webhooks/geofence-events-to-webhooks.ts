import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventConsumer, GeofenceEventPort } from '../../geofencing/events/event-port';
import { GeofenceEventBody } from '../../geofencing/events/geofence-event';
import { WebhookDeliveriesService } from './webhook-deliveries.service';

/**
 * Delivery's side of the engine's outbox: each recorded event becomes one delivery per matching
 * endpoint, in the recording transaction (the outbox wakes the workers once it commits).
 */
@Injectable()
export class GeofenceEventsToWebhooks implements EventConsumer, OnModuleInit {
  constructor(
    private readonly outbox: GeofenceEventPort,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  onModuleInit(): void {
    this.outbox.connect(this);
  }

  async enqueue(manager: EntityManager, organizationId: string, events: readonly GeofenceEventBody[]): Promise<void> {
    await this.deliveries.enqueue(
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
  }
}
