import SitumSDK from '@situm/sdk-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Geofence } from '../../src/cartography/geofences/geofence.entity';
import {
  buildingPart,
  buildingState,
  Cartographer,
  countQueries,
  createBuilding,
  createFloor,
  createGeofence,
  createSite,
  expectError,
  expectStatus,
  FloorBody,
  floorRow,
  floorRowsOf,
  GeofenceBody,
  geofenceRow,
  insertGeofences,
  keysOf,
  signUp,
  Site,
} from '../support/cartography';
import {
  BUILDING_DOCUMENT_KEYS,
  createCategory,
  createPoi,
  insertPois,
  pathGraphRow,
  PathsBody,
  PoiBody,
  poiAndPathState,
  poiInput,
  poiRow,
  poiRowsOf,
  putPaths,
} from '../support/pois';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';

type Loose = Record<string, any>;

const CENTRE = { lat: 42.8723597, lng: -8.5633224 };
const byId = <T extends { id: string | number }>(items: T[]): T[] => [...items].sort((x, y) => String(x.id).localeCompare(String(y.id)));

/** A building with two floors, POIs on each and outdoors, live and deleted geofences, and no graph yet. */
interface Furnished {
  site: Site;
  upper: FloorBody;
  indoor: PoiBody[];
  outdoor: PoiBody[];
  live: GeofenceBody[];
  deleted: GeofenceBody;
}

describe('the building document and deletion of what it holds', () => {
  let t: TestApp;
  let domain: string;
  let a: Cartographer;
  let b: Cartographer;

  beforeAll(async () => {
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    a = await signUp(t, 'Document A');
    b = await signUp(t, 'Document B');
  });
  afterAll(async () => t?.close());

  const get = (c: Cartographer, url: string) => t.http.get(url).set(c.auth);

  async function furnish(c: Cartographer): Promise<Furnished> {
    const site = await createSite(t, c.auth);
    const upper = await createFloor(t, c.auth, site.building.id, { level: 1, name: 'Upper' });
    const category = await createCategory(t, c.auth, 'Shops');
    const indoor = [
      await createPoi(t, c.auth, poiInput(site.building.id, site.floor.id, { name: 'Ground POI', category_id: category.id })),
      await createPoi(t, c.auth, poiInput(site.building.id, upper.id, { name: 'Upper POI' })),
    ];
    const outdoor = [await createPoi(t, c.auth, poiInput(site.building.id, null, { name: 'Outdoor POI' }, { lat: CENTRE.lat + 0.001, lng: CENTRE.lng }))];
    const live = [
      await createGeofence(t, c.auth, site.place, { name: 'Ground zone' }),
      await createGeofence(t, c.auth, { buildingId: site.building.id, floorId: upper.id }, { name: 'Upper zone' }),
    ];
    const deleted = await createGeofence(t, c.auth, site.place, { name: 'Deleted zone' });
    await t.http.delete(`/api/v1/geofences/${deleted.id}`).set(c.auth).expect(204);
    return { site, upper, indoor, outdoor, live, deleted };
  }

  /** A graph with two nodes on each floor: 1-2 on the ground floor, 3-4 upstairs, 2-3 between them. */
  const twoFloorGraph = (f: Furnished) => ({
    nodes: [
      { id: 1, floor_id: f.site.floor.id, x: 1, y: 1 },
      { id: 2, floor_id: f.site.floor.id, x: 2, y: 1 },
      { id: 3, floor_id: f.upper.id, x: 2, y: 1 },
      { id: 4, floor_id: f.upper.id, x: 3, y: 1 },
    ],
    links: [
      { source: 1, target: 2 },
      { source: 2, target: 3, tags: ['lift'] },
      { source: 3, target: 4 },
    ],
  });

  describe('GET /api/v1/buildings/{id}', () => {
    it('is the building with floors, indoor_pois, outdoor_pois, live geofences, paths ({} then { nodes, links }) and events []', async () => {
      const f = await furnish(a);
      // Noise that must not show: another building of A, and B's building.
      const elsewhere = await furnish(a);
      await putPaths(t, a.auth, elsewhere.site.building.id, twoFloorGraph(elsewhere));
      await furnish(b);

      const response = await get(a, `/api/v1/buildings/${f.site.building.id}`);
      expectStatus(response, 200);
      const document = response.body;
      expect(keysOf(document)).toEqual(BUILDING_DOCUMENT_KEYS);
      expect(buildingPart(document)).toEqual(f.site.building);
      expect(response.headers.etag).toMatch(/^"1\.\d+"$/);

      const floors = await Promise.all([f.site.floor, f.upper].map(async (floor) => (await get(a, `/api/v1/floors/${floor.id}`)).body));
      expect(document.floors).toEqual(floors);
      const indoor = (await get(a, `/api/v1/pois?building_id=${f.site.building.id}&type=indoor`)).body;
      const outdoor = (await get(a, `/api/v1/pois?building_id=${f.site.building.id}&type=outdoor`)).body;
      expect(indoor).toEqual(f.indoor);
      expect(outdoor).toEqual(f.outdoor);
      expect(byId(document.indoor_pois)).toEqual(byId(f.indoor));
      expect(byId(document.outdoor_pois)).toEqual(byId(f.outdoor));
      expect(document.indoor_pois[0].category_name === 'Shops' || document.indoor_pois[1].category_name === 'Shops').toBe(true);
      const geofences = await Promise.all(f.live.map(async (geofence) => (await get(a, `/api/v1/geofences/${geofence.id}`)).body));
      expect(byId(document.geofences)).toEqual(byId(geofences));
      expect(document.geofences.map((geofence: GeofenceBody) => geofence.id)).not.toContain(f.deleted.id);
      expect(document.paths).toEqual({});
      expect(document.events).toEqual([]);

      const graph = await putPaths(t, a.auth, f.site.building.id, twoFloorGraph(f));
      const withPaths = (await get(a, `/api/v1/buildings/${f.site.building.id}`)).body;
      expect(withPaths.paths).toEqual({ nodes: graph.nodes, links: graph.links });
      expect(keysOf(withPaths.paths)).toEqual(['links', 'nodes']);
      expect(withPaths.paths.links[1]).toEqual({ source: 2, target: 3, origin: 'both', tags: ['lift'], accessible: true, connector: null });
      expect({ ...withPaths, paths: {} }).toEqual(document);
    });

    it('always shows what is stored: after every kind of write it equals the same data read from the individual routes', async () => {
      const f = await furnish(a);
      const other = await furnish(a);
      const category = await createCategory(t, a.auth, 'Before rename');
      const spare = await createCategory(t, a.auth, 'Spare');

      const assembled = async (buildingId: number) => {
        const building = ((await get(a, '/api/v1/buildings')).body as Array<{ id: number }>).find((item) => item.id === buildingId);
        const floors = (await get(a, `/api/v1/buildings/${buildingId}/floors`)).body;
        const indoor = (await get(a, `/api/v1/pois?building_id=${buildingId}&type=indoor`)).body;
        const outdoor = (await get(a, `/api/v1/pois?building_id=${buildingId}&type=outdoor`)).body;
        const geofences = (await get(a, `/api/v1/geofences?building_ids=${buildingId}&size=1000`)).body.data;
        const paths = await get(a, `/api/v1/buildings/${buildingId}/paths`);
        return {
          ...building,
          floors,
          indoor_pois: indoor,
          outdoor_pois: outdoor,
          geofences: byId(geofences),
          paths: paths.status === 404 ? {} : { nodes: paths.body.nodes, links: paths.body.links },
          events: [],
        };
      };
      const expectFresh = async (step: string) => {
        for (const buildingId of [f.site.building.id, other.site.building.id]) {
          const response = await get(a, `/api/v1/buildings/${buildingId}`);
          expectStatus(response, 200);
          expect(response.headers['content-type']).toMatch(/^application\/json/);
          expect({ ...response.body, geofences: byId(response.body.geofences) }, `${step} (building ${buildingId})`).toEqual(await assembled(buildingId));
        }
      };

      await expectFresh('initial');
      const poi = await createPoi(t, a.auth, poiInput(f.site.building.id, f.site.floor.id, { name: 'Fresh', category_id: category.id }));
      await expectFresh('POI created');
      await t.http.put(`/api/v1/pois/${poi.id}`).set(a.auth).send({ name: 'Fresh renamed' }).expect(200);
      await expectFresh('POI renamed');
      await t.http.put(`/api/v1/poi_categories/${category.id}`).set(a.auth).send({ name_en: 'After rename' }).expect(200);
      await expectFresh('category renamed');
      await t.http
        .put(`/api/v1/pois/${poi.id}`)
        .set(a.auth)
        .send({ position: { floor_id: null, georeferences: CENTRE } })
        .expect(200);
      await expectFresh('POI moved outdoors');
      await t.http.put(`/api/v1/pois/${poi.id}`).set(a.auth).send({ building_id: other.site.building.id }).expect(200);
      await expectFresh('POI moved to the other building');
      await t.http.delete(`/api/v1/poi_categories/${category.id}?reassign_to=${spare.id}`).set(a.auth).expect(204);
      await expectFresh('category deleted, its POIs reassigned');
      await t.http.delete(`/api/v1/pois/${poi.id}`).set(a.auth).expect(204);
      await expectFresh('POI deleted');
      await t.http
        .post('/api/v1/pois_bulk')
        .set(a.auth)
        .send([poiInput(f.site.building.id, f.upper.id, { name: 'Bulk 1' }), poiInput(other.site.building.id, null, { name: 'Bulk 2' })])
        .expect(201);
      await expectFresh('bulk created');
      const zone = await createGeofence(t, a.auth, f.site.place, { name: 'Fresh zone' });
      await expectFresh('geofence created');
      await t.http.put(`/api/v1/geofences/${zone.id}`).set(a.auth).send({ name: 'Fresh zone 2' }).expect(200);
      await expectFresh('geofence renamed');
      await t.http.delete(`/api/v1/geofences/${zone.id}`).set(a.auth).expect(204);
      await expectFresh('geofence deleted');
      const floor = await createFloor(t, a.auth, f.site.building.id, { level: 7, name: 'Fresh floor' });
      await expectFresh('floor created');
      await t.http.put(`/api/v1/floors/${floor.id}`).set(a.auth).send({ name: 'Fresh floor 2' }).expect(200);
      await expectFresh('floor renamed');
      await t.http.delete(`/api/v1/floors/${floor.id}`).set(a.auth).expect(204);
      await expectFresh('floor deleted');
      await putPaths(t, a.auth, f.site.building.id, twoFloorGraph(f));
      await expectFresh('paths stored');
      await putPaths(t, a.auth, f.site.building.id, { nodes: [{ id: 9, floor_id: f.upper.id, x: 1, y: 1 }], links: [] });
      await expectFresh('paths replaced');
      await t.http.put(`/api/v1/buildings/${f.site.building.id}`).set(a.auth).send({ name: 'Fresh building' }).expect(200);
      await expectFresh('building renamed');
      await t.http.delete(`/api/v1/floors/${f.upper.id}?cascade=true`).set(a.auth).expect(204);
      await expectFresh('floor deleted with cascade');
    });

    it('through the official client: getBuildingById merges indoor and outdoor POIs into pois (location, floorId)', async () => {
      const f = await furnish(a);
      const graph = await putPaths(t, a.auth, f.site.building.id, twoFloorGraph(f));
      const raw = (await get(a, `/api/v1/buildings/${f.site.building.id}`)).body;
      const sdk = new SitumSDK({ domain, auth: { username: a.org.email, password: a.org.password } });
      const building = (await sdk.cartography.getBuildingById(f.site.building.id)) as unknown as Loose;

      expect(building).toMatchObject({ id: f.site.building.id, name: f.site.building.name, userId: a.org.adminId });
      expect(building).not.toHaveProperty('indoorPois');
      expect(building).not.toHaveProperty('outdoorPois');
      expect(building).not.toHaveProperty('userUuid');
      const pois = building.pois as Loose[];
      expect(pois.map((poi) => poi.id).sort((x, y) => x - y)).toEqual([...f.indoor, ...f.outdoor].map((poi) => poi.id).sort((x, y) => x - y));
      for (const poi of pois) {
        const server = [...raw.indoor_pois, ...raw.outdoor_pois].find((item: PoiBody) => item.id === poi.id) as PoiBody;
        expect(poi).not.toHaveProperty('position');
        expect(poi.floorId).toBe(server.position.floor_id);
        expect(poi.location).toEqual({ lat: server.position.lat, lng: server.position.lng, x: server.position.x, y: server.position.y });
        expect(poi).toMatchObject({ name: server.name, buildingId: f.site.building.id, type: server.type, categoryName: server.category_name, infoUnsafe: server.info_unsafe });
      }
      expect(pois.find((poi) => poi.type === 'outdoor')!.floorId).toBeNull();
      expect(building.floors.map((floor: Loose) => floor.id)).toEqual([f.site.floor.id, f.upper.id]);
      expect(building.geofences.map((geofence: Loose) => geofence.id).sort()).toEqual(f.live.map((geofence) => geofence.id).sort());
      expect(building.paths.nodes.map((node: Loose) => [node.id, node.floorId])).toEqual(graph.nodes.map((node) => [node.id, node.floor_id]));
      expect(building.paths.links).toEqual(graph.links);
      expect(building.events).toEqual([]);
    });

    it("is 404 for another organization's building", async () => {
      const theirs = await furnish(b);
      expectError(await get(a, `/api/v1/buildings/${theirs.site.building.id}`), 404, 'entity_not_found');
    });
  });

  describe('DELETE /api/v1/buildings/{id}', () => {
    const dependents: Array<[string, (c: Cartographer, site: Site) => Promise<unknown>]> = [
      ['an indoor POI', (c, site) => createPoi(t, c.auth, poiInput(site.building.id, site.floor.id))],
      ['an outdoor POI', (c, site) => createPoi(t, c.auth, poiInput(site.building.id, null))],
      ['path nodes', (c, site) => putPaths(t, c.auth, site.building.id, { nodes: [{ id: 1, floor_id: site.floor.id, x: 1, y: 1 }], links: [] })],
    ];

    it.each(dependents)('with %s (and nothing else) and cascade=false is 409 conflict and changes nothing', async (_label, add) => {
      const site = await createSite(t, a.auth);
      await add(a, site);
      const before = { ...(await buildingState(t, site.building.id)), ...(await poiAndPathState(t, site.building.id)) };
      for (const url of [`/api/v1/buildings/${site.building.id}?cascade=false`]) {
        expectError(await t.http.delete(url).set(a.auth), 409, 'conflict');
      }
      expect({ ...(await buildingState(t, site.building.id)), ...(await poiAndPathState(t, site.building.id)) }).toEqual(before);
      expectStatus(await get(a, `/api/v1/buildings/${site.building.id}`), 200);
    });

    it('with cascade=true: 204, its POIs and graph are gone and its live geofences are deleted: true; nothing else changes', async () => {
      const f = await furnish(a);
      await putPaths(t, a.auth, f.site.building.id, twoFloorGraph(f));
      const bystander = await furnish(a);
      const bystanderGraph = await putPaths(t, a.auth, bystander.site.building.id, twoFloorGraph(bystander));
      const bystanderBefore = { ...(await buildingState(t, bystander.site.building.id)), ...(await poiAndPathState(t, bystander.site.building.id)) };
      const deletedRow = await geofenceRow(t, f.deleted.id);

      expectStatus(await t.http.delete(`/api/v1/buildings/${f.site.building.id}?cascade=true`).set(a.auth), 204);

      expectError(await get(a, `/api/v1/buildings/${f.site.building.id}`), 404, 'entity_not_found');
      expect(await poiRowsOf(t, f.site.building.id)).toEqual([]);
      for (const poi of [...f.indoor, ...f.outdoor]) expectError(await get(a, `/api/v1/pois/${poi.id}`), 404, 'entity_not_found');
      const listed = (await get(a, '/api/v1/pois')).body as PoiBody[];
      expect(listed.filter((poi) => poi.building_id === f.site.building.id)).toEqual([]);
      expect(await pathGraphRow(t, f.site.building.id)).toBeNull();
      expect((await get(a, `/api/v1/paths?building_id=${f.site.building.id}`)).body).toEqual([]);
      for (const geofence of f.live) {
        expect((await geofenceRow(t, geofence.id))!.deleted).toBe(true);
        expect((await get(a, `/api/v1/geofences/${geofence.id}`)).body).toMatchObject({ id: geofence.id, deleted: true });
      }
      expect(await geofenceRow(t, f.deleted.id)).toEqual(deletedRow);
      expect((await floorRowsOf(t, f.site.building.id)).every((floor) => floor.deletedAt !== null)).toBe(true);

      expect({ ...(await buildingState(t, bystander.site.building.id)), ...(await poiAndPathState(t, bystander.site.building.id)) }).toEqual(bystanderBefore);
      expect((await get(a, `/api/v1/buildings/${bystander.site.building.id}/paths`)).body).toEqual(bystanderGraph);
    });
  });

  describe('DELETE /api/v1/floors/{id}', () => {
    it('is 409 while POIs or path nodes are on the floor, and changes nothing', async () => {
      const withPoi = await createSite(t, a.auth);
      await createPoi(t, a.auth, poiInput(withPoi.building.id, withPoi.floor.id));
      const withNodes = await createSite(t, a.auth);
      await putPaths(t, a.auth, withNodes.building.id, { nodes: [{ id: 1, floor_id: withNodes.floor.id, x: 1, y: 1 }], links: [] });
      for (const site of [withPoi, withNodes]) {
        const before = { floor: await floorRow(t, site.floor.id), ...(await poiAndPathState(t, site.building.id)) };
        for (const url of [`/api/v1/floors/${site.floor.id}`, `/api/v1/floors/${site.floor.id}?cascade=false`]) {
          expectError(await t.http.delete(url).set(a.auth), 409, 'conflict');
        }
        expect({ floor: await floorRow(t, site.floor.id), ...(await poiAndPathState(t, site.building.id)) }).toEqual(before);
        expectStatus(await get(a, `/api/v1/floors/${site.floor.id}`), 200);
      }
    });

    it('needs no cascade when only a sibling floor or the outdoors holds POIs and nodes', async () => {
      const site = await createSite(t, a.auth);
      const empty = await createFloor(t, a.auth, site.building.id, { level: 1 });
      const poi = await createPoi(t, a.auth, poiInput(site.building.id, site.floor.id));
      const outdoor = await createPoi(t, a.auth, poiInput(site.building.id, null));
      const graph = await putPaths(t, a.auth, site.building.id, { nodes: [{ id: 1, floor_id: site.floor.id, x: 1, y: 1 }], links: [] });
      expectStatus(await t.http.delete(`/api/v1/floors/${empty.id}`).set(a.auth), 204);
      expect((await poiRow(t, poi.id))!.floorId).toBe(site.floor.id);
      expect(await poiRow(t, outdoor.id)).not.toBeNull();
      expect((await get(a, `/api/v1/buildings/${site.building.id}/paths`)).body).toEqual(graph);
    });

    it("with cascade=true: 204, the floor's POIs are deleted, its nodes removed with their links, its geofences deleted: true; the rest stays", async () => {
      const f = await furnish(a);
      await putPaths(t, a.auth, f.site.building.id, twoFloorGraph(f));
      const [groundPoi, upperPoi] = f.indoor;
      const [groundZone, upperZone] = f.live;

      expectStatus(await t.http.delete(`/api/v1/floors/${f.site.floor.id}?cascade=true`).set(a.auth), 204);

      expect(await poiRow(t, groundPoi.id)).toBeNull();
      expectError(await get(a, `/api/v1/pois/${groundPoi.id}`), 404, 'entity_not_found');
      expect((await get(a, `/api/v1/pois/${upperPoi.id}`)).body).toEqual(upperPoi);
      expect((await get(a, `/api/v1/pois/${f.outdoor[0].id}`)).body).toEqual(f.outdoor[0]);

      const paths = (await get(a, `/api/v1/buildings/${f.site.building.id}/paths`)).body as PathsBody;
      expect(paths.nodes.map((node) => [node.id, node.floor_id])).toEqual([
        [3, f.upper.id],
        [4, f.upper.id],
      ]);
      expect(paths.links).toEqual([{ source: 3, target: 4, origin: 'both', tags: [], accessible: true, connector: null }]);

      expect((await geofenceRow(t, groundZone.id))!.deleted).toBe(true);
      expect((await get(a, `/api/v1/geofences/${groundZone.id}`)).body.deleted).toBe(true);
      expect((await geofenceRow(t, upperZone.id))!.deleted).toBe(false);

      const document = (await get(a, `/api/v1/buildings/${f.site.building.id}`)).body;
      expect(document.floors.map((floor: FloorBody) => floor.id)).toEqual([f.upper.id]);
      expect(document.indoor_pois).toEqual([upperPoi]);
      expect(document.outdoor_pois).toEqual(f.outdoor);
      expect(document.geofences.map((geofence: GeofenceBody) => geofence.id)).toEqual([upperZone.id]);
      expect(document.paths).toEqual({ nodes: paths.nodes, links: paths.links });
    });
  });

  describe('deletion under concurrency', () => {
    it('a floor deletion racing POI creations and a path PUT never leaves a POI or a path node on a deleted floor', async () => {
      for (let round = 0; round < 8; round += 1) {
        const site = await createSite(t, a.auth);
        const [removal, paths, ...creations] = await Promise.all([
          t.http.delete(`/api/v1/floors/${site.floor.id}`).set(a.auth),
          t.http
            .put(`/api/v1/buildings/${site.building.id}/paths`)
            .set(a.auth)
            .send({ nodes: [{ id: 1, floor_id: site.floor.id, x: 1, y: 1 }], links: [] }),
          ...Array.from({ length: 3 }, () => t.http.post('/api/v1/pois').set(a.auth).send(poiInput(site.building.id, site.floor.id))),
        ]);
        const statuses = `round ${round}: ${[removal, paths, ...creations].map((response) => response.status).join(', ')}`;
        expect([204, 409], statuses).toContain(removal.status);
        expect([200, 422], statuses).toContain(paths.status);
        for (const creation of creations) expect([201, 422], statuses).toContain(creation.status);
        const pois = await poiRowsOf(t, site.building.id);
        const graph = await pathGraphRow(t, site.building.id);
        if (removal.status === 204) {
          expect((await floorRow(t, site.floor.id))!.deletedAt, statuses).not.toBeNull();
          expect(pois, statuses).toEqual([]);
          expect(graph?.nodes ?? [], statuses).toEqual([]);
        } else {
          expect((await floorRow(t, site.floor.id))!.deletedAt, statuses).toBeNull();
          expect(pois.length + (graph?.nodes.length ?? 0), statuses).toBeGreaterThan(0);
        }
      }
    });
  });

  describe('query cost', () => {
    it('GET /api/v1/buildings/{id} costs as many queries for 20 floors, 2,000 POIs and 500 geofences as for 1 floor, 1 POI and 1 geofence', async () => {
      const c = await signUp(t, 'Scale');
      const categories = [await createCategory(t, c.auth, 'One'), await createCategory(t, c.auth, 'Two'), await createCategory(t, c.auth, 'Three')];

      const small = await createSite(t, c.auth, { name: 'Small' });
      await createPoi(t, c.auth, poiInput(small.building.id, small.floor.id, { category_id: categories[0].id }));
      await createGeofence(t, c.auth, small.place);

      const large = await createBuilding(t, c.auth, { name: 'Large' });
      const floors: FloorBody[] = [];
      for (let level = 0; level < 20; level += 1) floors.push(await createFloor(t, c.auth, large.id, { level }));
      const floorIds = floors.map((floor) => floor.id);
      // 2,000 POIs over the 20 floors and the outdoors (one slot in 21), with categories.
      await insertPois(
        t,
        c.org.organizationId,
        large.id,
        [...floorIds, null],
        2000,
        categories.map((category) => category.id),
      );
      for (const floorId of floorIds) await insertGeofences(t, c.org.organizationId, { buildingId: large.id, floorId }, 25);
      const outdoorCount = Array.from({ length: 2000 }, (_, index) => index % 21 === 20).filter(Boolean).length;
      expect(await t.dataSource.getRepository(Geofence).countBy({ buildingId: large.id })).toBe(500);

      // Warm up (connections, prepared statements) before counting.
      await get(c, `/api/v1/buildings/${small.building.id}`).expect(200);
      await get(c, `/api/v1/buildings/${large.id}`).expect(200);
      // A write to each building first, so that both documents are built again (not served
      // from anything kept from the warm-up) while the queries are counted.
      await t.http.put(`/api/v1/buildings/${small.building.id}`).set(c.auth).send({ name: 'Small 2' }).expect(200);
      await t.http.put(`/api/v1/buildings/${large.id}`).set(c.auth).send({ name: 'Large 2' }).expect(200);
      const one = await countQueries(t, () => get(c, `/api/v1/buildings/${small.building.id}`));
      const many = await countQueries(t, () => get(c, `/api/v1/buildings/${large.id}`));
      expectStatus(one.result, 200);
      expectStatus(many.result, 200);
      expect(one.result.body.name).toBe('Small 2');
      expect(many.result.body.name).toBe('Large 2');

      expect(one.result.body.floors).toHaveLength(1);
      expect(one.result.body.indoor_pois).toHaveLength(1);
      expect(one.result.body.indoor_pois[0].category_name).toBe('One');
      expect(one.result.body.geofences).toHaveLength(1);

      const document = many.result.body;
      expect(document.floors.map((floor: FloorBody) => floor.id)).toEqual(floorIds);
      expect(document.indoor_pois).toHaveLength(2000 - outdoorCount);
      expect(document.outdoor_pois).toHaveLength(outdoorCount);
      expect(new Set([...document.indoor_pois, ...document.outdoor_pois].map((poi: PoiBody) => poi.id)).size).toBe(2000);
      expect(new Set(document.indoor_pois.map((poi: PoiBody) => poi.category_name))).toEqual(new Set(['One', 'Two', 'Three']));
      expect(document.indoor_pois.every((poi: PoiBody) => floorIds.includes(poi.position.floor_id!))).toBe(true);
      expect(document.geofences).toHaveLength(500);

      expect(one.queries.length).toBeGreaterThan(0);
      expect(many.queries.length, `small:\n${one.queries.join('\n')}\nlarge:\n${many.queries.join('\n')}`).toBe(one.queries.length);
    });
  });
});
