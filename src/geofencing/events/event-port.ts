import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { GeofenceEventBody } from './geofence-event';

/** Whoever takes recorded events further (webhook delivery): it writes what it needs in the recording transaction. */
export interface EventConsumer {
  /** Writes what the events need (deliveries); true when some wait for a worker to be woken. */
  enqueue(manager: EntityManager, organizationId: string, events: readonly GeofenceEventBody[]): Promise<boolean>;
  /** Once `manager`'s transaction commits, wakes what sends them (every instance's worker). */
  wakeAfterCommit(manager: EntityManager): void;
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

  /** True when the consumer has work waiting to be woken (see wakeAfterCommit). */
  async enqueue(manager: EntityManager, organizationId: string, events: readonly GeofenceEventBody[]): Promise<boolean> {
    return this.consumer !== null && events.length > 0 && (await this.consumer.enqueue(manager, organizationId, events));
  }

  wakeAfterCommit(manager: EntityManager): void {
    this.consumer?.wakeAfterCommit(manager);
  }
}
