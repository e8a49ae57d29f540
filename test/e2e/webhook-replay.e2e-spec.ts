import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addUser, login } from '../support/admin';
import { Cartographer, signUp } from '../support/cartography';
import { eventSite, EventSite, visits } from '../support/geofence-events';
import { createTestApp, TestApp } from '../support/test-app';
import { waitFor, WebhookReceiver } from '../support/webhook-receiver';

// Seconds instead of hours, so a failing receiver makes a dead letter quickly.
const ENV = { WEBHOOK_RETRY_SCHEDULE: '0s,300ms,300ms', WEBHOOK_TIMEOUT_MS: '600', WEBHOOK_POLL_INTERVAL_MS: '100' };

interface Delivery {
  id: string;
  message_id: string;
  status: string;
  attempts: number;
}

describe('webhook replay (contract 7.5)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let site: EventSite;
  let receiver: WebhookReceiver;
  let hook: { id: string; secret: string };

  beforeAll(async () => {
    t = await createTestApp({ env: ENV });
    a = await signUp(t, 'Replay A');
    b = await signUp(t, 'Replay B');
    site = await eventSite(t, a.auth);
    receiver = await new WebhookReceiver().start();
    // Subscribed to enters only: a range replay keeps to that, a list of events does not.
    const created = await t.http
      .post('/api/v1/webhooks')
      .set(a.auth)
      .send({ url: receiver.url, event_types: ['geofence.enter'] })
      .expect(201);
    hook = created.body;
    receiver.secrets.push(hook.secret);
  });
  afterEach(() => {
    receiver.mode = 'ok';
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  const replay = (body: unknown, auth = a.auth, id = hook.id) =>
    t.http
      .post(`/api/v1/webhooks/${id}/replay`)
      .set(auth)
      .send(body as object);
  const deliveries = async (): Promise<Delivery[]> => (await t.http.get(`/api/v1/webhooks/${hook.id}/deliveries?size=100`).set(a.auth).expect(200)).body.data;
  const delivered = (id: string) => receiver.byId(id).length;

  it('replays a time range: the subscribed events in it, again, with the same webhook-id, verified by the receiver', async () => {
    const fired = await visits(t, a.auth, site, ['range-1', 'range-2']);
    const enters = fired.filter((event) => event.type === 'geofence.enter');
    expect(enters).toHaveLength(2);
    // Recorded, not only received: a delivery whose attempt is under way is left to that attempt (in_flight).
    await waitFor(deliveries, (rows) => enters.every((event) => rows.some((d) => d.message_id === event.id && d.status === 'succeeded')), 10_000, 'the first deliveries');
    const times = fired.map((event) => Date.parse(event.occurred_at));
    const answer = await replay({ from: new Date(Math.min(...times)).toISOString(), to: new Date(Math.max(...times)).toISOString() });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body).toEqual({ webhook_id: hook.id, events: 2, enqueued: 2, in_flight: 0 });
    await waitFor(
      () => enters.every((event) => delivered(event.id) === 2),
      (done) => done,
      10_000,
      'the replayed deliveries',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const event of enters) {
      const got = receiver.byId(event.id);
      expect(got).toHaveLength(2);
      for (const delivery of got) {
        expect(delivery.verifiedWith).toBe(0);
        expect(JSON.parse(delivery.body)).toEqual({ type: 'geofence.enter', timestamp: event.occurred_at, data: event });
      }
    }
    // The exits were outside the subscription and stay unsent.
    for (const event of fired.filter((e) => e.type === 'geofence.exit')) expect(delivered(event.id)).toBe(0);
    // One delivery per event, attempted twice.
    const rows = (await deliveries()).filter((d) => enters.some((event) => event.id === d.message_id));
    expect(rows.map((d) => [d.status, d.attempts])).toEqual([
      ['succeeded', 2],
      ['succeeded', 2],
    ]);
  });

  it('replays listed events, whatever the webhook subscribes to, in seq order', async () => {
    const fired = await visits(t, a.auth, site, ['list-1']);
    const exit = fired.find((event) => event.type === 'geofence.exit')!;
    const enter = fired.find((event) => event.type === 'geofence.enter')!;
    await waitFor(deliveries, (rows) => rows.some((d) => d.message_id === enter.id && d.status === 'succeeded'), 10_000, 'the enter');
    const answer = await replay({ event_ids: [exit.id, enter.id, exit.id] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body).toEqual({ webhook_id: hook.id, events: 2, enqueued: 2, in_flight: 0 });
    await waitFor(
      () => [delivered(exit.id), delivered(enter.id)],
      ([x, n]) => x === 1 && n === 2,
      10_000,
      'the listed events',
    );
    expect(JSON.parse(receiver.byId(exit.id)[0].body).data).toEqual(exit);
  });

  it('a dead delivery is replayable and then delivered', async () => {
    receiver.mode = 'fail';
    const [enter] = await visits(t, a.auth, site, ['dead-1']);
    const dead = await waitFor(
      async () => (await deliveries()).find((d) => d.message_id === enter.id),
      (d) => d?.status === 'dead',
      10_000,
      'a dead letter',
    );
    expect(dead!.attempts).toBe(3);
    receiver.mode = 'ok';
    const answer = await replay({ event_ids: [enter.id] });
    expect(answer.body).toMatchObject({ events: 1, enqueued: 1 });
    const revived = await waitFor(
      async () => (await deliveries()).find((d) => d.message_id === enter.id),
      (d) => d?.status === 'succeeded',
      10_000,
      'the replayed dead letter',
    );
    expect(revived!.attempts).toBe(4);
    const got = receiver.byId(enter.id);
    expect(got).toHaveLength(4);
    expect(got.at(-1)!.verifiedWith).toBe(0);
  });

  it('an empty range replays nothing', async () => {
    const answer = await replay({ from: '2001-01-01T00:00:00Z', to: '2001-01-02T00:00:00Z' });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ webhook_id: hook.id, events: 0, enqueued: 0, in_flight: 0 });
  });

  it('refuses bad requests with 422 naming the fields, and other organizations’ webhooks and events', async () => {
    const fields = async (body: unknown) => {
      const response = await replay(body);
      expect(response.status, JSON.stringify(response.body)).toBe(422);
      expect(response.body).toMatchObject({ status: 422, code: expect.any(String) });
      return (response.body.errors as Array<{ fields: string }>).map((error) => error.fields).sort();
    };
    expect(await fields({})).toEqual(['from,to,event_ids']);
    expect(await fields({ from: '2026-01-01T00:00:00Z', event_ids: ['evt_000000000000000000000000'] })).toEqual(['from,to,event_ids']);
    expect(await fields({ from: '2026-01-01T00:00:00Z' })).toEqual(['to']);
    expect(await fields({ from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' })).toEqual(['from']);
    expect(await fields({ from: '2026-01-01T00:00:00Z', to: '2026-03-01T00:00:00Z' })).toEqual(['from,to']);
    expect(await fields({ from: 'yesterday', to: '2026-03-01T00:00:00Z' })).toEqual(['from']);
    expect(await fields({ event_ids: [] })).toEqual(['event_ids']);
    expect(await fields({ event_ids: ['nope'] })).toEqual(['event_ids']);
    expect(await fields({ event_ids: Array.from({ length: 1001 }, (_, i) => `evt_${String(i).padStart(24, '0')}`) })).toEqual(['event_ids']);
    // Events of another organization are not in this one's log.
    const theirSite = await eventSite(t, b.auth);
    const [theirs] = await visits(t, b.auth, theirSite, ['theirs-1']);
    const [mine] = await visits(t, a.auth, site, ['mine-1']);
    expect(await fields({ event_ids: [mine.id, theirs.id, 'evt_000000000000000000000000'] })).toEqual(['event_ids[1]', 'event_ids[2]']);
    // Another organization's webhook: 404; a user restricted to a building: 403.
    expect((await replay({ event_ids: [theirs.id] }, b.auth)).status).toBe(404);
    const member = await addUser(t, a.auth, { building_ids: [site.building.id] });
    expect((await replay({ event_ids: [mine.id] }, (await login(t, member.email, member.password)).auth)).status).toBe(403);
  });
});
