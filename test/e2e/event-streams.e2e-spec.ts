import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { addUser, login } from '../support/admin';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, signUp } from '../support/cartography';
import { eventSite, EventSite, GeofenceEvent, visits } from '../support/geofence-events';
import { SseClient } from '../support/sse-client';
import { untilStreamPlacesHeld } from '../support/stream-places';
import { createTestApp, freshDatabase, TestApp, testDatabaseKind } from '../support/test-app';

const STREAM = '/api/v1/geofencing/events/stream';
const LOG = '/api/v1/geofencing/events';
const ENV = { STREAM_HEARTBEAT_MS: '150', STREAMS_PER_ORGANIZATION: '5' };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The events a stream received, parsed, whatever their type. */
const received = (client: SseClient) => client.frames.filter((f) => f.event?.startsWith('geofence.')).map((f) => JSON.parse(f.data!) as GeofenceEvent);
const seqs = (client: SseClient) => received(client).map((event) => event.seq);
const hasSeqs = (n: number) => (client: SseClient) => received(client).length >= n;

async function ticketFor(t: TestApp, auth: Record<string, string>): Promise<string> {
  return (await t.http.post('/api/v1/auth/stream_tickets').set(auth).expect(201)).body.ticket as string;
}

describe('live geofence event stream (contract 7.4)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let siteA: EventSite;
  let otherA: EventSite;
  let siteB: EventSite;
  const streams: SseClient[] = [];
  const open = async (path: string, headers: Record<string, string> = {}) => {
    const client = await SseClient.open(t.app.getHttpServer(), path, headers);
    streams.push(client);
    return client;
  };
  const closeAll = async () => {
    for (const client of streams.splice(0)) client.close();
    await untilStreamPlacesHeld(t, 0);
  };

  beforeAll(async () => {
    t = await createTestApp({ env: ENV });
    a = await signUp(t, 'Event streams A');
    b = await signUp(t, 'Event streams B');
    siteA = await eventSite(t, a.auth);
    otherA = await eventSite(t, a.auth, 'Dock');
    siteB = await eventSite(t, b.auth);
  });
  afterEach(closeAll);
  afterAll(async () => {
    for (const client of streams) client.close();
    await t?.close();
  });

  it('sends retry first, then every new event in seq order exactly as the event log serves it (id = cursor, event = type), and pings', async () => {
    const client = await open(STREAM, a.auth);
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await client.until((c) => c.frames.length > 0);
    expect(client.frames[0]).toEqual({ retry: 3000, comments: [] });

    const fired = [...(await visits(t, a.auth, siteA, ['order-1', 'order-2'])), ...(await visits(t, a.auth, otherA, ['order-3']))];
    expect(fired).toHaveLength(6);
    await client.until(hasSeqs(6));
    const frames = client.frames.filter((f) => f.event?.startsWith('geofence.'));
    expect(frames.map((f) => [f.id, f.event])).toEqual(fired.map((event) => [String(event.seq), event.type]));
    // Byte for byte what the log serves for the same cursor range.
    const log = await t.http
      .get(`${LOG}?after=${fired[0].seq - 1}&limit=6`)
      .set(a.auth)
      .expect(200);
    expect(log.body.data).toHaveLength(6);
    expect(frames.map((f) => f.data)).toEqual(log.body.data.map((event: GeofenceEvent) => JSON.stringify(event)));
    await client.until((c) => c.frames.some((f) => f.comments.includes('ping')), 2000, 'a ping');
    // Nothing twice.
    await pause(200);
    expect(seqs(client)).toEqual(fired.map((event) => event.seq));
    await closeAll();
  });

  it("applies the log's filters and the caller's organization and buildings", async () => {
    const all = await open(STREAM, a.auth);
    const exits = await open(`${STREAM}?types=geofence.exit&device_ids=filter-1,filter-2`, a.auth);
    const otherBuilding = await open(`${STREAM}?building_ids=${otherA.building.id}&geofence_ids=${otherA.fence.id}`, a.auth);
    const member = await addUser(t, a.auth, { building_ids: [siteA.building.id] });
    const restricted = await open(STREAM, (await login(t, member.email, member.password)).auth);
    const theirs = await open(STREAM, b.auth);
    await pause(50);
    const inA = await visits(t, a.auth, siteA, ['filter-1', 'filter-3']);
    const inOther = await visits(t, a.auth, otherA, ['filter-2']);
    const inB = await visits(t, b.auth, siteB, ['filter-b']);
    await all.until(hasSeqs(6));
    await theirs.until(hasSeqs(2));
    await pause(300);
    expect(seqs(all)).toEqual([...inA, ...inOther].map((event) => event.seq));
    expect(received(exits).map((event) => [event.type, event.device_id])).toEqual([
      ['geofence.exit', 'filter-1'],
      ['geofence.exit', 'filter-2'],
    ]);
    expect(received(otherBuilding).map((event) => event.id)).toEqual(inOther.map((event) => event.id));
    expect(received(restricted).map((event) => event.id)).toEqual(inA.map((event) => event.id));
    expect(received(theirs).map((event) => event.id)).toEqual(inB.map((event) => event.id));
    await closeAll();
  });

  it('reconnecting with Last-Event-ID (or ?after=) replays exactly the events missed, with the filters, then goes live', async () => {
    const first = await open(STREAM, a.auth);
    await pause(20);
    await visits(t, a.auth, siteA, ['resume-1']);
    await first.until(hasSeqs(2));
    const lastId = first.lastEventId!;
    first.close();
    const missed = [...(await visits(t, a.auth, siteA, ['resume-2', 'resume-3'])), ...(await visits(t, a.auth, otherA, ['resume-4']))];

    const again = await open(STREAM, { ...a.auth, 'Last-Event-ID': lastId });
    const byQuery = await open(`${STREAM}?after=${lastId}`, a.auth);
    const filtered = await open(`${STREAM}?after=${lastId}&types=geofence.enter`, a.auth);
    await again.until(hasSeqs(6));
    await byQuery.until(hasSeqs(6));
    await filtered.until(hasSeqs(3));
    const live = await visits(t, a.auth, otherA, ['resume-5']);
    await again.until(hasSeqs(8));
    await filtered.until(hasSeqs(4));
    await pause(200);
    expect(seqs(again)).toEqual([...missed, ...live].map((event) => event.seq));
    expect(seqs(byQuery)).toEqual([...missed, ...live].map((event) => event.seq));
    expect(seqs(filtered)).toEqual([...missed, ...live].filter((event) => event.type === 'geofence.enter').map((event) => event.seq));
    // Resuming from the newest id replays nothing.
    const current = await open(STREAM, { ...a.auth, 'Last-Event-ID': again.lastEventId! });
    await pause(200);
    expect(received(current)).toEqual([]);
    await closeAll();
  });

  it('a replay longer than a page of the log arrives whole and in order', async () => {
    const start = await open(STREAM, a.auth);
    await pause(20);
    await visits(t, a.auth, siteA, ['bulk-start']);
    await start.until(hasSeqs(2));
    const from = Number(start.lastEventId);
    start.close();
    const devices = Array.from({ length: 600 }, (_, i) => `bulk-${i}`);
    await visits(t, a.auth, siteA, devices.slice(0, 300));
    await visits(t, a.auth, siteA, devices.slice(300));
    const replay = await open(STREAM, { ...a.auth, 'Last-Event-ID': String(from) });
    await replay.until(hasSeqs(1200), 20_000, 'the whole replay');
    expect(seqs(replay)).toEqual(Array.from({ length: 1200 }, (_, i) => from + 1 + i));
    await closeAll();
  });

  it('bad input is 422 in the error shape; no credentials 401; a positioning key 403', async () => {
    const badHeader = await open(STREAM, { ...a.auth, 'Last-Event-ID': 'evt_x' });
    expect(badHeader.status).toBe(422);
    expect(badHeader.body).toMatchObject({ status: 422, errors: [{ fields: 'Last-Event-ID' }] });
    const badFilters = await open(`${STREAM}?types=geofence.nope&before=3&from=yesterday`, a.auth);
    expect(badFilters.status).toBe(422);
    expect((badFilters.body as { errors: Array<{ fields: string }> }).errors.map((e) => e.fields).sort()).toEqual(['before', 'from', 'types']);
    expect((await open(STREAM)).status).toBe(401);
    const positioning = await createApiKey(t, a.token, ApiPermission.Positioning);
    expect((await open(STREAM, asApiKey(positioning.apikey))).status).toBe(403);
  });

  it('opens with a single-use ticket instead of the headers', async () => {
    const ticket = await ticketFor(t, a.auth);
    const byTicket = await open(`${STREAM}?ticket=${ticket}&types=geofence.enter`);
    expect(byTicket.status).toBe(200);
    expect((await open(`${STREAM}?ticket=${ticket}`)).status).toBe(401);
    await pause(20);
    const fired = await visits(t, a.auth, siteA, ['ticket-1']);
    await byTicket.until(hasSeqs(1));
    await pause(100);
    expect(received(byTicket).map((event) => event.id)).toEqual([fired[0].id]);
    await closeAll();
  });

  it('shares the per-organization bound with the position stream', async () => {
    const opened = [
      await open(STREAM, a.auth),
      await open('/api/v1/realtime/stream', a.auth),
      await open(STREAM, a.auth),
      await open('/api/v1/realtime/stream', a.auth),
      await open(STREAM, a.auth),
    ];
    for (const client of opened) expect(client.status).toBe(200);
    const beyond = await open(STREAM, a.auth);
    expect(beyond.status).toBe(429);
    expect(beyond.body).toMatchObject({ status: 429, code: 'too_many_requests' });
    expect((await open(STREAM, b.auth)).status).toBe(200);
    await closeAll();
  });
});

describe('event streams and the application closing', () => {
  it('app close ends an event stream with a close frame and does not hang', async () => {
    const t = await createTestApp({ env: ENV });
    const org = await signUp(t, 'Closing events');
    const client = await SseClient.open(t.app.getHttpServer(), STREAM, org.auth);
    expect(client.status).toBe(200);
    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(5000);
    await client.until((c) => c.ended, 3000, 'the end of the stream');
    expect(client.events('close')).toEqual([{ reason: 'shutdown' }]);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('event streams with two instances on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const database = await freshDatabase();
    const env = { ...ENV, STREAMS_PER_ORGANIZATION: '10', JWT_SECRET: `two-instances-${'z'.repeat(40)}` };
    a = await createTestApp({ env, database });
    b = await createTestApp({ env, database: { ...database, drop: async () => undefined } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('every event, committed on either instance, reaches the streams on both, once each and in seq order', async () => {
    const org = await signUp(a, 'Two instances events');
    const site = await eventSite(a, org.auth);
    const onA = await SseClient.open(a.app.getHttpServer(), STREAM, org.auth);
    const onB = await SseClient.open(b.app.getHttpServer(), STREAM, org.auth);
    const ticketOnB = await SseClient.open(b.app.getHttpServer(), `${STREAM}?ticket=${await ticketFor(a, org.auth)}`);
    expect(ticketOnB.status).toBe(200);
    await pause(50);
    const single = await visits(a, org.auth, site, ['across-0']);
    await onB.until(hasSeqs(2), 5000, 'the event made on A, on B');
    expect(received(onB).map((event) => event.id)).toEqual(single.map((event) => event.id));
    // Ingests racing on both instances (different devices, so they interleave their commits).
    const fired = (await Promise.all(Array.from({ length: 10 }, (_, i) => visits(i % 2 ? b : a, org.auth, site, [`across-${i + 1}`])))).flat();
    const total = single.length + fired.length;
    const expected = [...single, ...fired].map((event) => event.seq).sort((x, y) => x - y);
    expect(expected).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    for (const client of [onA, onB, ticketOnB]) await client.until(hasSeqs(total), 10_000, 'every event');
    await pause(300);
    for (const client of [onA, onB, ticketOnB]) expect(seqs(client)).toEqual(expected);
    for (const client of [onA, onB, ticketOnB]) client.close();
  });
});
