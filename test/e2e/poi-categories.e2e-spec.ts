import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { PoiCategory } from '../../src/cartography/poi-categories/poi-category.entity';
import { Poi } from '../../src/cartography/pois/poi.entity';
import { asApiKey, createApiKey } from '../support/auth';
import {
  Cartographer,
  CARTOGRAPHY_KEY_LEVELS,
  createSite,
  errorFields,
  expectError,
  expectStatus,
  keysOf,
  MALFORMED_INTEGER_IDS,
  MISSING_INTEGER_ID,
  signUp,
  Site,
  TIMESTAMP,
} from '../support/cartography';
import { JPEG_1X1, PNG_2X2, SAFE_SVG } from '../support/images';
import { createTestApp, TestApp } from '../support/test-app';

const CATEGORY_KEYS = ['code', 'created_at', 'icon_url', 'id', 'name_en', 'name_es', 'public', 'selected_icon_url', 'updated_at'];
const BASE = '/api/v1/poi_categories';

interface CategoryBody {
  id: number;
  name_en: string;
  name_es: string;
  code: string;
  public: boolean;
  icon_url: string;
  selected_icon_url: string;
  created_at: string;
  updated_at: string;
}

interface PoiBody {
  id: number;
  category_id: number | null;
  category_name: string;
  updated_at: string;
}

/** The distinct fields errors[] names (one field may fail several constraints). */
const fieldsOf = (response: Parameters<typeof errorFields>[0]): string[] => [...new Set(errorFields(response))].sort();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let codes = 0;
const uniqueCode = (label = 'cat') => `${label}-${++codes}-${randomUUID().slice(0, 4)}`;

describe('POI categories', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let siteA: Site;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Categories A');
    b = await signUp(t, 'Categories B');
    siteA = await createSite(t, a.auth);
  });
  afterAll(async () => t?.close());

  async function createCategory(auth: Record<string, string>, overrides: Record<string, unknown> = {}): Promise<CategoryBody> {
    const response = await t.http
      .post(BASE)
      .set(auth)
      .send({ name_en: 'Toilets', name_es: 'Aseos', code: uniqueCode(), ...overrides });
    expectStatus(response, 201);
    return response.body as CategoryBody;
  }

  async function uploadImage(auth: Record<string, string>, bytes: Buffer = PNG_2X2, filename = 'icon.png'): Promise<string> {
    const response = await t.http.post('/api/v1/images').set(auth).attach('image', bytes, filename);
    expectStatus(response, 201);
    return response.body.id as string;
  }

  async function createPoi(auth: Record<string, string>, site: Site, categoryId: number | null, name = 'Reception'): Promise<PoiBody> {
    const response = await t.http
      .post('/api/v1/pois')
      .set(auth)
      .send({
        building_id: site.building.id,
        name,
        category_id: categoryId,
        position: { floor_id: site.floor.id, georeferences: { lat: site.building.location.lat, lng: site.building.location.lng } },
      });
    expectStatus(response, 201);
    return response.body as PoiBody;
  }

  const getPoi = async (auth: Record<string, string>, id: number): Promise<PoiBody> => {
    const response = await t.http.get(`/api/v1/pois/${id}`).set(auth);
    expectStatus(response, 200);
    return response.body as PoiBody;
  };

  const categoryRow = (id: number) => t.dataSource.getRepository(PoiCategory).findOneBy({ id });
  const categoryCount = (organizationId: string) => t.dataSource.getRepository(PoiCategory).countBy({ organizationId });
  const poiRow = (id: number) => t.dataSource.getRepository(Poi).findOneBy({ id });

  describe('POST /api/v1/poi_categories', () => {
    it('creates a category: 201 with exactly the documented keys, an ETag and the stored row; keys the caller may not set are ignored', async () => {
      const before = Date.now();
      const code = uniqueCode('wc');
      const response = await t.http.post(BASE).set(a.auth).send({
        name_en: 'Toilets',
        name_es: 'Aseos',
        code,
        public: true,
        id: 424242,
        created_at: '2000-01-01T00:00:00.000+00:00',
        updated_at: '2000-01-01T00:00:00.000+00:00',
        organization_id: b.org.organizationId,
        icon_url: '/somewhere/else.png',
      });
      const after = Date.now();
      expectStatus(response, 201);
      const body = response.body as CategoryBody;
      expect(keysOf(body)).toEqual(CATEGORY_KEYS);
      expect(body).toEqual({
        id: expect.any(Number),
        name_en: 'Toilets',
        name_es: 'Aseos',
        code,
        public: true,
        icon_url: '',
        selected_icon_url: '',
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: body.created_at,
      });
      expect(Number.isInteger(body.id)).toBe(true);
      expect(body.id).not.toBe(424242);
      const created = Date.parse(body.created_at);
      expect(created).toBeGreaterThanOrEqual(before - 1);
      expect(created).toBeLessThanOrEqual(after + 1);
      expect(response.headers.etag).toMatch(/^"[^"]+"$/);

      const read = await t.http.get(`${BASE}/${body.id}`).set(a.auth);
      expectStatus(read, 200);
      expect(read.body).toEqual(body);
      expect(read.headers.etag).toBe(response.headers.etag);
      expect(await categoryRow(body.id)).toMatchObject({ organizationId: a.org.organizationId, code, nameEn: 'Toilets', isPublic: true, iconImageId: null });
    });

    it('defaults name_es to "", public to false and both icon URLs to "" (never null)', async () => {
      const code = uniqueCode();
      const response = await t.http.post(BASE).set(a.auth).send({ name_en: 'Shops', code });
      expectStatus(response, 201);
      expect(response.body).toMatchObject({ name_en: 'Shops', name_es: '', code, public: false, icon_url: '', selected_icon_url: '' });
      const explicitNulls = await t.http.post(BASE).set(a.auth).send({ name_en: 'Exits', code: uniqueCode(), icon: null, selected_icon: '' });
      expectStatus(explicitNulls, 201);
      expect(explicitNulls.body).toMatchObject({ icon_url: '', selected_icon_url: '' });
    });

    it('answers icon_url and selected_icon_url with the images’ relative URLs, which serve the images', async () => {
      const icon = await uploadImage(a.auth, PNG_2X2);
      const selected = await uploadImage(a.auth, Buffer.from(SAFE_SVG), 'selected.svg');
      const category = await createCategory(a.auth, { icon, selected_icon: selected });
      expect(category.icon_url).toBe(`/api/v1/images/${icon}`);
      expect(category.selected_icon_url).toBe(`/api/v1/images/${selected}`);
      const listed = await t.http.get(BASE).set(a.auth);
      expect(listed.body.find((item: CategoryBody) => item.id === category.id)).toEqual(category);
      const served = await t.http.get(category.icon_url).set(a.auth);
      expectStatus(served, 200);
      expect(served.headers['content-type']).toMatch(/^image\/png/);
      expect(((await categoryRow(category.id)) as PoiCategory).iconImageId).toBe(icon);
    });

    it('trims names and code', async () => {
      const code = uniqueCode();
      const category = await createCategory(a.auth, { name_en: '  Lifts ', name_es: ' Ascensores  ', code: `  ${code} ` });
      expect(category).toMatchObject({ name_en: 'Lifts', name_es: 'Ascensores', code });
    });

    it('names every invalid field in errors[] (422) and stores nothing', async () => {
      const before = await categoryCount(a.org.organizationId);
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{}, ['code', 'name_en']],
        [{ name_en: '', code: uniqueCode() }, ['name_en']],
        [{ name_en: '   ', code: uniqueCode() }, ['name_en']],
        [{ name_en: 'x'.repeat(256), code: uniqueCode() }, ['name_en']],
        [{ name_en: 42, code: uniqueCode() }, ['name_en']],
        [{ name_en: 'Ok', code: 'has spaces' }, ['code']],
        [{ name_en: 'Ok', code: '' }, ['code']],
        [{ name_en: 'Ok', code: uniqueCode(), public: 'yes' }, ['public']],
        [{ name_en: 'Ok', code: uniqueCode(), icon: 'not-a-uuid' }, ['icon']],
        [{ name_en: 'Ok', code: uniqueCode(), selected_icon: 12 }, ['selected_icon']],
        [{ name_en: null, code: null }, ['code', 'name_en']],
      ];
      for (const [body, fields] of cases) {
        const response = await t.http.post(BASE).set(a.auth).send(body);
        expectError(response, 422, 'validation_failed');
        expect(fieldsOf(response), JSON.stringify(body)).toEqual(fields);
      }
      expect(await categoryCount(a.org.organizationId)).toBe(before);
    });

    it('answers 400 bad_request to malformed JSON', async () => {
      const response = await t.http.post(BASE).set(a.auth).set('Content-Type', 'application/json').send('{"name_en": "x", ');
      expectError(response, 400, 'bad_request');
    });
  });

  describe('code is unique per organization', () => {
    it('a second category with the same code is 409 conflict naming `code`; another organization may use it', async () => {
      const code = uniqueCode('atm');
      await createCategory(a.auth, { code });
      const before = await categoryCount(a.org.organizationId);
      const taken = await t.http.post(BASE).set(a.auth).send({ name_en: 'Cash', code });
      expectError(taken, 409, 'conflict');
      expect(fieldsOf(taken)).toEqual(['code']);
      const trimmedToTaken = await t.http
        .post(BASE)
        .set(a.auth)
        .send({ name_en: 'Cash', code: ` ${code} ` });
      expectError(trimmedToTaken, 409, 'conflict');
      expect(await categoryCount(a.org.organizationId)).toBe(before);

      const elsewhere = await createCategory(b.auth, { code });
      expect(elsewhere.code).toBe(code);
    });

    it('renaming to a taken code is 409 and changes nothing; keeping its own code is fine', async () => {
      const first = await createCategory(a.auth);
      const second = await createCategory(a.auth);
      const before = await categoryRow(second.id);
      const response = await t.http.put(`${BASE}/${second.id}`).set(a.auth).send({ code: first.code, name_en: 'Renamed' });
      expectError(response, 409, 'conflict');
      expect(await categoryRow(second.id)).toEqual(before);
      const same = await t.http.put(`${BASE}/${second.id}`).set(a.auth).send({ code: second.code, name_en: 'Renamed' });
      expectStatus(same, 200);
      expect(same.body).toMatchObject({ code: second.code, name_en: 'Renamed' });
      // Another organization's codes do not count.
      const other = await createCategory(b.auth);
      const free = await t.http.patch(`${BASE}/${second.id}`).set(a.auth).send({ code: other.code });
      expectStatus(free, 200);
      expect(free.body.code).toBe(other.code);
    });

    it('concurrent creations with one code: exactly one 201, the others 409 (never 500)', async () => {
      const code = uniqueCode('race');
      const responses = await Promise.all(Array.from({ length: 6 }, () => t.http.post(BASE).set(a.auth).send({ name_en: 'Race', code })));
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
      for (const response of responses.filter((item) => item.status === 409)) expectError(response, 409, 'conflict');
      expect(await t.dataSource.getRepository(PoiCategory).countBy({ organizationId: a.org.organizationId, code })).toBe(1);
    });
  });

  describe('GET /api/v1/poi_categories', () => {
    it("is a bare array of the organization's categories only, with or without a trailing slash", async () => {
      const c = await signUp(t, 'Categories C');
      const first = await createCategory(c.auth);
      const second = await createCategory(c.auth, { public: true });
      await createCategory(a.auth);
      for (const path of [BASE, `${BASE}/`]) {
        const response = await t.http.get(path).set(c.auth);
        expectStatus(response, 200);
        expect(response.body).toEqual([first, second]);
      }
      const none = await signUp(t, 'Categories D');
      const empty = await t.http.get(BASE).set(none.auth);
      expectStatus(empty, 200);
      expect(empty.body).toEqual([]);
    });
  });

  describe('PUT and PATCH /api/v1/poi_categories/{id}', () => {
    it.each(['put', 'patch'] as const)('%s is a partial update: only the sent fields change, updated_at moves, created_at and id stay', async (method) => {
      const category = await createCategory(a.auth, { public: false });
      const read = await t.http.get(`${BASE}/${category.id}`).set(a.auth);
      await sleep(5);
      const response = await t.http[method](`${BASE}/${category.id}`)
        .set(a.auth)
        .send({ name_es: 'Servicios', id: 999_999, created_at: '2000-01-01T00:00:00.000+00:00', organization_id: b.org.organizationId });
      expectStatus(response, 200);
      expect(keysOf(response.body)).toEqual(CATEGORY_KEYS);
      expect(response.body).toEqual({ ...category, name_es: 'Servicios', updated_at: expect.stringMatching(TIMESTAMP) });
      expect(Date.parse(response.body.updated_at)).toBeGreaterThan(Date.parse(category.updated_at));
      expect(response.headers.etag).toMatch(/^"[^"]+"$/);
      expect(response.headers.etag).not.toBe(read.headers.etag);

      const again = await t.http.get(`${BASE}/${category.id}`).set(a.auth);
      expect(again.body).toEqual(response.body);
      expect(again.headers.etag).toBe(response.headers.etag);
      expect(await categoryRow(category.id)).toMatchObject({ organizationId: a.org.organizationId, nameEs: 'Servicios' });

      const everything = await t.http[method](`${BASE}/${category.id}`)
        .set(a.auth)
        .send({ name_en: 'WC', name_es: 'Baños', code: `${category.code}-2`, public: true });
      expectStatus(everything, 200);
      expect(everything.body).toMatchObject({ id: category.id, name_en: 'WC', name_es: 'Baños', code: `${category.code}-2`, public: true, created_at: category.created_at });
    });

    it('sets, replaces and removes icons ("" and null remove; an absent key leaves them)', async () => {
      const icon = await uploadImage(a.auth);
      const other = await uploadImage(a.auth, JPEG_1X1, 'other.jpg');
      const category = await createCategory(a.auth);

      const set = await t.http.put(`${BASE}/${category.id}`).set(a.auth).send({ icon, selected_icon: other });
      expectStatus(set, 200);
      expect(set.body).toMatchObject({ icon_url: `/api/v1/images/${icon}`, selected_icon_url: `/api/v1/images/${other}` });

      const untouched = await t.http.put(`${BASE}/${category.id}`).set(a.auth).send({ name_en: 'Still iconned' });
      expect(untouched.body).toMatchObject({ icon_url: `/api/v1/images/${icon}`, selected_icon_url: `/api/v1/images/${other}` });

      const swapped = await t.http.patch(`${BASE}/${category.id}`).set(a.auth).send({ icon: other });
      expect(swapped.body).toMatchObject({ icon_url: `/api/v1/images/${other}`, selected_icon_url: `/api/v1/images/${other}` });

      const removed = await t.http.put(`${BASE}/${category.id}`).set(a.auth).send({ icon: '', selected_icon: null });
      expectStatus(removed, 200);
      expect(removed.body).toMatchObject({ icon_url: '', selected_icon_url: '' });
      expect((await t.http.get(`${BASE}/${category.id}`).set(a.auth)).body).toMatchObject({ icon_url: '', selected_icon_url: '' });
      expect(await categoryRow(category.id)).toMatchObject({ iconImageId: null, selectedIconImageId: null });
    });

    it('refuses null for a required field with 422 naming it (never a 500) and leaves the row unchanged', async () => {
      const category = await createCategory(a.auth);
      const before = await categoryRow(category.id);
      for (const field of ['name_en', 'code', 'public']) {
        const response = await t.http
          .put(`${BASE}/${category.id}`)
          .set(a.auth)
          .send({ [field]: null });
        expectError(response, 422, 'validation_failed');
        expect(fieldsOf(response)).toEqual([field]);
      }
      // name_es is optional but not nullable: refused, or reset to "", never a 500 or a null.
      const nameEs = await t.http.put(`${BASE}/${category.id}`).set(a.auth).send({ name_es: null });
      if (nameEs.status === 422) {
        expect(fieldsOf(nameEs)).toEqual(['name_es']);
        expect(await categoryRow(category.id)).toEqual(before);
      } else {
        expectStatus(nameEs, 200);
        expect(nameEs.body.name_es).toBe('');
      }
    });

    it('refuses invalid values with 422 naming the field and leaves the row unchanged', async () => {
      const category = await createCategory(a.auth);
      const before = await categoryRow(category.id);
      for (const [body, field] of [
        [{ name_en: '' }, 'name_en'],
        [{ code: 'bad code!' }, 'code'],
        [{ public: 'true' }, 'public'],
        [{ icon: 'nope' }, 'icon'],
      ] as const) {
        const response = await t.http.patch(`${BASE}/${category.id}`).set(a.auth).send(body);
        expectError(response, 422, 'validation_failed');
        expect(fieldsOf(response)).toEqual([field]);
      }
      expect(await categoryRow(category.id)).toEqual(before);
    });

    it('a stale If-Match is 409 conflict and changes nothing; the current one succeeds with a new ETag', async () => {
      const category = await createCategory(a.auth);
      const first = await t.http.get(`${BASE}/${category.id}`).set(a.auth);
      const staleTag = String(first.headers.etag);
      const ok = await t.http.put(`${BASE}/${category.id}`).set(a.auth).set('If-Match', staleTag).send({ name_en: 'First writer' });
      expectStatus(ok, 200);
      const currentTag = String(ok.headers.etag);
      expect(currentTag).not.toBe(staleTag);

      const before = await categoryRow(category.id);
      for (const method of ['put', 'patch'] as const) {
        const stale = await t.http[method](`${BASE}/${category.id}`).set(a.auth).set('If-Match', staleTag).send({ name_en: 'Lost update' });
        expectError(stale, 409, 'conflict');
      }
      expect(await categoryRow(category.id)).toEqual(before);
      expect((await t.http.get(`${BASE}/${category.id}`).set(a.auth)).body.name_en).toBe('First writer');

      const current = await t.http.patch(`${BASE}/${category.id}`).set(a.auth).set('If-Match', currentTag).send({ name_en: 'Second writer' });
      expectStatus(current, 200);
      expect(current.body.name_en).toBe('Second writer');
    });
  });

  describe('references to images are checked against the organization', () => {
    it('an icon of another organization is 422 naming `icon` (or `selected_icon`), on create and on update, and nothing changes', async () => {
      const foreign = await uploadImage(b.auth);
      const own = await uploadImage(a.auth);
      const before = await categoryCount(a.org.organizationId);
      for (const [body, field] of [
        [{ icon: foreign }, 'icon'],
        [{ selected_icon: foreign }, 'selected_icon'],
        [{ icon: randomUUID() }, 'icon'],
        [{ icon: own, selected_icon: randomUUID() }, 'selected_icon'],
      ] as const) {
        const response = await t.http
          .post(BASE)
          .set(a.auth)
          .send({ name_en: 'Foreign icon', code: uniqueCode(), ...body });
        expectError(response, 422, 'validation_failed');
        expect(fieldsOf(response)).toEqual([field]);
      }
      expect(await categoryCount(a.org.organizationId)).toBe(before);

      const category = await createCategory(a.auth, { icon: own });
      const row = await categoryRow(category.id);
      for (const [body, field] of [
        [{ icon: foreign }, 'icon'],
        [{ selected_icon: foreign }, 'selected_icon'],
      ] as const) {
        const response = await t.http
          .put(`${BASE}/${category.id}`)
          .set(a.auth)
          .send({ name_en: 'Changed', ...body });
        expectError(response, 422, 'validation_failed');
        expect(fieldsOf(response)).toEqual([field]);
      }
      expect(await categoryRow(category.id)).toEqual(row);
      // The icon of A's category stays invisible to B.
      expectError(await t.http.get(category.icon_url).set(b.auth), 404, 'entity_not_found');
    });
  });

  describe('DELETE /api/v1/poi_categories/{id}', () => {
    it('deletes an unused category: 204, then 404 everywhere', async () => {
      const category = await createCategory(a.auth);
      const response = await t.http.delete(`${BASE}/${category.id}`).set(a.auth);
      expectStatus(response, 204);
      expect(response.text).toBe('');
      expect(await categoryRow(category.id)).toBeNull();
      expectError(await t.http.get(`${BASE}/${category.id}`).set(a.auth), 404, 'entity_not_found');
      expectError(await t.http.put(`${BASE}/${category.id}`).set(a.auth).send({ name_en: 'Ghost' }), 404, 'entity_not_found');
      expectError(await t.http.delete(`${BASE}/${category.id}`).set(a.auth), 404, 'entity_not_found');
      expect((await t.http.get(BASE).set(a.auth)).body.map((item: CategoryBody) => item.id)).not.toContain(category.id);
    });

    it('answers 409 conflict while POIs use the category, and changes nothing', async () => {
      const category = await createCategory(a.auth);
      const poi = await createPoi(a.auth, siteA, category.id);
      const before = await categoryRow(category.id);
      const response = await t.http.delete(`${BASE}/${category.id}`).set(a.auth);
      expectError(response, 409, 'conflict');
      expect(await categoryRow(category.id)).toEqual(before);
      expect(await getPoi(a.auth, poi.id)).toMatchObject({ category_id: category.id, category_name: category.name_en });
    });

    it('with reassign_to moves its POIs to that category and deletes it (204); other POIs are untouched', async () => {
      const doomed = await createCategory(a.auth, { name_en: 'Doomed' });
      const target = await createCategory(a.auth, { name_en: 'Target' });
      const bystander = await createCategory(a.auth, { name_en: 'Bystander' });
      const moved = [await createPoi(a.auth, siteA, doomed.id, 'One'), await createPoi(a.auth, siteA, doomed.id, 'Two')];
      const untouched = await createPoi(a.auth, siteA, bystander.id, 'Three');
      const uncategorized = await createPoi(a.auth, siteA, null, 'Four');
      const untouchedRow = await poiRow(untouched.id);
      const uncategorizedRow = await poiRow(uncategorized.id);

      const response = await t.http.delete(`${BASE}/${doomed.id}?reassign_to=${target.id}`).set(a.auth);
      expectStatus(response, 204);
      expect(await categoryRow(doomed.id)).toBeNull();
      expectError(await t.http.get(`${BASE}/${doomed.id}`).set(a.auth), 404, 'entity_not_found');
      for (const poi of moved) {
        const now = await getPoi(a.auth, poi.id);
        expect(now).toMatchObject({ id: poi.id, category_id: target.id, category_name: 'Target' });
        expect(Date.parse(now.updated_at)).toBeGreaterThanOrEqual(Date.parse(poi.updated_at));
      }
      expect(await getPoi(a.auth, untouched.id)).toMatchObject({ category_id: bystander.id, category_name: 'Bystander' });
      expect(await poiRow(untouched.id)).toEqual(untouchedRow);
      expect(await poiRow(uncategorized.id)).toEqual(uncategorizedRow);
      const listed = await t.http.get(`/api/v1/pois?building_id=${siteA.building.id}`).set(a.auth);
      expectStatus(listed, 200);
      expect(listed.body.filter((poi: PoiBody) => poi.category_id === doomed.id)).toEqual([]);
      // The target is unchanged.
      expect((await t.http.get(`${BASE}/${target.id}`).set(a.auth)).body).toEqual(target);
    });

    it('reassign_to on an unused category still deletes it (204)', async () => {
      const unused = await createCategory(a.auth);
      const target = await createCategory(a.auth);
      expectStatus(await t.http.delete(`${BASE}/${unused.id}?reassign_to=${target.id}`).set(a.auth), 204);
      expect(await categoryRow(unused.id)).toBeNull();
      expect(await categoryRow(target.id)).not.toBeNull();
    });

    it('a deletion racing POI creations in that category: the delete is 204 or 409, each POI 201 or 422, never a 500', async () => {
      for (let round = 0; round < 10; round += 1) {
        const category = await createCategory(a.auth);
        const [deletion, ...creations] = await Promise.all([
          t.http.delete(`${BASE}/${category.id}`).set(a.auth),
          ...[1, 2, 3, 4].map((index) =>
            t.http
              .post('/api/v1/pois')
              .set(a.auth)
              .send({
                building_id: siteA.building.id,
                name: `Racer ${index}`,
                category_id: category.id,
                position: { floor_id: siteA.floor.id, georeferences: siteA.building.location },
              }),
          ),
        ]);
        const outcome = JSON.stringify([deletion.status, ...creations.map((response) => response.status)]);
        expect([204, 409], outcome).toContain(deletion.status);
        for (const creation of creations) {
          expect([201, 422], outcome).toContain(creation.status);
          if (creation.status === 422) expect(fieldsOf(creation)).toEqual(['category_id']);
        }
        if (deletion.status === 204) {
          expect(
            creations.map((response) => response.status),
            outcome,
          ).toEqual([422, 422, 422, 422]);
          expect(await categoryRow(category.id)).toBeNull();
        } else {
          expect(
            creations.some((response) => response.status === 201),
            outcome,
          ).toBe(true);
        }
      }
    });

    it('a reassigning deletion racing POI creations: 204, and every POI created lands in the target category, never a 500', async () => {
      for (let round = 0; round < 10; round += 1) {
        const doomed = await createCategory(a.auth, { name_en: 'Doomed' });
        const target = await createCategory(a.auth, { name_en: 'Target' });
        await createPoi(a.auth, siteA, doomed.id, 'Existing');
        const [deletion, ...creations] = await Promise.all([
          t.http.delete(`${BASE}/${doomed.id}?reassign_to=${target.id}`).set(a.auth),
          ...[1, 2, 3, 4].map((index) =>
            t.http
              .post('/api/v1/pois')
              .set(a.auth)
              .send({
                building_id: siteA.building.id,
                name: `Racer ${index}`,
                category_id: doomed.id,
                position: { floor_id: siteA.floor.id, georeferences: siteA.building.location },
              }),
          ),
        ]);
        const outcome = JSON.stringify([deletion.status, ...creations.map((response) => response.status)]);
        expect(deletion.status, outcome).toBe(204);
        for (const creation of creations) {
          expect([201, 422], outcome).toContain(creation.status);
          if (creation.status === 201) expect(await getPoi(a.auth, creation.body.id)).toMatchObject({ category_id: target.id, category_name: 'Target' });
        }
        expect(await categoryRow(doomed.id)).toBeNull();
      }
    });

    it('answers 400 to reassign_to itself, to an unknown or foreign category and to a malformed one, and changes nothing', async () => {
      const category = await createCategory(a.auth);
      const poi = await createPoi(a.auth, siteA, category.id);
      const foreign = await createCategory(b.auth);
      const before = await categoryRow(category.id);
      const poiBefore = await poiRow(poi.id);
      for (const reassignTo of [String(category.id), String(MISSING_INTEGER_ID), String(foreign.id), 'abc', '0', '-1', '1.5', '']) {
        const response = await t.http.delete(`${BASE}/${category.id}?reassign_to=${reassignTo}`).set(a.auth);
        expect(response.status, `reassign_to=${reassignTo}: ${JSON.stringify(response.body)}`).toBe(400);
        expectError(response, 400, 'bad_request');
      }
      expect(await categoryRow(category.id)).toEqual(before);
      expect(await poiRow(poi.id)).toEqual(poiBefore);
      expect(await categoryRow(foreign.id)).not.toBeNull();
    });
  });

  describe('organization isolation', () => {
    it("another organization's category, an unknown id and a malformed id: 404, 404 and 400 on GET, PUT, PATCH and DELETE", async () => {
      const mine = await createCategory(a.auth);
      const theirs = await createCategory(b.auth);
      const theirsBefore = await categoryRow(theirs.id);
      for (const id of [theirs.id, MISSING_INTEGER_ID]) {
        expectError(await t.http.get(`${BASE}/${id}`).set(a.auth), 404, 'entity_not_found');
        expectError(await t.http.put(`${BASE}/${id}`).set(a.auth).send({ name_en: 'Hijacked' }), 404, 'entity_not_found');
        expectError(await t.http.patch(`${BASE}/${id}`).set(a.auth).send({ name_en: 'Hijacked' }), 404, 'entity_not_found');
        expectError(await t.http.delete(`${BASE}/${id}`).set(a.auth), 404, 'entity_not_found');
        expectError(await t.http.delete(`${BASE}/${id}?reassign_to=${mine.id}`).set(a.auth), 404, 'entity_not_found');
      }
      for (const id of MALFORMED_INTEGER_IDS) {
        expectError(await t.http.get(`${BASE}/${id}`).set(a.auth), 400, 'bad_request');
        expectError(await t.http.put(`${BASE}/${id}`).set(a.auth).send({ name_en: 'x' }), 400, 'bad_request');
        expectError(await t.http.patch(`${BASE}/${id}`).set(a.auth).send({ name_en: 'x' }), 400, 'bad_request');
        expectError(await t.http.delete(`${BASE}/${id}`).set(a.auth), 400, 'bad_request');
      }
      expect(await categoryRow(theirs.id)).toEqual(theirsBefore);
      const own = await t.http.get(`${BASE}/${mine.id}`).set(a.auth);
      expectStatus(own, 200);
      expect(own.body).toEqual(mine);
      const listed = await t.http.get(BASE).set(b.auth);
      expect(listed.body.map((item: CategoryBody) => item.id)).not.toContain(mine.id);
      expect(listed.body.map((item: CategoryBody) => item.id)).toContain(theirs.id);
    });

    it("a POI cannot use another organization's category: 422 naming category_id", async () => {
      const theirs = await createCategory(b.auth);
      const response = await t.http
        .post('/api/v1/pois')
        .set(a.auth)
        .send({
          building_id: siteA.building.id,
          name: 'Sneaky',
          category_id: theirs.id,
          position: { floor_id: siteA.floor.id, georeferences: { lat: siteA.building.location.lat, lng: siteA.building.location.lng } },
        });
      expectError(response, 422, 'validation_failed');
      expect(fieldsOf(response)).toEqual(['category_id']);
    });

    it("deleting a category with reassign_to never touches another organization's POIs", async () => {
      const siteB = await createSite(t, b.auth);
      const theirs = await createCategory(b.auth);
      const theirPoi = await createPoi(b.auth, siteB, theirs.id);
      const mine = await createCategory(a.auth);
      const target = await createCategory(a.auth);
      await createPoi(a.auth, siteA, mine.id);
      expectStatus(await t.http.delete(`${BASE}/${mine.id}?reassign_to=${target.id}`).set(a.auth), 204);
      expect(await getPoi(b.auth, theirPoi.id)).toMatchObject({ category_id: theirs.id, category_name: theirs.name_en });
    });
  });

  describe('permissions (contract 2.3)', () => {
    it.each(CARTOGRAPHY_KEY_LEVELS)('a %s key reads categories; writes only when it covers cartography (%s)', async (permission, canWrite) => {
      const key = await createApiKey(t, a.token, permission);
      const auth = asApiKey(key.apikey);
      const category = await createCategory(a.auth);

      const list = await t.http.get(BASE).set(auth);
      expectStatus(list, 200);
      expect(list.body).toContainEqual(category);
      const read = await t.http.get(`${BASE}/${category.id}`).set(auth);
      expectStatus(read, 200);
      expect(read.body).toEqual(category);

      const count = await categoryCount(a.org.organizationId);
      const before = await categoryRow(category.id);
      const code = uniqueCode(permission);
      const post = await t.http.post(BASE).set(auth).send({ name_en: 'By key', code });
      const put = await t.http.put(`${BASE}/${category.id}`).set(auth).send({ name_en: 'Put by key' });
      const patch = await t.http.patch(`${BASE}/${category.id}`).set(auth).send({ public: true });
      if (canWrite) {
        expectStatus(post, 201);
        expect(post.body).toMatchObject({ name_en: 'By key', code });
        expectStatus(put, 200);
        expectStatus(patch, 200);
        expect(patch.body).toMatchObject({ name_en: 'Put by key', public: true });
        expectStatus(await t.http.delete(`${BASE}/${category.id}`).set(auth), 204);
        expect(await categoryRow(category.id)).toBeNull();
      } else {
        for (const response of [post, put, patch, await t.http.delete(`${BASE}/${category.id}`).set(auth)]) {
          expectError(response, 403, 'forbidden');
        }
        expect(await categoryCount(a.org.organizationId)).toBe(count);
        expect(await categoryRow(category.id)).toEqual(before);
      }
    });

    it('a disabled key and no credentials are 401 on every route', async () => {
      const category = await createCategory(a.auth);
      const disabled = await createApiKey(t, a.token, ApiPermission.Disabled);
      for (const headers of [{}, asApiKey(disabled.apikey)]) {
        for (const [method, url] of [
          ['get', BASE],
          ['post', BASE],
          ['get', `${BASE}/${category.id}`],
          ['put', `${BASE}/${category.id}`],
          ['patch', `${BASE}/${category.id}`],
          ['delete', `${BASE}/${category.id}`],
        ] as const) {
          expectError(
            await t.http[method](url)
              .set(headers)
              .send(method === 'get' || method === 'delete' ? undefined : { name_en: 'x', code: uniqueCode() }),
            401,
            'unauthorized',
          );
        }
      }
      expect(await categoryRow(category.id)).not.toBeNull();
    });
  });
});
