import { Principal } from '../../access/principal';
import { EventLogQuery } from '../../geofencing/events/event-log-query';
import { GeofenceEventBody } from '../../geofencing/events/geofence-event';

/**
 * The event log's filters (contract 7.3) as a test on one event, for the live part of
 * `GET /geofencing/events/stream`: one read of the organization's new events serves all its
 * streams, each keeping what its filters and the caller's buildings allow. It must agree with
 * the SQL of `GeofenceEventLog.list`, which serves the replay.
 */
export function eventStreamFilter(query: EventLogQuery, principal: Pick<Principal, 'buildingIds'>): (event: GeofenceEventBody) => boolean {
  const types = query.types.length > 0 ? new Set<string>(query.types) : null;
  const geofences = query.geofenceIds.length > 0 ? new Set(query.geofenceIds) : null;
  const devices = query.deviceIds.length > 0 ? new Set(query.deviceIds) : null;
  const users = query.userIds.length > 0 ? new Set(query.userIds) : null;
  let buildings = query.buildingIds.length > 0 ? new Set(query.buildingIds) : null;
  // A user restricted to some buildings sees only their events, whatever it asks for.
  if (principal.buildingIds !== null) {
    const visible = principal.buildingIds;
    buildings = new Set(buildings === null ? visible : visible.filter((id) => buildings!.has(id)));
  }
  const { from, to } = query;
  return (event) => {
    if (types && !types.has(event.type)) return false;
    if (geofences && !geofences.has(event.geofence.id.toLowerCase())) return false;
    if (devices && !devices.has(event.device_id)) return false;
    if (users && (event.user_id === null || !users.has(event.user_id.toLowerCase()))) return false;
    if (buildings && !buildings.has(Number(event.building_id))) return false;
    if (from !== null || to !== null) {
      const occurred = Date.parse(event.occurred_at);
      if (from !== null && occurred < from) return false;
      if (to !== null && occurred > to) return false;
    }
    return true;
  };
}
