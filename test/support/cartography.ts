import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { expect, vi } from 'vitest';
import { Building } from '../../src/cartography/buildings/building.entity';
import { Floor } from '../../src/cartography/floors/floor.entity';
import { ApiPermission } from '../../src/access/permissions';
import { WebhookDeliveryWorker } from '../../src/delivery/worker/webhook-delivery.worker';
import { GeofenceDeadlineSweeper } from '../../src/geofencing/events/deadline-sweeper';
import { TagLocatingService } from '../../src/infrastructure/tag-locating.service';
import { CredentialCacheService } from '../../src/auth/credential-cache.service';
import { PreparedQueries } from '../../src/database/prepared-queries';
import { Geofence } from '../../src/cartography/geofences/geofence.entity';
import { asBearer, createOrganization, passwordTokens, TestOrganization } from './auth';
import { TestApp } from './test-app';

/** Contract section 1: every resource but geofences. */
export const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
/** Contract section 1: geofences. */
export const GEOFENCE_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\[UTC\]$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const BUILDING_KEYS = ['corners', 'created_at', 'custom_fields', 'description', 'dimensions', 'id', 'info', 'location', 'name', 'rotation', 'updated_at', 'user_uuid'];
export const BUILDING_DETAIL_KEYS = [...BUILDING_KEYS, 'floors', 'geofences'].sort();
export const FLOOR_KEYS = ['building_id', 'created_at', 'custom_fields', 'id', 'level', 'level_height', 'maps', 'name', 'updated_at'];
export const FLOOR_MAPS_KEYS = ['map_id', 'map_url', 'scale'];
export const GEOFENCE_KEYS = [
  'building_id',
  'code',
  'created_at',
  'custom_fields',
  'deleted',
  'description',
  'floor_id',
  'geometric',
  'id',
  'info',
  'level_id',
  'name',
  'organization_id',
  'type',
  'updated_at',
];
export const PAGE_METADATA_KEYS = ['first', 'last', 'number', 'number_of_elements', 'size', 'total_elements', 'total_pages'];

export const keysOf = (value: object): string[] => Object.keys(value).sort();

/** An id no row has (integer ids stay below this in the tests). */
export const MISSING_INTEGER_ID = 2_147_483_000;
export const MALFORMED_INTEGER_IDS = ['abc', '1.5', '-3', '0', '12abc', '99999999999'];
export const MALFORMED_UUIDS = ['not-a-uuid', '12345', `${randomUUID()}x`];

export type LatLng = [number, number];

export interface BuildingBody {
  id: number;
  name: string;
  description: string;
  info: string;
  location: { lat: number; lng: number };
  dimensions: { width: number; length: number };
  rotation: number;
  corners: Array<{ lat: number; lng: number }>;
  custom_fields: Array<{ key: string; value: string }>;
  user_uuid: string | null;
  created_at: string;
  updated_at: string;
}

export interface FloorBody {
  id: number;
  building_id: number;
  level: number;
  level_height: number | null;
  name: string;
  custom_fields: Array<{ key: string; value: string }>;
  maps: { scale: number | null; map_id: string; map_url: string };
  created_at: string;
  updated_at: string;
}

export interface GeofenceBody {
  id: string;
  created_at: string;
  updated_at: string;
  custom_fields: Array<{ key: string; value: string }>;
  code: string;
  name: string;
  organization_id: string;
  info: string;
  description: string;
  type: string;
  geometric: LatLng[];
  floor_id: number;
  level_id: number;
  building_id: string;
  deleted: boolean;
}

/** An organization, its admin and a read-write token of the admin (from a password). */
export interface Cartographer {
  org: TestOrganization;
  token: string;
  auth: Record<string, string>;
}

export async function signUp(t: TestApp, name: string): Promise<Cartographer> {
  const org = await createOrganization(t, name);
  const { access_token: token } = await passwordTokens(t, org.email, org.password);
  return { org, token, auth: asBearer(token) };
}

/** A small closed square ring of [lat, lng] pairs, counter-clockwise, starting at (lat, lng). */
export function square(lat = 42.8723597, lng = -8.5633224, side = 0.0001): LatLng[] {
  return [
    [lat, lng],
    [lat + side, lng],
    [lat + side, lng + side],
    [lat, lng + side],
    [lat, lng],
  ];
}

/** A closed ring of `pairs` pairs (pairs - 1 distinct corners on a circle). */
export function circle(pairs: number, lat = 42.87, lng = -8.56, radius = 0.01): LatLng[] {
  const corners = pairs - 1;
  const ring: LatLng[] = [];
  for (let index = 0; index < corners; index += 1) {
    const angle = (2 * Math.PI * index) / corners;
    ring.push([lat + radius * Math.sin(angle), lng + radius * Math.cos(angle)]);
  }
  ring.push(ring[0]);
  return ring;
}

export const buildingInput = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'Headquarters',
  description: 'Main site',
  info: '<p>Open <b>9-17</b></p>',
  location: { lat: 42.8723597, lng: -8.5633224 },
  dimensions: { width: 120.5, length: 80 },
  rotation: 0.5,
  custom_fields: [{ key: 'zone', value: 'A' }],
  ...overrides,
});

/** Asserts the status and shows the body when it differs. */
export function expectStatus(response: Response, status: number): void {
  expect(response.status, `${response.status} ${JSON.stringify(response.body)}`).toBe(status);
}

/** The contract's error shape (section 3) with the given status and code. */
export function expectError(response: Response, status: number, code: string): void {
  expectStatus(response, status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.body).toEqual({ status, code, message: expect.any(String), errors: expect.any(Array) });
}

/** The `fields` of each entry of errors[]. */
export const errorFields = (response: Response): string[] => (response.body.errors as Array<{ fields: string }>).map((error) => error.fields);

export async function createBuilding(t: TestApp, auth: Record<string, string>, overrides: Record<string, unknown> = {}): Promise<BuildingBody> {
  const response = await t.http.post('/api/v1/buildings').set(auth).send(buildingInput(overrides));
  expectStatus(response, 201);
  return response.body as BuildingBody;
}

let nextLevel = -900;

export async function createFloor(t: TestApp, auth: Record<string, string>, buildingId: number, overrides: Record<string, unknown> = {}): Promise<FloorBody> {
  const response = await t.http
    .post('/api/v1/floors')
    .set(auth)
    .send({ building_id: buildingId, level: nextLevel++, name: 'Floor', ...overrides });
  expectStatus(response, 201);
  return response.body as FloorBody;
}

export interface Placement {
  buildingId: number;
  floorId: number;
}

export async function createGeofence(t: TestApp, auth: Record<string, string>, place: Placement, overrides: Record<string, unknown> = {}): Promise<GeofenceBody> {
  const response = await t.http
    .post('/api/v1/geofences')
    .set(auth)
    .send({ name: 'Zone', building_id: place.buildingId, floor_id: place.floorId, geometric: square(), ...overrides });
  expectStatus(response, 201);
  return response.body as GeofenceBody;
}

/** Creates `count` geofences through the API, `batch` requests at a time. */
export async function createGeofences(
  t: TestApp,
  auth: Record<string, string>,
  place: Placement,
  count: number,
  overrides: (index: number) => Record<string, unknown> = () => ({}),
  batch = 20,
): Promise<GeofenceBody[]> {
  const created: GeofenceBody[] = [];
  for (let start = 0; start < count; start += batch) {
    const indexes = Array.from({ length: Math.min(batch, count - start) }, (_, offset) => start + offset);
    created.push(...(await Promise.all(indexes.map((index) => createGeofence(t, auth, place, { name: `Zone ${index}`, ...overrides(index) })))));
  }
  return created;
}

/** A 1x1 PNG. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** Uploads a floor plan image; its id is what a floor's `map_id` names. */
export async function uploadImage(t: TestApp, auth: Record<string, string>): Promise<{ id: string; url: string }> {
  const response = await t.http.post('/api/v1/images').set(auth).attach('image', TINY_PNG, 'plan.png');
  expectStatus(response, 201);
  return response.body as { id: string; url: string };
}

/** Only the keys of a building object (the document adds floors, geofences, POIs, paths...). */
export function buildingPart(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(BUILDING_KEYS.map((key) => [key, body[key]]));
}

/** A building with one floor, created through the API. */
export interface Site {
  building: BuildingBody;
  floor: FloorBody;
  place: Placement;
}

export async function createSite(t: TestApp, auth: Record<string, string>, buildingOverrides: Record<string, unknown> = {}): Promise<Site> {
  const building = await createBuilding(t, auth, buildingOverrides);
  const floor = await createFloor(t, auth, building.id, { level: 0 });
  return { building, floor, place: { buildingId: building.id, floorId: floor.id } };
}

/** Stores geofences straight through the repository (fixtures for query counting). */
export async function insertGeofences(t: TestApp, organizationId: string, place: Placement, count: number): Promise<void> {
  const base = Date.now();
  const rows: Partial<Geofence>[] = Array.from({ length: count }, (_, index) => ({
    id: randomUUID(),
    organizationId,
    buildingId: place.buildingId,
    floorId: place.floorId,
    name: `Bulk ${index}`,
    nameLower: `bulk ${index}`,
    code: `bulk-${index}`,
    info: '',
    type: 'POLYGON',
    geometric: square(),
    customFields: [],
    deleted: false,
    version: 1,
    createdAt: new Date(base + index),
    updatedAt: new Date(base + index),
  }));
  const repository = t.dataSource.getRepository(Geofence);
  for (let start = 0; start < rows.length; start += 50) await repository.insert(rows.slice(start, start + 50));
}

export const buildingRow = (t: TestApp, id: number) => t.dataSource.getRepository(Building).findOneBy({ id });
export const floorRow = (t: TestApp, id: number) => t.dataSource.getRepository(Floor).findOneBy({ id });
export const geofenceRow = (t: TestApp, id: string) => t.dataSource.getRepository(Geofence).findOneBy({ id });
export const floorRowsOf = (t: TestApp, buildingId: number) => t.dataSource.getRepository(Floor).find({ where: { buildingId }, order: { id: 'ASC' } });
export const geofenceRowsOf = (t: TestApp, buildingId: number) => t.dataSource.getRepository(Geofence).find({ where: { buildingId }, order: { id: 'ASC' } });

/** Everything stored about a building: its row, its floors and its geofences. */
export async function buildingState(t: TestApp, buildingId: number) {
  return { building: await buildingRow(t, buildingId), floors: await floorRowsOf(t, buildingId), geofences: await geofenceRowsOf(t, buildingId) };
}

/**
 * Runs `work` while counting the SQL statements the server sends through TypeORM's query
 * runners (every repository, query builder and raw query goes through `QueryRunner.query`).
 */
export async function countQueries<T>(t: TestApp, work: () => Promise<T>): Promise<{ result: T; queries: string[] }> {
  // Background work (the webhook worker's polling, the geofence timer's sweeps) would be counted
  // too. Paused before the counting starts: pausing waits for a poll or sweep under way, whose
  // statements would otherwise land in the count (on a loaded machine, now and then).
  const worker = t.app.get(WebhookDeliveryWorker);
  const timer = t.app.get(GeofenceDeadlineSweeper);
  const locator = t.app.get(TagLocatingService);
  await Promise.all([worker.pause(), timer.pause(), locator.pause()]);
  const runner = t.dataSource.createQueryRunner();
  const prototype = Object.getPrototypeOf(runner) as { query: (query: string, ...rest: unknown[]) => Promise<unknown> };
  // SQLite hands out its one shared runner; PostgreSQL a new (unconnected) one that can go.
  if (t.dataSource.options.type === 'postgres') await runner.release();
  const spy = vi.spyOn(prototype, 'query');
  // The hottest reads skip TypeORM's runner and go through prepared statements.
  const prepared = vi.spyOn(PreparedQueries.prototype, 'execute');
  // Credentials are verified as on a first request, so that counts do not depend on what was cached.
  t.app.get(CredentialCacheService).flush();
  try {
    const result = await work();
    const queries = [...spy.mock.calls.map((call) => String(call[0])), ...prepared.mock.calls.map((call) => String(call[1]))];
    return { result, queries };
  } finally {
    spy.mockRestore();
    prepared.mockRestore();
    worker.resume();
    timer.resume();
    locator.resume();
  }
}

/** Contract 2.3: every key level reads cartography; only these two write it. */
export const CARTOGRAPHY_KEY_LEVELS: Array<[ApiPermission, boolean]> = [
  [ApiPermission.Positioning, false],
  [ApiPermission.ReadOnly, false],
  [ApiPermission.CartographyReadWrite, true],
  [ApiPermission.ReadWrite, true],
];
