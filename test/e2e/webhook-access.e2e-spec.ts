import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, login } from '../support/admin';
import { createOrganization, TestOrganization } from '../support/auth';
import { createBuilding } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

describe('who may manage webhooks', () => {
  let t: TestApp;
  let org: TestOrganization;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, 'Webhook access org');
  });
  afterAll(async () => t?.close());

  describe('webhooks and building restrictions', () => {
    it('a user restricted to some buildings cannot subscribe to, list or change the organization’s webhooks', async () => {
      const admin = (await login(t, org.email, org.password)).auth;
      const building = await createBuilding(t, admin);
      const user = await addUser(t, admin, { building_ids: [building.id] });
      const { auth } = await login(t, user.email, user.password);
      const hook = { url: 'http://127.0.0.1:9/hooks/rev1' };
      // Unfiltered, it would receive the events of buildings the user cannot see.
      const created = await t.http.post('/api/v1/webhooks').set(auth).send(hook);
      expect(created.status).toBe(403);
      expect(created.body).toMatchObject({ status: 403, code: 'forbidden' });
      const own = await t.http.post('/api/v1/webhooks').set(admin).send(hook).expect(201);
      expect((await t.http.get('/api/v1/webhooks').set(auth)).status).toBe(403);
      expect((await t.http.get(`/api/v1/webhooks/${own.body.id}`).set(auth)).status).toBe(403);
      expect((await t.http.put(`/api/v1/webhooks/${own.body.id}`).set(auth).send({ url: 'http://127.0.0.1:9/hooks/mine' })).status).toBe(403);
      expect((await t.http.post(`/api/v1/webhooks/${own.body.id}/rotate_secret`).set(auth)).status).toBe(403);
      expect((await t.http.delete(`/api/v1/webhooks/${own.body.id}`).set(auth)).status).toBe(403);
      const after = await t.http.get(`/api/v1/webhooks/${own.body.id}`).set(admin).expect(200);
      expect(after.body.url).toBe(hook.url);
      const list = await t.http.get('/api/v1/webhooks').set(admin).expect(200);
      expect(list.body.data).toHaveLength(1);
    });
  });
});

describe('the webhook limit under concurrent creates', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ env: { WEBHOOK_MAX_ENDPOINTS: '2' } });
  });
  afterAll(async () => limited?.close());

  it('never lets concurrent creates pass WEBHOOK_MAX_ENDPOINTS', async () => {
    const o = await createOrganization(limited, 'Hook limit');
    const { auth } = await login(limited, o.email, o.password);
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        limited.http
          .post('/api/v1/webhooks')
          .set(auth)
          .send({ url: `http://127.0.0.1:9/hooks/${index}` }),
      ),
    );
    expect(responses.filter((response) => response.status === 201)).toHaveLength(2);
    for (const response of responses.filter((r) => r.status !== 201)) expect(response.body).toMatchObject({ status: 422, code: 'validation_failed' });
    const list = await limited.http.get('/api/v1/webhooks').set(auth).expect(200);
    expect(list.body.data).toHaveLength(2);
  });
});
