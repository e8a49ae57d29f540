import { afterAll, describe, expect, it } from 'vitest';
import { WebhookDeliveryWorker } from '../../src/delivery/worker/webhook-delivery.worker';
import { signUp } from '../support/cartography';
import { eventSite, visits } from '../support/geofence-events';
import { asBearer, createOrganization, passwordTokens } from '../support/auth';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestApp, FreshDatabase, freshDatabase, TestApp, testDatabaseKind } from '../support/test-app';
import { waitFor, WebhookReceiver } from '../support/webhook-receiver';

const ENV = { WEBHOOK_RETRY_SCHEDULE: '0s,500ms,500ms,500ms', WEBHOOK_TIMEOUT_MS: '800', WEBHOOK_POLL_INTERVAL_MS: '100' };
/** One JWT secret for every app on a database: it also seals the webhook secrets the next app must open. */
const SHARED = { JWT_SECRET: `durability-${'w'.repeat(40)}` };

interface AttemptRow {
  instance: string;
  status_code: number | null;
}

const keep = (database: FreshDatabase): FreshDatabase => ({ ...database, drop: async () => undefined });

async function attemptsOf(t: TestApp, messageId: string): Promise<AttemptRow[]> {
  return t.dataSource.query(
    `SELECT a.instance, a.status_code FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.message_id = '${messageId}' ORDER BY a.attempt`,
  );
}

async function deliveryOf(t: TestApp, messageId: string): Promise<{ status: string; attempts: number }> {
  const [row] = await t.dataSource.query(`SELECT status, attempts FROM webhook_deliveries WHERE message_id = '${messageId}'`);
  return row;
}

describe('webhook deliveries survive the server stopping between an event and its delivery', () => {
  const receiver = new WebhookReceiver();
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    await receiver.stop();
  });

  /** First lifetime: an organization, a fence and a webhook; then an ingest that fires an enter and an exit. */
  async function firstLifetime(env: Record<string, string>) {
    await receiver.stop();
    await receiver.start();
    const database = await freshDatabase();
    const first = await createTestApp({ env: { ...ENV, ...SHARED, ...env }, database: keep(database) });
    const org = await signUp(first, 'Durable');
    const site = await eventSite(first, org.auth);
    const hook = await first.http.post('/api/v1/webhooks').set(org.auth).send({ url: receiver.url }).expect(201);
    receiver.secrets = [hook.body.secret];
    return { database, first, org, site };
  }

  it('the worker is off when the events commit; the app stops; the next app on the database delivers each once, with the event id', async () => {
    const { database, first, org, site } = await firstLifetime({ WEBHOOK_WORKER: 'false' });
    const events = await visits(first, org.auth, site, ['restart-1']);
    expect(events).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(0);
    await first.close();

    const second = await createTestApp({ env: { ...ENV, ...SHARED }, database });
    apps.push(second);
    await waitFor(
      () => events.every((event) => receiver.byId(event.id).length > 0),
      (done) => done,
      10_000,
      'both deliveries',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const secondInstance = second.app.get(WebhookDeliveryWorker).instance;
    for (const event of events) {
      const got = receiver.byId(event.id);
      expect(got).toHaveLength(1);
      expect(got[0].verifiedWith).toBe(0);
      expect(JSON.parse(got[0].body)).toEqual({ type: event.type, timestamp: event.occurred_at, data: event });
      expect(await deliveryOf(second, event.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(await attemptsOf(second, event.id)).toEqual([{ instance: secondInstance, status_code: 200 }]);
    }
  });

  it('the app stops while an attempt holds its lease (the receiver hangs); the next app delivers it, with the same webhook-id', async () => {
    const { database, first, org, site } = await firstLifetime({});
    receiver.mode = 'hang';
    const events = await visits(first, org.auth, site, ['restart-2']);
    await waitFor(
      () => events.every((event) => receiver.byId(event.id).length === 1),
      (done) => done,
      10_000,
      'the attempts under way',
    );
    const leased = (await first.dataSource.query(`SELECT lease_owner FROM webhook_deliveries WHERE lease_owner IS NOT NULL`)) as unknown[];
    expect(leased).toHaveLength(2);
    // Closing waits for the attempts under way (they time out and are recorded), then the app is gone.
    await first.close();
    receiver.mode = 'ok';

    const second = await createTestApp({ env: { ...ENV, ...SHARED }, database });
    apps.push(second);
    await waitFor(
      async () => Promise.all(events.map((event) => deliveryOf(second, event.id))),
      (rows) => rows.every((row) => row.status === 'succeeded'),
      10_000,
      'the deliveries after the restart',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const secondInstance = second.app.get(WebhookDeliveryWorker).instance;
    for (const event of events) {
      // The hung attempt and the answered one: one webhook-id, and a single 2xx.
      const got = receiver.byId(event.id);
      expect(got).toHaveLength(2);
      for (const delivery of got) expect(delivery.verifiedWith).toBe(0);
      const attempts = await attemptsOf(second, event.id);
      expect(attempts.map((attempt) => attempt.status_code)).toEqual([null, 200]);
      expect(attempts[1].instance).toBe(secondInstance);
      expect(attempts[0].instance).not.toBe(secondInstance);
    }
  });
});

describe('a burst of deliveries to one fast receiver', () => {
  it('is leased in batches and sent 4 at a time at most, each once, every attempt recorded', async () => {
    const receiver = await new WebhookReceiver().start();
    const t = await createTestApp({ env: { ...ENV, ...SHARED } });
    try {
      const org = await signUp(t, 'Burst');
      const site = await eventSite(t, org.auth);
      const hook = await t.http.post('/api/v1/webhooks').set(org.auth).send({ url: receiver.url }).expect(201);
      receiver.secrets = [hook.body.secret];
      // A little latency per answer, so that the bound on concurrent requests is exercised.
      receiver.mode = (_req, res) => setTimeout(() => res.writeHead(204).end(), 5);
      const events = await visits(
        t,
        org.auth,
        site,
        Array.from({ length: 100 }, (_, i) => `burst-${i}`),
      );
      expect(events).toHaveLength(200);
      await waitFor(
        () => events.filter((event) => receiver.byId(event.id).length > 0).length,
        (n) => n === events.length,
        20_000,
        'every delivery',
      );
      await waitFor(
        async () => (await t.dataSource.query(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'succeeded' AND lease_owner IS NULL`)) as Array<{ n: number | string }>,
        ([row]) => Number(row.n) === events.length,
        10_000,
        'every outcome recorded',
      );
      for (const event of events) expect(receiver.byId(event.id)).toHaveLength(1);
      expect(receiver.maxInFlight).toBeLessThanOrEqual(4);
      const [attempts] = (await t.dataSource.query('SELECT COUNT(*) AS n FROM webhook_delivery_attempts')) as Array<{ n: number | string }>;
      expect(Number(attempts.n)).toBe(events.length);
    } finally {
      await t.close();
      await receiver.stop();
    }
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('webhook workers wake across instances (LISTEN/NOTIFY)', () => {
  let a: TestApp;
  let b: TestApp;
  const receiver = new WebhookReceiver();
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await receiver.stop();
  });

  it('an enqueue on an instance without a worker is delivered by the other well before its poll', async () => {
    await receiver.start();
    const database = await freshDatabase();
    // A: the API only. B: a worker that would look for due deliveries only once a minute unless told.
    a = await createTestApp({ env: { ...ENV, ...SHARED, WEBHOOK_WORKER: 'false' }, database });
    b = await createTestApp({ env: { ...ENV, ...SHARED, WEBHOOK_POLL_INTERVAL_MS: '60000' }, database: keep(database) });
    const org = await signUp(a, 'Wake across');
    const site = await eventSite(a, org.auth);
    const hook = await a.http.post('/api/v1/webhooks').set(org.auth).send({ url: receiver.url }).expect(201);
    receiver.secrets = [hook.body.secret];
    // B's first look (at start) is long past.
    await new Promise((resolve) => setTimeout(resolve, 300));

    for (let round = 0; round < 3; round++) {
      const answered = Date.now();
      const events = await visits(a, org.auth, site, [`wake-${round}`]);
      await waitFor(
        () => events.every((event) => receiver.byId(event.id).length === 1),
        (done) => done,
        5000,
        'the deliveries',
      );
      const latest = Math.max(...events.map((event) => receiver.byId(event.id)[0].at));
      expect(latest - answered).toBeLessThan(1500);
    }
    const test = await a.http.post(`/api/v1/webhooks/${hook.body.id}/test`).set(org.auth).expect(202);
    const asked = Date.now();
    await waitFor(
      () => receiver.byId(test.body.message_id).length,
      (n) => n === 1,
      5000,
      'the test event',
    );
    expect(receiver.byId(test.body.message_id)[0].at - asked).toBeLessThan(1500);
    const instances = (await a.dataSource.query('SELECT DISTINCT instance FROM webhook_delivery_attempts')) as Array<{ instance: string }>;
    expect(instances).toEqual([{ instance: b.app.get(WebhookDeliveryWorker).instance }]);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('a database outage while an attempt is under way (rev2)', () => {
  let t: TestApp | undefined;
  let proxy: TcpProxy | undefined;
  const receiver = new WebhookReceiver();
  afterAll(async () => {
    await t?.close();
    await proxy?.stop();
    await receiver.stop();
  });

  it('loses no delivery: the outcome that could not be recorded is attempted again, with the same webhook-id, once the database is back', async () => {
    const database = new URL(process.env.TEST_DATABASE_URL!);
    proxy = new TcpProxy(database.hostname, Number(database.port || 5432));
    await proxy.start();
    const port = proxy.port;
    await receiver.start();
    // The lease outlasts the attempt timeout by 5 s at least: that is how long the unrecorded attempt holds the delivery.
    t = await createTestApp({
      env: { ...ENV, WEBHOOK_LEASE_SECONDS: '1' },
      rewriteDatabaseUrl: (url) => {
        const through = new URL(url);
        through.hostname = '127.0.0.1';
        through.port = String(port);
        return through.toString();
      },
    });
    const org = await createOrganization(t, 'Outage');
    const auth = asBearer((await passwordTokens(t, org.email, org.password)).access_token);
    const hook = await t.http.post('/api/v1/webhooks').set(auth).send({ url: receiver.url }).expect(201);
    receiver.secrets = [hook.body.secret];
    let first = true;
    receiver.mode = (_req, res) => {
      if (!first) return void res.writeHead(200).end();
      first = false;
      // The database goes away while the receiver answers: the worker cannot record the success.
      proxy!.refuse();
      setTimeout(() => {
        res.writeHead(200).end();
        setTimeout(() => proxy!.pass(), 500);
      }, 100);
    };
    const sent = await t.http.post(`/api/v1/webhooks/${hook.body.id}/test`).set(auth).expect(202);
    const messageId: string = sent.body.message_id;
    const delivered = await waitFor(
      async () => deliveryOf(t!, messageId).catch(() => undefined),
      (row) => row?.status === 'succeeded',
      30_000,
      'the delivery recorded after the outage',
    );
    expect(delivered?.status).toBe('succeeded');
    const got = receiver.byId(messageId);
    // At least once: the attempt whose outcome was lost, then the one recorded; same webhook-id, each verified.
    expect(got.length).toBeGreaterThanOrEqual(2);
    expect(got.every((delivery) => delivery.verifiedWith === 0)).toBe(true);
    expect((await attemptsOf(t, messageId)).at(-1)?.status_code).toBe(200);
  });
});
