/**
 * Reading a batch of reported positions (contract 6.2): the three body forms, each item
 * checked on its own (shape, types, ranges, time window) so one bad item never sinks the
 * batch. Plain TypeScript, no database: references (buildings, floors, users) are checked
 * by the pipeline's next stage (fix-places.ts). Hand-written rather than class-validator because it
 * runs for every fix of every batch.
 */

import { MAX_DEVICE_ID_LENGTH } from '../positions/fix';
import { BuildingFrame, Cartesian, floorPointProblem, Georeference, toGeoreference } from '../common/geometry/cartesian';

export const MAX_BATCH_ITEMS = 1000;
export const MAX_ACCURACY_M = 10_000;

export interface ItemRejection {
  index: number;
  code: 'required' | 'invalid' | 'not_found' | 'duplicate' | 'out_of_range' | 'forbidden';
  fields: string;
  message: string;
}

/** One item that passed the shape checks, in the body's terms (references not yet checked). */
export interface ReportedFix {
  index: number;
  deviceId: string;
  deviceCode: string | null;
  time: number;
  buildingId: number | null;
  floorId: number | null;
  /** Either lat/lng or x/y is set (both when the body sent both). */
  lat: number | null;
  lng: number | null;
  x: number | null;
  y: number | null;
  accuracy: number;
  yaw: number | null;
  userId: string | null;
}

export interface TimeWindow {
  now: number;
  maxFutureMs: number;
  maxAgeMs: number;
}

export class BatchTooLargeError extends Error {}
export class BatchShapeError extends Error {}

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:?\d\d)$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_INTEGER_ID = 2_147_483_647;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The items of a body in any of the three forms: `{"positions":[...]}`, a bare array, or a
 * FeatureCollection in the read shape of 6.1 (turned into items here).
 */
export function batchItems(body: unknown): unknown[] {
  let items: unknown[];
  if (Array.isArray(body)) items = body;
  else if (isObject(body) && Array.isArray(body.positions)) items = body.positions;
  else if (isObject(body) && body.type === 'FeatureCollection' && Array.isArray(body.features)) items = featuresToItems(body);
  else throw new BatchShapeError('The body must be {"positions":[...]}, an array of positions or a FeatureCollection');
  if (items.length > MAX_BATCH_ITEMS) throw new BatchTooLargeError(`At most ${MAX_BATCH_ITEMS} positions per request`);
  return items;
}

/** A captured realtime answer replayed: `[lat, lng]` coordinates, `local_coordinates` `[x, y]`, `devicesInfo` codes. */
function featuresToItems(collection: Json): unknown[] {
  const codes = new Map<string, unknown>();
  if (Array.isArray(collection.devicesInfo)) {
    for (const info of collection.devicesInfo) if (isObject(info) && info.id !== undefined) codes.set(String(info.id), info.code);
  }
  return (collection.features as unknown[]).map((feature) => {
    if (!isObject(feature)) return feature;
    const properties = isObject(feature.properties) ? feature.properties : {};
    const geometry = isObject(feature.geometry) ? feature.geometry : {};
    const coordinates = Array.isArray(geometry.coordinates) ? geometry.coordinates : undefined;
    const local = Array.isArray(properties.local_coordinates) ? properties.local_coordinates : undefined;
    const item: Json = {
      device_id: feature.id,
      time: properties.time,
      building_id: properties.building_id,
      floor_id: properties.floor_id,
      accuracy: properties.accuracy,
      yaw: properties.yaw,
    };
    if (feature.userId !== undefined) item.user_id = feature.userId;
    if (typeof feature.id === 'string' || typeof feature.id === 'number') {
      const code = codes.get(String(feature.id));
      if (code !== undefined) item.device_code = code;
    }
    if (coordinates) [item.lat, item.lng] = coordinates;
    else if (local) [item.x, item.y] = local;
    return item;
  });
}

const absent = (value: unknown) => value === undefined || value === null;
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const positiveId = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_INTEGER_ID;

/** Checks one item; returns the fix or the reason it is rejected. */
export function readItem(raw: unknown, index: number, window: TimeWindow): ReportedFix | ItemRejection {
  const reject = (code: ItemRejection['code'], fields: string, message: string): ItemRejection => ({ index, code, fields, message });
  if (!isObject(raw)) return reject('invalid', `[${index}]`, 'must be a JSON object');

  let deviceId = raw.device_id;
  if (typeof deviceId === 'number' && Number.isSafeInteger(deviceId) && deviceId >= 0) deviceId = String(deviceId);
  if (absent(deviceId)) return reject('required', 'device_id', 'device_id is required');
  if (typeof deviceId !== 'string' || deviceId.length === 0 || deviceId.length > MAX_DEVICE_ID_LENGTH || /[\u0000-\u001f]/.test(deviceId)) {
    return reject('invalid', 'device_id', `must be a string of 1 to ${MAX_DEVICE_ID_LENGTH} printable characters`);
  }
  const deviceCode = raw.device_code;
  if (!absent(deviceCode) && (typeof deviceCode !== 'string' || deviceCode.length > 255 || deviceCode.includes('\u0000'))) {
    return reject('invalid', 'device_code', 'must be a string of at most 255 characters');
  }

  let time: number;
  if (absent(raw.time)) return reject('required', 'time', 'time is required');
  if (typeof raw.time === 'number') {
    if (!Number.isSafeInteger(raw.time)) return reject('invalid', 'time', 'must be an ISO 8601 time or epoch milliseconds');
    time = raw.time;
  } else if (typeof raw.time === 'string' && ISO_TIME.test(raw.time)) {
    time = Date.parse(raw.time);
    if (Number.isNaN(time)) return reject('invalid', 'time', 'must be an ISO 8601 time or epoch milliseconds');
  } else {
    return reject('invalid', 'time', 'must be an ISO 8601 time with a zone (…Z) or epoch milliseconds');
  }
  if (time > window.now + window.maxFutureMs) return reject('out_of_range', 'time', `must be at most ${window.maxFutureMs / 1000} s in the future`);
  if (time < window.now - window.maxAgeMs) return reject('out_of_range', 'time', `must be at most ${window.maxAgeMs / 1000} s old`);

  const buildingId = raw.building_id;
  if (!absent(buildingId) && !positiveId(buildingId)) return reject('invalid', 'building_id', 'must be a positive integer id');
  const floorId = raw.floor_id;
  if (!absent(floorId) && !positiveId(floorId)) return reject('invalid', 'floor_id', 'must be a positive integer id');
  if (raw.indoor === true && absent(floorId)) return reject('required', 'floor_id', 'an indoor position needs floor_id');
  if (!absent(raw.indoor) && typeof raw.indoor !== 'boolean') return reject('invalid', 'indoor', 'must be a boolean');
  if (raw.indoor === false && !absent(floorId)) return reject('invalid', 'indoor', 'an outdoor position has no floor_id');

  let lat: number | null = null;
  let lng: number | null = null;
  let x: number | null = null;
  let y: number | null = null;
  if (!absent(raw.lat) || !absent(raw.lng)) {
    if (!finite(raw.lat) || raw.lat < -90 || raw.lat > 90) return reject('invalid', 'lat', 'must be a number from -90 to 90');
    if (!finite(raw.lng) || raw.lng < -180 || raw.lng > 180) return reject('invalid', 'lng', 'must be a number from -180 to 180');
    lat = raw.lat;
    lng = raw.lng;
  }
  if (!absent(raw.x) || !absent(raw.y)) {
    if (!finite(raw.x) || Math.abs(raw.x) > 1e6) return reject('invalid', 'x', 'must be a number of metres');
    if (!finite(raw.y) || Math.abs(raw.y) > 1e6) return reject('invalid', 'y', 'must be a number of metres');
    x = raw.x;
    y = raw.y;
  }
  if (lat === null && x === null) return reject('required', 'lat,lng', 'a position needs lat and lng, or x and y');
  if (lat === null && absent(buildingId) && absent(floorId)) return reject('required', 'building_id', 'x and y need the building (or floor) they are measured in');

  if (absent(raw.accuracy)) return reject('required', 'accuracy', 'accuracy is required');
  if (!finite(raw.accuracy) || raw.accuracy < 0 || raw.accuracy > MAX_ACCURACY_M) return reject('invalid', 'accuracy', `must be a number of metres from 0 to ${MAX_ACCURACY_M}`);
  if (!absent(raw.yaw) && !finite(raw.yaw)) return reject('invalid', 'yaw', 'must be a number of radians');
  if (!absent(raw.poi_id) && !positiveId(raw.poi_id)) return reject('invalid', 'poi_id', 'must be a positive integer id');

  const userId = raw.user_id;
  if (!absent(userId) && (typeof userId !== 'string' || !UUID.test(userId))) return reject('invalid', 'user_id', 'must be a user id (UUID)');

  return {
    index,
    deviceId,
    deviceCode: absent(deviceCode) ? null : (deviceCode as string),
    time,
    buildingId: absent(buildingId) ? null : (buildingId as number),
    floorId: absent(floorId) ? null : (floorId as number),
    lat,
    lng,
    x,
    y,
    accuracy: raw.accuracy,
    yaw: absent(raw.yaw) ? null : (raw.yaw as number),
    userId: absent(userId) ? null : (userId as string).toLowerCase(),
  };
}

/** Orders fixes by device then time (contract 6.2) and drops exact (device, time) duplicates. */
export function orderAndDeduplicate<T extends { deviceId: string; time: number; index: number }>(fixes: T[]): { kept: T[]; duplicates: T[] } {
  const sorted = [...fixes].sort((a, b) => (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : a.time - b.time || a.index - b.index));
  const kept: T[] = [];
  const duplicates: T[] = [];
  for (const fix of sorted) {
    const previous = kept[kept.length - 1];
    if (previous && previous.deviceId === fix.deviceId && previous.time === fix.time) duplicates.push(fix);
    else kept.push(fix);
  }
  return { kept, duplicates };
}

/** The latitude and longitude of a fix's floor metres in its building, or the item's rejection when they cannot be a position there. */
export function georeferenceFloorPoint(index: number, frame: BuildingFrame, point: Cartesian): Georeference | ItemRejection {
  const problem = floorPointProblem(frame, point);
  if (problem) return { index, code: 'out_of_range', fields: 'x,y', message: problem };
  return toGeoreference(frame, point);
}
