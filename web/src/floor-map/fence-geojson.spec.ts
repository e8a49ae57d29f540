import { describe, expect, it } from 'vitest';
import type { Geofence } from '../model';
import { fencesToGeoJson, readFenceFile } from './fence-geojson';

const fence: Geofence = {
  id: 'f1',
  name: 'Cafe',
  code: 'C1',
  info: '',
  description: '',
  type: 'POLYGON',
  organization_id: 'o1',
  floor_id: 3,
  level_id: 3,
  building_id: '1',
  geometric: [
    [42, -8],
    [42.001, -8],
    [42.001, -7.999],
    [42, -8],
  ],
  custom_fields: [{ key: 'zone', value: 'A' }],
  deleted: false,
  created_at: '',
  updated_at: '',
};

describe('fences as GeoJSON', () => {
  it('exports [lng, lat] polygons with their name, code and fields, and reads its own export back', () => {
    const file = fencesToGeoJson([fence]);
    expect((file.features[0].geometry as GeoJSON.Polygon).coordinates[0][0]).toEqual([-8, 42]);
    const items = readFenceFile(JSON.stringify(file));
    expect(items).toEqual([{ index: 0, name: 'Cafe', body: { name: 'Cafe', code: 'C1', custom_fields: [{ key: 'zone', value: 'A' }], geometric: fence.geometric } }]);
  });

  it('closes an open ring, names a nameless feature, and says why a feature cannot be a fence', () => {
    const items = readFenceFile(
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: null,
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [1, 2],
                  [1, 3],
                  [2, 3],
                ],
              ],
            },
          },
          { type: 'Feature', properties: { name: 'Point' }, geometry: { type: 'Point', coordinates: [1, 2] } },
        ],
      }),
    );
    expect(items).toEqual([
      {
        index: 0,
        name: 'Imported geofence 1',
        body: {
          name: 'Imported geofence 1',
          code: '',
          custom_fields: [],
          geometric: [
            [2, 1],
            [3, 1],
            [3, 2],
            [2, 1],
          ],
        },
      },
      { index: 1, name: 'Point', problem: 'not a polygon (Point)' },
    ]);
    expect(readFenceFile('nope')).toMatch(/not JSON/);
    expect(readFenceFile('{"type":"FeatureCollection","features":[]}')).toMatch(/no GeoJSON feature/);
  });
});
