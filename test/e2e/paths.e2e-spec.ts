import SitumSDK from '@situm/sdk-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asApiKey, createApiKey } from '../support/auth';
import {
  Cartographer,
  CARTOGRAPHY_KEY_LEVELS,
  createBuilding,
  createFloor,
  createSite,
  errorFields,
  expectError,
  expectStatus,
  keysOf,
  MALFORMED_INTEGER_IDS,
  MISSING_INTEGER_ID,
  signUp,
  Site,
} from '../support/cartography';
import { createPoi, DEFAULT_ROUTE_SETTINGS, metresBetween, PATH_LINK_KEYS, PATH_NODE_KEYS, pathGraphCount, pathGraphRow, PATHS_KEYS, PathsBody, putPaths } from '../support/pois';
import { listenOnLoopback } from '../support/sdk-client';
import { PathConnectors1764300000000 } from '../../migrations/1764300000000-PathConnectors';
import { PathGraph } from '../../src/cartography/paths/path-graph.entity';
import { createTestApp, TestApp } from '../support/test-app';

type Loose = Record<string, any>;

const CENTRE = { lat: 42.8723597, lng: -8.5633224 };
const CM = 0.01;

/** A small valid graph on one floor: 1 - 2 - 3. */
const line = (floorId: number, base = 1) => ({
  nodes: [
    { id: base, floor_id: floorId, x: 1, y: 1 },
    { id: base + 1, floor_id: floorId, x: 2, y: 1 },
    { id: base + 2, floor_id: floorId, x: 3, y: 1 },
  ],
  links: [
    { source: base, target: base + 1 },
    { source: base + 1, target: base + 2 },
  ],
});

describe('paths (wayfinding graphs)', () => {
  let t: TestApp;
  let domain: string;
  let a: Cartographer;
  let b: Cartographer;

  beforeAll(async () => {
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    a = await signUp(t, 'Paths A');
    b = await signUp(t, 'Paths B');
  });
  afterAll(async () => t?.close());

  const get = (c: Cartographer, url: string) => t.http.get(url).set(c.auth);
  const put = (c: Cartographer, buildingId: number, body: unknown) =>
    t.http
      .put(`/api/v1/buildings/${buildingId}/paths`)
      .set(c.auth)
      .send(body as object);

  describe('before the first PUT', () => {
    it('GET /api/v1/buildings/{id}/paths is 404 entity_not_found; the list and the document have nothing', async () => {
      const site = await createSite(t, a.auth);
      expectError(await get(a, `/api/v1/buildings/${site.building.id}/paths`), 404, 'entity_not_found');
      expectError(await get(a, `/api/v1/buildings/${site.building.id}/paths/`), 404, 'entity_not_found');
      expect((await get(a, `/api/v1/paths?building_id=${site.building.id}`)).body).toEqual([]);
      expect((await get(a, `/api/v1/buildings/${site.building.id}`)).body.paths).toEqual({});
      expect(await pathGraphRow(t, site.building.id)).toBeNull();
    });
  });

  describe('PUT /api/v1/buildings/{id}/paths', () => {
    it('stores nodes given by x/y or by lat/lng, deriving the other (they round-trip), and link defaults', async () => {
      const site = await createSite(t, a.auth);
      const upper = await createFloor(t, a.auth, site.building.id, { level: 1 });
      // A POI by cartesians (0, 0) tells where the plan's corner is: the paths must agree.
      const corner = await createPoi(t, a.auth, { building_id: site.building.id, name: 'Corner', position: { floor_id: site.floor.id, cartesians: { x: 0, y: 0 } } });
      const response = await put(a, site.building.id, {
        nodes: [
          { id: 1, floor_id: site.floor.id, x: 60.25, y: 40 },
          { id: 2, floor_id: site.floor.id, lat: CENTRE.lat, lng: CENTRE.lng },
          { id: 3, floor_id: site.floor.id, x: 0, y: 0 },
          { id: 4, floor_id: upper.id, lat: corner.position.lat, lng: corner.position.lng },
          { id: 5, floor_id: upper.id, x: 30, y: 40 },
        ],
        links: [
          { source: 1, target: 3 },
          { source: 3, target: 2, origin: 'source', tags: ['stairs', 'slow'], accessible: false },
          { source: 4, target: 5, origin: 'target', accessible: true },
          { source: 2, target: 4, tags: [] },
        ],
      });
      expectStatus(response, 200);
      const body = response.body as PathsBody;
      expect(keysOf(body)).toEqual(PATHS_KEYS);
      expect(body.building_id).toBe(site.building.id);
      expect(body.nodes.map((node) => node.id)).toEqual([1, 2, 3, 4, 5]);
      for (const node of body.nodes) expect(keysOf(node)).toEqual(PATH_NODE_KEYS);
      const [centreByXy, centreByGeo, cornerByXy, cornerByGeo, far] = body.nodes;
      expect(centreByXy).toMatchObject({ floor_id: site.floor.id, x: 60.25, y: 40 });
      expect(centreByXy.lat).toBeCloseTo(CENTRE.lat, 10);
      expect(centreByXy.lng).toBeCloseTo(CENTRE.lng, 10);
      expect(centreByGeo).toMatchObject({ floor_id: site.floor.id, lat: CENTRE.lat, lng: CENTRE.lng });
      expect(centreByGeo.x).toBeCloseTo(60.25, 9);
      expect(centreByGeo.y).toBeCloseTo(40, 9);
      expect(cornerByXy).toMatchObject({ x: 0, y: 0 });
      expect(cornerByXy.lat).toBeCloseTo(corner.position.lat, 10);
      expect(cornerByXy.lng).toBeCloseTo(corner.position.lng, 10);
      expect(cornerByGeo).toMatchObject({ floor_id: upper.id, lat: corner.position.lat, lng: corner.position.lng });
      expect(cornerByGeo.x).toBeCloseTo(0, 6);
      expect(cornerByGeo.y).toBeCloseTo(0, 6);
      expect(Math.abs(metresBetween(cornerByXy, far) - 50)).toBeLessThan(CM);

      expect(body.links).toEqual([
        { source: 1, target: 3, origin: 'both', tags: [], accessible: true, connector: null },
        { source: 3, target: 2, origin: 'source', tags: ['stairs', 'slow'], accessible: false, connector: null },
        { source: 4, target: 5, origin: 'target', tags: [], accessible: true, connector: null },
        { source: 2, target: 4, origin: 'both', tags: [], accessible: true, connector: null },
      ]);
      for (const link of body.links) expect(keysOf(link)).toEqual(PATH_LINK_KEYS);

      const read = await get(a, `/api/v1/buildings/${site.building.id}/paths`);
      expectStatus(read, 200);
      expect(read.body).toEqual(body);
      const listed = await get(a, `/api/v1/paths?building_id=${site.building.id}`);
      expect(listed.body).toEqual([body]);
      const document = await get(a, `/api/v1/buildings/${site.building.id}`);
      expect(document.body.paths).toEqual({ nodes: body.nodes, links: body.links });
      expect(await pathGraphRow(t, site.building.id)).toMatchObject({ organizationId: a.org.organizationId, nodes: body.nodes, links: body.links });
    });

    it('keeps the connector type of a floor link as given (null: derived from the tags), for old clients too', async () => {
      const site = await createSite(t, a.auth);
      const upper = await createFloor(t, a.auth, site.building.id, { level: 1 });
      const stored = await putPaths(t, a.auth, site.building.id, {
        nodes: [
          { id: 1, floor_id: site.floor.id, x: 1, y: 1 },
          { id: 2, floor_id: upper.id, x: 1, y: 1 },
          { id: 3, floor_id: site.floor.id, x: 5, y: 1 },
          { id: 4, floor_id: upper.id, x: 5, y: 1 },
        ],
        links: [
          { source: 1, target: 2, connector: 'escalator', tags: ['stairs'] },
          { source: 3, target: 4, connector: null, tags: ['lift'] },
          { source: 1, target: 3 },
        ],
      });
      expect(stored.links.map((link) => link.connector)).toEqual(['escalator', null, null]);
      expect((await get(a, `/api/v1/buildings/${site.building.id}/paths`)).body).toEqual(stored);
      expect((await get(a, `/api/v1/buildings/${site.building.id}`)).body.paths.links).toEqual(stored.links);
    });

    it('migration PathConnectors gives a graph stored before connectors connector: null on every link (and keeps those given)', async () => {
      const site = await createSite(t, a.auth);
      const stored = await putPaths(t, a.auth, site.building.id, line(site.floor.id));
      const old = stored.links.map(({ connector: _connector, ...link }) => link);
      await t.dataSource.getRepository(PathGraph).update({ buildingId: site.building.id }, { links: old as never });
      const runner = t.dataSource.createQueryRunner();
      try {
        expect((await pathGraphRow(t, site.building.id))!.links).toEqual(old);
        // Up only: down would strip the connectors of every graph of this shared database.
        await new PathConnectors1764300000000().up(runner);
        expect((await pathGraphRow(t, site.building.id))!.links).toEqual(stored.links);
      } finally {
        await runner.release();
      }
    });

    it('keeps the routing settings: defaults until set, the fields set (others default) when given, unchanged when left out', async () => {
      const site = await createSite(t, a.auth);
      expect((await putPaths(t, a.auth, site.building.id, line(site.floor.id))).settings).toEqual(DEFAULT_ROUTE_SETTINGS);
      const set = await putPaths(t, a.auth, site.building.id, { ...line(site.floor.id), settings: { snap_distance_m: 25, elevator_wait_s: 0, off_route_fixes: 5 } });
      expect(set.settings).toEqual({ ...DEFAULT_ROUTE_SETTINGS, snap_distance_m: 25, elevator_wait_s: 0, off_route_fixes: 5 });
      expect((await pathGraphRow(t, site.building.id))!.routeSettings).toEqual({ snap_distance_m: 25, elevator_wait_s: 0, off_route_fixes: 5 });
      // A client that knows only the graph replaces only the graph.
      const kept = await putPaths(t, a.auth, site.building.id, line(site.floor.id, 10));
      expect(kept.settings).toEqual(set.settings);
      expect((await get(a, `/api/v1/buildings/${site.building.id}/paths`)).body.settings).toEqual(set.settings);
      expect((await putPaths(t, a.auth, site.building.id, { ...line(site.floor.id), settings: {} })).settings).toEqual(DEFAULT_ROUTE_SETTINGS);
      for (const [field, value] of [
        ['snap_distance_m', 0],
        ['snap_distance_m', 101],
        ['stairs_speed_factor', 0],
        ['elevator_wait_s', -1],
        ['escalator_s_per_floor', '20'],
        ['ramp_speed_factor', null],
        ['off_route_distance_m', 0.1],
        ['off_route_distance_m', null],
        ['off_route_fixes', 0],
        ['off_route_fixes', 2.5],
        ['off_route_fixes', 101],
      ] as const) {
        const response = await put(a, site.building.id, { ...line(site.floor.id), settings: { [field]: value } });
        expectError(response, 422, 'validation_failed');
        expect([...new Set(errorFields(response))]).toEqual([`settings.${field}`]);
      }
      expect([...new Set(errorFields(await put(a, site.building.id, { ...line(site.floor.id), settings: null })))]).toEqual(['settings']);
    });

    it.each(['put', 'patch'] as const)('%s replaces the whole graph: nothing of the previous one remains', async (method) => {
      const site = await createSite(t, a.auth);
      const upper = await createFloor(t, a.auth, site.building.id, { level: 1 });
      await putPaths(t, a.auth, site.building.id, line(site.floor.id, 1));
      const replaced = await t.http[method](`/api/v1/buildings/${site.building.id}/paths`)
        .set(a.auth)
        .send({
          nodes: [
            { id: 10, floor_id: upper.id, x: 5, y: 5 },
            { id: 11, floor_id: upper.id, x: 6, y: 5 },
          ],
          links: [{ source: 11, target: 10, accessible: false }],
        });
      expectStatus(replaced, 200);
      const read = await get(a, `/api/v1/buildings/${site.building.id}/paths`);
      expect(read.body).toEqual(replaced.body);
      expect(read.body.nodes.map((node: { id: number; floor_id: number }) => [node.id, node.floor_id])).toEqual([
        [10, upper.id],
        [11, upper.id],
      ]);
      expect(read.body.links).toEqual([{ source: 11, target: 10, origin: 'both', tags: [], accessible: false, connector: null }]);
      expect((await get(a, `/api/v1/paths?building_id=${site.building.id}`)).body).toEqual([read.body]);

      const emptied = await put(a, site.building.id, { nodes: [], links: [] });
      expectStatus(emptied, 200);
      expect(emptied.body).toEqual({ building_id: site.building.id, nodes: [], links: [], settings: DEFAULT_ROUTE_SETTINGS });
      expect((await get(a, `/api/v1/buildings/${site.building.id}/paths`)).body).toEqual(emptied.body);
      expect((await get(a, `/api/v1/buildings/${site.building.id}`)).body.paths).toEqual({ nodes: [], links: [] });
    });

    describe('refuses an invalid graph with 422 naming the field, and stores nothing', () => {
      let site: Site;
      let sibling: Site;
      let theirs: Site;
      let deletedFloor: number;

      beforeAll(async () => {
        site = await createSite(t, a.auth);
        sibling = await createSite(t, a.auth);
        theirs = await createSite(t, b.auth);
        deletedFloor = (await createFloor(t, a.auth, site.building.id, { level: 5 })).id;
        await t.http.delete(`/api/v1/floors/${deletedFloor}`).set(a.auth).expect(204);
      });

      const cases: Array<[string, () => Record<string, unknown>, string[]]> = [
        ['a link to a missing node', () => ({ ...line(site.floor.id), links: [{ source: 1, target: 99 }] }), ['links[0].target']],
        [
          'a link from a missing node',
          () => ({
            ...line(site.floor.id),
            links: [
              { source: 1, target: 2 },
              { source: 77, target: 3 },
            ],
          }),
          ['links[1].source'],
        ],
        [
          'a node on a floor of another building',
          () => ({
            nodes: [
              { id: 1, floor_id: site.floor.id, x: 1, y: 1 },
              { id: 2, floor_id: sibling.floor.id, x: 2, y: 2 },
            ],
            links: [],
          }),
          ['nodes[1].floor_id'],
        ],
        [
          "a node on another organization's floor",
          () => ({
            nodes: [
              { id: 1, floor_id: site.floor.id, x: 1, y: 1 },
              { id: 2, floor_id: theirs.floor.id, x: 2, y: 2 },
            ],
            links: [],
          }),
          ['nodes[1].floor_id'],
        ],
        [
          'a node on an unknown floor',
          () => ({
            nodes: [
              { id: 1, floor_id: site.floor.id, x: 1, y: 1 },
              { id: 2, floor_id: MISSING_INTEGER_ID, x: 2, y: 2 },
            ],
            links: [],
          }),
          ['nodes[1].floor_id'],
        ],
        [
          'a node on a deleted floor',
          () => ({
            nodes: [
              { id: 1, floor_id: site.floor.id, x: 1, y: 1 },
              { id: 2, floor_id: deletedFloor, x: 2, y: 2 },
            ],
            links: [],
          }),
          ['nodes[1].floor_id'],
        ],
        [
          'duplicate node ids',
          () => ({
            nodes: [
              { id: 1, floor_id: site.floor.id, x: 1, y: 1 },
              { id: 1, floor_id: site.floor.id, x: 2, y: 2 },
            ],
            links: [],
          }),
          ['nodes[1].id'],
        ],
        [
          'a node without coordinates',
          () => ({
            nodes: [
              { id: 1, floor_id: site.floor.id, x: 1, y: 1 },
              { id: 2, floor_id: site.floor.id },
            ],
            links: [],
          }),
          ['nodes[1]'],
        ],
        [
          'a node with x but no y',
          () => ({
            nodes: [
              { id: 1, floor_id: site.floor.id, x: 1, y: 1 },
              { id: 2, floor_id: site.floor.id, x: 2, lat: 1 },
            ],
            links: [],
          }),
          ['nodes[1]'],
        ],
        ['no nodes and no links', () => ({}), ['nodes', 'links']],
        ['a connector on a link between nodes of one floor', () => ({ ...line(site.floor.id), links: [{ source: 1, target: 2, connector: 'stairs' }] }), ['links[0].connector']],
        ['a connector that is no type', () => ({ ...line(site.floor.id), links: [{ source: 1, target: 2, connector: 'lift' }] }), ['links[0].connector']],
        ['a link from a node to itself', () => ({ ...line(site.floor.id), links: [{ source: 2, target: 2 }] }), ['links[0]']],
      ];

      it.each(cases)('%s', async (_label, body, fields) => {
        const stored = await putPaths(t, a.auth, site.building.id, line(site.floor.id, 1000));
        const row = await pathGraphRow(t, site.building.id);
        const response = await put(a, site.building.id, body());
        expectError(response, 422, 'validation_failed');
        // One errors[] entry per violated rule: a field may be named more than once.
        expect([...new Set(errorFields(response))]).toEqual(fields);
        expect(await pathGraphRow(t, site.building.id)).toEqual(row);
        expect((await get(a, `/api/v1/buildings/${site.building.id}/paths`)).body).toEqual(stored);

        // On a building without a graph, still nothing is stored.
        expectError(await put(a, sibling.building.id, body()), 422, 'validation_failed');
        expect(await pathGraphRow(t, sibling.building.id)).toBeNull();
        expectError(await get(a, `/api/v1/buildings/${sibling.building.id}/paths`), 404, 'entity_not_found');
      });

      it('shape errors inside nodes and links name the item the same way as the others (nodes[1].lat, links[0].target)', async () => {
        const response = await put(a, site.building.id, {
          nodes: [
            { id: 1, floor_id: site.floor.id, x: 1, y: 1 },
            { id: 2, floor_id: site.floor.id, lat: 91, lng: 0 },
          ],
          links: [{ source: 1, target: 'two', origin: 'sideways' }],
        });
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response)).toEqual(expect.arrayContaining(['nodes[1].lat', 'links[0].target', 'links[0].origin']));
      });

      it('a text the database cannot store (NUL in a tag) is refused with 422 or stored, never a 500', async () => {
        const before = await pathGraphRow(t, site.building.id);
        const response = await put(a, site.building.id, { ...line(site.floor.id), links: [{ source: 1, target: 2, tags: ['a\u0000b'] }] });
        expect([200, 422], `${response.status} ${JSON.stringify(response.body)}`).toContain(response.status);
        if (response.status === 422) {
          expect(errorFields(response).some((field) => field.startsWith('links'))).toBe(true);
          expect(await pathGraphRow(t, site.building.id)).toEqual(before);
        } else {
          expect(response.body.links[0].tags).toEqual(['a\u0000b']);
        }
      });
    });

    it('answers 404 to an unknown or deleted building and 400 to a malformed id', async () => {
      expectError(await put(a, MISSING_INTEGER_ID, { nodes: [], links: [] }), 404, 'entity_not_found');
      expectError(await get(a, `/api/v1/buildings/${MISSING_INTEGER_ID}/paths`), 404, 'entity_not_found');
      const gone = await createBuilding(t, a.auth);
      await t.http.delete(`/api/v1/buildings/${gone.id}`).set(a.auth).expect(204);
      expectError(await put(a, gone.id, { nodes: [], links: [] }), 404, 'entity_not_found');
      expect(await pathGraphRow(t, gone.id)).toBeNull();
      for (const id of MALFORMED_INTEGER_IDS) {
        expectError(await get(a, `/api/v1/buildings/${id}/paths`), 400, 'bad_request');
        expectError(await t.http.put(`/api/v1/buildings/${id}/paths`).set(a.auth).send({ nodes: [], links: [] }), 400, 'bad_request');
      }
      expectError(await get(a, '/api/v1/paths?building_id=abc'), 400, 'bad_request');
    });
  });

  describe('GET /api/v1/paths', () => {
    it("lists the organization's graphs as a bare array of { building_id, nodes, links }, filtered by building_id", async () => {
      const c = await signUp(t, 'Paths list');
      const one = await createSite(t, c.auth);
      const two = await createSite(t, c.auth);
      const none = await createSite(t, c.auth);
      const first = await putPaths(t, c.auth, one.building.id, line(one.floor.id));
      const second = await putPaths(t, c.auth, two.building.id, line(two.floor.id, 7));
      for (const url of ['/api/v1/paths', '/api/v1/paths/']) {
        const all = await get(c, url);
        expectStatus(all, 200);
        expect(all.body).toEqual([first, second]);
        for (const graph of all.body) expect(keysOf(graph)).toEqual(PATHS_KEYS);
      }
      expect((await get(c, `/api/v1/paths?building_id=${two.building.id}`)).body).toEqual([second]);
      expect((await get(c, `/api/v1/paths?building_id=${none.building.id}`)).body).toEqual([]);
      expect((await get(c, `/api/v1/paths?building_id=${MISSING_INTEGER_ID}`)).body).toEqual([]);
    });

    it('never lists the graph of a deleted building', async () => {
      const c = await signUp(t, 'Paths deleted');
      const kept = await createSite(t, c.auth);
      const keptGraph = await putPaths(t, c.auth, kept.building.id, line(kept.floor.id));
      const emptyGraph = await createSite(t, c.auth);
      await putPaths(t, c.auth, emptyGraph.building.id, { nodes: [], links: [] });
      const withNodes = await createSite(t, c.auth);
      await putPaths(t, c.auth, withNodes.building.id, line(withNodes.floor.id));

      expectStatus(await t.http.delete(`/api/v1/buildings/${emptyGraph.building.id}`).set(c.auth), 204);
      expectStatus(await t.http.delete(`/api/v1/buildings/${withNodes.building.id}?cascade=true`).set(c.auth), 204);

      expect((await get(c, '/api/v1/paths')).body).toEqual([keptGraph]);
      for (const id of [emptyGraph.building.id, withNodes.building.id]) {
        expect((await get(c, `/api/v1/paths?building_id=${id}`)).body).toEqual([]);
        expectError(await get(c, `/api/v1/buildings/${id}/paths`), 404, 'entity_not_found');
      }
    });
  });

  describe('POST is not allowed', () => {
    it('POST /api/v1/paths and POST /api/v1/buildings/{id}/paths answer 405 with an Allow header and store nothing', async () => {
      const site = await createSite(t, a.auth);
      const before = await pathGraphCount(t);
      const cases: Array<[string, string[]]> = [
        ['/api/v1/paths', ['GET']],
        [`/api/v1/buildings/${site.building.id}/paths`, ['GET', 'PUT']],
      ];
      for (const [url, methods] of cases) {
        const response = await t.http.post(url).set(a.auth).send(line(site.floor.id));
        expectStatus(response, 405);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.body).toEqual({ status: 405, code: expect.any(String), message: expect.any(String), errors: [] });
        const allowed = String(response.headers.allow ?? '')
          .split(',')
          .map((method) => method.trim());
        expect(allowed, url).toEqual(expect.arrayContaining(methods));
        expect(allowed).not.toContain('POST');
      }
      expect(await pathGraphCount(t)).toBe(before);
      expect(await pathGraphRow(t, site.building.id)).toBeNull();
      expectError(await t.http.post('/api/v1/paths').send({}), 401, 'unauthorized');
    });
  });

  describe('organization isolation', () => {
    it("the other organization's graph is 404 on GET and PUT, and never listed", async () => {
      const mine = await createSite(t, a.auth);
      const theirs = await createSite(t, b.auth);
      const theirGraph = await putPaths(t, b.auth, theirs.building.id, line(theirs.floor.id));
      const row = await pathGraphRow(t, theirs.building.id);
      await putPaths(t, a.auth, mine.building.id, line(mine.floor.id));

      for (const response of [
        await get(a, `/api/v1/buildings/${theirs.building.id}/paths`),
        await put(a, theirs.building.id, line(theirs.floor.id, 50)),
        await t.http.patch(`/api/v1/buildings/${theirs.building.id}/paths`).set(a.auth).send({ nodes: [], links: [] }),
      ]) {
        expectError(response, 404, 'entity_not_found');
        expect(response.body.errors).toEqual([]);
      }
      expect(await pathGraphRow(t, theirs.building.id)).toEqual(row);
      expect((await get(b, `/api/v1/buildings/${theirs.building.id}/paths`)).body).toEqual(theirGraph);

      const all = await get(a, '/api/v1/paths');
      expect(all.body.map((graph: PathsBody) => graph.building_id)).toContain(mine.building.id);
      expect(all.body.map((graph: PathsBody) => graph.building_id)).not.toContain(theirs.building.id);
      expect((await get(a, `/api/v1/paths?building_id=${theirs.building.id}`)).body).toEqual([]);
    });
  });

  describe('permissions (contract 2.3)', () => {
    it.each(CARTOGRAPHY_KEY_LEVELS)('a %s key reads paths; replaces them only when it covers cartography (%s)', async (permission, canWrite) => {
      const key = await createApiKey(t, a.token, permission);
      const auth = asApiKey(key.apikey);
      const site = await createSite(t, a.auth);
      const graph = await putPaths(t, a.auth, site.building.id, line(site.floor.id));
      const row = await pathGraphRow(t, site.building.id);

      const one = await t.http.get(`/api/v1/buildings/${site.building.id}/paths`).set(auth);
      expectStatus(one, 200);
      expect(one.body).toEqual(graph);
      const list = await t.http.get(`/api/v1/paths?building_id=${site.building.id}`).set(auth);
      expectStatus(list, 200);
      expect(list.body).toEqual([graph]);
      expectStatus(await t.http.get('/api/v1/paths').set(auth), 200);

      const replacement = line(site.floor.id, 40);
      const putResponse = await t.http.put(`/api/v1/buildings/${site.building.id}/paths`).set(auth).send(replacement);
      const patchResponse = await t.http.patch(`/api/v1/buildings/${site.building.id}/paths`).set(auth).send(replacement);
      if (canWrite) {
        expectStatus(putResponse, 200);
        expectStatus(patchResponse, 200);
        expect((await pathGraphRow(t, site.building.id))!.nodes.map((node) => node.id)).toEqual([40, 41, 42]);
      } else {
        for (const response of [putResponse, patchResponse]) {
          expectError(response, 403, 'forbidden');
          expect(response.body.errors).toEqual([]);
        }
        expect(await pathGraphRow(t, site.building.id)).toEqual(row);
      }
    });

    it('every route needs credentials', async () => {
      const site = await createSite(t, a.auth);
      for (const [method, url] of [
        ['get', '/api/v1/paths'],
        ['get', `/api/v1/buildings/${site.building.id}/paths`],
        ['put', `/api/v1/buildings/${site.building.id}/paths`],
        ['patch', `/api/v1/buildings/${site.building.id}/paths`],
      ] as const) {
        expectError(await t.http[method](url), 401, 'unauthorized');
      }
      expect(await pathGraphRow(t, site.building.id)).toBeNull();
    });
  });

  describe('the official client (@situm/sdk-js)', () => {
    it('patchPath stores a graph (PUT) and getPaths reads it, with and without buildingId', async () => {
      const c = await signUp(t, 'Paths SDK');
      const sdk = new SitumSDK({ domain, auth: { username: c.org.email, password: c.org.password } });
      const site = await createSite(t, c.auth);
      const other = await createSite(t, c.auth);
      const stored = (await sdk.cartography.patchPath(site.building.id, {
        nodes: [
          { id: 1, floorId: site.floor.id, x: 60.25, y: 40 },
          { id: 2, floorId: site.floor.id, x: 70.25, y: 40 },
        ],
        links: [{ source: 1, target: 2, origin: 'both', tags: ['main'], accessible: true }],
      } as never)) as unknown as Loose;
      expect(stored).toMatchObject({
        buildingId: site.building.id,
        nodes: [
          { id: 1, floorId: site.floor.id, x: 60.25, y: 40 },
          { id: 2, floorId: site.floor.id, x: 70.25, y: 40 },
        ],
        links: [{ source: 1, target: 2, origin: 'both', tags: ['main'], accessible: true }],
      });
      expect(stored.nodes[0].lat).toBeCloseTo(CENTRE.lat, 10);
      expect(stored.nodes[0].lng).toBeCloseTo(CENTRE.lng, 10);
      expect(Math.abs(metresBetween(stored.nodes[0], stored.nodes[1]) - 10)).toBeLessThan(CM);

      const one = (await sdk.cartography.getPaths({ buildingId: site.building.id } as never)) as unknown as Loose;
      expect(one).toEqual(stored);
      await sdk.cartography.patchPath(other.building.id, { nodes: [{ id: 5, floorId: other.floor.id, x: 1, y: 1 }], links: [] } as never);
      const all = (await sdk.cartography.getPaths()) as unknown as Loose[];
      expect(all.map((graph) => graph.buildingId)).toEqual([site.building.id, other.building.id]);
      expect(all[0]).toEqual(stored);

      const error = await sdk.cartography.patchPath(site.building.id, { nodes: [{ id: 1, floorId: site.floor.id, x: 1, y: 1 }], links: [{ source: 1, target: 9 }] } as never).then(
        () => null,
        (reason: unknown) => reason as Loose,
      );
      expect(error).toMatchObject({ status: 422, code: 'validation_failed' });
      expect(error!.errors.map((item: Loose) => item.fields)).toEqual(['links[0].target']);
      expect((await sdk.cartography.getPaths({ buildingId: site.building.id } as never)) as unknown).toEqual(stored);
    });
  });
});
