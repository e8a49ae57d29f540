import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { addGroup, addUser, API_KEY_KEYS, ApiUser, expectNoSecrets, expectUserShape, login, Login, strongPassword, USER_KEYS, UserBody, watchResponses } from '../support/admin';
import { asApiKey, asBasic, asBearer, createApiKey, uniqueEmail } from '../support/auth';
import { Cartographer, createBuilding, errorFields, expectError, expectStatus, keysOf, PAGE_METADATA_KEYS, signUp, TIMESTAMP, UUID } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

/** Issue "Users, groups, roles": the users API, its rules and its stored state. */
describe('Users', () => {
  let t: TestApp;
  let http: ReturnType<typeof watchResponses>['http'];
  let watcher: ReturnType<typeof watchResponses>;
  let a: Cartographer;
  let b: Cartographer;
  /** Every password this suite set: no response may ever contain one. */
  const passwords: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    watcher = watchResponses(t);
    http = watcher.http;
    a = await signUp(t, 'Users A');
    b = await signUp(t, 'Users B');
    passwords.push(a.org.password, b.org.password);
  });
  afterAll(async () => t?.close());
  afterEach(() => {
    for (const response of watcher.take()) expectNoSecrets(response, passwords);
  });

  const member = async (auth: Record<string, string>, overrides: Record<string, unknown> = {}): Promise<ApiUser> => {
    const user = await addUser(t, auth, overrides);
    passwords.push(user.password);
    return user;
  };
  const userRow = async (id: string) => {
    const rows = await t.dataSource.query(`SELECT * FROM "users" WHERE "id" = '${id}'`);
    return rows[0] as Record<string, unknown> | undefined;
  };
  const memberships = async (userId: string) => {
    const groups = await t.dataSource.query(`SELECT "group_id" FROM "group_members" WHERE "user_id" = '${userId}' ORDER BY "group_id"`);
    const buildings = await t.dataSource.query(`SELECT "building_id" FROM "user_buildings" WHERE "user_id" = '${userId}' ORDER BY "building_id"`);
    return {
      group_ids: groups.map((row: { group_id: string }) => row.group_id),
      building_ids: buildings.map((row: { building_id: number | string }) => Number(row.building_id)),
    };
  };
  const usersWithEmail = async (email: string) => Number((await t.dataSource.query(`SELECT COUNT(*) AS "n" FROM "users" WHERE LOWER("email") = '${email.toLowerCase()}'`))[0].n);

  describe('POST /api/v1/users', () => {
    it('creates a user: 201 with exactly the user keys, the e-mail lower-cased, and keys the caller may not set ignored', async () => {
      const building = await createBuilding(t, a.auth);
      const group = await addGroup(t, a.auth, { name: 'Night shift' });
      const password = strongPassword();
      passwords.push(password);
      const email = `  Ana.${randomUUID().slice(0, 8)}@Example.TEST `;
      const before = Date.now();
      const response = await http
        .post('/api/v1/users')
        .set(a.auth)
        .send({
          email,
          password,
          full_name: '  Ana Alvarez ',
          code: 'EMP-1',
          role: 'USER',
          locale: 'es-ES',
          info: 'Works nights',
          icon_colour: '#3366ff',
          is_verified: true,
          group_ids: [group.id.toUpperCase()],
          building_ids: [building.id],
          // Not the caller's to set:
          id: '00000000-0000-4000-8000-000000000000',
          organization_id: b.org.organizationId,
          created_at: '2000-01-01T00:00:00.000+00:00',
          last_activity: '2000-01-01T00:00:00.000+00:00',
          password_hash: 'x',
          // The official client's legacy keys:
          is_manager: false,
          is_staff: true,
        });
      expectStatus(response, 201);
      const body = response.body as UserBody;
      expectUserShape(body);
      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        email: email.trim().toLowerCase(),
        code: 'EMP-1',
        full_name: 'Ana Alvarez',
        role: 'USER',
        organization_id: a.org.organizationId,
        group_ids: [group.id],
        building_ids: [building.id],
        locale: 'es-ES',
        info: 'Works nights',
        icon_colour: '#3366ff',
        is_verified: true,
        last_activity: null,
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: body.created_at,
      });
      expect(body.id).not.toBe('00000000-0000-4000-8000-000000000000');
      expect(Date.parse(body.created_at)).toBeGreaterThanOrEqual(before - 5);
      expect(Date.parse(body.created_at)).toBeLessThanOrEqual(Date.now() + 5);

      const row = await userRow(body.id);
      expect(row).toMatchObject({
        organization_id: a.org.organizationId,
        email: email.trim().toLowerCase(),
        role: 'USER',
        full_name: 'Ana Alvarez',
        code: 'EMP-1',
        locale: 'es-ES',
        icon_colour: '#3366ff',
      });
      expect(String(row!.password_hash)).toMatch(/^\$argon2id\$/);
      expect(String(row!.password_hash)).not.toContain(password);
      expect(await memberships(body.id)).toEqual({ group_ids: [group.id], building_ids: [building.id] });

      // It can log in with its password (e-mail in any case), and the group lists it.
      await login(t, email.trim().toUpperCase(), password);
      const listedGroup = await http.get(`/api/v1/groups/${group.id}`).set(a.auth).expect(200);
      expect(listedGroup.body.user_ids).toEqual([body.id]);
    });

    it('defaults: a USER with empty profile fields, no groups, no buildings, unverified', async () => {
      const email = uniqueEmail('plain');
      const password = strongPassword();
      passwords.push(password);
      const response = await http.post('/api/v1/users').set(a.auth).send({ email, password });
      expectStatus(response, 201);
      expect(response.body).toEqual({
        id: expect.stringMatching(UUID),
        email,
        code: '',
        full_name: '',
        role: 'USER',
        organization_id: a.org.organizationId,
        group_ids: [],
        building_ids: [],
        locale: 'en',
        info: '',
        icon_colour: '',
        is_verified: false,
        last_activity: null,
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      expect(await memberships(response.body.id)).toEqual({ group_ids: [], building_ids: [] });
    });

    it('creates an ADMIN_ORG, who can then manage users', async () => {
      const admin = await member(a.auth, { role: 'ADMIN_ORG', full_name: 'Second admin' });
      expect(admin.body.role).toBe('ADMIN_ORG');
      const session = await login(t, admin.email, admin.password);
      const created = await member(session.auth, { full_name: 'Made by the second admin' });
      expect(created.body.organization_id).toBe(a.org.organizationId);
    });

    it('refuses a duplicate e-mail, compared case-insensitively, in the same and in another organization: 409', async () => {
      const existing = await member(a.auth);
      for (const [auth, email] of [
        [a.auth, existing.email.toUpperCase()],
        [b.auth, existing.email],
        [b.auth, ` ${existing.email.replace(/^./, (c) => c.toUpperCase())}`],
        [a.auth, b.org.email.toUpperCase()],
      ] as const) {
        const response = await http.post('/api/v1/users').set(auth).send({ email, password: strongPassword() });
        expectError(response, 409, 'conflict');
        expect(errorFields(response)).toEqual(['email']);
      }
      expect(await usersWithEmail(existing.email)).toBe(1);
      expect(await usersWithEmail(b.org.email)).toBe(1);
    });

    it('enforces the password policy: 422 naming password, never echoing it', async () => {
      const email = uniqueEmail('policy');
      const cases: Array<[unknown, string]> = [
        ['short-pw-11', 'too short'],
        [email.toUpperCase(), 'the e-mail'],
        [` ${email} `, 'the e-mail, padded'],
        [undefined, 'missing'],
        [123456789012, 'not a string'],
        ['', 'empty'],
      ];
      for (const [password, label] of cases) {
        const response = await http.post('/api/v1/users').set(a.auth).send({ email, password });
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response), label).toContain('password');
        expect(new Set(errorFields(response)), label).toEqual(new Set(['password']));
        if (typeof password === 'string' && password !== '') expect(response.text).not.toContain(password.trim());
      }
      expect(await usersWithEmail(email)).toBe(0);
      // Exactly twelve characters is enough.
      const twelve = 'abcdefghijkl';
      passwords.push(twelve);
      const ok = await http.post('/api/v1/users').set(a.auth).send({ email, password: twelve });
      expectStatus(ok, 201);
      await login(t, email, twelve);
    });

    it('validates every field: 422 naming each one', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ email: 'not-an-email' }, 'email'],
        [{ email: undefined }, 'email'],
        [{ role: 'STAFF' }, 'role'],
        [{ role: 'admin_org' }, 'role'],
        [{ locale: 'english!' }, 'locale'],
        [{ icon_colour: 'blue' }, 'icon_colour'],
        [{ is_verified: 'yes' }, 'is_verified'],
        [{ full_name: 'x'.repeat(256) }, 'full_name'],
        [{ full_name: null }, 'full_name'],
        [{ code: 5 }, 'code'],
        [{ info: 7 }, 'info'],
        [{ group_ids: ['nope'] }, 'group_ids'],
        [{ group_ids: 'nope' }, 'group_ids'],
        [{ building_ids: ['abc'] }, 'building_ids'],
        [{ building_ids: [0] }, 'building_ids'],
      ];
      for (const [overrides, field] of cases) {
        const email = uniqueEmail('invalid');
        const response = await http
          .post('/api/v1/users')
          .set(a.auth)
          .send({ email, password: strongPassword(), ...overrides });
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response), JSON.stringify(overrides)).toContain(field);
        expect(await usersWithEmail(email)).toBe(0);
      }
      for (const body of ['"text"', '[]', 'null']) {
        const response = await http.post('/api/v1/users').set(a.auth).set('Content-Type', 'application/json').send(body);
        expectError(response, 422, 'validation_failed');
      }
      const malformed = await http.post('/api/v1/users').set(a.auth).set('Content-Type', 'application/json').send('{"email":');
      expectError(malformed, 400, 'bad_request');
    });

    it('accepts a full_name of 255 characters whatever its lower-case form (İ lower-cases to two characters)', async () => {
      const name = `Ayşe ${'İ'.repeat(250)}`;
      expect(name).toHaveLength(255);
      const created = await member(a.auth, { full_name: name });
      expect(created.body.full_name).toBe(name);
      const renamed = await http
        .put(`/api/v1/users/${created.id}`)
        .set(a.auth)
        .send({ full_name: `${'İ'.repeat(250)} Ayşe` });
      expectStatus(renamed, 200);
      expect(renamed.body.full_name).toBe(`${'İ'.repeat(250)} Ayşe`);
      const found = await http
        .get(`/api/v1/users?full_name=${encodeURIComponent('İİ AYŞE')}`)
        .set(a.auth)
        .expect(200);
      expect(found.body.data.map((user: UserBody) => user.id)).toEqual([created.id]);
    });

    it("refuses buildings and groups that are not the organization's: 422 naming the field, nothing stored", async () => {
      const foreignBuilding = await createBuilding(t, b.auth);
      const foreignGroup = await addGroup(t, b.auth);
      const ownGroup = await addGroup(t, a.auth);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ building_ids: [foreignBuilding.id] }, 'building_ids'],
        [{ building_ids: [2_147_483_000] }, 'building_ids'],
        [{ group_ids: [foreignGroup.id] }, 'group_ids'],
        [{ group_ids: [ownGroup.id, randomUUID()] }, 'group_ids'],
      ];
      for (const [overrides, field] of cases) {
        const email = uniqueEmail('refs');
        const response = await http
          .post('/api/v1/users')
          .set(a.auth)
          .send({ email, password: strongPassword(), ...overrides });
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response)).toEqual([field]);
        expect(await usersWithEmail(email)).toBe(0);
      }
      const members = await t.dataSource.query(`SELECT COUNT(*) AS "n" FROM "group_members" WHERE "group_id" = '${ownGroup.id}'`);
      expect(Number(members[0].n)).toBe(0);
    });
  });

  describe('GET /api/v1/users', () => {
    // A directory of its own, so that every filter's answer is known exactly.
    let d: Cartographer;
    let admin: UserBody;
    let ana: ApiUser, bruno: ApiUser, carla: ApiUser, dario: ApiUser, eva: ApiUser;
    let g1: string, g2: string;
    let b1: number, b2: number;
    let all: UserBody[];

    const list = async (query: string, auth: Record<string, string> = d.auth) => {
      const response = await http.get(`/api/v1/users${query ? `?${query}` : ''}`).set(auth);
      expectStatus(response, 200);
      return response.body as { data: UserBody[]; metadata: Record<string, unknown> };
    };
    const ids = async (query: string, auth?: Record<string, string>) => (await list(query, auth)).data.map((user) => user.id);

    beforeAll(async () => {
      d = await signUp(t, 'Directory');
      passwords.push(d.org.password);
      b1 = (await createBuilding(t, d.auth, { name: 'B1' })).id;
      b2 = (await createBuilding(t, d.auth, { name: 'B2' })).id;
      g1 = (await addGroup(t, d.auth, { name: 'G1' })).id;
      g2 = (await addGroup(t, d.auth, { name: 'G2' })).id;
      ana = await member(d.auth, { email: uniqueEmail('ana'), full_name: 'Ana Alvarez', code: 'A1', group_ids: [g1], building_ids: [b1] });
      bruno = await member(d.auth, { email: uniqueEmail('bruno'), full_name: 'Bruno Blanco', code: 'B2', group_ids: [g1, g2], building_ids: [b1, b2] });
      carla = await member(d.auth, { email: uniqueEmail('carla'), full_name: 'Carla 100% Castro', code: 'C3', group_ids: [g2] });
      dario = await member(d.auth, { email: uniqueEmail('dario'), full_name: 'Dario Díaz', code: 'D4', building_ids: [b2] });
      eva = await member(d.auth, { email: uniqueEmail('eva'), full_name: 'Eva_Estevez', code: 'E 5' });
      admin = (await http.get(`/api/v1/users/${d.org.adminId}`).set(d.auth).expect(200)).body;
      all = (await list('')).data;
    });

    it('is paginated: { data, metadata } with every user of the organization in creation order, each with exactly the user keys', async () => {
      const page = await list('');
      expect(keysOf(page)).toEqual(['data', 'metadata']);
      expect(keysOf(page.metadata)).toEqual(PAGE_METADATA_KEYS);
      expect(page.metadata).toEqual({ first: true, last: true, total_pages: 1, total_elements: 6, number_of_elements: 6, size: 50, number: 1 });
      expect(page.data.map((user) => user.id)).toEqual([d.org.adminId, ana.id, bruno.id, carla.id, dario.id, eva.id]);
      for (const user of page.data) expectUserShape(user);
      expect(page.data[0]).toEqual(admin);
      expect(page.data[0]).toMatchObject({ role: 'ADMIN_ORG', full_name: 'Administrator', email: d.org.email, last_activity: expect.stringMatching(TIMESTAMP) });
      expect(page.data[2]).toEqual({ ...bruno.body, group_ids: [g1, g2].sort() });
      expect(page.data[2].building_ids).toEqual([b1, b2]);
    });

    it('pages: page (1-based, 0 read as 1) and size, with exact metadata', async () => {
      const first = await list('size=4&page=1');
      expect(first.metadata).toEqual({ first: true, last: false, total_pages: 2, total_elements: 6, number_of_elements: 4, size: 4, number: 1 });
      const second = await list('size=4&page=2');
      expect(second.metadata).toEqual({ first: false, last: true, total_pages: 2, total_elements: 6, number_of_elements: 2, size: 4, number: 2 });
      expect([...first.data, ...second.data]).toEqual(all);
      const beyond = await list('size=4&page=3');
      expect(beyond.data).toEqual([]);
      expect(beyond.metadata).toEqual({ first: false, last: true, total_pages: 2, total_elements: 6, number_of_elements: 0, size: 4, number: 3 });
      expect((await list('size=4&page=0')).data).toEqual(first.data);
      const exact = await list('size=3&page=2');
      expect(exact.metadata).toMatchObject({ first: false, last: true, total_pages: 2, number_of_elements: 3 });
      expect((await list('size=1000')).metadata).toMatchObject({ size: 1000, total_elements: 6 });
      for (const query of ['size=0', 'size=1001', 'size=abc', 'page=-1', 'page=abc', 'page=1.5']) {
        expectError(await http.get(`/api/v1/users?${query}`).set(d.auth), 400, 'bad_request');
      }
    });

    it('filters by each parameter alone', async () => {
      expect(await ids(`ids=${ana.id},${carla.id}`)).toEqual([ana.id, carla.id]);
      expect(await ids(`ids=${ana.id.toUpperCase()}`)).toEqual([ana.id]);
      expect(await ids(`exclude_ids=${ana.id},${bruno.id}`)).toEqual([d.org.adminId, carla.id, dario.id, eva.id]);
      expect(await ids(`group_ids=${g1}`)).toEqual([ana.id, bruno.id]);
      expect(await ids(`group_ids=${g2}`)).toEqual([bruno.id, carla.id]);
      expect(await ids(`group_ids=${g1},${g2}`)).toEqual([ana.id, bruno.id, carla.id]);
      expect(await ids(`building_ids=${b1}`)).toEqual([ana.id, bruno.id]);
      expect(await ids(`building_ids=${b2}`)).toEqual([bruno.id, dario.id]);
      expect(await ids('has_buildings=true')).toEqual([ana.id, bruno.id, dario.id]);
      expect(await ids('has_buildings=false')).toEqual([d.org.adminId, carla.id, eva.id]);
      expect(await ids('full_name=ALV')).toEqual([ana.id]);
      expect(await ids('full_name=blanc')).toEqual([bruno.id]);
      expect(await ids(`full_name=${encodeURIComponent('100%')}`)).toEqual([carla.id]);
      expect(await ids(`full_name=${encodeURIComponent('%')}`)).toEqual([carla.id]);
      expect(await ids('full_name=_')).toEqual([eva.id]);
      expect(await ids('full_name=zzz')).toEqual([]);
      expect(await ids('codes=A1,C3')).toEqual([ana.id, carla.id]);
      expect(await ids(`codes=${encodeURIComponent('E 5')}`)).toEqual([eva.id]);
      expect(await ids('codes=a1')).toEqual([]);
      const filtered = await list(`group_ids=${g1}`);
      expect(filtered.metadata).toMatchObject({ total_elements: 2, number_of_elements: 2, total_pages: 1 });
    });

    it('full_name is case-insensitive for accented letters too (Spanish names)', async () => {
      const accented = await member(d.auth, { full_name: 'Íñigo Álvarez Ölund' });
      try {
        for (const query of ['álvarez', 'ÁLVAREZ', 'Álvarez', 'íñigo', 'ÍÑIGO', 'ölund', 'ñIGO á']) {
          expect(await ids(`full_name=${encodeURIComponent(query)}`), query).toEqual([accented.id]);
        }
      } finally {
        await http.delete(`/api/v1/users/${accented.id}`).set(d.auth).expect(204);
      }
    });

    it('accepts the three list forms for every list filter', async () => {
      const forms = (key: string, values: Array<string | number>) => [
        `${key}=${values.map((value) => encodeURIComponent(String(value))).join(',')}`,
        values.map((value) => `${key}=${encodeURIComponent(String(value))}`).join('&'),
        values.map((value) => `${key}[]=${encodeURIComponent(String(value))}`).join('&'),
        values.map((value) => `${key}%5B%5D=${encodeURIComponent(String(value))}`).join('&'),
      ];
      const expectations: Array<[string, Array<string | number>, string[]]> = [
        ['ids', [ana.id, dario.id], [ana.id, dario.id]],
        ['exclude_ids', [d.org.adminId, ana.id, bruno.id, carla.id], [dario.id, eva.id]],
        ['group_ids', [g1, g2], [ana.id, bruno.id, carla.id]],
        ['building_ids', [b1, b2], [ana.id, bruno.id, dario.id]],
        ['codes', ['B2', 'E 5'], [bruno.id, eva.id]],
      ];
      for (const [key, values, expected] of expectations) {
        for (const query of forms(key, values)) expect(await ids(query), query).toEqual(expected);
      }
    });

    it('combines filters (AND)', async () => {
      expect(await ids(`group_ids=${g1}&building_ids=${b2}`)).toEqual([bruno.id]);
      expect(await ids('has_buildings=true&full_name=a')).toEqual([ana.id, bruno.id, dario.id]);
      expect(await ids(`exclude_ids=${bruno.id}&group_ids=${g1},${g2}`)).toEqual([ana.id, carla.id]);
      expect(await ids(`ids=${ana.id},${bruno.id},${carla.id}&codes=B2,C3&has_buildings=false`)).toEqual([carla.id]);
      expect(await ids(`ids=${ana.id}&exclude_ids=${ana.id}`)).toEqual([]);
      expect(await ids(`full_name=o&codes=A1,B2,C3,D4&building_ids=${b1}&sort=-full_name`)).toEqual([bruno.id]);
      const page = await list(`has_buildings=false&size=2&page=2`);
      expect(page.data.map((user) => user.id)).toEqual([eva.id]);
      expect(page.metadata).toEqual({ first: false, last: true, total_pages: 2, total_elements: 3, number_of_elements: 1, size: 2, number: 2 });
    });

    it('sorts: field, -field, field,asc|desc and direction=ASC|DESC', async () => {
      const byName = [d.org.adminId, ana.id, bruno.id, carla.id, dario.id, eva.id];
      const reversed = [...byName].reverse();
      expect(await ids('sort=full_name')).toEqual(byName);
      expect(await ids('sort=name,asc')).toEqual(byName);
      expect(await ids('sort=full_name,ASC')).toEqual(byName);
      expect(await ids('sort=-full_name')).toEqual(reversed);
      expect(await ids('sort=full_name,desc')).toEqual(reversed);
      expect(await ids('sort=full_name&direction=DESC')).toEqual(reversed);
      expect(await ids('sort=full_name&direction=desc')).toEqual(reversed);
      expect(await ids('sort=name&direction=ASC')).toEqual(byName);
      expect(await ids('sort=code')).toEqual(byName);
      expect(await ids('sort=-code')).toEqual(reversed);
      expect(await ids('sort=email')).toEqual(byName);
      expect(await ids('sort=-created_at')).toEqual(all.map((user) => user.id).reverse());
      expect(await ids('direction=DESC')).toEqual(all.map((user) => user.id).reverse());
      // The other sortable fields are accepted.
      for (const field of ['created_at', 'updated_at', 'last_activity']) {
        const sorted = await list(`sort=${field}`);
        expect(sorted.data.map((user) => user.id).sort()).toEqual(all.map((user) => user.id).sort());
        const values = sorted.data.map((user) => user[field as 'created_at']).filter((value): value is string => value !== null);
        expect(values).toEqual([...values].sort());
      }
      const page = await list('sort=-full_name&size=2&page=2');
      expect(page.data.map((user) => user.id)).toEqual([carla.id, bruno.id]);
      for (const query of ['sort=password', 'sort=unknown', 'sort=full_name,up', 'sort=full_name;drop', 'direction=UP']) {
        expectError(await http.get(`/api/v1/users?${query}`).set(d.auth), 400, 'bad_request');
      }
    });

    it('answers 400 to malformed filter values', async () => {
      for (const query of ['ids=not-a-uuid', 'exclude_ids=1', 'group_ids=x', 'building_ids=abc', 'building_ids=0', 'has_buildings=maybe']) {
        expectError(await http.get(`/api/v1/users?${query}`).set(d.auth), 400, 'bad_request');
      }
    });

    it("never lists another organization's users, even by id", async () => {
      expect(await ids(`ids=${a.org.adminId},${ana.id}`)).toEqual([ana.id]);
      const fromA = await list('size=1000', a.auth);
      expect(fromA.data.map((user) => user.id)).not.toContain(ana.id);
      expect(fromA.data.every((user) => user.organization_id === a.org.organizationId)).toBe(true);
    });

    it('a USER lists only itself, whatever the filters', async () => {
      const session = await login(t, carla.email, carla.password);
      const own = await list('', session.auth);
      expect(own.data.map((user) => user.id)).toEqual([carla.id]);
      expect(own.metadata).toMatchObject({ total_elements: 1, number_of_elements: 1 });
      expect(await ids(`ids=${ana.id},${bruno.id}`, session.auth)).toEqual([]);
      expect(await ids(`group_ids=${g2}`, session.auth)).toEqual([carla.id]);
      expect(await ids(`exclude_ids=${carla.id}`, session.auth)).toEqual([]);
    });
  });

  describe('GET /api/v1/users/{id} and /api/v1/users/me', () => {
    it('reads a user of the organization: the same object as in the list; uppercase ids work', async () => {
      const user = await member(a.auth, { full_name: 'Readable' });
      const read = await http.get(`/api/v1/users/${user.id}`).set(a.auth);
      expectStatus(read, 200);
      expect(read.body).toEqual(user.body);
      expect((await http.get(`/api/v1/users/${user.id.toUpperCase()}/`).set(a.auth).expect(200)).body).toEqual(user.body);
      const listed = await http.get(`/api/v1/users?ids=${user.id}`).set(a.auth).expect(200);
      expect(listed.body.data).toEqual([user.body]);
    });

    it("answers 404 for another organization's user and unknown ids, 400 for malformed ones", async () => {
      const foreign = await member(b.auth);
      expectError(await http.get(`/api/v1/users/${foreign.id}`).set(a.auth), 404, 'entity_not_found');
      expectError(await http.get(`/api/v1/users/${b.org.adminId}`).set(a.auth), 404, 'entity_not_found');
      expectError(await http.get(`/api/v1/users/${randomUUID()}`).set(a.auth), 404, 'entity_not_found');
      expectError(await http.get('/api/v1/users/not-a-uuid').set(a.auth), 400, 'bad_request');
      expectError(await http.get('/api/v1/users/12345').set(a.auth), 400, 'bad_request');
    });

    it('GET /users/me is the caller, for admins, users and keys that read (not positioning ones); last_activity is set by logging in', async () => {
      const user = await member(a.auth, { full_name: 'Me' });
      expect(user.body.last_activity).toBeNull();
      const session = await login(t, user.email, user.password);
      const me = await http.get('/api/v1/users/me').set(session.auth);
      expectStatus(me, 200);
      expect(me.body).toEqual({ ...user.body, last_activity: expect.stringMatching(TIMESTAMP) });
      expect(Date.parse(me.body.last_activity)).toBeGreaterThanOrEqual(Date.parse(user.body.created_at));
      const adminMe = await http.get('/api/v1/users/me/').set(a.auth).expect(200);
      expect(adminMe.body).toMatchObject({ id: a.org.adminId, role: 'ADMIN_ORG', email: a.org.email, organization_id: a.org.organizationId });
      const key = await createApiKey(t, session.tokens.access_token, ApiPermission.ReadOnly);
      expect((await http.get('/api/v1/users/me').set(asApiKey(key.apikey)).expect(200)).body.id).toBe(user.id);
      const positioning = await createApiKey(t, session.tokens.access_token, ApiPermission.Positioning);
      expectError(await http.get('/api/v1/users/me').set(asApiKey(positioning.apikey)), 403, 'forbidden');
      expectError(await http.get('/api/v1/users/me'), 401, 'unauthorized');
      expectError(await http.get('/api/v1/users'), 401, 'unauthorized');
    });

    it('a USER reads itself by id; another user (of any organization) is 403', async () => {
      const user = await member(a.auth);
      const other = await member(a.auth);
      const session = await login(t, user.email, user.password);
      expect((await http.get(`/api/v1/users/${user.id}`).set(session.auth).expect(200)).body.id).toBe(user.id);
      expectError(await http.get(`/api/v1/users/${other.id}`).set(session.auth), 403, 'forbidden');
      expectError(await http.get(`/api/v1/users/${a.org.adminId}`).set(session.auth), 403, 'forbidden');
      expectError(await http.get(`/api/v1/users/${b.org.adminId}`).set(session.auth), 403, 'forbidden');
    });
  });

  describe('PUT /api/v1/users/{id}', () => {
    it('an admin updates any field (partial): the exact object, stored, updated_at moves, created_at and unknown keys do not', async () => {
      const building = await createBuilding(t, a.auth);
      const group = await addGroup(t, a.auth);
      const user = await member(a.auth, { full_name: 'Before', code: 'X' });
      const newEmail = `Renamed.${randomUUID().slice(0, 8)}@Example.TEST`;
      const response = await http
        .put(`/api/v1/users/${user.id}`)
        .set(a.auth)
        .send({
          email: newEmail,
          full_name: 'After',
          locale: 'gl',
          info: 'Updated',
          icon_colour: '#abc',
          is_verified: true,
          group_ids: [group.id],
          building_ids: [building.id],
          id: randomUUID(),
          organization_id: b.org.organizationId,
          created_at: '2000-01-01T00:00:00.000+00:00',
        });
      expectStatus(response, 200);
      expect(response.body).toEqual({
        ...user.body,
        email: newEmail.toLowerCase(),
        full_name: 'After',
        code: 'X',
        locale: 'gl',
        info: 'Updated',
        icon_colour: '#abc',
        is_verified: true,
        group_ids: [group.id],
        building_ids: [building.id],
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      expect(Date.parse(response.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(user.body.updated_at));
      expect((await http.get(`/api/v1/users/${user.id}`).set(a.auth).expect(200)).body).toEqual(response.body);
      expect(await userRow(user.id)).toMatchObject({ email: newEmail.toLowerCase(), full_name: 'After', organization_id: a.org.organizationId });
      expect(await memberships(user.id)).toEqual({ group_ids: [group.id], building_ids: [building.id] });
      // The new e-mail logs in; the old one no longer exists.
      await login(t, newEmail, user.password);
      const old = await t.http.post('/api/v1/auth/access_tokens').set(asBasic(user.email, user.password));
      expectError(old, 401, 'invalid_credentials');

      // PATCH is a synonym; a trailing slash is accepted.
      const patched = await http.patch(`/api/v1/users/${user.id}/`).set(a.auth).send({ code: 'Y' });
      expectStatus(patched, 200);
      expect(patched.body).toEqual({ ...response.body, code: 'Y', last_activity: expect.stringMatching(TIMESTAMP), updated_at: expect.stringMatching(TIMESTAMP) });
    });

    it('group_ids and building_ids replace the memberships; [] clears them', async () => {
      const [b1, b2] = [await createBuilding(t, a.auth), await createBuilding(t, a.auth)];
      const [g1, g2] = [await addGroup(t, a.auth), await addGroup(t, a.auth)];
      const user = await member(a.auth, { group_ids: [g1.id], building_ids: [b1.id] });
      const replaced = await http
        .put(`/api/v1/users/${user.id}`)
        .set(a.auth)
        .send({ group_ids: [g2.id, g2.id], building_ids: [b2.id, b1.id, b2.id] });
      expectStatus(replaced, 200);
      expect(replaced.body.group_ids).toEqual([g2.id]);
      expect([...replaced.body.building_ids].sort()).toEqual([b1.id, b2.id].sort());
      expect(await memberships(user.id)).toEqual({ group_ids: [g2.id], building_ids: [b1.id, b2.id].sort((x, y) => x - y) });
      const untouched = await http.put(`/api/v1/users/${user.id}`).set(a.auth).send({ full_name: 'Only the name' });
      expect(untouched.body).toMatchObject({ group_ids: [g2.id] });
      expect(untouched.body.building_ids).toHaveLength(2);
      const cleared = await http.put(`/api/v1/users/${user.id}`).set(a.auth).send({ group_ids: [], building_ids: [] });
      expectStatus(cleared, 200);
      expect(cleared.body).toMatchObject({ group_ids: [], building_ids: [] });
      expect(await memberships(user.id)).toEqual({ group_ids: [], building_ids: [] });
      expect((await http.get(`/api/v1/groups/${g2.id}`).set(a.auth).expect(200)).body.user_ids).toEqual([]);
    });

    it('refuses an e-mail taken anywhere on the server (any case): 409; its own e-mail in another case is fine', async () => {
      const user = await member(a.auth);
      const other = await member(a.auth);
      const foreign = await member(b.auth);
      for (const email of [other.email.toUpperCase(), foreign.email, b.org.email.toUpperCase()]) {
        const response = await http.put(`/api/v1/users/${user.id}`).set(a.auth).send({ email });
        expectError(response, 409, 'conflict');
        expect(errorFields(response)).toEqual(['email']);
      }
      expect((await userRow(user.id))!.email).toBe(user.email);
      const same = await http.put(`/api/v1/users/${user.id}`).set(a.auth).send({ email: user.email.toUpperCase() });
      expectStatus(same, 200);
      expect(same.body.email).toBe(user.email);
    });

    it('validates the fields: 422 naming each one, nothing changed', async () => {
      const user = await member(a.auth, { full_name: 'Valid' });
      const foreignBuilding = await createBuilding(t, b.auth);
      const foreignGroup = await addGroup(t, b.auth);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ role: 'STAFF' }, 'role'],
        [{ email: 'nope' }, 'email'],
        [{ full_name: null }, 'full_name'],
        [{ locale: '' }, 'locale'],
        [{ icon_colour: 'red' }, 'icon_colour'],
        [{ password: 'short' }, 'password'],
        [{ password: user.email.toUpperCase() }, 'password'],
        [{ building_ids: [foreignBuilding.id] }, 'building_ids'],
        [{ group_ids: [foreignGroup.id] }, 'group_ids'],
      ];
      for (const [body, field] of cases) {
        const response = await http.put(`/api/v1/users/${user.id}`).set(a.auth).send(body);
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response), JSON.stringify(body)).toContain(field);
      }
      expect((await http.get(`/api/v1/users/${user.id}`).set(a.auth).expect(200)).body).toEqual(user.body);
      await login(t, user.email, user.password);
    });

    it("answers 404 for another organization's user and unknown ids; the other user is untouched", async () => {
      const foreign = await member(b.auth, { full_name: 'Foreign' });
      for (const method of ['put', 'patch'] as const) {
        expectError(await http[method](`/api/v1/users/${foreign.id}`).set(a.auth).send({ full_name: 'Hijacked' }), 404, 'entity_not_found');
      }
      expectError(await http.put(`/api/v1/users/${b.org.adminId}`).set(a.auth).send({ role: 'USER' }), 404, 'entity_not_found');
      expectError(await http.put(`/api/v1/users/${randomUUID()}`).set(a.auth).send({ full_name: 'x' }), 404, 'entity_not_found');
      expectError(await http.put('/api/v1/users/not-a-uuid').set(a.auth).send({ full_name: 'x' }), 400, 'bad_request');
      expect((await http.get(`/api/v1/users/${foreign.id}`).set(b.auth).expect(200)).body).toEqual(foreign.body);
    });

    it('a USER changes its own full_name, locale, info and icon_colour; any other field, or another user, is 403', async () => {
      const user = await member(a.auth, { full_name: 'Self', code: 'S-1' });
      const other = await member(a.auth, { full_name: 'Other' });
      const group = await addGroup(t, a.auth);
      const building = await createBuilding(t, a.auth);
      const session = await login(t, user.email, user.password);
      const own = await http
        .put(`/api/v1/users/${user.id}`)
        .set(session.auth)
        .send({ full_name: 'Self renamed', locale: 'es', info: 'Hi', icon_colour: '#123456', id: randomUUID(), unknown_key: 1 });
      expectStatus(own, 200);
      expect(own.body).toEqual({
        ...user.body,
        full_name: 'Self renamed',
        locale: 'es',
        info: 'Hi',
        icon_colour: '#123456',
        last_activity: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      const refused: Array<Record<string, unknown>> = [
        { role: 'ADMIN_ORG' },
        { email: uniqueEmail('self') },
        { code: 'S-2' },
        { is_verified: true },
        { group_ids: [group.id] },
        { building_ids: [building.id] },
        { password: strongPassword() },
        { full_name: 'Allowed', role: 'ADMIN_ORG' },
      ];
      for (const body of refused) {
        expectError(await http.put(`/api/v1/users/${user.id}`).set(session.auth).send(body), 403, 'forbidden');
      }
      // Unchanged values of those fields are what a profile form sends back: accepted (issue 10).
      for (const body of [{ role: 'USER' }, { building_ids: [] }, { email: user.email, code: 'S-1', is_verified: false, group_ids: [] }]) {
        expectStatus(await http.put(`/api/v1/users/${user.id}`).set(session.auth).send(body), 200);
      }
      expectError(await http.put(`/api/v1/users/${other.id}`).set(session.auth).send({ full_name: 'Hijacked' }), 403, 'forbidden');
      expectError(await http.put(`/api/v1/users/${a.org.adminId}`).set(session.auth).send({ full_name: 'Hijacked' }), 403, 'forbidden');
      const stored = (await http.get(`/api/v1/users/${user.id}`).set(a.auth).expect(200)).body;
      expect(stored).toMatchObject({ role: 'USER', code: 'S-1', email: user.email, is_verified: false, group_ids: [], building_ids: [], full_name: 'Self renamed' });
      expect((await http.get(`/api/v1/users/${other.id}`).set(a.auth).expect(200)).body.full_name).toBe('Other');
      await login(t, user.email, user.password);
    });

    it('an admin changes roles: promotion takes effect on the promoted user’s existing token at once', async () => {
      const user = await member(a.auth);
      const session = await login(t, user.email, user.password);
      expectError(await http.post('/api/v1/users').set(session.auth).send({ email: uniqueEmail(), password: strongPassword() }), 403, 'forbidden');
      const promoted = await http.put(`/api/v1/users/${user.id}`).set(a.auth).send({ role: 'ADMIN_ORG' });
      expectStatus(promoted, 200);
      expect(promoted.body.role).toBe('ADMIN_ORG');
      expect((await userRow(user.id))!.role).toBe('ADMIN_ORG');
      const created = await member(session.auth);
      expect(created.body.organization_id).toBe(a.org.organizationId);
      const demoted = await http.put(`/api/v1/users/${user.id}`).set(a.auth).send({ role: 'USER' });
      expectStatus(demoted, 200);
      expect(demoted.body.role).toBe('USER');
      expectError(await http.delete(`/api/v1/users/${created.id}`).set(session.auth), 403, 'forbidden');
    });

    it("an admin resets a user's password: the user's password sessions end, its keys stay, the new password logs in", async () => {
      const user = await member(a.auth);
      const session = await login(t, user.email, user.password);
      const key = await createApiKey(t, session.tokens.access_token, ApiPermission.ReadOnly);
      const newPassword = strongPassword();
      passwords.push(newPassword);
      const reset = await http.put(`/api/v1/users/${user.id}`).set(a.auth).send({ password: newPassword });
      expectStatus(reset, 200);
      expect(keysOf(reset.body)).toEqual(USER_KEYS);
      expectError(await http.get('/api/v1/users/me').set(session.auth), 401, 'unauthorized');
      expectError(await t.http.post('/api/v1/auth/refresh_access_tokens').send(session.tokens), 401, 'unauthorized');
      expectError(await t.http.post('/api/v1/auth/access_tokens').set(asBasic(user.email, user.password)), 401, 'invalid_credentials');
      expect((await http.get('/api/v1/users/me').set(asApiKey(key.apikey)).expect(200)).body.id).toBe(user.id);
      const fresh = await login(t, user.email, newPassword);
      expect((await http.get('/api/v1/users/me').set(fresh.auth).expect(200)).body.id).toBe(user.id);
      // The admin's own session is not touched.
      await http.get('/api/v1/users/me').set(a.auth).expect(200);
    });
  });

  describe('DELETE /api/v1/users/{id}', () => {
    it('deletes a user: 204, gone from the API and the database, its memberships go, its tokens and keys stop at once', async () => {
      const building = await createBuilding(t, a.auth);
      const group = await addGroup(t, a.auth);
      const user = await member(a.auth, { group_ids: [group.id], building_ids: [building.id] });
      const session = await login(t, user.email, user.password);
      const key = await createApiKey(t, session.tokens.access_token, ApiPermission.ReadWrite);
      const keyToken = (await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(key.apikey)).expect(201)).body.access_token as string;
      await http.get('/api/v1/users/me').set(asBearer(keyToken)).expect(200);

      const deleted = await http.delete(`/api/v1/users/${user.id}`).set(a.auth).set('Content-Type', 'application/json');
      expectStatus(deleted, 204);
      expect(deleted.text).toBe('');

      expectError(await http.get(`/api/v1/users/${user.id}`).set(a.auth), 404, 'entity_not_found');
      expect((await http.get(`/api/v1/users?ids=${user.id}`).set(a.auth).expect(200)).body.data).toEqual([]);
      expect(await userRow(user.id)).toBeUndefined();
      expect(await memberships(user.id)).toEqual({ group_ids: [], building_ids: [] });
      expect(Number((await t.dataSource.query(`SELECT COUNT(*) AS "n" FROM "api_keys" WHERE "user_id" = '${user.id}'`))[0].n)).toBe(0);
      expect((await http.get(`/api/v1/groups/${group.id}`).set(a.auth).expect(200)).body.user_ids).toEqual([]);

      expectError(await http.get('/api/v1/users/me').set(session.auth), 401, 'unauthorized');
      expectError(await http.get('/api/v1/buildings').set(asApiKey(key.apikey)), 401, 'unauthorized');
      expectError(await http.get('/api/v1/buildings').set(asBearer(keyToken)), 401, 'unauthorized');
      expectError(await t.http.post('/api/v1/auth/refresh_access_tokens').send(session.tokens), 401, 'unauthorized');
      expectError(await t.http.post('/api/v1/auth/access_tokens').set(asBasic(user.email, user.password)), 401, 'invalid_credentials');
      expectError(await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(key.apikey)), 401, 'unauthorized');

      expectError(await http.delete(`/api/v1/users/${user.id}`).set(a.auth), 404, 'entity_not_found');
      // The e-mail is free again.
      const again = await member(a.auth, { email: user.email });
      expect(again.id).not.toBe(user.id);
    });

    it("answers 404 for another organization's user, 400 for a malformed id; the other user keeps working", async () => {
      const foreign = await member(b.auth);
      const session = await login(t, foreign.email, foreign.password);
      expectError(await http.delete(`/api/v1/users/${foreign.id}`).set(a.auth), 404, 'entity_not_found');
      expectError(await http.delete(`/api/v1/users/${b.org.adminId}`).set(a.auth), 404, 'entity_not_found');
      expectError(await http.delete(`/api/v1/users/${randomUUID()}`).set(a.auth), 404, 'entity_not_found');
      expectError(await http.delete('/api/v1/users/not-a-uuid').set(a.auth), 400, 'bad_request');
      await http.get('/api/v1/users/me').set(session.auth).expect(200);
      expect(await userRow(foreign.id)).toBeDefined();
    });
  });

  describe('concurrent requests', () => {
    it('creating one e-mail (in different cases) several times at once: exactly one 201, the others 409', async () => {
      for (let round = 0; round < 3; round += 1) {
        const email = uniqueEmail('race');
        const password = strongPassword();
        passwords.push(password);
        const responses = await Promise.all(
          [email, email.toUpperCase(), email, ` ${email.toUpperCase()}`].map((variant) => http.post('/api/v1/users').set(a.auth).send({ email: variant, password })),
        );
        expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409]);
        for (const response of responses.filter((item) => item.status === 409)) expectError(response, 409, 'conflict');
        expect(await usersWithEmail(email)).toBe(1);
      }
    });

    it('the two last admins demoting each other at once: one of them stays ADMIN_ORG', async () => {
      for (let round = 0; round < 3; round += 1) {
        const o = await signUp(t, `Admin race ${round}`);
        passwords.push(o.org.password);
        const second = await member(o.auth, { role: 'ADMIN_ORG' });
        const secondSession = await login(t, second.email, second.password);
        const responses = await Promise.all([
          http.put(`/api/v1/users/${second.id}`).set(o.auth).send({ role: 'USER' }),
          http.put(`/api/v1/users/${o.org.adminId}`).set(secondSession.auth).send({ role: 'USER' }),
        ]);
        const statuses = responses.map((response) => response.status);
        expect(statuses.filter((status) => status === 200)).toHaveLength(1);
        expect(statuses.some((status) => status === 409 || status === 403)).toBe(true);
        const admins = await t.dataSource.query(`SELECT "id" FROM "users" WHERE "organization_id" = '${o.org.organizationId}' AND "role" = 'ADMIN_ORG'`);
        expect(admins).toHaveLength(1);
      }
    });

    it('the two last admins deleting each other at once: one of them remains', async () => {
      const o = await signUp(t, 'Delete race');
      passwords.push(o.org.password);
      const second = await member(o.auth, { role: 'ADMIN_ORG' });
      const secondSession = await login(t, second.email, second.password);
      const responses = await Promise.all([http.delete(`/api/v1/users/${second.id}`).set(o.auth), http.delete(`/api/v1/users/${o.org.adminId}`).set(secondSession.auth)]);
      expect(responses.map((response) => response.status).filter((status) => status === 204)).toHaveLength(1);
      const admins = await t.dataSource.query(`SELECT "id" FROM "users" WHERE "organization_id" = '${o.org.organizationId}' AND "role" = 'ADMIN_ORG'`);
      expect(admins).toHaveLength(1);
    });
  });

  describe('the last ADMIN_ORG', () => {
    it('can be neither deleted nor demoted (409); with two admins, one can be demoted or deleted', async () => {
      const o = await signUp(t, 'Admins');
      passwords.push(o.org.password);
      const deleteSelf = await http.delete(`/api/v1/users/${o.org.adminId}`).set(o.auth);
      expectError(deleteSelf, 409, 'conflict');
      const demoteSelf = await http.put(`/api/v1/users/${o.org.adminId}`).set(o.auth).send({ role: 'USER' });
      expectError(demoteSelf, 409, 'conflict');
      const demoteWithOthers = await http.put(`/api/v1/users/${o.org.adminId}`).set(o.auth).send({ role: 'USER', full_name: 'Changed' });
      expectError(demoteWithOthers, 409, 'conflict');
      expect(await userRow(o.org.adminId)).toMatchObject({ role: 'ADMIN_ORG', full_name: 'Administrator' });
      // Keeping the role is fine.
      expectStatus(await http.put(`/api/v1/users/${o.org.adminId}`).set(o.auth).send({ role: 'ADMIN_ORG' }), 200);

      // A USER does not count as an admin.
      const plain = await member(o.auth);
      expectError(await http.put(`/api/v1/users/${o.org.adminId}`).set(o.auth).send({ role: 'USER' }), 409, 'conflict');

      const second = await member(o.auth, { role: 'ADMIN_ORG' });
      const secondSession = await login(t, second.email, second.password);
      const demoted = await http.put(`/api/v1/users/${o.org.adminId}`).set(secondSession.auth).send({ role: 'USER' });
      expectStatus(demoted, 200);
      expect(demoted.body.role).toBe('USER');
      expect(await userRow(o.org.adminId)).toMatchObject({ role: 'USER' });

      // Now the second one is the last.
      expectError(await http.put(`/api/v1/users/${second.id}`).set(secondSession.auth).send({ role: 'USER' }), 409, 'conflict');
      expectError(await http.delete(`/api/v1/users/${second.id}`).set(secondSession.auth), 409, 'conflict');
      expect(await userRow(second.id)).toMatchObject({ role: 'ADMIN_ORG' });

      // Another organization's admins do not count either.
      expect(Number((await t.dataSource.query(`SELECT COUNT(*) AS "n" FROM "users" WHERE "role" = 'ADMIN_ORG'`))[0].n)).toBeGreaterThan(1);

      // With two admins again, one can be deleted.
      await http.put(`/api/v1/users/${o.org.adminId}`).set(secondSession.auth).send({ role: 'ADMIN_ORG' }).expect(200);
      expectStatus(await http.delete(`/api/v1/users/${o.org.adminId}`).set(secondSession.auth), 204);
      expect(await userRow(o.org.adminId)).toBeUndefined();
      expectStatus(await http.delete(`/api/v1/users/${plain.id}`).set(secondSession.auth), 204);
    });

    it('an admin may delete itself when another admin remains: its own token stops working', async () => {
      const o = await signUp(t, 'Self delete');
      passwords.push(o.org.password);
      await member(o.auth, { role: 'ADMIN_ORG' });
      expectStatus(await http.delete(`/api/v1/users/${o.org.adminId}`).set(o.auth), 204);
      expectError(await http.get('/api/v1/users/me').set(o.auth), 401, 'unauthorized');
    });
  });

  describe('who may manage users', () => {
    it('a USER (token or read-write key) gets 403 on every admin action, and nothing changes', async () => {
      const user = await member(a.auth);
      const target = await member(a.auth, { full_name: 'Target' });
      const session = await login(t, user.email, user.password);
      const key = await createApiKey(t, session.tokens.access_token, ApiPermission.ReadWrite);
      const countBefore = Number((await t.dataSource.query(`SELECT COUNT(*) AS "n" FROM "users"`))[0].n);
      for (const auth of [session.auth, asApiKey(key.apikey)]) {
        expectError(await http.post('/api/v1/users').set(auth).send({ email: uniqueEmail(), password: strongPassword() }), 403, 'forbidden');
        expectError(await http.put(`/api/v1/users/${target.id}`).set(auth).send({ full_name: 'x' }), 403, 'forbidden');
        expectError(await http.put(`/api/v1/users/${target.id}`).set(auth).send({ role: 'ADMIN_ORG' }), 403, 'forbidden');
        expectError(await http.put(`/api/v1/users/${user.id}`).set(auth).send({ role: 'ADMIN_ORG' }), 403, 'forbidden');
        expectError(await http.delete(`/api/v1/users/${target.id}`).set(auth), 403, 'forbidden');
        expectError(await http.delete(`/api/v1/users/${user.id}`).set(auth), 403, 'forbidden');
      }
      expect(Number((await t.dataSource.query(`SELECT COUNT(*) AS "n" FROM "users"`))[0].n)).toBe(countBefore);
      expect((await http.get(`/api/v1/users/${target.id}`).set(a.auth).expect(200)).body).toEqual(target.body);
      expect((await userRow(user.id))!.role).toBe('USER');
    });

    it("an admin's cartography-read-write and read-only keys cannot write users (403); its read-write key and key token can", async () => {
      const target = await member(a.auth);
      for (const permission of [ApiPermission.CartographyReadWrite, ApiPermission.ReadOnly, ApiPermission.Positioning]) {
        const key = await createApiKey(t, a.token, permission);
        const auth = asApiKey(key.apikey);
        expectError(await http.post('/api/v1/users').set(auth).send({ email: uniqueEmail(), password: strongPassword() }), 403, 'forbidden');
        expectError(await http.put(`/api/v1/users/${target.id}`).set(auth).send({ full_name: 'x' }), 403, 'forbidden');
        expectError(await http.delete(`/api/v1/users/${target.id}`).set(auth), 403, 'forbidden');
        const read = await http.get('/api/v1/users').set(auth);
        expect(read.status, permission).toBe(permission === ApiPermission.Positioning ? 403 : 200);
      }
      expect(await userRow(target.id)).toBeDefined();

      const readWrite = await createApiKey(t, a.token, ApiPermission.ReadWrite);
      const keyToken = (await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(readWrite.apikey)).expect(201)).body.access_token as string;
      for (const auth of [asApiKey(readWrite.apikey), asBearer(keyToken)]) {
        const created = await member(auth, { full_name: 'By key' });
        const updated = await http.put(`/api/v1/users/${created.id}`).set(auth).send({ role: 'ADMIN_ORG' });
        expectStatus(updated, 200);
        expect(updated.body.role).toBe('ADMIN_ORG');
        expectStatus(await http.delete(`/api/v1/users/${created.id}`).set(auth), 204);
        expect(await userRow(created.id)).toBeUndefined();
      }
    });
  });

  describe('PUT /api/v1/users/me/password', () => {
    let user: ApiUser;
    let first: Login;

    beforeAll(async () => {
      user = await member(a.auth);
      first = await login(t, user.email, user.password);
    });

    it('refuses a wrong current password and a new one against the policy: 422 naming the field, nothing changes', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ current_password: 'wrong-password-123', new_password: strongPassword() }, 'current_password'],
        [{ current_password: user.password, new_password: 'short' }, 'new_password'],
        [{ current_password: user.password, new_password: user.email.toUpperCase() }, 'new_password'],
        [{ current_password: user.password }, 'new_password'],
        [{ new_password: strongPassword() }, 'current_password'],
        [{ current_password: user.password, new_password: 12 }, 'new_password'],
      ];
      for (const [body, field] of cases) {
        const response = await http.put('/api/v1/users/me/password').set(first.auth).send(body);
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response), JSON.stringify(body)).toContain(field);
        expect(response.text).not.toContain(user.password);
      }
      await http.get('/api/v1/users/me').set(first.auth).expect(200);
      await login(t, user.email, user.password);
    });

    it('needs a token made from the password: an API key or a key token is 403', async () => {
      const key = await createApiKey(t, first.tokens.access_token, ApiPermission.ReadWrite);
      const keyToken = (await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(key.apikey)).expect(201)).body.access_token as string;
      for (const auth of [asApiKey(key.apikey), asBearer(keyToken)]) {
        const response = await http.put('/api/v1/users/me/password').set(auth).send({ current_password: user.password, new_password: strongPassword() });
        expectError(response, 403, 'forbidden');
      }
      expectError(await http.put('/api/v1/users/me/password').send({ current_password: user.password, new_password: strongPassword() }), 401, 'unauthorized');
      await login(t, user.email, user.password);
    });

    it('changes the password: 204; every password session (the calling one too) ends; keys stay; the new password logs in', async () => {
      const second = await login(t, user.email, user.password);
      const key = await createApiKey(t, second.tokens.access_token, ApiPermission.ReadOnly);
      const keyTokens = (await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(key.apikey)).expect(201)).body;
      const hashBefore = (await userRow(user.id))!.password_hash;
      const newPassword = strongPassword();
      passwords.push(newPassword);

      const changed = await http.put('/api/v1/users/me/password').set(second.auth).send({ current_password: user.password, new_password: newPassword });
      expectStatus(changed, 204);
      expect(changed.text).toBe('');

      for (const session of [first, second]) {
        expectError(await http.get('/api/v1/users/me').set(session.auth), 401, 'unauthorized');
        expectError(await t.http.post('/api/v1/auth/refresh_access_tokens').send(session.tokens), 401, 'unauthorized');
      }
      expectError(await t.http.post('/api/v1/auth/access_tokens').set(asBasic(user.email, user.password)), 401, 'invalid_credentials');
      await http.get('/api/v1/users/me').set(asApiKey(key.apikey)).expect(200);
      await http.get('/api/v1/users/me').set(asBearer(keyTokens.access_token)).expect(200);
      const renewed = await t.http.post('/api/v1/auth/refresh_access_tokens').send(keyTokens);
      expectStatus(renewed, 201);

      const fresh = await login(t, user.email, newPassword);
      expect((await http.get('/api/v1/users/me').set(fresh.auth).expect(200)).body.id).toBe(user.id);
      const row = await userRow(user.id);
      expect(row!.password_hash).not.toBe(hashBefore);
      expect(String(row!.password_hash)).toMatch(/^\$argon2id\$/);
      user = { ...user, password: newPassword };
    });
  });

  describe("API keys of the organization's users", () => {
    it("an admin lists another user's keys (masked but for positioning keys, filterable) and deletes one: it stops working at once", async () => {
      const user = await member(a.auth);
      const session = await login(t, user.email, user.password);
      const positioning = await createApiKey(t, session.tokens.access_token, ApiPermission.Positioning, 'kiosk');
      const readOnly = await createApiKey(t, session.tokens.access_token, ApiPermission.ReadOnly, 'reports');
      const keyToken = (await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(positioning.apikey)).expect(201)).body.access_token as string;

      const listed = await http.get(`/api/v1/auth/apikeys?user_id=${user.id}`).set(a.auth);
      expectStatus(listed, 200);
      expect(listed.body.map((key: { id: string }) => key.id)).toEqual([positioning.id, readOnly.id]);
      for (const key of listed.body) {
        expect(keysOf(key)).toEqual(API_KEY_KEYS);
        expect(key.created_at).toMatch(TIMESTAMP);
      }
      expect(listed.body[0]).toMatchObject({ id: positioning.id, permission: 'positioning', description: 'kiosk' });
      // Contract 10: positioning keys are readable in full by the organization's admins; the others stay masked.
      expect(listed.body[0].apikey).toBe(positioning.apikey);
      expect(listed.body[1].apikey.startsWith(readOnly.apikey.slice(0, 8))).toBe(true);
      expectNoSecrets(listed, [readOnly.apikey, readOnly.apikey.slice(8, 40)]);
      const filtered = await http.get(`/api/v1/auth/apikeys?user_id=${user.id.toUpperCase()}&permissions=read-only`).set(a.auth).expect(200);
      expect(filtered.body.map((key: { id: string }) => key.id)).toEqual([readOnly.id]);
      // The admin's own list does not mix them in.
      const own = await http.get('/api/v1/auth/apikeys').set(a.auth).expect(200);
      expect(own.body.map((key: { id: string }) => key.id)).not.toContain(positioning.id);

      expectStatus(await http.delete(`/api/v1/auth/apikeys/${positioning.id}`).set(a.auth), 204);
      expectError(await http.get('/api/v1/buildings').set(asApiKey(positioning.apikey)), 401, 'unauthorized');
      expectError(await http.get('/api/v1/buildings').set(asBearer(keyToken)), 401, 'unauthorized');
      await http.get('/api/v1/buildings').set(asApiKey(readOnly.apikey)).expect(200);
      const after = await http.get(`/api/v1/auth/apikeys?user_id=${user.id}`).set(a.auth).expect(200);
      expect(after.body.map((key: { id: string }) => key.id)).toEqual([readOnly.id]);
      expect((await http.get('/api/v1/auth/apikeys').set(session.auth).expect(200)).body.map((key: { id: string }) => key.id)).toEqual([readOnly.id]);
    });

    it("a USER may not list another user's keys (403) nor delete them (404); its own user_id is fine", async () => {
      const user = await member(a.auth);
      const other = await member(a.auth);
      const session = await login(t, user.email, user.password);
      const otherSession = await login(t, other.email, other.password);
      const otherKey = await createApiKey(t, otherSession.tokens.access_token, ApiPermission.ReadOnly);
      const adminKey = await createApiKey(t, a.token, ApiPermission.ReadOnly);
      expectError(await http.get(`/api/v1/auth/apikeys?user_id=${other.id}`).set(session.auth), 403, 'forbidden');
      expectError(await http.get(`/api/v1/auth/apikeys?user_id=${a.org.adminId}`).set(session.auth), 403, 'forbidden');
      expectError(await http.delete(`/api/v1/auth/apikeys/${otherKey.id}`).set(session.auth), 404, 'entity_not_found');
      expectError(await http.delete(`/api/v1/auth/apikeys/${adminKey.id}`).set(session.auth), 404, 'entity_not_found');
      await http.get('/api/v1/buildings').set(asApiKey(otherKey.apikey)).expect(200);
      await http.get('/api/v1/buildings').set(asApiKey(adminKey.apikey)).expect(200);
      expect((await http.get(`/api/v1/auth/apikeys?user_id=${user.id}`).set(session.auth).expect(200)).body).toEqual([]);
    });

    it("an admin cannot list or delete another organization's keys (404), nor list keys with an API key (403)", async () => {
      const foreignKey = await createApiKey(t, b.token, ApiPermission.ReadOnly);
      expectError(await http.get(`/api/v1/auth/apikeys?user_id=${b.org.adminId}`).set(a.auth), 404, 'entity_not_found');
      expectError(await http.get(`/api/v1/auth/apikeys?user_id=${randomUUID()}`).set(a.auth), 404, 'entity_not_found');
      expectError(await http.get('/api/v1/auth/apikeys?user_id=nope').set(a.auth), 400, 'bad_request');
      expectError(await http.delete(`/api/v1/auth/apikeys/${foreignKey.id}`).set(a.auth), 404, 'entity_not_found');
      await http.get('/api/v1/buildings').set(asApiKey(foreignKey.apikey)).expect(200);
      const adminKey = await createApiKey(t, a.token, ApiPermission.ReadWrite);
      expectError(await http.get(`/api/v1/auth/apikeys?user_id=${a.org.adminId}`).set(asApiKey(adminKey.apikey)), 403, 'forbidden');
    });
  });
});
