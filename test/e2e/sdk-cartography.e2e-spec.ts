import SitumSDK from '@situm/sdk-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, TestOrganization } from '../support/auth';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';

/** Buildings, floors and geofences through the official client, unchanged. */

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
const GEOFENCE_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\[UTC\]$/;
const RING: [number, number][] = [
  [42.8723597, -8.5633224],
  [42.8724068, -8.5632165],
  [42.8723292, -8.5631467],
  [42.8723597, -8.5633224],
];

type Loose = Record<string, any>;

describe('@situm/sdk-js cartography against Cartograph', () => {
  let t: TestApp;
  let sdk: SitumSDK;
  let org: TestOrganization;
  let domain: string;

  beforeAll(async () => {
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'SDK cartography');
    sdk = new SitumSDK({ domain, auth: { username: org.email, password: org.password } });
  });
  afterAll(async () => t?.close());

  it('creates, lists, reads and patches buildings, floors and geofences', async () => {
    const building = (await sdk.cartography.createBuilding({
      name: 'Warehouse',
      description: 'Main site',
      info: '<p>Dock <script>alert(1)</script></p>',
      location: { lat: 42.87, lng: -8.56 },
      dimensions: { width: 120, length: 80 },
      rotation: 0.25,
      customFields: [{ key: 'zone', value: 'north' }],
    } as never)) as Loose;
    expect(building).toMatchObject({
      id: expect.any(Number),
      name: 'Warehouse',
      description: 'Main site',
      info: '<p>Dock </p>',
      location: { lat: 42.87, lng: -8.56 },
      dimensions: { width: 120, length: 80 },
      rotation: 0.25,
      customFields: [{ key: 'zone', value: 'north' }],
      userId: org.adminId,
      pois: [],
    });
    expect(building.createdAt).toMatch(TIMESTAMP);

    const buildings = (await sdk.cartography.getBuildings()) as unknown as Loose[];
    expect(buildings.map((item) => item.id)).toEqual([building.id]);

    const patched = (await sdk.cartography.patchBuilding(building.id, { name: 'Warehouse 2' } as never)) as Loose;
    expect(patched).toMatchObject({ id: building.id, name: 'Warehouse 2', location: { lat: 42.87, lng: -8.56 } });

    const floor = (await sdk.cartography.createFloor({ buildingId: building.id, level: 0, levelHeight: 3.5, name: 'Ground', mapId: '' } as never)) as Loose;
    expect(floor).toMatchObject({ id: expect.any(Number), buildingId: building.id, level: 0, levelHeight: 3.5, name: 'Ground' });
    expect(floor.maps).toMatchObject({ mapUrl: '', mapId: '' });
    const upper = (await sdk.cartography.createFloor({ buildingId: building.id, level: 1, mapId: '' } as never)) as Loose;

    const floorsOfBuilding = (await sdk.cartography.getFloors({ buildingId: building.id })) as unknown as Loose[];
    expect(floorsOfBuilding.map((item) => item.id)).toEqual([floor.id, upper.id]);
    const allFloors = (await sdk.cartography.getFloors()) as unknown as Loose[];
    expect(allFloors).toHaveLength(2);
    expect(((await sdk.cartography.getFloorById(upper.id)) as Loose).level).toBe(1);

    const geofence = (await sdk.cartography.createGeofence({
      name: 'Dock',
      buildingId: String(building.id),
      floorId: floor.id,
      geometric: RING,
      code: 'D1',
      info: '<b>dock</b><img src=x onerror=alert(1)>',
      type: 'POLYGON',
      customFields: [{ key: 'k', value: 'v' }],
    } as never)) as Loose;
    expect(geofence).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Dock',
      code: 'D1',
      buildingId: String(building.id),
      floorId: floor.id,
      geometric: RING,
      organizationId: org.organizationId,
      type: 'POLYGON',
      deleted: false,
      info: '<b>dock</b><img src="x" />',
    });
    expect(geofence.description).toBe(geofence.info);
    expect(geofence.createdAt).toMatch(GEOFENCE_TIMESTAMP);
    expect(geofence).not.toHaveProperty('levelId');

    expect(((await sdk.cartography.getGeofenceById(geofence.id)) as Loose).name).toBe('Dock');
    const patchedGeofence = (await sdk.cartography.patchGeofence(geofence.id, { name: 'Dock A' } as never)) as Loose;
    expect(patchedGeofence).toMatchObject({ id: geofence.id, name: 'Dock A', code: 'D1', geometric: RING });

    const page = (await sdk.cartography.getGeofences({ buildingIds: [building.id], page: 0, size: 10 } as never)) as Loose;
    expect(page.data.map((item: Loose) => item.id)).toEqual([geofence.id]);
    expect(page.metadata).toMatchObject({ totalElements: 1, numberOfElements: 1, size: 10, first: true, last: true });

    const detail = (await sdk.cartography.getBuildingById(building.id)) as Loose;
    expect(detail.floors.map((item: Loose) => item.id)).toEqual([floor.id, upper.id]);
    expect(detail.geofences.map((item: Loose) => item.id)).toEqual([geofence.id]);

    await sdk.cartography.deleteGeofence(geofence.id);
    const deleted = (await sdk.cartography.getGeofenceById(geofence.id)) as Loose;
    expect(deleted.deleted).toBe(true);
    const afterDelete = (await sdk.cartography.getGeofences({ buildingIds: [building.id] } as never)) as Loose;
    expect(afterDelete.data).toEqual([]);
    expect(((await sdk.cartography.getBuildingById(building.id)) as Loose).geofences).toEqual([]);
  });

  it('creates, lists, patches and deletes POI categories', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const icon = (await sdk.images.uploadImage(new Blob([png], { type: 'image/png' }), { filename: 'wc.png' })) as Loose;
    expect(icon).toMatchObject({ id: expect.any(String), url: `/api/v1/images/${icon.id}` });

    const created = (await sdk.cartography.createPoiCategory({ nameEn: 'Toilets', nameEs: 'Aseos', code: 'wc', icon: icon.id } as never)) as Loose;
    expect(created).toMatchObject({
      id: expect.any(Number),
      nameEn: 'Toilets',
      nameEs: 'Aseos',
      code: 'wc',
      public: false,
      iconUrl: `/api/v1/images/${icon.id}`,
      selectedIconUrl: '',
    });
    expect(created.createdAt).toMatch(TIMESTAMP);

    const plain = (await sdk.cartography.createPoiCategory({ nameEn: 'Exits', code: 'exit' } as never)) as Loose;
    const listed = (await sdk.cartography.getPoiCategories()) as unknown as Loose[];
    // The client prefixes its domain to relative icon URLs; an unset icon is "" (never null).
    expect(listed.map((category) => [category.code, category.iconUrl])).toEqual([
      ['wc', `${domain}/api/v1/images/${icon.id}`],
      ['exit', domain],
    ]);

    const patched = (await sdk.cartography.patchPoiCategory(created.id, { nameEn: 'Restrooms' } as never)) as Loose;
    expect(patched).toMatchObject({ id: created.id, nameEn: 'Restrooms', code: 'wc' });

    await sdk.cartography.deletePoiCategory(plain.id);
    const remaining = (await sdk.cartography.getPoiCategories()) as unknown as Loose[];
    expect(remaining.map((category) => category.id)).toEqual([created.id]);
  });
});
