import { formatOptionalTimestamp, formatRealtimeTime, formatTimestamp } from '../common/time/timestamps';
import { Device } from './device.entity';
import { DeviceResponseDto } from './devices.dto';

export function toDeviceResponse(device: Device): DeviceResponseDto {
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
    created_at: formatTimestamp(device.createdAt),
    updated_at: formatTimestamp(device.updatedAt),
  };
}
