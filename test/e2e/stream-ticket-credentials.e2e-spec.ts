import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { asApiKey, asBasic, createApiKey } from '../support/auth';
import { Cartographer, signUp } from '../support/cartography';
import { eventSite, EventSite, GeofenceEvent, visits } from '../support/geofence-events';
import { SseClient } from '../support/sse-client';
import { createTestApp, freshDatabase, TestApp, testDatabaseKind } from '../support/test-app';

/**
 * Issue 27, item 2: a stream ticket is only as good as the credential that minted it. Redeeming
 * one asks that credential again, and a stream opened with one ends when that credential is
 * revoked, downgraded or logged out, as a header-authenticated stream does, on any instance.
 */
const STREAM = '/api/v1/geofencing/events/stream';
const TICKETS = '/api/v1/auth/stream_tickets';
const ENV = { STREAM_HEARTBEAT_MS: '150', STREAMS_PER_ORGANIZATION: '20' };

const enters = (client: SseClient) => client.events<GeofenceEvent>('geofence.enter').map((event) => event.device_id);

async function ticketFor(t: TestApp, auth: Record<string, string>): Promise<string> {
  return (await t.http.post(TICKETS).set(auth).expect(201)).body.ticket as string;
}

interface Cookies {
  header: string;
  csrf: string;
}

async function dashboardLogin(t: TestApp, email: string, password: string): Promise<Cookies> {
  const response = await t.http.post('/api/v1/auth/session').set(asBasic(email, password)).expect(201);
  const raw = response.headers['set-cookie'] as unknown as string[];
  const pairs = raw.map((cookie) => cookie.split(';')[0]);
  return { header: pairs.join('; '), csrf: pairs.find((pair) => pair.startsWith('cartograph_csrf='))!.split('=')[1] };
}

describe('stream tickets follow the credential that minted them', () => {
  let t: TestApp;
  let owner: Cartographer;
  let site: EventSite;
  const streams: SseClient[] = [];
  const open = async (path: string, instance: TestApp = t) => {
    const client = await SseClient.open(instance.app.getHttpServer(), path);
    streams.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: ENV });
    owner = await signUp(t, 'Tickets');
    site = await eventSite(t, owner.auth);
  });
  afterAll(async () => {
    for (const client of streams) client.close();
    await t?.close();
  });

  it('a ticket minted with an API key that is then deleted is refused (401), not opened', async () => {
    const key = await createApiKey(t, owner.token, ApiPermission.ReadWrite);
    const ticket = await ticketFor(t, asApiKey(key.apikey));
    await t.http.delete(`/api/v1/auth/apikeys/${key.id}`).set(owner.auth).expect(204);
    const refused = await open(`${STREAM}?ticket=${ticket}`);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('a ticket minted with a key downgraded since to positioning is refused (403): it may no longer read events', async () => {
    const key = await createApiKey(t, owner.token, ApiPermission.ReadWrite);
    const ticket = await ticketFor(t, asApiKey(key.apikey));
    await t.http.put(`/api/v1/auth/apikeys/${key.id}`).set(owner.auth).send({ permission: ApiPermission.Positioning }).expect(200);
    const refused = await open(`${STREAM}?ticket=${ticket}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it("a stream opened with a key's ticket delivers, then ends when the key is deleted; another credential's stream of the user stays", async () => {
    const key = await createApiKey(t, owner.token, ApiPermission.ReadOnly);
    const byKeyTicket = await open(`${STREAM}?ticket=${await ticketFor(t, asApiKey(key.apikey))}`);
    const byTokenTicket = await open(`${STREAM}?ticket=${await ticketFor(t, owner.auth)}`);
    expect([byKeyTicket.status, byTokenTicket.status]).toEqual([200, 200]);
    await visits(t, owner.auth, site, ['before-revocation']);
    await byKeyTicket.until((c) => enters(c).includes('before-revocation'), 5000, 'the event before the revocation');

    await t.http.delete(`/api/v1/auth/apikeys/${key.id}`).set(owner.auth).expect(204);
    await byKeyTicket.until((c) => c.ended, 5000, 'the end of the key ticket stream');
    expect(byKeyTicket.events('close')).toEqual([{ reason: 'credential_revoked' }]);
    // The token's session was not touched: its ticket stream goes on, as its header stream would.
    await visits(t, owner.auth, site, ['after-revocation']);
    await byTokenTicket.until((c) => enters(c).includes('after-revocation'), 5000, 'the event after the revocation');
    expect(byTokenTicket.ended).toBe(false);
    expect(enters(byKeyTicket)).not.toContain('after-revocation');
  });

  it("a stream opened with a key's ticket ends when the key is downgraded below read-only", async () => {
    const key = await createApiKey(t, owner.token, ApiPermission.ReadOnly);
    const client = await open(`${STREAM}?ticket=${await ticketFor(t, asApiKey(key.apikey))}`);
    expect(client.status).toBe(200);
    await t.http.put(`/api/v1/auth/apikeys/${key.id}`).set(owner.auth).send({ permission: ApiPermission.Positioning }).expect(200);
    await client.until((c) => c.ended, 5000, 'the end of the stream');
    expect(client.events('close')).toEqual([{ reason: 'credential_revoked' }]);
  });

  it('a dashboard ticket: refused after logout, and a stream it opened ends at logout', async () => {
    const first = await dashboardLogin(t, owner.org.email, owner.org.password);
    const ticket = (await t.http.post(TICKETS).set('Cookie', first.header).set('X-CSRF-Token', first.csrf).expect(201)).body.ticket as string;
    const second = await dashboardLogin(t, owner.org.email, owner.org.password);
    const streamTicket = (await t.http.post(TICKETS).set('Cookie', second.header).set('X-CSRF-Token', second.csrf).expect(201)).body.ticket as string;
    const client = await open(`${STREAM}?ticket=${streamTicket}`);
    expect(client.status).toBe(200);

    await t.http.delete('/api/v1/auth/session').set('Cookie', first.header).set('X-CSRF-Token', first.csrf).expect(204);
    expect((await open(`${STREAM}?ticket=${ticket}`)).status).toBe(401);
    // Another session's logout is not this stream's.
    await visits(t, owner.auth, site, ['other-logout']);
    await client.until((c) => enters(c).includes('other-logout'), 5000, 'the event after the other logout');
    await t.http.delete('/api/v1/auth/session').set('Cookie', second.header).set('X-CSRF-Token', second.csrf).expect(204);
    await client.until((c) => c.ended, 5000, 'the end of the stream at logout');
    expect(client.events('close')).toEqual([{ reason: 'credential_revoked' }]);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('stream tickets across two instances on one PostgreSQL (issue 27)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const database = await freshDatabase();
    const env = { ...ENV, JWT_SECRET: `ticket-instances-${'t'.repeat(40)}` };
    a = await createTestApp({ env, database });
    b = await createTestApp({ env, database: { ...database, drop: async () => undefined } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a key revoked on instance A ends the stream its ticket opened on instance B; a ticket of a key revoked on A is refused on B', async () => {
    const owner = await signUp(a, 'Tickets across');
    const site = await eventSite(a, owner.auth);
    const key = await createApiKey(a, owner.token, ApiPermission.ReadOnly);
    const onB = await SseClient.open(b.app.getHttpServer(), `${STREAM}?ticket=${await ticketFor(a, asApiKey(key.apikey))}`);
    expect(onB.status).toBe(200);
    const unused = await ticketFor(a, asApiKey(key.apikey));
    await visits(a, owner.auth, site, ['across']);
    await onB.until((c) => enters(c).includes('across'), 10_000, 'the event on B');

    await a.http.delete(`/api/v1/auth/apikeys/${key.id}`).set(owner.auth).expect(204);
    await onB.until((c) => c.ended, 10_000, 'the end of the stream on B');
    expect(onB.events('close')).toEqual([{ reason: 'credential_revoked' }]);
    const refused = await SseClient.open(b.app.getHttpServer(), `${STREAM}?ticket=${unused}`);
    expect(refused.status).toBe(401);
  });
});
