import { expect } from 'vitest';
import { PositionRecord } from '../../src/positions/position-record.entity';
import { TestApp } from './test-app';

export const REALTIME_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const FEATURE_KEYS = ['geometry', 'id', 'properties', 'type', 'userId'];
export const FEATURE_PROPERTY_KEYS = ['accuracy', 'building_id', 'floor_id', 'level_height', 'local_coordinates', 'poi_id', 'time', 'yaw'];
export const DEVICE_INFO_KEYS = [
  'building_ids',
  'buildings',
  'code',
  'created_at',
  'group_ids',
  'groups',
  'id',
  'organization',
  'organization_id',
  'updated_at',
  'user',
  'user_id',
];
export const DEVICE_KEYS = ['code', 'created_at', 'id', 'last_position', 'last_seen_at', 'name', 'organization_id', 'tag', 'updated_at', 'user_id'];

export const REALTIME = '/api/v1/realtime/positions';

/** A reported fix `secondsAgo` seconds old, outdoor unless the overrides say otherwise. */
export function fix(deviceId: string, overrides: Record<string, unknown> = {}, secondsAgo = 1): Record<string, unknown> {
  return {
    device_id: deviceId,
    time: new Date(Date.now() - secondsAgo * 1000).toISOString(),
    lat: 42.8723597,
    lng: -8.5633224,
    accuracy: 3.5,
    ...overrides,
  };
}

export async function report(t: TestApp, auth: Record<string, string>, body: unknown, status = 200) {
  const response = await t.http
    .post(REALTIME)
    .set(auth)
    .send(body as object);
  expect(response.status, `${response.status} ${JSON.stringify(response.body)}`).toBe(status);
  return response.body as { accepted: number; rejected: Array<{ index: number; code: string; fields: string; message: string }>; events: unknown[] };
}

export interface RealtimeBody {
  type: string;
  features: Array<{
    type: string;
    id: string;
    userId: string | null;
    geometry: { type: string; coordinates: [number, number] };
    properties: Record<string, unknown> & { poi_id: number | null; local_coordinates: [number, number] | null };
  }>;
  devicesInfo: Array<Record<string, unknown>>;
}

export async function realtime(t: TestApp, auth: Record<string, string>, query = ''): Promise<RealtimeBody> {
  const response = await t.http.get(`${REALTIME}${query}`).set(auth);
  expect(response.status, `${response.status} ${JSON.stringify(response.body)}`).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(JSON.parse(response.text)).toEqual(response.body);
  return response.body as RealtimeBody;
}

export const deviceIdsOf = (body: RealtimeBody) => body.features.map((feature) => feature.id);

export const historyOf = (t: TestApp, organizationId: string, deviceId?: string) =>
  t.dataSource.getRepository(PositionRecord).find({ where: { organizationId, ...(deviceId !== undefined && { deviceId }) }, order: { deviceId: 'ASC', time: 'ASC' } });
