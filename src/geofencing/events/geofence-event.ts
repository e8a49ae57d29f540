import { randomBytes } from 'node:crypto';
import { EventFence } from '../engine/batch';
import { Classification } from '../engine/classify';
import { EventReason, EventType, VisitEvent } from '../engine/visit-state';

/** Contract 7.3: one event as the ingest answer, the log and the webhooks show it. */
export interface GeofenceEventBody {
  id: string;
  seq: number;
  type: EventType;
  occurred_at: string;
  detected_at: string;
  organization_id: string;
  building_id: string;
  floor_id: number;
  geofence: { id: string; name: string; code: string };
  device_id: string;
  user_id: string | null;
  visit_id: string;
  position: { lat: number; lng: number; accuracy: number | null; time: string; poi_id: string | null } | null;
  classification: Classification | null;
  overlap: number | null;
  dwell_seconds: number;
  reason: EventReason;
}

/** The channel told, after commit, that an organization's event log grew (streams listen to it). */
export const GEOFENCE_EVENTS_CHANNEL = 'geofencing_events';

/** Sortable-enough random ids with the contract's prefixes (`evt_…`, `vis_…`). */
export const newEventId = (): string => `evt_${randomBytes(12).toString('hex')}`;
export const newVisitId = (): string => `vis_${randomBytes(12).toString('hex')}`;

/** The wire body of an engine event; `seq` and `id` are given by the writer. */
export function eventBody(
  event: VisitEvent,
  context: { id: string; seq: number; detectedAt: number; organizationId: string; fence: EventFence; deviceId: string; userId: string | null },
): GeofenceEventBody {
  const position = event.position;
  return {
    id: context.id,
    seq: context.seq,
    type: event.type,
    occurred_at: new Date(event.occurredAt).toISOString(),
    detected_at: new Date(context.detectedAt).toISOString(),
    organization_id: context.organizationId,
    building_id: String(context.fence.buildingId),
    floor_id: context.fence.floorId,
    geofence: { id: context.fence.id, name: context.fence.name, code: context.fence.code },
    device_id: context.deviceId,
    user_id: context.userId,
    visit_id: event.visitId,
    position: position && { lat: position.lat, lng: position.lng, accuracy: position.accuracy, time: new Date(position.time).toISOString(), poi_id: position.poi_id ?? null },
    classification: event.classification,
    overlap: event.overlap === null ? null : Math.round(event.overlap * 10_000) / 10_000,
    dwell_seconds: event.dwellSeconds,
    reason: event.reason,
  };
}
