import { buildingCorners } from '../../common/geometry/cartesian';
import { formatTimestamp } from '../../common/time/timestamps';
import { Building } from './building.entity';
import { BuildingResponseDto } from './buildings.dto';

export function toBuildingResponse(building: Building): BuildingResponseDto {
  return {
    id: building.id,
    name: building.name,
    description: building.description,
    info: building.info,
    location: { lat: building.latitude, lng: building.longitude },
    dimensions: { width: building.width, length: building.length },
    rotation: building.rotation,
    corners: buildingCorners(building),
    custom_fields: building.customFields,
    user_uuid: building.createdBy,
    created_at: formatTimestamp(building.createdAt),
    updated_at: formatTimestamp(building.updatedAt),
  };
}
