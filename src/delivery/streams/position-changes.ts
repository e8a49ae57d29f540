import { Notifications } from '../../database/notifications';

/**
 * The wake-up for live position streams: after each ingest commit, on every instance.
 * The database stays the source of truth; the message only says whose positions moved.
 */
export const POSITION_CHANGES_CHANNEL = 'position_changes';

export interface PositionChangesMessage {
  organization: string;
}

/** Fire and forget: the ingest's answer does not wait for the NOTIFY. */
export function announcePositionChanges(notifications: Notifications, organizationId: string, onError: (error: unknown) => void): void {
  notifications.publish(POSITION_CHANGES_CHANNEL, { organization: organizationId } satisfies PositionChangesMessage).catch(onError);
}
