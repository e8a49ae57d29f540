import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from './metrics.registry';

/**
 * What an operator of a positioning server watches, beside the HTTP and database figures:
 * fixes taken and refused, geofence events, password logins and the build. Labels are
 * bounded sets (reasons, event types, outcomes), never a device, user or organization.
 * Counted once per batch with the batch's counts: the ingest path pays a few additions.
 */

export const positionFixesAccepted = new Counter({
  name: 'cartograph_position_fixes_accepted_total',
  help: 'Position fixes stored by this instance (reported positions and scans resolved to positions)',
  registers: [metricsRegistry],
});

export const positionFixesRejected = new Counter({
  name: 'cartograph_position_fixes_rejected_total',
  help: 'Position fixes refused item by item, by reason (required, invalid, not_found, duplicate, out_of_range, forbidden)',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

/** One batch's outcome: `rejected` lists each refused item's reason code. */
export function countPositionFixes(accepted: number, rejected: ReadonlyArray<{ code: string }>): void {
  if (accepted > 0) positionFixesAccepted.inc(accepted);
  if (rejected.length === 0) return;
  const byReason = new Map<string, number>();
  for (const item of rejected) byReason.set(item.code, (byReason.get(item.code) ?? 0) + 1);
  for (const [reason, count] of byReason) positionFixesRejected.inc({ reason }, count);
}

export const geofenceEvents = new Counter({
  name: 'cartograph_geofence_events_total',
  help: 'Geofence events recorded by this instance (committed), by type (geofence.enter, geofence.exit, geofence.dwell)',
  labelNames: ['type'] as const,
  registers: [metricsRegistry],
});

/** The events of one committed evaluation. */
export function countGeofenceEvents(events: ReadonlyArray<{ type: string }>): void {
  if (events.length === 0) return;
  if (events.length === 1) {
    geofenceEvents.inc({ type: events[0].type });
    return;
  }
  const byType = new Map<string, number>();
  for (const event of events) byType.set(event.type, (byType.get(event.type) ?? 0) + 1);
  for (const [type, count] of byType) geofenceEvents.inc({ type }, count);
}

export const passwordLogins = new Counter({
  name: 'cartograph_password_logins_total',
  help: 'Password logins (POST /auth/access_tokens with Basic), by outcome (succeeded, failed, throttled)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const loginsThrottled = new Counter({
  name: 'cartograph_login_throttled_total',
  help: 'Password logins refused with 429 before any hashing, by the limit reached (address, account_address, account_backoff)',
  labelNames: ['limit'] as const,
  registers: [metricsRegistry],
});

/** Always 1; its labels say what runs (a version change shows as a new series). */
export const buildInfo = new Gauge({
  name: 'cartograph_build_info',
  help: 'The running build: application version, API version and Node.js version (the value is always 1)',
  labelNames: ['version', 'api_version', 'node_version'] as const,
  registers: [metricsRegistry],
});

// The values known today start at 0, so that rates and alerts have a series before the first event.
for (const reason of ['required', 'invalid', 'not_found', 'duplicate', 'out_of_range', 'forbidden']) positionFixesRejected.inc({ reason }, 0);
for (const type of ['geofence.enter', 'geofence.exit', 'geofence.dwell']) geofenceEvents.inc({ type }, 0);
for (const outcome of ['succeeded', 'failed', 'throttled']) passwordLogins.inc({ outcome }, 0);
for (const limit of ['address', 'account_address', 'account_backoff']) loginsThrottled.inc({ limit }, 0);

export function reportBuildInfo(version: string, apiVersion: string): void {
  buildInfo.reset();
  buildInfo.set({ version, api_version: apiVersion, node_version: process.version }, 1);
}
