/** The API's resources as the dashboard reads them (contract shapes, only the fields used). */

export interface CustomField {
  key: string;
  value: string;
}

export interface Building {
  id: number;
  name: string;
  description: string;
  info: string;
  location: { lat: number; lng: number };
  dimensions: { width: number; length: number };
  /** Radians, counter-clockwise (the dashboard shows degrees). */
  rotation: number;
  created_at: string;
  updated_at: string;
}

export interface Floor {
  id: number;
  building_id: number;
  level: number;
  level_height: number | null;
  name: string;
  maps: { scale: number | null; map_id: string; map_url: string };
  updated_at: string;
}

export interface Geofence {
  id: string;
  name: string;
  code: string;
  info: string;
  floor_id: number;
  building_id: string;
  geometric: Array<[number, number]>;
  custom_fields: CustomField[];
  deleted: boolean;
  updated_at: string;
}

export interface Poi {
  id: number;
  building_id: number;
  name: string;
  info: string;
  category_id: number | null;
  category_name: string;
  custom_fields: CustomField[];
  position: { floor_id: number | null; lat: number; lng: number; x: number; y: number; radius: number | null };
}

export interface PoiCategory {
  id: number;
  name_en: string;
  name_es: string;
  code: string;
  public: boolean;
  icon_url: string;
  selected_icon_url: string;
}

export interface Device {
  id: string;
  code: string;
  name: string;
  user_id: string | null;
  last_seen_at: string | null;
  last_position: {
    time: string;
    building_id: number | null;
    floor_id: number | null;
    lat: number;
    lng: number;
    x: number | null;
    y: number | null;
    accuracy: number;
    yaw: number | null;
  } | null;
}

export interface Page<T> {
  data: T[];
  metadata: { total_elements: number; total_pages: number; number: number; last: boolean };
}

export interface GeofencingSettings {
  stale_after_seconds: number;
  [rule: string]: unknown;
}

/** A device's display name, the one every view shows: its name when an administrator gave one, else its id. */
export const deviceLabel = (device: Pick<Device, 'id' | 'name'>) => device.name.trim() || device.id;
export const floorLabel = (floor: Pick<Floor, 'name' | 'level'>) => floor.name || `Level ${floor.level}`;
