import { Env, readBoolean, readInteger } from './env';

/** The geofence deadline timer (contract 7.2: dwell, exit grace and stale timeouts fire without a fix). */
export interface GeofencingConfig {
  /** Whether this instance runs the timer (every instance can; a database lock lets one sweep at a time). */
  sweeperEnabled: boolean;
  /** How often the timer looks for due deadlines: how late at most a deadline's event is detected. */
  sweepIntervalMs: number;
  /** Days of geofence events kept in the log (contract 7.3: a cursor older than that is 410 cursor_expired). */
  eventRetentionDays: number;
}

export function readGeofencingConfig(env: Env): GeofencingConfig {
  return {
    sweeperEnabled: readBoolean(env, 'GEOFENCE_SWEEPER', true),
    sweepIntervalMs: readInteger(env, 'GEOFENCE_SWEEP_INTERVAL_MS', 1000, { min: 10, max: 60_000 }),
    eventRetentionDays: readInteger(env, 'GEOFENCE_EVENT_RETENTION_DAYS', 90, { min: 1, max: 3650 }),
  };
}
