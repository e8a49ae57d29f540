import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { metricsRegistry } from '../../src/common/metrics/metrics.registry';
import { addUser, login } from '../support/admin';
import { asApiKey, asBearer, createApiKey } from '../support/auth';
import { Cartographer, createSite, expectError, signUp, Site } from '../support/cartography';
import { FEATURE_KEYS, FEATURE_PROPERTY_KEYS, fix, report } from '../support/positions';
import { SseClient } from '../support/sse-client';
import { streamPlacesHeld, untilStreamPlacesHeld } from '../support/stream-places';
import { createTestApp, freshDatabase, TestApp, testDatabaseKind } from '../support/test-app';

const STREAM = '/api/v1/realtime/stream';
const TICKETS = '/api/v1/auth/stream_tickets';
const ENV = { STREAM_HEARTBEAT_MS: '150', STREAMS_PER_ORGANIZATION: '3', STREAM_MAX_BUFFERED_BYTES: '262144' };

interface Feature {
  type: string;
  id: string;
  userId: string | null;
  geometry: { type: string; coordinates: [number, number] };
  properties: Record<string, unknown>;
}

const positionIds = (client: SseClient) => client.events<Feature>('position').map((feature) => feature.id);
const hasPositions =
  (...ids: string[]) =>
  (client: SseClient) =>
    ids.every((id) => positionIds(client).includes(id));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ticketFor(t: TestApp, auth: Record<string, string>): Promise<string> {
  const response = await t.http.post(TICKETS).set(auth).expect(201);
  expect(Object.keys(response.body).sort()).toEqual(['expires_in', 'ticket']);
  expect(response.body.expires_in).toBe(60);
  return response.body.ticket as string;
}

describe('live position stream (contract 7.4)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let siteA: Site;
  let otherA: Site;
  let siteB: Site;
  const streams: SseClient[] = [];
  const open = async (path: string, headers: Record<string, string> = {}) => {
    const client = await SseClient.open(t.app.getHttpServer(), path, headers);
    streams.push(client);
    return client;
  };
  const closeAll = async () => {
    for (const client of streams.splice(0)) client.close();
    // The server notices the hang-ups and gives the places back before the next test counts streams.
    await untilStreamPlacesHeld(t, 0);
  };

  beforeAll(async () => {
    t = await createTestApp({ env: ENV });
    a = await signUp(t, 'Streams A');
    b = await signUp(t, 'Streams B');
    siteA = await createSite(t, a.auth);
    otherA = await createSite(t, a.auth);
    siteB = await createSite(t, b.auth);
  });
  afterAll(async () => {
    for (const client of streams) client.close();
    await t?.close();
  });

  it('answers with the event-stream headers, retry first, then each new latest fix as a 6.1 feature, and pings', async () => {
    const client = await open(STREAM, a.auth);
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['cache-control']).toBe('no-store');
    expect(client.headers['x-accel-buffering']).toBe('no');
    await client.until((c) => c.frames.length > 0);
    expect(client.frames[0]).toEqual({ retry: 3000, comments: [] });

    await report(t, a.auth, { positions: [fix('live-1', { building_id: siteA.building.id, floor_id: siteA.floor.id, accuracy: 2.5, yaw: 1.5 })] });
    await client.until(hasPositions('live-1'));
    const frame = client.frames.find((f) => f.event === 'position')!;
    expect(frame.id).toMatch(/^\d+$/);
    const feature = JSON.parse(frame.data!) as Feature;
    expect(Object.keys(feature).sort()).toEqual(FEATURE_KEYS);
    expect(Object.keys(feature.properties).sort()).toEqual(FEATURE_PROPERTY_KEYS);
    expect(feature).toMatchObject({ type: 'Feature', id: 'live-1', geometry: { type: 'Point', coordinates: [42.8723597, -8.5633224] } });
    expect(feature.properties).toMatchObject({ building_id: siteA.building.id, floor_id: siteA.floor.id, accuracy: 2.5, yaw: 1.5 });
    // The same feature the realtime read gives.
    const read = await t.http.get('/api/v1/realtime/positions?device_ids=live-1').set(a.auth).expect(200);
    expect(feature).toEqual(read.body.features[0]);

    await client.until((c) => c.frames.some((f) => f.comments.includes('ping')), 2000, 'a ping');
    await closeAll();
  });

  it('shows only the caller organization and the buildings asked for', async () => {
    const all = await open(STREAM, a.auth);
    const one = await open(`${STREAM}?building_ids=${otherA.building.id}`, a.auth);
    const other = await open(STREAM, b.auth);
    await pause(50);
    await report(t, a.auth, {
      positions: [fix('iso-a1', { building_id: siteA.building.id, floor_id: siteA.floor.id }), fix('iso-a2', { building_id: otherA.building.id, floor_id: otherA.floor.id })],
    });
    await report(t, b.auth, { positions: [fix('iso-b1', { building_id: siteB.building.id, floor_id: siteB.floor.id })] });
    await all.until(hasPositions('iso-a1', 'iso-a2'));
    await other.until(hasPositions('iso-b1'));
    await one.until(hasPositions('iso-a2'));
    await pause(200);
    expect(positionIds(all).sort()).toEqual(['iso-a1', 'iso-a2']);
    expect(positionIds(one)).toEqual(['iso-a2']);
    expect(positionIds(other)).toEqual(['iso-b1']);
    await closeAll();
  });

  it('a user restricted to a building streams that building only, whatever it asks for; a ticket keeps the restriction', async () => {
    const member = await addUser(t, a.auth, { building_ids: [siteA.building.id] });
    const memberAuth = (await login(t, member.email, member.password)).auth;
    const everything = await open(STREAM, memberAuth);
    const other = await open(`${STREAM}?building_ids=${otherA.building.id}`, memberAuth);
    const byTicket = await open(`${STREAM}?ticket=${await ticketFor(t, memberAuth)}`);
    await pause(50);
    await report(t, a.auth, {
      positions: [
        fix('member-in', { building_id: siteA.building.id, floor_id: siteA.floor.id }),
        fix('member-out', { building_id: otherA.building.id, floor_id: otherA.floor.id }),
        fix('member-outdoor'),
      ],
    });
    await everything.until(hasPositions('member-in'));
    await byTicket.until(hasPositions('member-in'));
    await pause(200);
    expect(positionIds(everything)).toEqual(['member-in']);
    expect(positionIds(byTicket)).toEqual(['member-in']);
    expect(positionIds(other)).toEqual([]);
    await closeAll();
  });

  it('a positioning key may not stream; no credentials: 401; a bad resume id: 422', async () => {
    const positioning = await createApiKey(t, a.token, ApiPermission.Positioning);
    const refused = await open(STREAM, asApiKey(positioning.apikey));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ status: 403, code: 'forbidden' });
    const anonymous = await open(STREAM);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ status: 401 });
    const bad = await open(STREAM, { ...a.auth, 'Last-Event-ID': 'evt_nonsense' });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ status: 422, errors: [{ fields: 'Last-Event-ID' }] });
  });

  it('reconnecting with Last-Event-ID (or ?after=) replays exactly the positions missed, then goes live', async () => {
    const first = await open(STREAM, a.auth);
    await pause(20);
    await report(t, a.auth, { positions: [fix('resume-1')] });
    await first.until(hasPositions('resume-1'));
    const lastId = first.lastEventId!;
    first.close();
    await pause(20);
    await report(t, a.auth, { positions: [fix('resume-2')] });
    await pause(5);
    await report(t, a.auth, { positions: [fix('resume-3'), fix('resume-4')] });

    const again = await open(STREAM, { ...a.auth, 'Last-Event-ID': lastId });
    await again.until(hasPositions('resume-2', 'resume-3', 'resume-4'));
    const byQuery = await open(`${STREAM}?after=${lastId}`, a.auth);
    await byQuery.until(hasPositions('resume-2', 'resume-3', 'resume-4'));
    await pause(200);
    expect(positionIds(again)).toEqual(['resume-2', 'resume-3', 'resume-4']);
    expect(positionIds(byQuery)).toEqual(['resume-2', 'resume-3', 'resume-4']);
    // Then live.
    await report(t, a.auth, { positions: [fix('resume-5')] });
    await again.until(hasPositions('resume-5'));
    expect(positionIds(again)).toEqual(['resume-2', 'resume-3', 'resume-4', 'resume-5']);
    // Resuming from the newest id replays nothing.
    const current = await open(STREAM, { ...a.auth, 'Last-Event-ID': again.lastEventId! });
    await pause(200);
    expect(positionIds(current)).toEqual([]);
    await closeAll();
  });

  it('a replay far larger than the unread-bytes bound reaches a reading client whole, in watermark order', async () => {
    const start = await open(STREAM, a.auth);
    await pause(20);
    await report(t, a.auth, { positions: [fix('bulk-start')] });
    await start.until(hasPositions('bulk-start'));
    const from = start.lastEventId!;
    start.close();
    // About 330 bytes a frame: 1,000 frames are more than the 256 KiB bound.
    const ids = Array.from({ length: 1000 }, (_, i) => `bulk-${String(i).padStart(4, '0')}`);
    for (let i = 0; i < ids.length; i += 500) {
      await report(t, a.auth, { positions: ids.slice(i, i + 500).map((id) => fix(id, { building_id: siteA.building.id, floor_id: siteA.floor.id })) });
      await pause(3);
    }
    const replay = await open(STREAM, { ...a.auth, 'Last-Event-ID': from });
    await replay.until((c) => c.ended || c.frames.filter((f) => f.event === 'position').length >= ids.length, 20_000, 'the whole replay');
    expect(replay.ended).toBe(false);
    expect(positionIds(replay).sort()).toEqual(ids);
    // The ids never go back.
    const frameIds = replay.frames.filter((f) => f.id !== undefined).map((f) => Number(f.id));
    expect(frameIds).toEqual([...frameIds].sort((x, y) => x - y));
    await closeAll();
  });

  it('stream tickets: single use, for stream routes only, carrying the asker, never valid after their minute', async () => {
    const ticket = await ticketFor(t, a.auth);
    // Not on other routes (and not spent there).
    const elsewhere = await t.http.get(`/api/v1/realtime/positions?ticket=${ticket}`);
    expectError(elsewhere, 401, 'unauthorized');
    const stream = await open(`${STREAM}?ticket=${ticket}`);
    expect(stream.status).toBe(200);
    const reused = await open(`${STREAM}?ticket=${ticket}`);
    expect(reused.status).toBe(401);
    expect(reused.body).toMatchObject({ status: 401, message: 'The stream ticket is unknown, used or expired' });

    // The ticket's stream is the asker's: organization B's ticket sees B only.
    const ticketB = await ticketFor(t, b.auth);
    const streamB = await open(`${STREAM}?ticket=${ticketB}`);
    await pause(20);
    await report(t, a.auth, { positions: [fix('ticket-a')] });
    await report(t, b.auth, { positions: [fix('ticket-b')] });
    await stream.until(hasPositions('ticket-a'));
    await streamB.until(hasPositions('ticket-b'));
    expect(positionIds(stream)).toEqual(['ticket-a']);
    expect(positionIds(streamB)).toEqual(['ticket-b']);

    // Headers stay the authority: a bad token with a good ticket is refused, and the ticket is not spent.
    const kept = await ticketFor(t, a.auth);
    const badHeader = await open(`${STREAM}?ticket=${kept}`, asBearer('not-a-token'));
    expect(badHeader.status).toBe(401);
    const good = await open(`${STREAM}?ticket=${kept}`);
    expect(good.status).toBe(200);

    // A positioning key's ticket carries its permission.
    const positioning = await createApiKey(t, a.token, ApiPermission.Positioning);
    const weak = await ticketFor(t, asApiKey(positioning.apikey));
    expect((await open(`${STREAM}?ticket=${weak}`)).status).toBe(403);

    // Expired.
    const old = await ticketFor(t, a.auth);
    await t.dataSource.query(`UPDATE stream_tickets SET expires_at = ${testDatabaseKind() === 'postgres' ? "now() - interval '1 second'" : "'2000-01-01 00:00:00.000'"}`);
    expect((await open(`${STREAM}?ticket=${old}`)).status).toBe(401);
    // Unknown and malformed.
    expect((await open(`${STREAM}?ticket=cgs_${'A'.repeat(43)}`)).status).toBe(401);
    expect((await open(`${STREAM}?ticket=nonsense`)).status).toBe(401);
    // Never logged.
    expect(JSON.stringify(t.requestLogs)).not.toContain(ticket.slice(4));
    // Only hashes are stored.
    const stored = (await t.dataSource.query('SELECT ticket_hash FROM stream_tickets')) as Array<{ ticket_hash: string }>;
    for (const row of stored) expect(row.ticket_hash).toMatch(/^[0-9a-f]{64}$/);
    await closeAll();
  });

  it('at most the configured number of streams per organization: 429 in the error shape beyond, others unaffected; the gauge counts them', async () => {
    const opened = [await open(STREAM, a.auth), await open(STREAM, a.auth), await open(STREAM, a.auth)];
    for (const client of opened) expect(client.status).toBe(200);
    const metrics = await metricsRegistry.getSingleMetricAsString('cartograph_streams_open');
    expect(metrics).toMatch(/cartograph_streams_open\{kind="positions"\} [3-9]/);
    const beyond = await open(STREAM, a.auth);
    expect(beyond.status).toBe(429);
    expect(beyond.body).toMatchObject({ status: 429, code: 'too_many_requests' });
    expect(beyond.headers['retry-after']).toBeDefined();
    expect((await open(STREAM, b.auth)).status).toBe(200);
    // A closed stream frees its place.
    const held = await streamPlacesHeld(t);
    opened[0].close();
    await untilStreamPlacesHeld(t, held - 1);
    expect((await open(STREAM, a.auth)).status).toBe(200);
    await closeAll();
  });

  it('each open stream holds a place in the database; places another instance let lapse stop counting', async () => {
    const organizationId = a.org.organizationId;
    const places = async () =>
      (await t.dataSource.query(
        ...t.dataSource.driver.escapeQueryWithParameters('SELECT kind, expires_at FROM stream_leases WHERE organization_id = :organizationId', { organizationId }),
      )) as Array<{
        kind: string;
        expires_at: number | string;
      }>;
    const first = await open(STREAM, a.auth);
    expect(first.status).toBe(200);
    const held = await places();
    expect(held).toHaveLength(1);
    expect(held[0].kind).toBe('positions');
    expect(Number(held[0].expires_at)).toBeGreaterThan(Date.now());
    // Two streams held by an instance that crashed a moment ago: their places still count.
    const crashed = ['00000000-0000-4000-8000-00000000c001', '00000000-0000-4000-8000-00000000c002'];
    await t.dataSource
      .createQueryBuilder()
      .insert()
      .into('stream_leases')
      .values(crashed.map((id) => ({ id, organization_id: organizationId, kind: 'events', instance_id: '00000000-0000-4000-8000-0000000000cc', expires_at: Date.now() + 60_000 })))
      .execute();
    const refused = await open(STREAM, a.auth);
    expect(refused.status).toBe(429);
    // Once their leases lapse (nobody renews them), the places are free again.
    await t.dataSource
      .createQueryBuilder()
      .update('stream_leases')
      .set({ expires_at: Date.now() - 1 })
      .where('instance_id = :instance', { instance: '00000000-0000-4000-8000-0000000000cc' })
      .execute();
    const second = await open(STREAM, a.auth);
    expect(second.status).toBe(200);
    expect(await places()).toHaveLength(2);
    // Closed streams give their places back.
    await closeAll();
    expect(await places()).toEqual([]);
  });

  it("a stream ends when its credential is revoked; the user's streams on other credentials stay (a ticket's too: it follows its own credential)", async () => {
    const key = await createApiKey(t, a.token, ApiPermission.ReadOnly);
    const byKey = await open(STREAM, asApiKey(key.apikey));
    expect(byKey.status).toBe(200);
    const byToken = await open(STREAM, a.auth);
    const byTicket = await open(`${STREAM}?ticket=${await ticketFor(t, a.auth)}`);
    await t.http.delete(`/api/v1/auth/apikeys/${key.id}`).set(a.auth).expect(204);
    await byKey.until((c) => c.ended, 3000, 'the end of the stream');
    expect(byKey.events('close')).toEqual([{ reason: 'credential_revoked' }]);
    expect((await open(STREAM, asApiKey(key.apikey))).status).toBe(401);
    await report(t, a.auth, { positions: [fix('after-revocation')] });
    await byToken.until(hasPositions('after-revocation'));
    expect(byToken.ended).toBe(false);
    // The ticket was minted with the token, whose session stands: its stream goes on as the token's does (issue 27).
    await byTicket.until(hasPositions('after-revocation'));
    expect(byTicket.ended).toBe(false);
    await closeAll();
  });
});

describe('live streams and the application closing', () => {
  it('app close ends open streams with a close frame and does not hang', async () => {
    const t = await createTestApp({ env: ENV });
    const org = await signUp(t, 'Closing');
    const client = await SseClient.open(t.app.getHttpServer(), STREAM, org.auth);
    expect(client.status).toBe(200);
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(5000);
    await client.until((c) => c.ended, 3000, 'the end of the stream');
    expect(client.events('close')).toEqual([{ reason: 'shutdown' }]);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('live streams with two instances on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const database = await freshDatabase();
    const env = { ...ENV, JWT_SECRET: `two-instances-${'y'.repeat(40)}` };
    a = await createTestApp({ env, database });
    b = await createTestApp({ env, database: { ...database, drop: async () => undefined } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('the per-organization bound counts the streams of both instances; a closed one frees a place for either', async () => {
    const org = await signUp(a, 'Two instances bound');
    const onA = [await SseClient.open(a.app.getHttpServer(), STREAM, org.auth), await SseClient.open(a.app.getHttpServer(), STREAM, org.auth)];
    const onB = await SseClient.open(b.app.getHttpServer(), STREAM, org.auth);
    for (const client of [...onA, onB]) expect(client.status).toBe(200);
    // Three open over the two instances: the fourth is refused on either.
    for (const instance of [a, b]) {
      const beyond = await SseClient.open(instance.app.getHttpServer(), STREAM, org.auth);
      expect(beyond.status).toBe(429);
      expect(beyond.body).toMatchObject({ status: 429, code: 'too_many_requests' });
    }
    // Opening at once on both instances for the last place: exactly one gets it.
    onA[0].close();
    await pause(150);
    const race = await Promise.all([SseClient.open(a.app.getHttpServer(), STREAM, org.auth), SseClient.open(b.app.getHttpServer(), STREAM, org.auth)]);
    expect(race.map((client) => client.status).sort()).toEqual([200, 429]);
    for (const client of [...onA, onB, ...race]) client.close();
  });

  it('a position ingested on instance A reaches a stream on instance B; a ticket from A opens a stream on B; a revocation on A ends it', async () => {
    const org = await signUp(a, 'Two instances');
    const onB = await SseClient.open(b.app.getHttpServer(), STREAM, org.auth);
    expect(onB.status).toBe(200);
    const ticket = await ticketFor(a, org.auth);
    const key = await createApiKey(a, org.token, ApiPermission.ReadOnly);
    const byKeyOnB = await SseClient.open(b.app.getHttpServer(), STREAM, asApiKey(key.apikey));
    const byTicketOnB = await SseClient.open(b.app.getHttpServer(), `${STREAM}?ticket=${ticket}`);
    expect(byTicketOnB.status).toBe(200);
    await pause(50);
    await report(a, org.auth, { positions: [fix('across-1')] });
    await onB.until(hasPositions('across-1'));
    await byTicketOnB.until(hasPositions('across-1'));
    await byKeyOnB.until(hasPositions('across-1'));
    await a.http.delete(`/api/v1/auth/apikeys/${key.id}`).set(org.auth).expect(204);
    await byKeyOnB.until((c) => c.ended, 5000, 'the end of the stream on B');
    expect(byKeyOnB.events('close')).toEqual([{ reason: 'credential_revoked' }]);
    expect(onB.ended).toBe(false);
    onB.close();
    byTicketOnB.close();
  });
});
