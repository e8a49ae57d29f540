import fastJsonStringify from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { Geofence } from './geofence.entity';
import { GEOFENCE_RESPONSE_SCHEMA, toGeofenceResponse } from './geofence.mapper';

const geofence = (): Geofence =>
  Object.assign(new Geofence(), {
    id: '5b0f6a4e-0a55-4c1b-9d7c-3f1f4c1e2a10',
    organizationId: '7d3c2b1a-0f9e-4d8c-8b7a-6e5f4d3c2b1a',
    buildingId: 5962,
    floorId: 12,
    name: 'Zone "A" \u00e9',
    nameLower: 'zone "a" \u00e9',
    code: 'Z-1',
    info: '<p>Line\nbreak</p>',
    type: 'POLYGON',
    geometric: [
      [42.8723597, -8.5633224],
      [42.8723697, -8.5633224],
      [42.8723697, -8.5633124],
      [42.8723597, -8.5633224],
    ],
    customFields: [{ key: 'k\u2028', value: 'v' }],
    deleted: false,
    createdAt: new Date('2026-11-23T01:02:03.004Z'),
    updatedAt: new Date('2026-11-23T01:02:03.005Z'),
  });

describe('GEOFENCE_RESPONSE_SCHEMA', () => {
  it("serializes the mapper's output exactly as JSON.stringify does (no field dropped or changed)", () => {
    const serialize = fastJsonStringify(GEOFENCE_RESPONSE_SCHEMA);
    for (const response of [toGeofenceResponse(geofence()), toGeofenceResponse(Object.assign(geofence(), { deleted: true, customFields: [], info: '' }))]) {
      expect(JSON.parse(serialize(response))).toEqual(JSON.parse(JSON.stringify(response)));
      expect(Object.keys(JSON.parse(serialize(response)))).toEqual(Object.keys(response));
    }
  });

  it('names every field the mapper writes', () => {
    expect(Object.keys(GEOFENCE_RESPONSE_SCHEMA.properties).sort()).toEqual(Object.keys(toGeofenceResponse(geofence())).sort());
  });
});
