import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { Role } from '../../src/access/roles';
import { asApiKey, asBearer, createApiKey, passwordTokens } from '../support/auth';
import { Cartographer, createGeofence, createSite, errorFields, expectError, expectStatus, geofenceRowsOf, signUp, Site, square } from '../support/cartography';
import { pathGraphRow, poiInput, poiRowsOf } from '../support/pois';
import { createTestApp, TestApp } from '../support/test-app';
import { createUser, TestUser } from '../support/users';
import { imageFiles, imageRowCounts } from '../support/images';
import { SVG_LIMITS } from '../../src/images/svg-limits';

/** `levels` levels of alternating arrays and objects around `leaf`. */
function nested(levels: number, leaf: unknown = 'x'): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < levels; level += 1) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

/** Issue 9, input side: each request here once answered 500, broke the process or stored junk. */
describe('parsing of hostile requests', () => {
  let t: TestApp;
  let o: Cartographer;
  let site: Site;
  let member: TestUser;
  let memberAuth: Record<string, string>;
  let readOnlyKey: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    o = await signUp(t, 'Hardening');
    site = await createSite(t, o.auth);
    member = await createUser(t, o.org.organizationId, Role.User);
    memberAuth = asBearer((await passwordTokens(t, member.email, member.password)).access_token);
    readOnlyKey = asApiKey((await createApiKey(t, o.token, ApiPermission.ReadOnly)).apikey);
  });
  afterAll(async () => t?.close());

  describe('prototype keys in sort (item 1)', () => {
    const INHERITED = ['__proto__', '-__proto__', 'constructor', 'toString', 'hasOwnProperty', '__proto__,asc', 'valueOf,desc'];

    it.each(INHERITED)('GET /users?sort=%s is 400 for a USER, a read-only key and an administrator; the process keeps serving', async (sort) => {
      for (const auth of [memberAuth, readOnlyKey, o.auth]) {
        const response = await t.http.get('/api/v1/users').query({ sort }).set(auth);
        expectError(response, 400, 'bad_request');
      }
      expect(Object.keys(Object.prototype)).toEqual([]);
      expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('u.id');
      // Logins and reads still work, for this organization and another one.
      await passwordTokens(t, member.email, member.password);
      expectStatus(await t.http.get('/api/v1/users').query({ sort: '-email' }).set(o.auth), 200);
      const other = await signUp(t, `Other ${sort}`);
      expectStatus(await t.http.get('/api/v1/buildings').set(other.auth), 200);
      expectStatus(await t.http.get('/health/ready'), 200);
    });

    it.each(INHERITED.filter((sort) => !sort.includes(',')))('GET /geofences/search?sort=%s is 400, with no SQL built from it', async (sort) => {
      await createGeofence(t, o.auth, site.place, { name: `Sorted ${sort}`, geometric: square() });
      for (const path of ['/api/v1/geofences/search', '/api/v1/geofences']) {
        const response = await t.http.get(path).query({ sort }).set(o.auth);
        expectError(response, 400, 'bad_request');
      }
      const sorted = await t.http.get('/api/v1/geofences/search').query({ sort: '-name' }).set(o.auth);
      expectStatus(sorted, 200);
      expect(sorted.body.data.length).toBeGreaterThan(0);
    });

    it('a query parameter named __proto__ or constructor is ignored like any unknown parameter', async () => {
      const response = await t.http.get('/api/v1/users?__proto__=x&__proto__[]=a&__proto__[]=b&constructor=y&sort=email').set(o.auth);
      expectStatus(response, 200);
      expect(response.body.data.map((user: { email: string }) => user.email)).toEqual([...response.body.data.map((user: { email: string }) => user.email)].sort());
      expect(Object.keys(Object.prototype)).toEqual([]);
    });

    it('/health/ready answers 503 in the error shape while Object.prototype is polluted, and 200 again once it is clean', async () => {
      expectStatus(await t.http.get('/health/ready'), 200);
      (Object.prototype as Record<string, unknown>)['u.id'] = 'ASC';
      try {
        const response = await t.http.get('/health/ready');
        expectError(response, 503, 'service_unavailable');
        expectStatus(await t.http.get('/health/live'), 200);
      } finally {
        delete (Object.prototype as Record<string, unknown>)['u.id'];
      }
      expectStatus(await t.http.get('/health/ready'), 200);
    });
  });

  describe('deeply nested bodies (item 6)', () => {
    it.each([
      ['post', '/api/v1/geofences'],
      ['post', '/api/v1/buildings'],
      ['post', '/api/v1/users'],
      ['post', '/api/v1/pois_bulk'],
      ['put', '/api/v1/buildings/:building/paths'],
      ['post', '/api/v1/auth/refresh_access_tokens'],
    ])('%s %s with a body nested 2,000 levels deep (4 KB) is 422 too_deep', async (method, path) => {
      const url = path.replace(':building', String(site.building.id));
      const body = JSON.stringify({ name: 'deep', custom_fields: nested(2000) });
      expect(body.length).toBeLessThan(10_000);
      const auth = path.includes('refresh') ? {} : o.auth;
      const response = await t.http[method as 'post' | 'put'](url).set(auth).set('Content-Type', 'application/json').send(body);
      expectError(response, 422, 'validation_failed');
      expect(response.body.errors).toEqual([expect.objectContaining({ code: 'too_deep', fields: expect.stringMatching(/^custom_fields/) })]);
    });

    it('a top-level array nested 100,000 levels deep is 422 as well, and the server keeps serving', async () => {
      const body = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      const response = await t.http.post('/api/v1/geofences').set(o.auth).set('Content-Type', 'application/json').send(body);
      expect([400, 422]).toContain(response.status);
      expect(response.body).toEqual({ status: response.status, code: expect.any(String), message: expect.any(String), errors: expect.any(Array) });
      expectStatus(await t.http.get('/health/ready'), 200);
    });

    it('an ordinary body a few levels deep is still accepted', async () => {
      const response = await t.http
        .post('/api/v1/buildings')
        .set(o.auth)
        .send({
          name: 'Shallow',
          location: { lat: 1, lng: 1 },
          dimensions: { width: 1, length: 1 },
          custom_fields: [{ key: 'k', value: 'v' }],
          legacy: { a: { b: [1] } },
        });
      expectStatus(response, 201);
    });
  });

  describe('ill-formed Unicode (item 7)', () => {
    const LONE = ['\ud800', 'ok\udfff', '\ude00\ud83d'];

    it.each(LONE)('a geofence whose name or custom field holds %j is 422 naming the field; nothing is stored', async (text) => {
      const before = (await geofenceRowsOf(t, site.building.id)).length;
      const body = { name: 'G', building_id: String(site.building.id), floor_id: site.floor.id, geometric: square(), custom_fields: [{ key: 'zone', value: text }] };
      const response = await t.http.post('/api/v1/geofences').set(o.auth).send(body);
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response)).toEqual(['custom_fields[0].value']);
      const named = await t.http
        .post('/api/v1/geofences')
        .set(o.auth)
        .send({ ...body, custom_fields: [], name: text });
      expectError(named, 422, 'validation_failed');
      expect(errorFields(named)).toEqual(['name']);
      expect(await geofenceRowsOf(t, site.building.id)).toHaveLength(before);
    });

    it('path tags with a lone surrogate are 422 naming the tag; the graph is not stored', async () => {
      const response = await t.http
        .put(`/api/v1/buildings/${site.building.id}/paths`)
        .set(o.auth)
        .send({
          nodes: [
            { id: 1, floor_id: site.floor.id, x: 1, y: 1 },
            { id: 2, floor_id: site.floor.id, x: 2, y: 2 },
          ],
          links: [{ source: 1, target: 2, tags: ['fine', '\ud800'] }],
        });
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response)).toEqual(['links[0].tags[1]']);
      expect(await pathGraphRow(t, site.building.id)).toBeNull();
    });

    it('POI names, building info, user names and category names with a lone surrogate are 422 naming the field', async () => {
      const cases: Array<[string, string, object, string]> = [
        ['post', '/api/v1/pois', poiInput(site.building.id, site.floor.id, { name: 'A\ud800B' }), 'name'],
        ['put', `/api/v1/buildings/${site.building.id}`, { info: '<p>\udc00</p>' }, 'info'],
        ['put', `/api/v1/users/${member.id}`, { full_name: '\ud83d' }, 'full_name'],
        ['post', '/api/v1/poi_categories', { name: { en: 'x\ud800' }, code: 'c1' }, 'name.en'],
        ['post', '/api/v1/pois_bulk', [poiInput(site.building.id, site.floor.id), poiInput(site.building.id, site.floor.id, { name: '\ud800' })], '[1].name'],
        ['post', '/api/v1/buildings', { name: 'B', location: { lat: 1, lng: 1 }, dimensions: { width: 1, length: 1 }, ['key\ud800']: 1 }, 'body'],
      ];
      for (const [method, path, body, field] of cases) {
        const response = await t.http[method as 'post' | 'put'](path).set(o.auth).send(body);
        expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(422);
        expect(errorFields(response), path).toEqual([field]);
      }
      expect(await poiRowsOf(t, site.building.id)).toEqual([]);
    });

    it('a lone surrogate in a query parameter is 400 naming it', async () => {
      // Percent-encoding cannot carry a lone surrogate (UTF-8 has none), so NUL stands for the query case.
      const response = await t.http.get('/api/v1/geofences/search?name=%00').set(o.auth);
      expectError(response, 400, 'bad_request');
      expect(errorFields(response)).toEqual(['name']);
    });

    it('surrogate pairs (emoji) are accepted and stored as sent', async () => {
      const response = await t.http
        .post('/api/v1/pois')
        .set(o.auth)
        .send(poiInput(site.building.id, site.floor.id, { name: 'Café 😀' }));
      expectStatus(response, 201);
      expect(response.body.name).toBe('Café 😀');
      const read = await t.http.get(`/api/v1/pois/${response.body.id}`).set(o.auth);
      expect(read.body.name).toBe('Café 😀');
      await t.http.delete(`/api/v1/pois/${response.body.id}`).set(o.auth).expect(204);
    });
  });

  describe('SVG uploads (item 2)', () => {
    const upload = (svg: string | Buffer) =>
      t.http
        .post('/api/v1/images')
        .set(o.auth)
        .attach('image', Buffer.isBuffer(svg) ? svg : Buffer.from(svg), { filename: 'plan.svg', contentType: 'image/svg+xml' });
    const rect = '<rect x="1" y="2" width="3" height="4" fill="#abc"/>';
    const drawing = (elements: number) => `<svg xmlns="http://www.w3.org/2000/svg">${rect.repeat(elements)}</svg>`;

    async function expectRefused(response: Awaited<ReturnType<typeof upload>>, status: number, code: string, before: { images: number; blobs: number }, files: string[]) {
      expectError(response, status, code);
      expect(await imageRowCounts(t)).toEqual(before);
      expect(imageFiles(t)).toEqual(files);
      expectStatus(await t.http.get('/health/ready'), 200);
    }

    it('a 12 MB SVG is 413 payload_too_large; nothing is stored and the server keeps serving', async () => {
      const [before, files] = [await imageRowCounts(t), imageFiles(t)];
      const svg = drawing(Math.ceil((12 * 1024 * 1024) / rect.length));
      expect(svg.length).toBeGreaterThan(12 * 1024 * 1024);
      await expectRefused(await upload(svg), 413, 'payload_too_large', before, files);
    });

    it('one byte over the SVG limit is 413, a drawing at the limit is stored', async () => {
      const [before, files] = [await imageRowCounts(t), imageFiles(t)];
      const head = '<svg xmlns="http://www.w3.org/2000/svg"><desc>';
      const tail = '</desc></svg>';
      const exact = `${head}${'x'.repeat(SVG_LIMITS.maxBytes - head.length - tail.length)}${tail}`;
      expect(Buffer.byteLength(exact)).toBe(SVG_LIMITS.maxBytes);
      await expectRefused(await upload(`${exact} `), 413, 'payload_too_large', before, files);
      expectStatus(await upload(exact), 201);
    });

    it('200 KB of nested <g> is 422 too_complex at once, naming image; health answers meanwhile', async () => {
      const [before, files] = [await imageRowCounts(t), imageFiles(t)];
      const depth = Math.floor((200 * 1024) / 7);
      const svg = `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(depth)}<rect/>${'</g>'.repeat(depth)}</svg>`;
      const started = Date.now();
      const [response, health] = await Promise.all([upload(svg), t.http.get('/health/live')]);
      expect(Date.now() - started).toBeLessThan(2000);
      expectStatus(health, 200);
      expect(response.body.errors).toEqual([expect.objectContaining({ code: 'too_complex', fields: 'image' })]);
      await expectRefused(response, 422, 'validation_failed', before, files);
    });

    it('more elements than the limit is 422 too_complex', async () => {
      const [before, files] = [await imageRowCounts(t), imageFiles(t)];
      const response = await upload(`<svg>${'<g/>'.repeat(SVG_LIMITS.maxElements)}</svg>`);
      expect(response.body.errors).toEqual([expect.objectContaining({ code: 'too_complex', fields: 'image', message: expect.stringMatching(/elements/) })]);
      await expectRefused(response, 422, 'validation_failed', before, files);
    });

    it('a large valid drawing is sanitized off the event loop: health checks answer quickly while it is', async () => {
      const svg = drawing(30_000).replace('<svg xmlns="http://www.w3.org/2000/svg">', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script>');
      const uploadStarted = performance.now();
      const pending = upload(svg);
      const latencies: number[] = [];
      let done = false;
      const finished = pending.then((response) => {
        done = true;
        return response;
      });
      // Give the upload time to reach the sanitizer, then probe until it is done.
      await new Promise((resolve) => setTimeout(resolve, 50));
      while (!done) {
        const started = performance.now();
        expectStatus(await t.http.get('/health/live'), 200);
        latencies.push(performance.now() - started);
      }
      const response = await finished;
      const uploadTook = performance.now() - uploadStarted;
      expectStatus(response, 201);
      // Sanitizing on the event loop would hold one probe for most of the upload; a loaded CI
      // machine slows every probe a little, so the bound follows the upload's own duration.
      expect(latencies.length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...latencies)).toBeLessThan(Math.max(250, uploadTook / 3));
      const stored = await t.http.get(response.body.url).set(o.auth).buffer(true);
      expect(String(stored.text ?? stored.body)).not.toContain('script');
    });
  });

  describe('HTML in info fields (a sibling of item 2: the same sanitizer library)', () => {
    it('64 KB of nested <b> in info is 422 naming the field, on buildings, geofences and POIs; nothing is stored', async () => {
      const nestedHtml = '<b>'.repeat(21_845);
      const cases: Array<[string, string, object, string]> = [
        ['put', `/api/v1/buildings/${site.building.id}`, { info: nestedHtml }, 'info'],
        ['post', '/api/v1/geofences', { name: 'G', building_id: String(site.building.id), floor_id: site.floor.id, geometric: square(), description: nestedHtml }, 'description'],
        ['post', '/api/v1/pois', poiInput(site.building.id, site.floor.id, { info: nestedHtml }), 'info'],
        ['post', '/api/v1/pois_bulk', [poiInput(site.building.id, site.floor.id, { info: `<p>${'<i>'.repeat(150)}</p>` })], '[0].info'],
      ];
      for (const [method, path, body, field] of cases) {
        const started = Date.now();
        const response = await t.http[method as 'post' | 'put'](path).set(o.auth).send(body);
        expect(response.status, `${path}: ${JSON.stringify(response.body).slice(0, 300)}`).toBe(422);
        expect(errorFields(response)).toEqual([field]);
        expect(Date.now() - started).toBeLessThan(2000);
      }
      const building = await t.http.get(`/api/v1/buildings/${site.building.id}`).set(o.auth);
      expect(building.body.info).not.toContain('<b><b>');
    });

    it('a 1 MB bulk of long HTML texts is sanitized off the event loop: health answers meanwhile, every info sanitized', async () => {
      const info = `<p onclick="x()">${'<a href="javascript:x()">a</a><i>b</i> '.repeat(1_000)}<script>x()</script></p>`;
      const items = Array.from({ length: 24 }, (_, index) => poiInput(site.building.id, site.floor.id, { name: `Bulk ${index}`, info }));
      expect(JSON.stringify(items).length).toBeGreaterThan(900_000);
      const started = performance.now();
      let done = false;
      const pending = t.http
        .post('/api/v1/pois_bulk')
        .set(o.auth)
        .send(items)
        .then((response) => {
          done = true;
          return response;
        });
      const latencies: number[] = [];
      await new Promise((resolve) => setTimeout(resolve, 50));
      while (!done) {
        const probe = performance.now();
        expectStatus(await t.http.get('/health/live'), 200);
        latencies.push(performance.now() - probe);
      }
      const response = await pending;
      const took = performance.now() - started;
      expectStatus(response, 201);
      expect(response.body).toHaveLength(24);
      for (const poi of response.body as Array<{ info: string; info_unsafe: string }>) {
        expect(poi.info).not.toMatch(/script|javascript|onclick/);
        expect(poi.info_unsafe).toBe(info);
      }
      expect(latencies.length).toBeGreaterThanOrEqual(1);
      expect(Math.max(...latencies)).toBeLessThan(Math.max(250, took / 3));
    });

    it('ordinary rich text with many line breaks is still accepted and sanitized', async () => {
      const response = await t.http
        .put(`/api/v1/buildings/${site.building.id}`)
        .set(o.auth)
        .send({ info: `<p>Hours<br>${'9-17<br>'.repeat(500)}<script>x()</script></p>` });
      expectStatus(response, 200);
      expect(response.body.info).not.toContain('script');
      expect(response.body.info.match(/<br \/>/g)).toHaveLength(501);
    });
  });

  describe('coordinates derived from cartesians (item 9)', () => {
    let polar: Site;

    beforeAll(async () => {
      polar = await createSite(t, o.auth, { name: 'Polar', location: { lat: 89.9999, lng: 10 }, dimensions: { width: 100, length: 100 }, rotation: 0 });
    });

    it('a POI at y 100,000 in a building at 89.9999° is 422 on position.cartesians; nothing is stored', async () => {
      for (const cartesians of [
        { x: 50, y: 100_000 },
        { x: 50, y: -100_000 },
      ].slice(0, 1)) {
        const response = await t.http
          .post('/api/v1/pois')
          .set(o.auth)
          .send({ building_id: polar.building.id, name: 'Beyond', position: { floor_id: polar.floor.id, cartesians } });
        expectError(response, 422, 'validation_failed');
        expect(response.body.errors).toEqual([expect.objectContaining({ code: 'out_of_range', fields: 'position.cartesians' })]);
      }
      expect(await poiRowsOf(t, polar.building.id)).toEqual([]);
    });

    it('x 100,000 in a turned building at 89.9999° (the reported case) is 422 too, in bulk with its index', async () => {
      const turned = await createSite(t, o.auth, { name: 'Turned', location: { lat: 89.9999, lng: 10 }, dimensions: { width: 100, length: 100 }, rotation: Math.PI / 2 });
      const item = { building_id: turned.building.id, name: 'Beyond', position: { floor_id: turned.floor.id, cartesians: { x: 100_000, y: 50 } } };
      const single = await t.http.post('/api/v1/pois').set(o.auth).send(item);
      expectError(single, 422, 'validation_failed');
      expect(errorFields(single)).toEqual(['position.cartesians']);
      const bulk = await t.http
        .post('/api/v1/pois_bulk')
        .set(o.auth)
        .send([{ ...item, position: { ...item.position, cartesians: { x: 50, y: 50 } } }, item]);
      expectError(bulk, 422, 'validation_failed');
      expect(errorFields(bulk)).toEqual(['[1].position.cartesians']);
      expect(await poiRowsOf(t, turned.building.id)).toEqual([]);
    });

    it('moving an existing POI beyond the pole is 422 and leaves it where it was', async () => {
      const created = await t.http
        .post('/api/v1/pois')
        .set(o.auth)
        .send({ building_id: polar.building.id, name: 'Near', position: { floor_id: polar.floor.id, cartesians: { x: 50, y: 60 } } });
      expectStatus(created, 201);
      expect(created.body.position.georeferences.lat).toBeLessThanOrEqual(90);
      const moved = await t.http
        .put(`/api/v1/pois/${created.body.id}`)
        .set(o.auth)
        .send({ position: { floor_id: polar.floor.id, cartesians: { x: 50, y: 99_999 } } });
      expectError(moved, 422, 'validation_failed');
      expect(errorFields(moved)).toEqual(['position.cartesians']);
      const read = await t.http.get(`/api/v1/pois/${created.body.id}`).set(o.auth);
      expect(read.body.position.cartesians).toEqual({ x: 50, y: 60 });
      await t.http.delete(`/api/v1/pois/${created.body.id}`).set(o.auth).expect(204);
    });

    it('a georeference too far from the building for cartesians is 422 on position.georeferences', async () => {
      const response = await t.http
        .post('/api/v1/pois')
        .set(o.auth)
        .send(poiInput(site.building.id, site.floor.id, {}, { lat: -42, lng: 170 }));
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response)).toEqual(['position.georeferences']);
    });

    it('a path node beyond the pole is 422 naming the node; the graph is not stored', async () => {
      const response = await t.http
        .put(`/api/v1/buildings/${polar.building.id}/paths`)
        .set(o.auth)
        .send({
          nodes: [
            { id: 1, floor_id: polar.floor.id, x: 50, y: 50 },
            { id: 2, floor_id: polar.floor.id, x: 50, y: 100_000 },
          ],
          links: [{ source: 1, target: 2 }],
        });
      expectError(response, 422, 'validation_failed');
      expect(response.body.errors).toEqual([expect.objectContaining({ code: 'out_of_range', fields: 'nodes[1].y' })]);
      expect(await pathGraphRow(t, polar.building.id)).toBeNull();
    });
  });
});
