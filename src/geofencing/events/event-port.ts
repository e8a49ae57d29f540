import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { GeofenceEventBody } from './geofence-event';

/** Whoever takes recorded events further (webhook delivery): it writes what it needs in the recording transaction. */
export interface EventConsumer {
  enqueue(manager: EntityManager, organizationId: string, events: readonly GeofenceEventBody[]): Promise<void>;
}

/**
 * The port recorded events leave geofencing by: each is handed, in its transaction, to the consumer that
 * connected (delivery connects at start), so the engine knows nothing of what consumes it.
 */
@Injectable()
export class GeofenceEventPort {
  private consumer: EventConsumer | null = null;

  connect(consumer: EventConsumer): void {
    this.consumer = consumer;
  }

  async enqueue(manager: EntityManager, organizationId: string, events: readonly GeofenceEventBody[]): Promise<void> {
    if (this.consumer && events.length > 0) await this.consumer.enqueue(manager, organizationId, events);
  }
}
