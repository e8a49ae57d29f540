import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { addUser, login } from '../support/admin';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, expectError, signUp } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 27, item 4: webhooks and the organization's geofencing settings act on the whole
 * organization (a webhook receives every event), so managing them is administration
 * (OWASP API5): `ADMIN_ORG` credentials only, an administrator's keys included. Reading stays
 * as the contract says: webhooks with read-write, settings with read-only.
 */
describe('webhooks and organization settings are administration', () => {
  let t: TestApp;
  let admin: Cartographer;
  let user: Record<string, string>;
  let userKey: Record<string, string>;
  let hookId: string;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp();
    admin = await signUp(t, 'Administration');
    const member = await addUser(t, admin.auth);
    const session = await login(t, member.email, member.password);
    user = session.auth;
    userKey = asApiKey((await createApiKey(t, session.tokens.access_token, ApiPermission.ReadWrite)).apikey);
    hookId = (await t.http.post('/api/v1/webhooks').set(admin.auth).send({ url: receiver.url }).expect(201)).body.id as string;
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it.each([
    ['POST', '/api/v1/webhooks', () => ({ url: receiver.url })],
    ['PUT', '/api/v1/webhooks/:id', () => ({ url: 'http://127.0.0.1:9/elsewhere' })],
    ['PATCH', '/api/v1/webhooks/:id', () => ({ enabled: false })],
    ['DELETE', '/api/v1/webhooks/:id', () => undefined],
    ['POST', '/api/v1/webhooks/:id/rotate_secret', () => ({})],
    ['POST', '/api/v1/webhooks/:id/test', () => ({})],
    ['POST', '/api/v1/webhooks/:id/replay', () => ({ event_ids: [] })],
    ['PUT', '/api/v1/geofencing/settings', () => ({ min_dwell_seconds: 1 })],
    ['PATCH', '/api/v1/geofencing/settings', () => ({ min_dwell_seconds: 1 })],
  ])('%s %s: a USER is refused (403 forbidden), with a password token or a read-write key', async (method, path, body) => {
    for (const auth of [user, userKey]) {
      const call = t.http[method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete'](path.replace(':id', hookId)).set(auth);
      const response = await (body() === undefined ? call : call.send(body() as object));
      expectError(response, 403, 'forbidden');
      expect(response.body.message).toContain('ADMIN_ORG');
    }
  });

  it("nothing a USER sent changed the administrator's webhook or the settings", async () => {
    const hook = await t.http.get(`/api/v1/webhooks/${hookId}`).set(admin.auth).expect(200);
    expect(hook.body).toMatchObject({ url: receiver.url, enabled: true });
    const settings = await t.http.get('/api/v1/geofencing/settings').set(admin.auth).expect(200);
    expect(settings.body.min_dwell_seconds).not.toBe(1);
    expect(receiver.received).toHaveLength(0);
  });

  it('a USER still reads them as the contract says: webhooks with read-write, settings with read-only', async () => {
    const list = await t.http.get('/api/v1/webhooks').set(user).expect(200);
    expect(list.body.data.map((hook: { id: string }) => hook.id)).toEqual([hookId]);
    await t.http.get(`/api/v1/webhooks/${hookId}/deliveries`).set(user).expect(200);
    await t.http.get('/api/v1/geofencing/settings').set(user).expect(200);
  });

  it('an administrator manages them with a password token or its own keys: read-write for webhooks, cartography-read-write for settings', async () => {
    const adminKey = asApiKey((await createApiKey(t, admin.token, ApiPermission.ReadWrite)).apikey);
    const created = await t.http.post('/api/v1/webhooks').set(adminKey).send({ url: receiver.url }).expect(201);
    await t.http.patch(`/api/v1/webhooks/${created.body.id}`).set(adminKey).send({ description: 'by key' }).expect(200);
    await t.http.delete(`/api/v1/webhooks/${created.body.id}`).set(admin.auth).expect(204);
    const cartographyKey = asApiKey((await createApiKey(t, admin.token, ApiPermission.CartographyReadWrite)).apikey);
    const settings = await t.http.put('/api/v1/geofencing/settings').set(cartographyKey).send({ min_dwell_seconds: 2 }).expect(200);
    expect(settings.body.min_dwell_seconds).toBe(2);
    // A key's permission still bounds it: an administrator's cartography key manages no webhook.
    expectError(await t.http.post('/api/v1/webhooks').set(cartographyKey).send({ url: receiver.url }), 403, 'forbidden');
  });
});
