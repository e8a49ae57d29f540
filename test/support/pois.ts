import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { PathGraph } from '../../src/cartography/paths/path-graph.entity';
import { PoiCategory } from '../../src/cartography/poi-categories/poi-category.entity';
import { Poi } from '../../src/cartography/pois/poi.entity';
import { BUILDING_KEYS, BuildingBody, expectStatus } from './cartography';
import { TestApp } from './test-app';

/** The keys of a POI object (issue: POIs). */
export const POI_KEYS = ['building_id', 'category_id', 'category_name', 'created_at', 'custom_fields', 'id', 'info', 'info_unsafe', 'name', 'position', 'type', 'updated_at'];
export const POI_POSITION_KEYS = ['cartesians', 'floor_id', 'georeferences', 'lat', 'lng', 'radius', 'x', 'y'];
/** The full building document of GET /api/v1/buildings/{id}. */
export const BUILDING_DOCUMENT_KEYS = [...BUILDING_KEYS, 'events', 'floors', 'geofences', 'indoor_pois', 'outdoor_pois', 'paths'].sort();
export const PATHS_KEYS = ['building_id', 'links', 'nodes', 'settings'];
export const DEFAULT_ROUTE_SETTINGS = {
  snap_distance_m: 10,
  stairs_speed_factor: 0.5,
  stairs_s_per_floor: 15,
  elevator_wait_s: 30,
  elevator_s_per_floor: 5,
  escalator_s_per_floor: 20,
  ramp_speed_factor: 0.8,
  off_route_distance_m: 5,
  off_route_fixes: 3,
};
export const PATH_NODE_KEYS = ['floor_id', 'id', 'lat', 'lng', 'x', 'y'];
export const PATH_LINK_KEYS = ['accessible', 'connector', 'origin', 'source', 'tags', 'target'];

export interface PoiPositionBody {
  floor_id: number | null;
  lat: number;
  lng: number;
  x: number;
  y: number;
  georeferences: { lat: number; lng: number };
  cartesians: { x: number; y: number };
  radius: number | null;
}

export interface PoiBody {
  id: number;
  building_id: number;
  name: string;
  info: string;
  info_unsafe: string;
  category_id: number | null;
  category_name: string;
  custom_fields: Array<{ key: string; value: string }>;
  type: 'indoor' | 'outdoor';
  created_at: string;
  updated_at: string;
  position: PoiPositionBody;
}

export interface PathNodeBody {
  id: number;
  floor_id: number;
  x: number;
  y: number;
  lat: number;
  lng: number;
}

export interface PathLinkBody {
  source: number;
  target: number;
  origin: 'both' | 'source' | 'target';
  tags: string[];
  accessible: boolean;
  connector: 'stairs' | 'elevator' | 'escalator' | 'ramp' | null;
}

export interface PathsBody {
  building_id: number;
  nodes: PathNodeBody[];
  links: PathLinkBody[];
  settings: typeof DEFAULT_ROUTE_SETTINGS;
}

export interface CategoryBody {
  id: number;
  name_en: string;
  name_es: string;
  code: string;
}

export async function createCategory(t: TestApp, auth: Record<string, string>, nameEn = 'Toilets', overrides: Record<string, unknown> = {}): Promise<CategoryBody> {
  const response = await t.http
    .post('/api/v1/poi_categories')
    .set(auth)
    .send({ name_en: nameEn, code: `c-${randomUUID().slice(0, 8)}`, ...overrides });
  expectStatus(response, 201);
  return response.body as CategoryBody;
}

/** A POI body at (lat, lng) on `floorId` (null: outdoor). */
export function poiInput(buildingId: number, floorId: number | null, overrides: Record<string, unknown> = {}, at?: { lat: number; lng: number }): Record<string, unknown> {
  return {
    building_id: buildingId,
    name: 'Reception',
    info: '<p>Ask here</p>',
    custom_fields: [{ key: 'desk', value: '1' }],
    position: { floor_id: floorId, georeferences: at ?? { lat: 42.8723597, lng: -8.5633224 } },
    ...overrides,
  };
}

export async function createPoi(t: TestApp, auth: Record<string, string>, body: Record<string, unknown>): Promise<PoiBody> {
  const response = await t.http.post('/api/v1/pois').set(auth).send(body);
  expectStatus(response, 201);
  return response.body as PoiBody;
}

export async function putPaths(t: TestApp, auth: Record<string, string>, buildingId: number, body: Record<string, unknown>): Promise<PathsBody> {
  const response = await t.http.put(`/api/v1/buildings/${buildingId}/paths`).set(auth).send(body);
  expectStatus(response, 200);
  return response.body as PathsBody;
}

export const poiRow = (t: TestApp, id: number) => t.dataSource.getRepository(Poi).findOneBy({ id });
export const poiRowsOf = (t: TestApp, buildingId: number) => t.dataSource.getRepository(Poi).find({ where: { buildingId }, order: { id: 'ASC' } });
export const poiCount = (t: TestApp, organizationId?: string) => t.dataSource.getRepository(Poi).countBy(organizationId === undefined ? {} : { organizationId });
export const pathGraphRow = (t: TestApp, buildingId: number) => t.dataSource.getRepository(PathGraph).findOneBy({ buildingId });
export const pathGraphCount = (t: TestApp) => t.dataSource.getRepository(PathGraph).count();
export const categoryRow = (t: TestApp, id: number) => t.dataSource.getRepository(PoiCategory).findOneBy({ id });

/** Everything stored about a building's POIs and paths. */
export async function poiAndPathState(t: TestApp, buildingId: number) {
  return { pois: await poiRowsOf(t, buildingId), paths: await pathGraphRow(t, buildingId) };
}

const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle distance in metres (haversine), independent of the server's projection. */
export function metresBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(h));
}

/** The floor-plan centre of a building: (width / 2, length / 2). */
export const centreOf = (building: Pick<BuildingBody, 'dimensions'>) => ({ x: building.dimensions.width / 2, y: building.dimensions.length / 2 });

/** Asserts that a position's flat and nested coordinates agree. */
export function expectConsistentPosition(position: PoiPositionBody): void {
  expect(keysOfPosition(position)).toEqual(POI_POSITION_KEYS);
  expect(position.georeferences).toEqual({ lat: position.lat, lng: position.lng });
  expect(position.cartesians).toEqual({ x: position.x, y: position.y });
}

const keysOfPosition = (position: object) => Object.keys(position).sort();

/**
 * Stores POIs straight through the repository in batches (fixtures for query counting):
 * `count` POIs spread over `floorIds` (null: outdoor), cycling through `categoryIds`.
 */
export async function insertPois(
  t: TestApp,
  organizationId: string,
  buildingId: number,
  floorIds: Array<number | null>,
  count: number,
  categoryIds: Array<number | null> = [null],
): Promise<void> {
  const base = Date.now();
  const rows: Partial<Poi>[] = Array.from({ length: count }, (_, index) => ({
    organizationId,
    buildingId,
    floorId: floorIds[index % floorIds.length],
    categoryId: categoryIds[index % categoryIds.length],
    name: `Bulk POI ${index}`,
    info: '',
    infoUnsafe: '',
    latitude: 42.8723597 + index * 1e-7,
    longitude: -8.5633224,
    x: index % 100,
    y: Math.floor(index / 100),
    radius: null,
    customFields: [],
    version: 1,
    createdAt: new Date(base + index),
    updatedAt: new Date(base + index),
  }));
  const repository = t.dataSource.getRepository(Poi);
  for (let start = 0; start < rows.length; start += 100) await repository.insert(rows.slice(start, start + 100));
}
