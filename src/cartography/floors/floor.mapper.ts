import { formatTimestamp } from '../../common/time/timestamps';
import { optionalImageUrl } from '../../images/image.mapper';
import { Floor } from './floor.entity';
import { FloorResponseDto } from './floors.dto';

export function toFloorResponse(floor: Floor): FloorResponseDto {
  return {
    id: floor.id,
    building_id: floor.buildingId,
    level: floor.level,
    level_height: floor.levelHeight,
    name: floor.name,
    custom_fields: floor.customFields,
    maps: {
      scale: floor.scale,
      map_id: floor.mapId,
      map_url: optionalImageUrl(floor.mapId),
    },
    created_at: formatTimestamp(floor.createdAt),
    updated_at: formatTimestamp(floor.updatedAt),
  };
}
