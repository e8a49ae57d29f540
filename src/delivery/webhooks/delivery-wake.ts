import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { NotificationBus } from '../../database/notification-bus';

/** Told, after an enqueue commits on any instance, that deliveries are due: every instance's worker looks at once. */
export const WEBHOOK_DELIVERIES_CHANNEL = 'webhook_deliveries';

/**
 * The one route by which delivery is woken: deliveries written in `manager`'s transaction wait
 * for a claim, so once it commits every instance's worker (this one's too) looks now rather than
 * at its next poll. Notices of a burst of commits are coalesced (a few, not one each).
 */
@Injectable()
export class DeliveryWake {
  constructor(private readonly notifications: NotificationBus) {}

  afterCommit(manager: EntityManager): void {
    this.notifications.publishAfterCommit(manager, WEBHOOK_DELIVERIES_CHANNEL, {}, { coalesce: true });
  }
}
