import { expect } from 'vitest';
import { createGeofence, createSite, GeofenceBody, Site, square } from './cartography';
import { report } from './positions';
import { TestApp } from './test-app';

/** Contract 7.3's event, as the log, the streams and the webhooks show it. */
export interface GeofenceEvent {
  id: string;
  seq: number;
  type: string;
  occurred_at: string;
  organization_id: string;
  building_id: string;
  floor_id: number;
  geofence: { id: string; name: string; code: string };
  device_id: string;
  user_id: string | null;
  visit_id: string;
  reason: string;
}

/** Inside and well outside the fences `eventSite` draws (a 0.0001° square at the default corner). */
export const INSIDE = { lat: 42.8723597 + 0.00005, lng: -8.5633224 + 0.00005 };
export const OUTSIDE = { lat: 42.8723597 + 0.001, lng: -8.5633224 + 0.00005 };

/** Rules that fire at once: an enter on the first fix in, an exit on the first fix out, no dwell. */
export const INSTANT_RULES = { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0 };

export interface EventSite extends Site {
  fence: GeofenceBody;
}

/** A building, a floor and one fence on it that fires at once. */
export async function eventSite(t: TestApp, auth: Record<string, string>, name = 'Gate'): Promise<EventSite> {
  const site = await createSite(t, auth);
  const fence = await createGeofence(t, auth, site.place, { name, code: name.toLowerCase(), geometric: square() });
  const response = await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(auth).send(INSTANT_RULES);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { ...site, fence };
}

/**
 * Fixes one second apart, each device's later than all it sent before (the engine ignores a
 * device's fixes older than its last): an hour in the past, moving forward on every call.
 */
let clock = Date.now() - 3_600_000;

/** One visit (an enter then an exit) of each device, in one ingest; its answer's events. */
export async function visits(t: TestApp, auth: Record<string, string>, site: Site, deviceIds: string[]): Promise<GeofenceEvent[]> {
  const positions = deviceIds.flatMap((deviceId) => {
    clock += 2000;
    return [INSIDE, OUTSIDE].map((point, step) => ({ device_id: deviceId, time: new Date(clock + step * 1000).toISOString(), ...point, accuracy: 2, floor_id: site.floor.id }));
  });
  const answer = await report(t, auth, { positions });
  return answer.events as GeofenceEvent[];
}
