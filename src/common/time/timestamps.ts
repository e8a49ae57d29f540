/**
 * The three timestamp formats of the wire contract, always UTC with exactly three
 * fractional digits.
 */

/** `2020-05-08T10:26:34.801+00:00`: every resource except geofences and realtime. */
export function formatTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, -1)}+00:00`;
}

/** `2020-05-08T10:26:34.801Z[UTC]`: geofences. */
export function formatGeofenceTimestamp(date: Date): string {
  return `${date.toISOString()}[UTC]`;
}

/** `2020-05-08T10:26:34.801Z`: realtime `time`. */
export function formatRealtimeTime(date: Date): string {
  return date.toISOString();
}

export function formatOptionalTimestamp(date: Date | null | undefined): string | null {
  return date ? formatTimestamp(date) : null;
}
