import { EntityManager, In } from 'typeorm';
import { PoiCategory } from '../poi-categories/poi-category.entity';
import { Poi } from './poi.entity';
import { toPoiResponse } from './poi.mapper';
import { PoiResponseDto } from './pois.dto';

/** Renders POIs with their category names: one query for the names, whatever the number of POIs. */
export async function renderPois(manager: EntityManager, pois: Poi[]): Promise<PoiResponseDto[]> {
  const ids = [...new Set(pois.map((poi) => poi.categoryId).filter((id): id is number => id !== null))];
  const categories = ids.length === 0 ? [] : await manager.find(PoiCategory, { where: { id: In(ids) }, select: { id: true, nameEn: true } });
  const names = new Map(categories.map((category) => [category.id, category.nameEn]));
  return pois.map((poi) => toPoiResponse(poi, names));
}
