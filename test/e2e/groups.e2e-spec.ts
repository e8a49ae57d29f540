import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { addGroup, addUser, ApiUser, expectGroupShape, expectNoSecrets, GroupBody, login, Login } from '../support/admin';
import { asApiKey, asBearer, createApiKey } from '../support/auth';
import { Cartographer, errorFields, expectError, expectStatus, signUp, TIMESTAMP, UUID } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

/** Issue "Users, groups, roles": groups, their parent chains and their members. */
describe('Groups', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let alice: ApiUser;
  let bob: ApiUser;
  let foreigner: ApiUser;
  let aliceSession: Login;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Groups A');
    b = await signUp(t, 'Groups B');
    alice = await addUser(t, a.auth, { full_name: 'Alice' });
    bob = await addUser(t, a.auth, { full_name: 'Bob' });
    foreigner = await addUser(t, b.auth, { full_name: 'Foreigner' });
    aliceSession = await login(t, alice.email, alice.password);
  });
  afterAll(async () => t?.close());

  const groupRow = async (id: string) => (await t.dataSource.query(`SELECT * FROM "groups" WHERE "id" = '${id}'`))[0] as Record<string, unknown> | undefined;
  const membersOf = async (groupId: string) =>
    (await t.dataSource.query(`SELECT "user_id" FROM "group_members" WHERE "group_id" = '${groupId}' ORDER BY "user_id"`)).map((row: { user_id: string }) => row.user_id);
  const get = async (id: string, auth = a.auth) => {
    const response = await t.http.get(`/api/v1/groups/${id}`).set(auth);
    expectStatus(response, 200);
    return response.body as GroupBody;
  };
  const groupIdsOfUser = async (userId: string) => (await t.http.get(`/api/v1/users/${userId}`).set(a.auth).expect(200)).body.group_ids as string[];

  describe('POST /api/v1/groups', () => {
    it('creates a group: 201 with exactly the group keys, stored with its members; keys the caller may not set are ignored', async () => {
      const parent = await addGroup(t, a.auth, { name: 'Staff' });
      const response = await t.http
        .post('/api/v1/groups')
        .set(a.auth)
        .send({
          name: '  Night shift ',
          description: 'From 22:00',
          parent_group_id: parent.id.toUpperCase(),
          user_ids: [bob.id, alice.id.toUpperCase(), bob.id],
          id: '00000000-0000-4000-8000-000000000000',
          organization_id: b.org.organizationId,
          created_at: '2000-01-01T00:00:00.000+00:00',
        });
      expectStatus(response, 201);
      const body = response.body as GroupBody;
      expectGroupShape(body);
      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Night shift',
        description: 'From 22:00',
        parent_group_id: parent.id,
        organization_id: a.org.organizationId,
        user_ids: [alice.id, bob.id].sort(),
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: body.created_at,
      });
      expect(body.id).not.toBe('00000000-0000-4000-8000-000000000000');
      expect(await groupRow(body.id)).toMatchObject({ name: 'Night shift', description: 'From 22:00', parent_group_id: parent.id, organization_id: a.org.organizationId });
      expect(await membersOf(body.id)).toEqual([alice.id, bob.id].sort());
      expect(await groupIdsOfUser(alice.id)).toContain(body.id);
      expect(await get(body.id)).toEqual(body);
      expectNoSecrets(response, [alice.password, bob.password]);
    });

    it('defaults: no description, top-level, no members', async () => {
      const response = await t.http.post('/api/v1/groups').set(a.auth).send({ name: 'Plain' });
      expectStatus(response, 201);
      expect(response.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Plain',
        description: '',
        parent_group_id: null,
        organization_id: a.org.organizationId,
        user_ids: [],
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      const explicitNull = await t.http.post('/api/v1/groups').set(a.auth).send({ name: 'Null parent', parent_group_id: null });
      expectStatus(explicitNull, 201);
      expect(explicitNull.body.parent_group_id).toBeNull();
    });

    it('validates: 422 naming each field, nothing stored', async () => {
      const countGroups = async () => Number((await t.dataSource.query(`SELECT COUNT(*) AS "n" FROM "groups"`))[0].n);
      const before = await countGroups();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: null }, 'name'],
        [{ name: 'x'.repeat(256) }, 'name'],
        [{ name: 'ok', description: 5 }, 'description'],
        [{ name: 'ok', description: null }, 'description'],
        [{ name: 'ok', parent_group_id: 'nope' }, 'parent_group_id'],
        [{ name: 'ok', user_ids: ['nope'] }, 'user_ids'],
        [{ name: 'ok', user_ids: 'nope' }, 'user_ids'],
      ];
      for (const [body, field] of cases) {
        const response = await t.http.post('/api/v1/groups').set(a.auth).send(body);
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response), JSON.stringify(body)).toContain(field);
      }
      expectError(await t.http.post('/api/v1/groups').set(a.auth).set('Content-Type', 'application/json').send('[]'), 422, 'validation_failed');
      expect(await countGroups()).toBe(before);
    });

    it("refuses a parent or members that are not the organization's: 422 naming the field, nothing stored", async () => {
      const foreignGroup = await addGroup(t, b.auth, { name: 'Foreign parent' });
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ parent_group_id: foreignGroup.id }, 'parent_group_id'],
        [{ parent_group_id: randomUUID() }, 'parent_group_id'],
        [{ user_ids: [foreigner.id] }, 'user_ids'],
        [{ user_ids: [alice.id, b.org.adminId] }, 'user_ids'],
        [{ user_ids: [randomUUID()] }, 'user_ids'],
      ];
      for (const [extra, field] of cases) {
        const name = `Refused ${randomUUID().slice(0, 6)}`;
        const response = await t.http
          .post('/api/v1/groups')
          .set(a.auth)
          .send({ name, ...extra });
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response)).toEqual([field]);
        expect(Number((await t.dataSource.query(`SELECT COUNT(*) AS "n" FROM "groups" WHERE "name" = '${name}'`))[0].n)).toBe(0);
      }
      expect(await membersOf(foreignGroup.id)).toEqual([]);
    });
  });

  describe('GET /api/v1/groups', () => {
    let c: Cartographer;
    let top1: GroupBody, top2: GroupBody, child: GroupBody, grandchild: GroupBody;

    beforeAll(async () => {
      c = await signUp(t, 'Groups listing');
      top2 = await addGroup(t, c.auth, { name: 'Zulu' });
      top1 = await addGroup(t, c.auth, { name: 'Alpha' });
      child = await addGroup(t, c.auth, { name: 'Mike', parent_group_id: top1.id });
      grandchild = await addGroup(t, c.auth, { name: 'Bravo', parent_group_id: child.id, user_ids: [c.org.adminId] });
    });

    it("is a bare array of the organization's groups, by name, each with exactly the group keys", async () => {
      const response = await t.http.get('/api/v1/groups').set(c.auth);
      expectStatus(response, 200);
      expect(Array.isArray(response.body)).toBe(true);
      expect(response.body).toEqual([top1, grandchild, child, top2]);
      for (const group of response.body) expectGroupShape(group);
      const trailing = await t.http.get('/api/v1/groups/').set(c.auth).expect(200);
      expect(trailing.body).toEqual(response.body);
    });

    it('filters with has_parent', async () => {
      const withParent = await t.http.get('/api/v1/groups?has_parent=true').set(c.auth).expect(200);
      expect(withParent.body.map((group: GroupBody) => group.id)).toEqual([grandchild.id, child.id]);
      const topLevel = await t.http.get('/api/v1/groups?has_parent=false').set(c.auth).expect(200);
      expect(topLevel.body.map((group: GroupBody) => group.id)).toEqual([top1.id, top2.id]);
      for (const value of ['maybe', '1', 'yes']) {
        expectError(await t.http.get(`/api/v1/groups?has_parent=${value}`).set(c.auth), 400, 'bad_request');
      }
    });

    it("never shows another organization's groups: lists leave them out, by id they are 404", async () => {
      const fromA = await t.http.get('/api/v1/groups').set(a.auth).expect(200);
      const ids = fromA.body.map((group: GroupBody) => group.id);
      for (const group of [top1, top2, child, grandchild]) expect(ids).not.toContain(group.id);
      expect(fromA.body.every((group: GroupBody) => group.organization_id === a.org.organizationId)).toBe(true);
      expectError(await t.http.get(`/api/v1/groups/${top1.id}`).set(a.auth), 404, 'entity_not_found');
      expectError(await t.http.get(`/api/v1/groups/${randomUUID()}`).set(c.auth), 404, 'entity_not_found');
      expectError(await t.http.get('/api/v1/groups/not-a-uuid').set(c.auth), 400, 'bad_request');
      expect(await get(top1.id.toUpperCase(), c.auth)).toEqual(top1);
    });

    it('a USER and any reading key may read groups', async () => {
      expect((await t.http.get('/api/v1/groups').set(aliceSession.auth).expect(200)).body.every((group: GroupBody) => group.organization_id === a.org.organizationId)).toBe(true);
      const key = await createApiKey(t, c.token, ApiPermission.ReadOnly);
      expect((await t.http.get('/api/v1/groups').set(asApiKey(key.apikey)).expect(200)).body).toHaveLength(4);
      expect((await t.http.get(`/api/v1/groups/${child.id}`).set(asApiKey(key.apikey)).expect(200)).body).toEqual(child);
      expectError(await t.http.get('/api/v1/groups'), 401, 'unauthorized');
    });
  });

  describe('PUT /api/v1/groups/{id}', () => {
    it('updates partially: the exact object, stored; PATCH is a synonym; updated_at moves, created_at does not', async () => {
      const parent = await addGroup(t, a.auth, { name: 'Parent' });
      const group = await addGroup(t, a.auth, { name: 'Before', description: 'Old', user_ids: [alice.id] });
      const response = await t.http
        .put(`/api/v1/groups/${group.id}`)
        .set(a.auth)
        .send({ name: 'After', parent_group_id: parent.id, organization_id: b.org.organizationId, id: randomUUID(), created_at: '2000-01-01T00:00:00.000+00:00' });
      expectStatus(response, 200);
      expect(response.body).toEqual({ ...group, name: 'After', parent_group_id: parent.id, updated_at: expect.stringMatching(TIMESTAMP) });
      expect(Date.parse(response.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(group.updated_at));
      expect(await get(group.id)).toEqual(response.body);
      expect(await groupRow(group.id)).toMatchObject({ name: 'After', description: 'Old', parent_group_id: parent.id, organization_id: a.org.organizationId });

      const patched = await t.http.patch(`/api/v1/groups/${group.id}/`).set(a.auth).send({ description: 'New' });
      expectStatus(patched, 200);
      expect(patched.body).toEqual({ ...response.body, description: 'New', updated_at: expect.stringMatching(TIMESTAMP) });

      const detached = await t.http.put(`/api/v1/groups/${group.id}`).set(a.auth).send({ parent_group_id: null });
      expectStatus(detached, 200);
      expect(detached.body.parent_group_id).toBeNull();
      expect((await groupRow(group.id))!.parent_group_id).toBeNull();
    });

    it("user_ids replaces the members (the users' group_ids follow); [] empties the group", async () => {
      const group = await addGroup(t, a.auth, { user_ids: [alice.id] });
      const replaced = await t.http
        .put(`/api/v1/groups/${group.id}`)
        .set(a.auth)
        .send({ user_ids: [bob.id] });
      expectStatus(replaced, 200);
      expect(replaced.body.user_ids).toEqual([bob.id]);
      expect(await membersOf(group.id)).toEqual([bob.id]);
      expect(await groupIdsOfUser(alice.id)).not.toContain(group.id);
      expect(await groupIdsOfUser(bob.id)).toContain(group.id);
      const renamed = await t.http.put(`/api/v1/groups/${group.id}`).set(a.auth).send({ name: 'Keeps members' });
      expect(renamed.body.user_ids).toEqual([bob.id]);
      const emptied = await t.http.put(`/api/v1/groups/${group.id}`).set(a.auth).send({ user_ids: [] });
      expectStatus(emptied, 200);
      expect(emptied.body.user_ids).toEqual([]);
      expect(await membersOf(group.id)).toEqual([]);
    });

    it('refuses parent cycles: self-parent, A→B→A and longer chains are 422; nothing changes', async () => {
      const groupA = await addGroup(t, a.auth, { name: 'A' });
      const groupB = await addGroup(t, a.auth, { name: 'B', parent_group_id: groupA.id });
      const groupC = await addGroup(t, a.auth, { name: 'C', parent_group_id: groupB.id });
      const cases: Array<[GroupBody, string]> = [
        [groupA, groupA.id],
        [groupA, groupA.id.toUpperCase()],
        [groupA, groupB.id],
        [groupA, groupC.id],
        [groupB, groupC.id],
        [groupC, groupC.id],
      ];
      for (const [group, parentId] of cases) {
        const response = await t.http.put(`/api/v1/groups/${group.id}`).set(a.auth).send({ parent_group_id: parentId, name: 'Renamed in vain' });
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response)).toEqual(['parent_group_id']);
      }
      expect(await get(groupA.id)).toEqual(groupA);
      expect(await get(groupB.id)).toEqual(groupB);
      expect(await get(groupC.id)).toEqual(groupC);
      // Re-parenting without a cycle is fine: C moves under A.
      const moved = await t.http.put(`/api/v1/groups/${groupC.id}`).set(a.auth).send({ parent_group_id: groupA.id });
      expectStatus(moved, 200);
      expect(moved.body.parent_group_id).toBe(groupA.id);
    });

    it('refuses a cycle made by two concurrent updates (A under B and B under A at once): one 200, one 422, no cycle stored', async () => {
      for (let round = 0; round < 5; round += 1) {
        const groupA = await addGroup(t, a.auth, { name: `Race A${round}` });
        const groupB = await addGroup(t, a.auth, { name: `Race B${round}` });
        const responses = await Promise.all([
          t.http.put(`/api/v1/groups/${groupA.id}`).set(a.auth).send({ parent_group_id: groupB.id }),
          t.http.put(`/api/v1/groups/${groupB.id}`).set(a.auth).send({ parent_group_id: groupA.id }),
        ]);
        expect(responses.map((response) => response.status).sort(), `round ${round}`).toEqual([200, 422]);
        const [rowA, rowB] = [await groupRow(groupA.id), await groupRow(groupB.id)];
        expect(rowA!.parent_group_id === groupB.id && rowB!.parent_group_id === groupA.id, `round ${round}: A and B are each other's parent`).toBe(false);
      }
    });

    it("refuses a parent or members of another organization (422), and another organization's group is 404", async () => {
      const group = await addGroup(t, a.auth, { user_ids: [alice.id] });
      const foreignGroup = await addGroup(t, b.auth, { name: 'Theirs', user_ids: [foreigner.id] });
      const parent = await t.http.put(`/api/v1/groups/${group.id}`).set(a.auth).send({ parent_group_id: foreignGroup.id });
      expectError(parent, 422, 'validation_failed');
      expect(errorFields(parent)).toEqual(['parent_group_id']);
      const members = await t.http
        .put(`/api/v1/groups/${group.id}`)
        .set(a.auth)
        .send({ user_ids: [alice.id, foreigner.id] });
      expectError(members, 422, 'validation_failed');
      expect(errorFields(members)).toEqual(['user_ids']);
      expect(await get(group.id)).toEqual(group);
      for (const method of ['put', 'patch'] as const) {
        expectError(await t.http[method](`/api/v1/groups/${foreignGroup.id}`).set(a.auth).send({ name: 'Hijacked' }), 404, 'entity_not_found');
      }
      expectError(await t.http.put(`/api/v1/groups/${randomUUID()}`).set(a.auth).send({ name: 'x' }), 404, 'entity_not_found');
      expectError(await t.http.put('/api/v1/groups/nope').set(a.auth).send({ name: 'x' }), 400, 'bad_request');
      const validation = await t.http.put(`/api/v1/groups/${group.id}`).set(a.auth).send({ name: '' });
      expectError(validation, 422, 'validation_failed');
      expect(errorFields(validation)).toEqual(['name']);
      expect(await get(foreignGroup.id, b.auth)).toEqual(foreignGroup);
    });
  });

  describe('DELETE /api/v1/groups/{id}', () => {
    it('deletes a group: 204; its sub-groups become top-level, its members leave it, and it is gone', async () => {
      const parent = await addGroup(t, a.auth, { name: 'Doomed', user_ids: [alice.id, bob.id] });
      const child1 = await addGroup(t, a.auth, { name: 'Child 1', parent_group_id: parent.id, user_ids: [alice.id] });
      const child2 = await addGroup(t, a.auth, { name: 'Child 2', parent_group_id: parent.id });
      const grandchild = await addGroup(t, a.auth, { name: 'Grandchild', parent_group_id: child1.id });

      const deleted = await t.http.delete(`/api/v1/groups/${parent.id}`).set(a.auth).set('Content-Type', 'application/json');
      expectStatus(deleted, 204);
      expect(deleted.text).toBe('');

      expectError(await t.http.get(`/api/v1/groups/${parent.id}`).set(a.auth), 404, 'entity_not_found');
      expect(await groupRow(parent.id)).toBeUndefined();
      expect(await membersOf(parent.id)).toEqual([]);
      expect((await get(child1.id)).parent_group_id).toBeNull();
      expect((await get(child2.id)).parent_group_id).toBeNull();
      expect((await get(child1.id)).user_ids).toEqual([alice.id]);
      expect((await get(grandchild.id)).parent_group_id).toBe(child1.id);
      expect((await groupRow(child1.id))!.parent_group_id).toBeNull();
      expect(await groupIdsOfUser(alice.id)).not.toContain(parent.id);
      expect(await groupIdsOfUser(bob.id)).not.toContain(parent.id);
      const topLevel = (await t.http.get('/api/v1/groups?has_parent=false').set(a.auth).expect(200)).body.map((group: GroupBody) => group.id);
      expect(topLevel).toEqual(expect.arrayContaining([child1.id, child2.id]));
      expect(topLevel).not.toContain(grandchild.id);
      expectError(await t.http.delete(`/api/v1/groups/${parent.id}`).set(a.auth), 404, 'entity_not_found');
    });

    it("answers 404 for another organization's group (which stays) and 400 for a malformed id", async () => {
      const foreignGroup = await addGroup(t, b.auth);
      expectError(await t.http.delete(`/api/v1/groups/${foreignGroup.id}`).set(a.auth), 404, 'entity_not_found');
      expectError(await t.http.delete('/api/v1/groups/123').set(a.auth), 400, 'bad_request');
      expect(await get(foreignGroup.id, b.auth)).toEqual(foreignGroup);
    });
  });

  describe('who may manage groups', () => {
    it('a USER (token or read-write key) gets 403 on create, update and delete; nothing changes', async () => {
      const group = await addGroup(t, a.auth, { name: 'Protected' });
      const key = await createApiKey(t, aliceSession.tokens.access_token, ApiPermission.ReadWrite);
      for (const auth of [aliceSession.auth, asApiKey(key.apikey)]) {
        expectError(await t.http.post('/api/v1/groups').set(auth).send({ name: 'Mine' }), 403, 'forbidden');
        expectError(
          await t.http
            .put(`/api/v1/groups/${group.id}`)
            .set(auth)
            .send({ name: 'Mine', user_ids: [alice.id] }),
          403,
          'forbidden',
        );
        expectError(await t.http.delete(`/api/v1/groups/${group.id}`).set(auth), 403, 'forbidden');
      }
      expect(await get(group.id)).toEqual(group);
      expect(Number((await t.dataSource.query(`SELECT COUNT(*) AS "n" FROM "groups" WHERE "name" = 'Mine'`))[0].n)).toBe(0);
    });

    it("an admin's cartography-read-write key is 403 on group writes; its read-write key and key token work", async () => {
      const group = await addGroup(t, a.auth, { name: 'Keyed' });
      const cartography = await createApiKey(t, a.token, ApiPermission.CartographyReadWrite);
      expectError(await t.http.post('/api/v1/groups').set(asApiKey(cartography.apikey)).send({ name: 'By key' }), 403, 'forbidden');
      expectError(await t.http.put(`/api/v1/groups/${group.id}`).set(asApiKey(cartography.apikey)).send({ name: 'By key' }), 403, 'forbidden');
      expectError(await t.http.delete(`/api/v1/groups/${group.id}`).set(asApiKey(cartography.apikey)), 403, 'forbidden');
      expect(await get(group.id)).toEqual(group);

      const readWrite = await createApiKey(t, a.token, ApiPermission.ReadWrite);
      const keyToken = (await t.http.post('/api/v1/auth/access_tokens').set(asApiKey(readWrite.apikey)).expect(201)).body.access_token as string;
      for (const auth of [asApiKey(readWrite.apikey), asBearer(keyToken)]) {
        const created = await t.http
          .post('/api/v1/groups')
          .set(auth)
          .send({ name: 'By key', user_ids: [bob.id] });
        expectStatus(created, 201);
        expect(created.body).toMatchObject({ organization_id: a.org.organizationId, user_ids: [bob.id] });
        expectStatus(await t.http.put(`/api/v1/groups/${created.body.id}`).set(auth).send({ name: 'By key, renamed' }), 200);
        expectStatus(await t.http.delete(`/api/v1/groups/${created.body.id}`).set(auth), 204);
        expect(await groupRow(created.body.id)).toBeUndefined();
      }
    });
  });
});
