import { formatGeofenceTimestamp } from '../common/time/timestamps';
import { Geofence } from './geofence.entity';
import { GeofenceResponseDto } from './geofences.dto';

export function toGeofenceResponse(geofence: Geofence): GeofenceResponseDto {
  return {
    id: geofence.id,
    created_at: formatGeofenceTimestamp(geofence.createdAt),
    updated_at: formatGeofenceTimestamp(geofence.updatedAt),
    custom_fields: geofence.customFields,
    code: geofence.code,
    name: geofence.name,
    organization_id: geofence.organizationId,
    info: geofence.info,
    description: geofence.info,
    type: geofence.type,
    geometric: geofence.geometric,
    floor_id: geofence.floorId,
    level_id: geofence.floorId,
    building_id: String(geofence.buildingId),
    deleted: geofence.deleted,
  };
}
