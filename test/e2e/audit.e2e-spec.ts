import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { addGroup, addUser, ApiUser, AUDIT_KEYS, AuditBody, auditTrail, login, LOOPBACK_IP, sleep, strongPassword } from '../support/admin';
import { asApiKey, createApiKey, uniqueEmail } from '../support/auth';
import { Cartographer, expectError, expectStatus, keysOf, PAGE_METADATA_KEYS, signUp, TIMESTAMP, UUID } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

/** Issue "Users, groups, roles": the audit trail of changes to users, groups, roles and API keys. */

type Expected = Pick<AuditBody, 'actor_id' | 'action' | 'target_type' | 'target_id'>;

const summary = (entry: AuditBody): Expected => ({ actor_id: entry.actor_id, action: entry.action, target_type: entry.target_type, target_id: entry.target_id });
const key = (entry: Expected) => `${entry.action} ${entry.target_type} ${entry.target_id} by ${entry.actor_id}`;
const sortedKeys = (entries: Expected[]) => entries.map(key).sort();

describe('Audit trail', () => {
  let t: TestApp;
  let o: Cartographer;
  let other: Cartographer;
  let user: ApiUser;
  let userKeyId: string;
  let groupId: string;
  /** Every entry the story below must leave, oldest first, with the step that made it. */
  const expected: Array<Expected & { step: number }> = [];
  /** An instant between step 7 and step 8. */
  let middle: string;
  let startedAt: number;
  let finishedAt: number;

  const expectEntry = (step: number, actor: string, action: string, target: string) =>
    expected.push({ step, actor_id: actor, action, target_type: action.split('.')[0], target_id: target });

  beforeAll(async () => {
    t = await createTestApp();
    o = await signUp(t, 'Audited');
    other = await signUp(t, 'Not audited here');
    const admin = o.org.adminId;
    startedAt = Date.now();

    // 1. An admin creates a user.
    user = await addUser(t, o.auth, { full_name: 'Audited user' });
    expectEntry(1, admin, 'user.create', user.id);
    // 2. ...updates it.
    await t.http.put(`/api/v1/users/${user.id}`).set(o.auth).send({ full_name: 'Renamed' }).expect(200);
    expectEntry(2, admin, 'user.update', user.id);
    // 3. ...promotes it, 4. ...demotes it.
    await t.http.put(`/api/v1/users/${user.id}`).set(o.auth).send({ role: 'ADMIN_ORG' }).expect(200);
    expectEntry(3, admin, 'user.update', user.id);
    expectEntry(3, admin, 'user.role_change', user.id);
    await t.http.put(`/api/v1/users/${user.id}`).set(o.auth).send({ role: 'USER' }).expect(200);
    expectEntry(4, admin, 'user.update', user.id);
    expectEntry(4, admin, 'user.role_change', user.id);
    // 5. ...resets its password.
    const resetPassword = strongPassword();
    await t.http.put(`/api/v1/users/${user.id}`).set(o.auth).send({ password: resetPassword }).expect(200);
    expectEntry(5, admin, 'user.update', user.id);
    expectEntry(5, admin, 'user.password_reset', user.id);
    // 6. The user changes its own password, 7. and its name.
    let session = await login(t, user.email, resetPassword);
    const ownPassword = strongPassword();
    await t.http.put('/api/v1/users/me/password').set(session.auth).send({ current_password: resetPassword, new_password: ownPassword }).expect(204);
    expectEntry(6, user.id, 'user.password_change', user.id);
    session = await login(t, user.email, ownPassword);
    await t.http.put(`/api/v1/users/${user.id}`).set(session.auth).send({ full_name: 'Self-named' }).expect(200);
    expectEntry(7, user.id, 'user.update', user.id);

    await sleep(15);
    middle = new Date().toISOString();
    await sleep(15);

    // 8. The user creates a key, 9. changes it; 10. the admin deletes it.
    const userKey = await createApiKey(t, session.tokens.access_token, ApiPermission.ReadOnly);
    userKeyId = userKey.id;
    expectEntry(8, user.id, 'apikey.create', userKey.id);
    await t.http.put(`/api/v1/auth/apikeys/${userKey.id}`).set(session.auth).send({ description: 'renamed' }).expect(200);
    expectEntry(9, user.id, 'apikey.update', userKey.id);
    await t.http.delete(`/api/v1/auth/apikeys/${userKey.id}`).set(o.auth).expect(204);
    expectEntry(10, admin, 'apikey.delete', userKey.id);
    // 11-13. The admin creates, updates and deletes a group.
    const group = await addGroup(t, o.auth, { name: 'Audited group', user_ids: [user.id] });
    groupId = group.id;
    expectEntry(11, admin, 'group.create', group.id);
    await t.http.put(`/api/v1/groups/${group.id}`).set(o.auth).send({ name: 'Renamed group' }).expect(200);
    expectEntry(12, admin, 'group.update', group.id);
    await t.http.delete(`/api/v1/groups/${group.id}`).set(o.auth).expect(204);
    expectEntry(13, admin, 'group.delete', group.id);
    // 14. The admin deletes the user.
    await t.http.delete(`/api/v1/users/${user.id}`).set(o.auth).expect(204);
    expectEntry(14, admin, 'user.delete', user.id);
    finishedAt = Date.now();
  });
  afterAll(async () => t?.close());

  it('records every change, newest first, each { id, actor_id, action, target_type, target_id, ip, created_at } exactly', async () => {
    const response = await t.http.get('/api/v1/audit').set(o.auth);
    expectStatus(response, 200);
    expect(keysOf(response.body)).toEqual(['data', 'metadata']);
    expect(keysOf(response.body.metadata)).toEqual(PAGE_METADATA_KEYS);
    expect(response.body.metadata).toEqual({
      first: true,
      last: true,
      total_pages: 1,
      total_elements: expected.length,
      number_of_elements: expected.length,
      size: 50,
      number: 1,
    });
    const entries = response.body.data as AuditBody[];
    for (const entry of entries) {
      expect(keysOf(entry)).toEqual(AUDIT_KEYS);
      expect(entry).toEqual({
        id: expect.stringMatching(UUID),
        actor_id: expect.stringMatching(UUID),
        action: expect.stringMatching(/^(user|group|apikey)\.[a-z_]+$/),
        target_type: entry.action.split('.')[0],
        target_id: expect.stringMatching(UUID),
        ip: expect.stringMatching(LOOPBACK_IP),
        created_at: expect.stringMatching(TIMESTAMP),
      });
      expect(Date.parse(entry.created_at)).toBeGreaterThanOrEqual(startedAt - 5);
      expect(Date.parse(entry.created_at)).toBeLessThanOrEqual(finishedAt + 5);
    }
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
    expect(sortedKeys(entries.map(summary))).toEqual(sortedKeys(expected));

    // Newest first: by time, and the entries that only one step makes come in reverse step order.
    const times = entries.map((entry) => Date.parse(entry.created_at));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    const unique = entries
      .map((entry) => ({ time: Date.parse(entry.created_at), matches: expected.filter((item) => key(item) === key(summary(entry))) }))
      .filter(({ matches }) => matches.length === 1)
      .map(({ time, matches: [match] }) => ({ time, step: match.step }));
    expect(unique.map(({ step }) => step).sort((x, y) => y - x)).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 1]);
    // Two requests may land in the same millisecond; between different instants the order is strict.
    for (let index = 1; index < unique.length; index += 1) {
      if (unique[index - 1].time > unique[index].time) expect(unique[index - 1].step).toBeGreaterThan(unique[index].step);
    }
    expect(entries[0]).toMatchObject({ action: 'user.delete', target_id: user.id, actor_id: o.org.adminId });
    expect(entries[entries.length - 1]).toMatchObject({ action: 'user.create', target_id: user.id, actor_id: o.org.adminId });
  });

  it('stores each entry with the organization, in the database', async () => {
    const rows = await t.dataSource.query(`SELECT * FROM "audit_events" WHERE "organization_id" = '${o.org.organizationId}'`);
    expect(rows).toHaveLength(expected.length);
    expect(sortedKeys(rows.map((row: Record<string, string>) => ({ actor_id: row.actor_id, action: row.action, target_type: row.target_type, target_id: row.target_id })))).toEqual(
      sortedKeys(expected),
    );
    for (const row of rows) expect(row.ip).toMatch(LOOPBACK_IP);
  });

  it('filters by action, actor_id, from and to, alone and combined', async () => {
    const summaries = async (query: Record<string, string>) => sortedKeys((await auditTrail(t, o.auth, query)).map(summary));
    const pick = (predicate: (entry: Expected & { step: number }) => boolean) => sortedKeys(expected.filter(predicate));

    expect(await summaries({ action: 'user.role_change' })).toEqual(pick((entry) => entry.action === 'user.role_change'));
    expect(await summaries({ action: 'user.update' })).toEqual(pick((entry) => entry.action === 'user.update'));
    expect(await summaries({ action: 'apikey.update' })).toEqual(pick((entry) => entry.action === 'apikey.update'));
    expect(await summaries({ action: 'group.delete' })).toEqual(pick((entry) => entry.action === 'group.delete'));
    expect(await summaries({ action: 'user.nothing' })).toEqual([]);
    expect(await summaries({ actor_id: user.id })).toEqual(pick((entry) => entry.actor_id === user.id));
    expect(await summaries({ actor_id: user.id.toUpperCase() })).toEqual(pick((entry) => entry.actor_id === user.id));
    expect(await summaries({ actor_id: o.org.adminId })).toEqual(pick((entry) => entry.actor_id === o.org.adminId));
    expect(await summaries({ actor_id: user.id, action: 'user.update' })).toEqual(pick((entry) => entry.actor_id === user.id && entry.action === 'user.update'));
    expect(await summaries({ from: middle })).toEqual(pick((entry) => entry.step >= 8));
    expect(await summaries({ to: middle })).toEqual(pick((entry) => entry.step <= 7));
    expect(await summaries({ from: middle, action: 'apikey.create' })).toEqual(pick((entry) => entry.step === 8));
    expect(await summaries({ to: middle, actor_id: user.id })).toEqual(pick((entry) => entry.step <= 7 && entry.actor_id === user.id));
    expect(await summaries({ from: new Date(startedAt - 60_000).toISOString(), to: new Date(finishedAt + 60_000).toISOString() })).toEqual(sortedKeys(expected));
    // The same instant written with another offset means the same thing.
    const inMadrid = (iso: string) => {
      const shifted = new Date(Date.parse(iso) + 2 * 3_600_000).toISOString();
      return `${shifted.slice(0, -1)}+02:00`;
    };
    expect(await summaries({ from: inMadrid(middle) })).toEqual(pick((entry) => entry.step >= 8));
    expect(await summaries({ to: inMadrid(middle) })).toEqual(pick((entry) => entry.step <= 7));
    expect(await summaries({ from: new Date(finishedAt + 60_000).toISOString() })).toEqual([]);
    expect(await summaries({ to: new Date(startedAt - 60_000).toISOString() })).toEqual([]);
  });

  it('from and to are inclusive, and accept the +00:00 form the API hands out', async () => {
    const all = await auditTrail(t, o.auth);
    const oldest = all[all.length - 1];
    const newest = all[0];
    const upToOldest = await auditTrail(t, o.auth, { to: oldest.created_at });
    expect(upToOldest.map((entry) => entry.id)).toContain(oldest.id);
    expect(upToOldest.every((entry) => Date.parse(entry.created_at) <= Date.parse(oldest.created_at))).toBe(true);
    const fromNewest = await auditTrail(t, o.auth, { from: newest.created_at });
    expect(fromNewest.map((entry) => entry.id)).toContain(newest.id);
    expect(fromNewest.every((entry) => Date.parse(entry.created_at) >= Date.parse(newest.created_at))).toBe(true);
    const exactly = await auditTrail(t, o.auth, { from: newest.created_at, to: newest.created_at });
    expect(exactly.map((entry) => entry.id)).toContain(newest.id);
  });

  it('answers 400 to malformed filters and to from after to', async () => {
    for (const query of [
      { from: 'yesterday' },
      { to: '2026-13-01T00:00:00Z' },
      { actor_id: 'nope' },
      { action: 'DROP TABLE' },
      { action: 'user' },
      { from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' },
      { size: '0' },
      { page: '-1' },
    ]) {
      expectError(await t.http.get('/api/v1/audit').query(query).set(o.auth), 400, 'bad_request');
    }
  });

  it('pages newest first with exact metadata', async () => {
    const all = await auditTrail(t, o.auth);
    const first = await t.http.get('/api/v1/audit?size=4').set(o.auth).expect(200);
    const totalPages = Math.ceil(expected.length / 4);
    expect(first.body.metadata).toEqual({ first: true, last: false, total_pages: totalPages, total_elements: expected.length, number_of_elements: 4, size: 4, number: 1 });
    expect(first.body.data).toEqual(all.slice(0, 4));
    const last = await t.http.get(`/api/v1/audit?size=4&page=${totalPages}`).set(o.auth).expect(200);
    expect(last.body.metadata).toMatchObject({ first: false, last: true, number: totalPages, number_of_elements: expected.length - 4 * (totalPages - 1) });
    expect(last.body.data).toEqual(all.slice(4 * (totalPages - 1)));
    const filtered = await t.http.get('/api/v1/audit?size=1&action=user.role_change').set(o.auth).expect(200);
    expect(filtered.body.metadata).toEqual({ first: true, last: false, total_pages: 2, total_elements: 2, number_of_elements: 1, size: 1, number: 1 });
  });

  it("shows only the caller's organization", async () => {
    const theirs = await auditTrail(t, other.auth);
    const ids = new Set((await auditTrail(t, o.auth)).map((entry) => entry.id));
    expect(theirs.some((entry) => ids.has(entry.id))).toBe(false);
    expect(await auditTrail(t, other.auth, { actor_id: o.org.adminId })).toEqual([]);
    expect(await auditTrail(t, other.auth, { actor_id: user.id })).toEqual([]);
    // Their own changes are theirs.
    const created = await addUser(t, other.auth);
    const mine = await auditTrail(t, other.auth, { action: 'user.create' });
    expect(mine.map(summary)).toContainEqual({ actor_id: other.org.adminId, action: 'user.create', target_type: 'user', target_id: created.id });
    expect((await auditTrail(t, o.auth, { action: 'user.create' })).map((entry) => entry.target_id)).not.toContain(created.id);
  });

  it('records nothing for refused changes (422, 409, 403, 404)', async () => {
    const count = async () => Number((await t.dataSource.query(`SELECT COUNT(*) AS "n" FROM "audit_events"`))[0].n);
    const before = await count();
    const plain = await addUser(t, o.auth);
    const afterCreate = await count();
    expect(afterCreate).toBe(before + 1);
    const session = await login(t, plain.email, plain.password);
    await t.http.post('/api/v1/users').set(o.auth).send({ email: 'bad', password: strongPassword() }).expect(422);
    await t.http.post('/api/v1/users').set(o.auth).send({ email: plain.email, password: strongPassword() }).expect(409);
    await t.http.delete(`/api/v1/users/${o.org.adminId}`).set(o.auth).expect(409);
    await t.http.put(`/api/v1/users/${o.org.adminId}`).set(o.auth).send({ role: 'USER' }).expect(409);
    await t.http.post('/api/v1/users').set(session.auth).send({ email: uniqueEmail(), password: strongPassword() }).expect(403);
    await t.http.put(`/api/v1/users/${plain.id}`).set(session.auth).send({ role: 'ADMIN_ORG' }).expect(403);
    await t.http.put(`/api/v1/users/${other.org.adminId}`).set(o.auth).send({ full_name: 'x' }).expect(404);
    await t.http.post('/api/v1/groups').set(o.auth).send({ name: '' }).expect(422);
    await t.http.put(`/api/v1/groups/${groupId}`).set(o.auth).send({ name: 'gone' }).expect(404);
    await t.http.delete(`/api/v1/auth/apikeys/${userKeyId}`).set(o.auth).expect(404);
    await t.http.put('/api/v1/users/me/password').set(session.auth).send({ current_password: 'wrong-password-1', new_password: strongPassword() }).expect(422);
    expect(await count()).toBe(afterCreate);
  });

  it('records the caller through a read-write key, and the connection address, not a forwarded header', async () => {
    const readWrite = await createApiKey(t, o.token, ApiPermission.ReadWrite);
    const response = await t.http
      .post('/api/v1/users')
      .set(asApiKey(readWrite.apikey))
      .set('X-Forwarded-For', '203.0.113.9')
      .send({ email: uniqueEmail('bykey'), password: strongPassword() });
    expectStatus(response, 201);
    const [entry] = await auditTrail(t, o.auth, { action: 'user.create', from: new Date(Date.now() - 60_000).toISOString() }).then((entries) =>
      entries.filter((item) => item.target_id === response.body.id),
    );
    expect(entry).toEqual({
      id: expect.stringMatching(UUID),
      actor_id: o.org.adminId,
      action: 'user.create',
      target_type: 'user',
      target_id: response.body.id,
      ip: expect.stringMatching(LOOPBACK_IP),
      created_at: expect.stringMatching(TIMESTAMP),
    });
    const keyCreated = await auditTrail(t, o.auth, { action: 'apikey.create', actor_id: o.org.adminId });
    expect(keyCreated.map((item) => item.target_id)).toContain(readWrite.id);
  });

  it('is for ADMIN_ORG only: a USER (token or key) and a positioning key get 403; an admin read-only key reads it', async () => {
    const plain = await addUser(t, o.auth);
    const session = await login(t, plain.email, plain.password);
    const userKey = await createApiKey(t, session.tokens.access_token, ApiPermission.ReadWrite);
    expectError(await t.http.get('/api/v1/audit').set(session.auth), 403, 'forbidden');
    expectError(await t.http.get(`/api/v1/audit?actor_id=${plain.id}`).set(asApiKey(userKey.apikey)), 403, 'forbidden');
    const positioning = await createApiKey(t, o.token, ApiPermission.Positioning);
    expectError(await t.http.get('/api/v1/audit').set(asApiKey(positioning.apikey)), 403, 'forbidden');
    const readOnly = await createApiKey(t, o.token, ApiPermission.ReadOnly);
    const read = await t.http.get('/api/v1/audit?size=1').set(asApiKey(readOnly.apikey));
    expectStatus(read, 200);
    expect(read.body.data).toHaveLength(1);
    expectError(await t.http.get('/api/v1/audit'), 401, 'unauthorized');
  });
});
