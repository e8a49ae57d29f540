import { formatTimestamp } from '../../common/time/timestamps';
import { Poi } from './poi.entity';
import { PoiResponseDto } from './pois.dto';

/** `categoryNames` maps category ids to their English names, loaded once for a whole list. */
export function toPoiResponse(poi: Poi, categoryNames: ReadonlyMap<number, string>): PoiResponseDto {
  return {
    id: poi.id,
    building_id: poi.buildingId,
    name: poi.name,
    info: poi.info,
    info_unsafe: poi.infoUnsafe,
    category_id: poi.categoryId,
    category_name: poi.categoryId === null ? '' : (categoryNames.get(poi.categoryId) ?? ''),
    custom_fields: poi.customFields,
    type: poi.floorId === null ? 'outdoor' : 'indoor',
    created_at: formatTimestamp(poi.createdAt),
    updated_at: formatTimestamp(poi.updatedAt),
    position: {
      floor_id: poi.floorId,
      lat: poi.latitude,
      lng: poi.longitude,
      x: poi.x,
      y: poi.y,
      georeferences: { lat: poi.latitude, lng: poi.longitude },
      cartesians: { x: poi.x, y: poi.y },
      radius: poi.radius,
    },
  };
}
