import { formatRealtimeTime, formatTimestamp } from '../common/time/timestamps';

/** A device's latest fix as the realtime read loads it. */
export interface LatestFixRow {
  id: string;
  code: string;
  userId: string | null;
  time: Date;
  buildingId: number | null;
  floorId: number | null;
  levelHeight: number | null;
  lat: number;
  lng: number;
  x: number | null;
  y: number | null;
  accuracy: number;
  yaw: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface RealtimeFeature {
  type: 'Feature';
  id: string;
  userId: string | null;
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: {
    time: string;
    yaw: number | null;
    local_coordinates: [number, number] | null;
    floor_id: number | null;
    building_id: number | null;
    level_height: number | null;
    accuracy: number;
    poi_id: number | null;
  };
}

export interface RealtimeDeviceInfo {
  id: string;
  code: string;
  organization: string;
  organization_id: string;
  user: string | null;
  user_id: string | null;
  groups: string[];
  group_ids: string[];
  buildings: string[];
  building_ids: string[];
  created_at: string;
  updated_at: string;
}

export interface RealtimePositionsResponse {
  type: 'FeatureCollection';
  features: RealtimeFeature[];
  devicesInfo: RealtimeDeviceInfo[];
}

/**
 * The wire format of contract 6.1, which existing clients read byte for byte:
 * `[lat, lng]` (not GeoJSON order), camelCase `userId` and `devicesInfo`, both arrays always
 * present.
 */
export function toRealtimeResponse(organizationId: string, rows: LatestFixRow[], poiOf: (row: LatestFixRow) => number | null): RealtimePositionsResponse {
  const features: RealtimeFeature[] = [];
  const devicesInfo: RealtimeDeviceInfo[] = [];
  for (const row of rows) {
    features.push({
      type: 'Feature',
      id: row.id,
      userId: row.userId,
      geometry: { type: 'Point', coordinates: [row.lat, row.lng] },
      properties: {
        time: formatRealtimeTime(row.time),
        yaw: row.yaw,
        local_coordinates: row.x === null || row.y === null ? null : [row.x, row.y],
        floor_id: row.floorId,
        building_id: row.buildingId,
        level_height: row.floorId === null ? null : (row.levelHeight ?? 0),
        accuracy: row.accuracy,
        poi_id: poiOf(row),
      },
    });
    devicesInfo.push({
      id: row.id,
      code: row.code,
      organization: organizationId,
      organization_id: organizationId,
      user: row.userId,
      user_id: row.userId,
      // Cartograph assigns devices to no group or building: the lists are there, empty.
      groups: [],
      group_ids: [],
      buildings: [],
      building_ids: [],
      created_at: formatTimestamp(row.createdAt),
      updated_at: formatTimestamp(row.updatedAt),
    });
  }
  return { type: 'FeatureCollection', features, devicesInfo };
}
