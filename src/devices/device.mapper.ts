import { formatOptionalTimestamp, formatRealtimeTime, formatTimestamp } from '../common/time/timestamps';
import { Device } from './device.entity';
import { DeviceResponseDto, TagIdentityDto } from './devices.dto';

/** `tag`: the device's identity as stored (normalised by parseTagIdentity), or null. */
export function toDeviceResponse(device: Device, tag: unknown): DeviceResponseDto {
  const hasFix = device.lastTime !== null && device.lat !== null && device.lng !== null;
  return {
    id: device.id,
    code: device.code,
    name: device.name,
    organization_id: device.organizationId,
    user_id: device.userId,
    last_seen_at: formatOptionalTimestamp(device.lastTime),
    last_position: hasFix
      ? {
          time: formatRealtimeTime(device.lastTime!),
          building_id: device.buildingId,
          floor_id: device.floorId,
          lat: device.lat!,
          lng: device.lng!,
          x: device.x,
          y: device.y,
          accuracy: device.accuracy ?? 0,
          yaw: device.yaw,
        }
      : null,
    tag: (tag as TagIdentityDto | null | undefined) ?? null,
    created_at: formatTimestamp(device.createdAt),
    updated_at: formatTimestamp(device.updatedAt),
  };
}
