/**
 * The API's resources as the dashboard reads them: the response schemas of the OpenAPI document
 * the server serves, generated into ./api-schema.ts (`npm run web:model`; an e2e test fails when
 * it is stale), so the dashboard cannot disagree with the API on a field.
 */
import type { components } from './api-schema';

type Schemas = components['schemas'];

export type CustomField = Schemas['CustomFieldDto'];
/** `rotation` is in radians, counter-clockwise (the dashboard shows degrees). */
export type Building = Schemas['BuildingResponseDto'];
export type Floor = Schemas['FloorResponseDto'];
export type Geofence = Schemas['GeofenceResponseDto'];
export type Poi = Schemas['PoiResponseDto'];
export type PoiCategory = Schemas['PoiCategoryResponseDto'];
export type Device = Schemas['DeviceResponseDto'];
export type GeofencingSettings = Schemas['GeofencingSettingsResponseDto'];

export interface Page<T> {
  data: T[];
  metadata: Schemas['PageMetadataDto'];
}

/** A device's display name, the one every view shows: its name when an administrator gave one, else its id. */
export const deviceLabel = (device: Pick<Device, 'id' | 'name'>) => device.name.trim() || device.id;
export const floorLabel = (floor: Pick<Floor, 'name' | 'level'>) => floor.name || `Level ${floor.level}`;
