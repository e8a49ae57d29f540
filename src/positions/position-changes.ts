/**
 * The wake-up for live position streams: after each ingest commit, on every instance. The
 * database stays the source of truth; the message only says whose positions moved.
 */
export const POSITION_CHANGES_CHANNEL = 'position_changes';

export interface PositionChangesMessage {
  organization: string;
}
