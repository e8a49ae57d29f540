import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { Role } from '../../src/access/roles';
import { addGroup } from '../support/admin';
import { createApiKey } from '../support/auth';
import { Cartographer, createGeofence, createSite, expectStatus, signUp, Site } from '../support/cartography';
import { createCategory, createPoi, poiInput, putPaths } from '../support/pois';
import { fix, report } from '../support/positions';
import { createTestApp, TestApp } from '../support/test-app';
import { createUser } from '../support/users';

/**
 * Issue 35, item 1: null sent for a field that cannot be null is a 422 naming the field, on every
 * update route (PUT and its PATCH twin), never a 500 from the database or a silent write; fields the
 * OpenAPI document marks `nullable` accept null. The properties tried are read from the document
 * (`/api/docs-json`): a new update route, or a new field of one, is covered without touching this file.
 */

type Schema = Record<string, unknown>;
type Json = Record<string, unknown> | unknown[];

interface JsonOperation {
  requestBody?: { content: Record<string, { schema: Schema }> };
}

interface OpenApi {
  paths: Record<string, Record<string, JsonOperation>>;
  components: { schemas: Record<string, Schema> };
}

/** A real resource to update, and otherwise-valid bodies: together they reach every nested object of the body. */
interface UpdateCase {
  url: string;
  bodies: Json[];
  /** Sending a valid body would lock the caller out (a password change): the 422s alone show the rest of the body is valid. */
  skipValid?: boolean;
}

const UUID = 'f7826da6-4fa2-4e98-8024-bc5b71e0893e';
const readings = [{ uuid: UUID, major: 1, minor: 1, rssi: -65 }];

function resolve(document: OpenApi, schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; hops < 10; hops += 1) {
    if (typeof current.$ref === 'string') current = document.components.schemas[current.$ref.split('/').pop()!] ?? {};
    else if (Array.isArray(current.allOf) && current.allOf.length > 0) current = Object.assign({}, ...(current.allOf as Schema[]).map((part) => resolve(document, part)));
    else break;
  }
  return current;
}

/** A property of a body: its dotted path as errors[] names it, and the steps to reach it. */
interface BodyProperty {
  path: string;
  steps: Array<string | number>;
  nullable: boolean;
}

const pathOf = (steps: Array<string | number>): string =>
  steps.reduce<string>((path, step) => (typeof step === 'number' ? `${path}[${step}]` : path ? `${path}.${step}` : step), '');

const at = (value: unknown, steps: Array<string | number>): unknown =>
  steps.reduce<unknown>((inner, step) => (inner !== null && typeof inner === 'object' ? (inner as Record<string | number, unknown>)[step] : undefined), value);

/**
 * Every property of the body schema: top-level ones always, nested ones (objects, the first item of
 * arrays of objects) where the valid body has that object, so that the rest of the body stays valid.
 */
function propertiesOf(document: OpenApi, schema: Schema, body: unknown, steps: Array<string | number> = []): BodyProperty[] {
  const resolved = resolve(document, schema);
  if (resolved.type === 'array') {
    const first = at(body, [...steps, 0]);
    return first !== null && typeof first === 'object' ? propertiesOf(document, (resolved.items ?? {}) as Schema, body, [...steps, 0]) : [];
  }
  return Object.entries((resolved.properties ?? {}) as Record<string, Schema>).flatMap(([key, property]) => {
    const inner = [...steps, key];
    const target = resolve(document, property);
    const nullable = property.nullable === true || target.nullable === true;
    const value = at(body, inner);
    const nested = value !== null && typeof value === 'object' && (target.type === 'object' || target.type === 'array' || target.properties !== undefined);
    return [{ path: pathOf(inner), steps: inner, nullable }, ...(nested ? propertiesOf(document, property, body, inner) : [])];
  });
}

/** The object/array-of-object properties of a schema, to check that the valid bodies reach into each. */
function nestedObjectsOf(document: OpenApi, schema: Schema, prefix = ''): string[] {
  const resolved = resolve(document, schema);
  if (resolved.type === 'array') return nestedObjectsOf(document, (resolved.items ?? {}) as Schema, `${prefix}[0]`);
  return Object.entries((resolved.properties ?? {}) as Record<string, Schema>).flatMap(([key, property]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    const target = resolve(document, property);
    const item = target.type === 'array' ? resolve(document, (target.items ?? {}) as Schema) : target;
    return item.properties !== undefined ? [path, ...nestedObjectsOf(document, property, path)] : [];
  });
}

function withNull(body: Json, steps: Array<string | number>): Json {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  const parent = at(copy, steps.slice(0, -1)) as Record<string | number, unknown>;
  parent[steps[steps.length - 1]] = null;
  return copy as Json;
}

describe('null on update routes', () => {
  let t: TestApp;
  let o: Cartographer;
  let site: Site;
  let document: OpenApi;
  let cases: Record<string, UpdateCase>;

  beforeAll(async () => {
    t = await createTestApp();
    o = await signUp(t, 'Nulls');
    site = await createSite(t, o.auth);
    // The replacing routes work on a building of their own: they would delete the transmitters and points updated by id.
    const replaced = await createSite(t, o.auth, { name: 'Replaced' });
    const floorId = site.floor.id;
    const key = await createApiKey(t, o.token, ApiPermission.ReadOnly);
    const user = await createUser(t, o.org.organizationId, Role.User);
    const group = await addGroup(t, o.auth);
    const geofence = await createGeofence(t, o.auth, site.place);
    const category = await createCategory(t, o.auth);
    const poi = await createPoi(t, o.auth, poiInput(site.building.id, floorId));
    const webhook = await t.http.post('/api/v1/webhooks').set(o.auth).send({ url: 'https://93.184.216.34/hook' });
    expectStatus(webhook, 201);
    const wifi = await t.http.post('/api/v1/infrastructure/wifi').set(o.auth).send({ floor_id: floorId, bssid: 'aa:bb:cc:dd:ee:01', x: 1, y: 1 });
    expectStatus(wifi, 201);
    const ble = await t.http.post('/api/v1/infrastructure/ble').set(o.auth).send({ floor_id: floorId, uuid: UUID, major: 1, minor: 1, x: 1, y: 1 });
    expectStatus(ble, 201);
    const gateway = await t.http.post('/api/v1/infrastructure/gateways').set(o.auth).send({ floor_id: floorId, hardware_id: 'aa:bb:cc:dd:ee:09', format: 'ruuvi', x: 1, y: 1 });
    expectStatus(gateway, 201);
    const point = await t.http.post('/api/v1/infrastructure/reference_points').set(o.auth).send({ floor_id: floorId, x: 10, y: 10, ble: readings });
    expectStatus(point, 201);
    await report(t, o.auth, [fix('null-device')]);
    // A device guided on a building of its own: the paths' PUT below replaces the site's graph.
    const guided = await createSite(t, o.auth, { name: 'Guided' });
    await putPaths(t, o.auth, guided.building.id, {
      nodes: [
        { id: 1, floor_id: guided.floor.id, x: 0, y: 0 },
        { id: 2, floor_id: guided.floor.id, x: 40, y: 0 },
      ],
      links: [{ source: 1, target: 2 }],
    });
    await report(t, o.auth, [fix('guided-device', { lat: undefined, lng: undefined, floor_id: guided.floor.id, x: 5, y: 1 })]);

    const customFields = [{ key: 'zone', value: 'A' }];
    const transmitters = (floor: number) => ({
      wifi: [{ floor_id: floor, x: 2, y: 2, bssid: 'aa:bb:cc:dd:ee:02', ssid: 'Office', frequency: 2437 }],
      ble: [{ floor_id: floor, x: 3, y: 3, uuid: UUID, major: 2, minor: 2, tx_power: -59, battery: 80 }],
    });
    const rules = { dwell_seconds: 60 };
    cases = {
      '/api/v1/auth/apikeys/{id}': { url: `/api/v1/auth/apikeys/${key.id}`, bodies: [{ description: 'Nulls', permission: ApiPermission.ReadOnly }] },
      '/api/v1/users/me/password': { url: '/api/v1/users/me/password', bodies: [{ current_password: o.org.password, new_password: 'a-new-long-password-1' }], skipValid: true },
      '/api/v1/users/{id}': { url: `/api/v1/users/${user.id}`, bodies: [{ full_name: 'Renamed' }] },
      '/api/v1/groups/{id}': { url: `/api/v1/groups/${group.id}`, bodies: [{ name: 'Renamed group' }] },
      '/api/v1/organizations/current_organization': { url: '/api/v1/organizations/current_organization', bodies: [{ name: 'Nulls' }] },
      '/api/v1/buildings/{id}': {
        url: `/api/v1/buildings/${site.building.id}`,
        bodies: [{ name: 'Renamed', location: { lat: 42.8723597, lng: -8.5633224 }, dimensions: { width: 120.5, length: 80 }, custom_fields: customFields }],
      },
      '/api/v1/floors/{id}': { url: `/api/v1/floors/${floorId}`, bodies: [{ name: 'Ground', building_id: site.building.id, custom_fields: customFields }] },
      '/api/v1/geofences/{id}': { url: `/api/v1/geofences/${geofence.id}`, bodies: [{ name: 'Zone', custom_fields: customFields }] },
      '/api/v1/geofences/{id}/rules': { url: `/api/v1/geofences/${geofence.id}/rules`, bodies: [rules] },
      '/api/v1/geofencing/settings': { url: '/api/v1/geofencing/settings', bodies: [rules] },
      '/api/v1/poi_categories/{id}': { url: `/api/v1/poi_categories/${category.id}`, bodies: [{ name_en: 'Toilets' }] },
      '/api/v1/pois/{id}': {
        url: `/api/v1/pois/${poi.id}`,
        bodies: [
          { name: 'Reception', custom_fields: customFields, position: { floor_id: floorId, georeferences: { lat: 42.8723597, lng: -8.5633224 }, radius: 2 } },
          { position: { floor_id: floorId, cartesians: { x: 10, y: 10 } } },
        ],
      },
      '/api/v1/buildings/{buildingId}/paths': {
        url: `/api/v1/buildings/${site.building.id}/paths`,
        bodies: [
          {
            nodes: [
              { id: 1, floor_id: floorId, x: 1, y: 1 },
              { id: 2, floor_id: floorId, x: 2, y: 2 },
            ],
            links: [{ source: 1, target: 2, origin: 'both', tags: ['stairs'], accessible: true, connector: null }],
            settings: {
              snap_distance_m: 10,
              stairs_speed_factor: 0.5,
              stairs_s_per_floor: 15,
              elevator_wait_s: 30,
              elevator_s_per_floor: 5,
              escalator_s_per_floor: 20,
              ramp_speed_factor: 0.8,
              off_route_distance_m: 5,
              off_route_fixes: 3,
            },
          },
        ],
      },
      '/api/v1/webhooks/{id}': { url: `/api/v1/webhooks/${webhook.body.id}`, bodies: [{ description: 'Nulls', filters: { building_ids: [], geofence_ids: [] } }] },
      '/api/v1/infrastructure': { url: `/api/v1/infrastructure?building_id=${replaced.building.id}`, bodies: [transmitters(replaced.floor.id)] },
      '/api/v1/infrastructure/wifi/{id}': { url: `/api/v1/infrastructure/wifi/${wifi.body.id}`, bodies: [{ floor_id: floorId, x: 1, y: 1 }] },
      '/api/v1/infrastructure/gateways/{id}': {
        url: `/api/v1/infrastructure/gateways/${gateway.body.id}`,
        bodies: [{ floor_id: floorId, x: 1, y: 1, name: 'Hall', format: 'ruuvi', hardware_id: 'aa:bb:cc:dd:ee:09', height_m: 3, building_id: site.building.id }],
      },
      '/api/v1/infrastructure/gateways': {
        url: `/api/v1/infrastructure/gateways?building_id=${replaced.building.id}`,
        bodies: [[{ floor_id: replaced.floor.id, x: 2, y: 2, hardware_id: 'replaced-node', format: 'cartograph', name: 'Node', height_m: 2.5, building_id: replaced.building.id }]],
      },
      '/api/v1/infrastructure/ble/{id}': { url: `/api/v1/infrastructure/ble/${ble.body.id}`, bodies: [{ floor_id: floorId, x: 1, y: 1 }] },
      '/api/v1/infrastructure/reference_points': {
        url: `/api/v1/infrastructure/reference_points?building_id=${replaced.building.id}`,
        bodies: [[{ floor_id: replaced.floor.id, x: 4, y: 4, ble: readings, wifi: [{ bssid: 'aa:bb:cc:dd:ee:03', rssi: -70 }] }]],
      },
      '/api/v1/infrastructure/reference_points/{id}': {
        url: `/api/v1/infrastructure/reference_points/${point.body.id}`,
        bodies: [{ floor_id: floorId, x: 15, y: 15, ble: readings, wifi: [{ bssid: 'aa:bb:cc:dd:ee:03', rssi: -70 }] }],
      },
      '/api/v1/devices/{id}': {
        url: '/api/v1/devices/null-device',
        bodies: [
          { name: 'Forklift', code: 'Zebra', tag: { ibeacon: { uuid: UUID, major: 7, minor: 9 } } },
          { tag: { eddystone: { namespace: 'edd1ebeac04e5defa017', instance: '0123456789ab' } } },
        ],
      },
      '/api/v1/devices/{id}/navigation': {
        url: '/api/v1/devices/guided-device/navigation',
        bodies: [
          {
            to: { floor_id: guided.floor.id, x: 30, y: 0 },
            accessibility_mode: 'CHOOSE_SHORTEST',
            minimize_floor_changes: false,
            avoid: ['stairs'],
            exclude: ['ramp'],
            avoid_factor: 10,
            included_tags: [],
            excluded_tags: ['staff'],
            speed_m_s: 1.2,
          },
        ],
      },
      '/api/v1/infrastructure/tracking': {
        url: `/api/v1/infrastructure/tracking?building_id=${site.building.id}`,
        bodies: [{ scans: true, positions: false, reset_after_seconds: 30 }],
      },
    };
    document = (await t.http.get('/api/docs-json').expect(200)).body as OpenApi;
  });
  afterAll(async () => t?.close());

  /** Every PUT of the document with a JSON body (PATCH is its twin), with its body schema. */
  const updateOperations = () =>
    Object.entries(document.paths).flatMap(([path, item]) => {
      const schema = item.put?.requestBody?.content['application/json']?.schema;
      return schema ? [{ path, schema }] : [];
    });

  it('has a resource and a valid body for every update route of the document, reaching every nested object of its body', () => {
    const operations = updateOperations();
    expect(operations.map((operation) => operation.path).sort()).toEqual(Object.keys(cases).sort());
    for (const { path, schema } of operations) {
      const reached = new Set(cases[path].bodies.flatMap((body) => propertiesOf(document, schema, body).map((property) => property.path)));
      for (const nested of nestedObjectsOf(document, schema)) {
        const inside = [...reached].some((property) => property.startsWith(`${nested}.`) || property.startsWith(`${nested}[0].`));
        expect(inside, `${path}: no valid body reaches into ${nested}`).toBe(true);
      }
    }
  });

  it('accepts each valid body, by PUT and by PATCH', async () => {
    for (const [path, update] of Object.entries(cases)) {
      if (update.skipValid) continue;
      for (const method of ['put', 'patch'] as const) {
        for (const body of update.bodies) {
          const response = await t.http[method](update.url).set(o.auth).send(body);
          expect(response.status, `${method.toUpperCase()} ${path} ${JSON.stringify(body)} -> ${response.status} ${response.text}`).toBeLessThan(300);
        }
      }
    }
  });

  it('refuses null for every non-nullable body property with 422 naming it, and accepts null where the document says nullable', { timeout: 240_000 }, async () => {
    let refused = 0;
    let accepted = 0;
    for (const { path, schema } of updateOperations()) {
      const update = cases[path];
      for (const method of ['put', 'patch'] as const) {
        const tried = new Set<string>();
        for (const body of update.bodies) {
          for (const property of propertiesOf(document, schema, body)) {
            if (tried.has(property.path)) continue;
            tried.add(property.path);
            const sent = withNull(body, property.steps);
            const response = await t.http[method](update.url).set(o.auth).send(sent);
            const label = `${method.toUpperCase()} ${path} ${JSON.stringify(sent)} -> ${response.status} ${response.text}`;
            if (property.nullable) {
              expect(response.status, label).toBeLessThan(300);
              accepted += 1;
              continue;
            }
            expect(response.status, label).toBe(422);
            expect(response.headers['content-type'], label).toMatch(/^application\/json/);
            expect(response.body, label).toEqual({ status: 422, code: 'validation_failed', message: expect.any(String), errors: expect.any(Array) });
            const fields = (response.body.errors as Array<{ fields: string; code: string; message: string }>).map((error) => error.fields);
            expect(fields.length, label).toBeGreaterThan(0);
            expect(new Set(fields), label).toEqual(new Set([property.path]));
            refused += 1;
          }
        }
      }
    }
    // Every route, both methods: the walk reached the documented bodies, nullable fields included.
    expect(refused).toBeGreaterThan(150);
    expect(accepted).toBeGreaterThan(40);
  });
});
