import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** A fence was created, its geometry or floor changed, or it was deleted: what the devices around it must hear (contract 7.2). */
export interface GeofenceChange {
  organizationId: string;
  geofenceId: string;
  reason: 'fence_created' | 'fence_changed' | 'fence_deleted';
  /** When the write happened (ms since the epoch): the time of the exits. */
  at: number;
}

export type GeofenceChangeHandler = (manager: EntityManager, change: GeofenceChange) => Promise<unknown>;

/**
 * Lets the geofence engine act on fence writes inside their transaction without this
 * module depending on it (the engine depends on geofences, not the other way round).
 */
@Injectable()
export class GeofenceChangeHooks {
  private readonly before: GeofenceChangeHandler[] = [];
  private readonly handlers: GeofenceChangeHandler[] = [];

  /** Runs before a fence's geometry or floor changes or it is deleted, while the old one is still what every read sees. */
  registerBefore(handler: GeofenceChangeHandler): void {
    this.before.push(handler);
  }

  register(handler: GeofenceChangeHandler): void {
    this.handlers.push(handler);
  }

  async runBefore(manager: EntityManager, change: GeofenceChange): Promise<void> {
    for (const handler of this.before) await handler(manager, change);
  }

  async run(manager: EntityManager, change: GeofenceChange): Promise<void> {
    for (const handler of this.handlers) await handler(manager, change);
  }
}
