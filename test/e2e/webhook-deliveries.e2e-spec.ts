import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../support/admin';
import { createOrganization } from '../support/auth';
import { createTestApp, freshDatabase, TestApp, testDatabaseKind } from '../support/test-app';
import { newDelivery, payloadOf } from '../../src/delivery/webhooks/webhook-deliveries.service';
import { WebhookDelivery } from '../../src/delivery/webhooks/webhook-delivery.entity';
import { WebhookDeliveryWorker } from '../../src/delivery/worker/webhook-delivery.worker';
import { waitFor, WebhookReceiver } from '../support/webhook-receiver';

// Seconds instead of hours; a short timeout so a hanging receiver costs little.
const ENV = { WEBHOOK_RETRY_SCHEDULE: '0s,1s,1s', WEBHOOK_TIMEOUT_MS: '600', WEBHOOK_POLL_INTERVAL_MS: '100' };

interface Delivery {
  id: string;
  message_id: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  attempt_log: Array<{ attempt: number; status_code: number | null; error: string | null; duration_ms: number }>;
}

describe('webhook deliveries', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp({ env: ENV });
    const org = await createOrganization(t, 'Deliveries');
    admin = (await login(t, org.email, org.password)).auth;
    receiver = await new WebhookReceiver().start();
  });
  afterEach(() => {
    receiver.mode = 'ok';
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  async function register(url = receiver.url): Promise<{ id: string; secret: string }> {
    const created = await t.http.post('/api/v1/webhooks').set(admin).send({ url }).expect(201);
    receiver.secrets.push(created.body.secret);
    return created.body;
  }
  const test = async (webhookId: string): Promise<Delivery> => (await t.http.post(`/api/v1/webhooks/${webhookId}/test`).set(admin).expect(202)).body;
  const deliveries = async (webhookId: string, status?: string): Promise<Delivery[]> =>
    (
      await t.http
        .get(`/api/v1/webhooks/${webhookId}/deliveries${status ? `?status=${status}` : ''}`)
        .set(admin)
        .expect(200)
    ).body.data;
  const deliveryOf = async (webhookId: string, id: string) => (await deliveries(webhookId)).find((d) => d.id === id)!;

  it('delivers a signed test event that a Standard Webhooks receiver verifies', async () => {
    const hook = await register();
    const sent = await test(hook.id);
    expect(sent).toMatchObject({ status: 'pending', event_type: 'webhook.test', attempts: 0 });
    const done = await waitFor(
      () => deliveryOf(hook.id, sent.id),
      (d) => d.status === 'succeeded',
      10_000,
      'success',
    );
    expect(done).toMatchObject({ attempts: 1, last_status_code: 200, next_attempt_at: null });
    expect(done.attempt_log).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null })]);
    const got = receiver.byId(sent.message_id);
    expect(got).toHaveLength(1);
    expect(got[0].verifiedWith).toBe(receiver.secrets.indexOf(hook.secret));
    const body = JSON.parse(got[0].body);
    expect(body).toMatchObject({ type: 'webhook.test', data: { id: sent.message_id, type: 'webhook.test', webhook_id: hook.id } });
    expect(Math.abs(Number(got[0].timestamp) * 1000 - Date.now())).toBeLessThan(60_000);
  });

  it('retries a failing receiver on the schedule with the same webhook-id, then succeeds', async () => {
    const hook = await register();
    let calls = 0;
    receiver.mode = (_req, res) => {
      calls++;
      res.writeHead(calls < 3 ? 503 : 200).end();
    };
    const sent = await test(hook.id);
    const done = await waitFor(
      () => deliveryOf(hook.id, sent.id),
      (d) => d.status === 'succeeded',
      15_000,
      'success after retries',
    );
    expect(done.attempts).toBe(3);
    expect(done.attempt_log.map((a) => a.status_code)).toEqual([503, 503, 200]);
    const got = receiver.byId(sent.message_id);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((g) => g.id)).size).toBe(1);
    // The second attempt waited about 1 s (±10 %), not less.
    expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(850);
    for (const g of got) expect(g.verifiedWith).toBeGreaterThanOrEqual(0);
  });

  it('gives up after the last attempt: dead, listed among the dead letters, and a manual retry delivers it', async () => {
    const hook = await register();
    receiver.mode = 'fail';
    const sent = await test(hook.id);
    const dead = await waitFor(
      () => deliveryOf(hook.id, sent.id),
      (d) => d.status === 'dead',
      15_000,
      'dead',
    );
    expect(dead.attempts).toBe(3);
    expect(dead.last_status_code).toBe(500);
    // The status and our reason; what the receiver said is not kept unless the operator opts in (issue 27).
    expect(dead.last_error).toBe('HTTP 500');
    expect((await deliveries(hook.id, 'dead')).map((d) => d.id)).toContain(sent.id);
    expect((await deliveries(hook.id, 'succeeded')).map((d) => d.id)).not.toContain(sent.id);

    receiver.mode = 'ok';
    await t.http.post(`/api/v1/webhooks/${hook.id}/deliveries/${sent.id}/retry`).set(admin).expect(202);
    const revived = await waitFor(
      () => deliveryOf(hook.id, sent.id),
      (d) => d.status === 'succeeded',
      10_000,
      'retry success',
    );
    expect(revived.attempts).toBe(4);
    expect(receiver.byId(sent.message_id)).toHaveLength(4);
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    const hook = await register();
    receiver.mode = { status: 307, headers: { location: 'http://169.254.169.254/' } };
    const sent = await test(hook.id);
    const failed = await waitFor(
      () => deliveryOf(hook.id, sent.id),
      (d) => d.attempts >= 1,
      10_000,
      'first attempt',
    );
    expect(failed.attempt_log[0].status_code).toBe(307);
    expect(failed.status).not.toBe('succeeded');
    // Its retries would reach the next tests' receiver.
    await t.http.delete(`/api/v1/webhooks/${hook.id}`).set(admin).expect(204);
  });

  it('a 410 disables the endpoint and ends the delivery', async () => {
    const hook = await register();
    receiver.mode = 'gone';
    const sent = await test(hook.id);
    await waitFor(
      () => deliveryOf(hook.id, sent.id),
      (d) => d.status === 'dead',
      10_000,
      'dead after 410',
    );
    const endpoint = await t.http.get(`/api/v1/webhooks/${hook.id}`).set(admin).expect(200);
    expect(endpoint.body).toMatchObject({ enabled: false, disabled_reason: 'endpoint_gone' });
    // Nothing more is sent to it; enabling it again clears the reason.
    receiver.mode = 'ok';
    const before = receiver.received.length;
    const queued = await test(hook.id);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.length).toBe(before);
    expect((await deliveryOf(hook.id, queued.id)).status).toBe('pending');
    const enabled = await t.http.put(`/api/v1/webhooks/${hook.id}`).set(admin).send({ enabled: true }).expect(200);
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
    await waitFor(
      () => deliveryOf(hook.id, queued.id),
      (d) => d.status === 'succeeded',
      10_000,
      'delivered after re-enabling',
    );
  });

  it.each([429, 503])('honours Retry-After on %i (later than the schedule would)', async (status) => {
    const hook = await register();
    let calls = 0;
    receiver.mode = (_req, res) => {
      calls++;
      if (calls === 1) res.writeHead(status, { 'retry-after': '2' }).end();
      else res.writeHead(200).end();
    };
    const sent = await test(hook.id);
    await waitFor(
      () => deliveryOf(hook.id, sent.id),
      (d) => d.status === 'succeeded',
      15_000,
      'success after 429',
    );
    const got = receiver.byId(sent.message_id);
    expect(got).toHaveLength(2);
    expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(1900);
  });

  it('a receiver that hangs past the timeout fails the attempt; one that is down too', async () => {
    const hook = await register();
    receiver.mode = 'hang';
    const sent = await test(hook.id);
    const hung = await waitFor(
      () => deliveryOf(hook.id, sent.id),
      (d) => d.attempts >= 1,
      10_000,
      'timed out attempt',
    );
    expect(hung.attempt_log[0]).toMatchObject({ status_code: null });
    expect(hung.attempt_log[0].error).toMatch(/no answer within 600 ms/);

    const down = await register('http://127.0.0.1:9/hook');
    const lost = await test(down.id);
    const refused = await waitFor(
      () => deliveryOf(down.id, lost.id),
      (d) => d.attempts >= 1,
      10_000,
      'refused attempt',
    );
    expect(refused.attempt_log[0].status_code).toBeNull();
    expect(refused.attempt_log[0].error).toBe('connection refused');
    for (const id of [hook.id, down.id]) await t.http.delete(`/api/v1/webhooks/${id}`).set(admin).expect(204);
  });

  it('keeps at most 4 deliveries in flight per endpoint, and a slow endpoint does not hold up another', async () => {
    const slow = await register();
    const slowReceiver = await new WebhookReceiver().start();
    slowReceiver.mode = (_req, res) => setTimeout(() => res.writeHead(200).end(), 400);
    await t.http.put(`/api/v1/webhooks/${slow.id}`).set(admin).send({ url: slowReceiver.url }).expect(200);
    const fast = await register();
    try {
      const slowSent = await Promise.all(Array.from({ length: 10 }, () => test(slow.id)));
      const fastSent = await test(fast.id);
      await waitFor(
        () => deliveryOf(fast.id, fastSent.id),
        (d) => d.status === 'succeeded',
        5_000,
        'fast endpoint',
      );
      const stillSlow = await deliveries(slow.id);
      expect(stillSlow.filter((d) => d.status === 'succeeded').length).toBeLessThan(10);
      await waitFor(
        async () => (await deliveries(slow.id)).filter((d) => slowSent.some((s) => s.id === d.id) && d.status === 'succeeded').length,
        (n) => n === 10,
        20_000,
        'slow endpoint drained',
      );
      expect(slowReceiver.maxInFlight).toBeLessThanOrEqual(4);
      expect(slowReceiver.maxInFlight).toBeGreaterThanOrEqual(2);
    } finally {
      await slowReceiver.stop();
    }
  });

  it("an endpoint's backlog of due deliveries does not hide another endpoint's from the claim", async () => {
    const stuck = await register();
    const stuckReceiver = await new WebhookReceiver().start();
    stuckReceiver.mode = 'hang';
    await t.http.put(`/api/v1/webhooks/${stuck.id}`).set(admin).send({ url: stuckReceiver.url }).expect(200);
    const fast = await register();
    try {
      // More due deliveries of one endpoint, all older, than a claim looks at (the instance's room: 64 × 4).
      const [{ organization_id: organizationId }] = await t.dataSource.query(`SELECT organization_id FROM webhook_endpoints WHERE id = '${stuck.id}'`);
      const past = new Date(Date.now() - 60_000);
      const backlog = Array.from({ length: 600 }, (_, i) => {
        const id = `evt_backlog_${i}`;
        const event = { id, type: 'webhook.test', organizationId, occurredAt: past, data: { id } };
        return newDelivery(stuck.id, event, payloadOf(event), past, past);
      });
      for (let i = 0; i < backlog.length; i += 100) await t.dataSource.getRepository(WebhookDelivery).insert(backlog.slice(i, i + 100));
      const fastSent = await test(fast.id);
      await waitFor(
        () => deliveryOf(fast.id, fastSent.id),
        (d) => d.status === 'succeeded',
        5_000,
        'the other endpoint',
      );
      expect(stuckReceiver.maxInFlight).toBeLessThanOrEqual(4);
    } finally {
      await t.http.delete(`/api/v1/webhooks/${stuck.id}`).set(admin).expect(204);
      await stuckReceiver.stop();
    }
  });

  it('signs with both secrets during a rotation', async () => {
    const hook = await register();
    const rotated = await t.http.post(`/api/v1/webhooks/${hook.id}/rotate_secret`).set(admin).expect(200);
    const sent = await test(hook.id);
    await waitFor(
      () => deliveryOf(hook.id, sent.id),
      (d) => d.status === 'succeeded',
      10_000,
      'success',
    );
    const got = receiver.byId(sent.message_id)[0];
    const { Webhook } = await import('standardwebhooks');
    const headers = { 'webhook-id': got.id, 'webhook-timestamp': got.timestamp, 'webhook-signature': got.signature };
    expect(() => new Webhook(hook.secret).verify(got.body, headers)).not.toThrow();
    expect(() => new Webhook(rotated.body.secret).verify(got.body, headers)).not.toThrow();
  });

  it("lists and retries only the caller's deliveries", async () => {
    const hook = await register();
    const sent = await test(hook.id);
    const other = await createOrganization(t, 'Not mine');
    const otherAdmin = (await login(t, other.email, other.password)).auth;
    await t.http.get(`/api/v1/webhooks/${hook.id}/deliveries`).set(otherAdmin).expect(404);
    await t.http.post(`/api/v1/webhooks/${hook.id}/deliveries/${sent.id}/retry`).set(otherAdmin).expect(404);
    await t.http.post(`/api/v1/webhooks/${hook.id}/test`).set(otherAdmin).expect(404);
    await t.http.get(`/api/v1/webhooks/${hook.id}/deliveries?status=lost`).set(admin).expect(400);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('webhook deliveries with two instances on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    const database = await freshDatabase();
    // One JWT secret, as instances behind one load balancer share it (it also seals the webhook secrets).
    // One attempt at a time per instance (so each leases at most 4): an instance alone on an endpoint would otherwise
    // lease a batch of its deliveries, and one worker could take all 30 before the other looks.
    const env = { ...ENV, WEBHOOK_CONCURRENCY: '1', JWT_SECRET: `two-instances-${'x'.repeat(40)}` };
    a = await createTestApp({ env, database });
    b = await createTestApp({ env, database: { ...database, drop: async () => undefined } });
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await receiver?.stop();
  });

  it('every delivery is made exactly once in total, by either instance', async () => {
    const org = await createOrganization(a, 'Two instances');
    const adminA = (await login(a, org.email, org.password)).auth;
    const created = await a.http.post('/api/v1/webhooks').set(adminA).send({ url: receiver.url }).expect(201);
    receiver.secrets.push(created.body.secret);
    // An answer takes 40 ms: one instance alone needs over a second for the 30, so deliveries are
    // still due when the hand-over below pauses the first instance.
    receiver.mode = (_req, res) => void setTimeout(() => res.writeHead(200).end('thanks'), 40);
    // Test events enqueued alternately through both instances; both workers race for them.
    const sent = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? b : a).http.post(`/api/v1/webhooks/${created.body.id}/test`).set(adminA).expect(202)));
    const ids = sent.map((s) => s.body.message_id as string);
    // Both take part whatever the timing: an instance that keeps the endpoint's 4 in-flight places
    // leased can leave the other none for the whole run (it failed so about one run in two). The
    // instance that made the first attempt pauses (what it leased and had not sent is released)
    // until the other has made one, then goes on.
    const instancesWithAttempts = async () =>
      new Set(((await a.dataSource.query('SELECT DISTINCT instance FROM webhook_delivery_attempts')) as Array<{ instance: string }>).map((row) => row.instance));
    const [firstInstance] = await waitFor(
      async () => [...(await instancesWithAttempts())],
      (list) => list.length > 0,
      10_000,
      'a first attempt',
    );
    const workers = [a, b].map((app) => app.app.get(WebhookDeliveryWorker));
    const first = workers.find((worker) => worker.instance === firstInstance)!;
    await first.pause();
    await waitFor(instancesWithAttempts, (set) => set.size === 2, 10_000, 'an attempt by the other instance');
    first.resume();
    await waitFor(
      () => ids.filter((id) => receiver.byId(id).length > 0).length,
      (n) => n === ids.length,
      20_000,
      'all delivered',
    );
    await new Promise((r) => setTimeout(r, 500));
    for (const id of ids) expect(receiver.byId(id)).toHaveLength(1);
    const attempts: Array<{ instance: string }> = await a.dataSource.query('SELECT instance FROM webhook_delivery_attempts');
    expect(new Set(attempts.map((r) => r.instance)).size).toBe(2);
  });
});
