import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDeliveryWorker } from '../../src/delivery/worker/webhook-delivery.worker';
import { asBasic, asBearer } from '../support/auth';
import { signUp } from '../support/cartography';
import { productionTree, RunningProcess, startProcess } from '../support/server-process';
import { createTestApp, FreshDatabase, freshDatabase, TestApp, testDatabaseKind } from '../support/test-app';
import { waitFor, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 27, item 5: after a crash the restarted server delivered nothing for about 55 s, the dead
 * process's leases counting against the endpoint until they lapsed. Now a starting worker on
 * SQLite gives back every lease (one process serves that database), and on PostgreSQL the leases
 * of a worker whose heartbeat stopped are given back by the others within a few heartbeats. The
 * leases below are made ten minutes long, so without that the deliveries would wait ten minutes.
 */
const LONG_LEASE = { WEBHOOK_LEASE_SECONDS: '600', WEBHOOK_HEARTBEAT_MS: '200', WEBHOOK_POLL_INTERVAL_MS: '100', WEBHOOK_RETRY_SCHEDULE: '0s,1s' };
const postgres = testDatabaseKind() === 'postgres';
const keep = (database: FreshDatabase): FreshDatabase => ({ ...database, drop: async () => undefined });

interface DeliveryRow {
  status: string;
  lease_owner: string | null;
}

async function deliveryOf(t: TestApp, messageId: string): Promise<DeliveryRow> {
  const [row] = (await t.dataSource.query(
    ...t.dataSource.driver.escapeQueryWithParameters('SELECT status, lease_owner FROM webhook_deliveries WHERE message_id = :id', { id: messageId }),
  )) as DeliveryRow[];
  return row;
}

/** Marks a delivery as leased for ten minutes by `owner`, as a process that died mid-attempt leaves it. */
async function leaseAsDead(t: TestApp, messageId: string, owner: string): Promise<void> {
  const expires = new Date(Date.now() + 600_000);
  const value = postgres ? expires.toISOString() : expires.toISOString().replace('T', ' ').slice(0, 23);
  await t.dataSource.query(
    ...t.dataSource.driver.escapeQueryWithParameters('UPDATE webhook_deliveries SET lease_owner = :owner, lease_expires_at = :expires, status = :status WHERE message_id = :id', {
      owner,
      expires: value,
      status: 'pending',
      id: messageId,
    }),
  );
}

describe('delivery leases of a worker that died', () => {
  const receiver = new WebhookReceiver();
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    await receiver.stop();
  });

  /** An app whose worker is off, with a webhook and a test event waiting in the outbox; then a lease a dead process holds on it. */
  async function outboxWithDeadLease(database: FreshDatabase, owner: string) {
    const first = await createTestApp({ env: { ...LONG_LEASE, WEBHOOK_WORKER: 'false', JWT_SECRET: `leases-${'x'.repeat(40)}` }, database: keep(database) });
    apps.push(first);
    const org = await signUp(first, 'Dead leases');
    const hook = await first.http.post('/api/v1/webhooks').set(org.auth).send({ url: receiver.url }).expect(201);
    receiver.secrets = [hook.body.secret];
    const sent = await first.http.post(`/api/v1/webhooks/${hook.body.id}/test`).set(org.auth).expect(202);
    await leaseAsDead(first, sent.body.message_id, owner);
    return { first, messageId: sent.body.message_id as string };
  }

  it.runIf(!postgres)('SQLite: a starting worker gives back the leases a crashed process left, and delivers at once', async () => {
    await receiver.start();
    const database = await freshDatabase();
    const { first, messageId } = await outboxWithDeadLease(database, 'crashed-host:4242:deadbeef');
    await first.close();
    const second = await createTestApp({ env: { ...LONG_LEASE, JWT_SECRET: `leases-${'x'.repeat(40)}` }, database });
    apps.push(second);
    await waitFor(
      () => receiver.byId(messageId).length,
      (n) => n === 1,
      20_000,
      'the delivery after the restart',
    );
    await waitFor(
      () => deliveryOf(second, messageId),
      (row) => row.status === 'succeeded',
      10_000,
      'the recorded success',
    );
  });

  it.runIf(postgres)("PostgreSQL: a worker's leases are given back once its heartbeat stops, not before; a live worker's and an unregistered one's are kept", async () => {
    await receiver.start();
    const database = await freshDatabase();
    const dead = `dead-host:1:${randomUUID().slice(0, 8)}`;
    const { first, messageId } = await outboxWithDeadLease(database, dead);
    const alive = `alive-host:2:${randomUUID().slice(0, 8)}`;
    const unregistered = `old-host:3:${randomUUID().slice(0, 8)}`;
    const org2 = await signUp(first, 'Other leases');
    const hook2 = await first.http.post('/api/v1/webhooks').set(org2.auth).send({ url: receiver.url }).expect(201);
    const aliveMessage = (await first.http.post(`/api/v1/webhooks/${hook2.body.id}/test`).set(org2.auth).expect(202)).body.message_id as string;
    const org3 = await signUp(first, 'Unregistered leases');
    const hook3 = await first.http.post('/api/v1/webhooks').set(org3.auth).send({ url: receiver.url }).expect(201);
    const unregisteredMessage = (await first.http.post(`/api/v1/webhooks/${hook3.body.id}/test`).set(org3.auth).expect(202)).body.message_id as string;
    await leaseAsDead(first, aliveMessage, alive);
    await leaseAsDead(first, unregisteredMessage, unregistered);
    // The dead worker's last heartbeat is old; the live one beats on (this test renews it).
    const beat = (instance: string, at: number) =>
      first.dataSource.query('INSERT INTO worker_heartbeats (instance, heartbeat_at) VALUES ($1, $2) ON CONFLICT (instance) DO UPDATE SET heartbeat_at = excluded.heartbeat_at', [
        instance,
        at,
      ]);
    await beat(dead, Date.now() - 60_000);
    await beat(alive, Date.now());
    const keepAlive = setInterval(() => void beat(alive, Date.now()).catch(() => undefined), 100);
    try {
      const worker = await createTestApp({ env: { ...LONG_LEASE, JWT_SECRET: `leases-${'x'.repeat(40)}` }, database: keep(database) });
      apps.push(worker);
      await waitFor(
        () => receiver.byId(messageId).length,
        (n) => n === 1,
        20_000,
        "the dead worker's delivery",
      );
      await waitFor(
        () => deliveryOf(worker, messageId),
        (row) => row.status === 'succeeded' && row.lease_owner === null,
        10_000,
        'the recorded success',
      );
      expect(await first.dataSource.query('SELECT instance FROM worker_heartbeats WHERE instance = $1', [dead])).toEqual([]);
      // Many heartbeats later, the leases of a live worker and of one that never beat still hold.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(await deliveryOf(worker, aliveMessage)).toMatchObject({ lease_owner: alive });
      expect(await deliveryOf(worker, unregisteredMessage)).toMatchObject({ lease_owner: unregistered });
      expect(receiver.byId(aliveMessage)).toHaveLength(0);
      const live = (await first.dataSource.query('SELECT instance FROM worker_heartbeats ORDER BY instance')) as Array<{ instance: string }>;
      expect(live.map((row) => row.instance).sort()).toEqual([alive, worker.app.get(WebhookDeliveryWorker).instance].sort());
    } finally {
      clearInterval(keepAlive);
    }
  });
});

/**
 * The real thing: a built server (as an operator runs it) is killed with SIGKILL while an
 * attempt is under way, and started again on the same database. Its deliveries resume well
 * under the ten-minute lease: at once on SQLite, within a few heartbeats on PostgreSQL.
 */
describe('a server killed mid-delivery and started again', () => {
  let tree: { root: string; remove(): void } | undefined;
  const receiver = new WebhookReceiver();
  const processes: RunningProcess[] = [];
  beforeAll(() => {
    tree = productionTree();
  }, 300_000);
  afterAll(async () => {
    for (const running of processes) if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGKILL');
    await receiver.stop();
    tree?.remove();
  });

  it('delivers the attempt the killed server held, well before its lease lapses', async () => {
    await receiver.start();
    const database = await freshDatabase();
    const env = {
      ...database.env,
      ...LONG_LEASE,
      WEBHOOK_HEARTBEAT_MS: '500',
      WEBHOOK_TIMEOUT_MS: '30000',
      NODE_ENV: 'production',
      // The receiver is on loopback, which production refuses unless allowed.
      WEBHOOK_BLOCK_PRIVATE_NETWORKS: 'false',
      JWT_SECRET: `crash-test-secret-${'k'.repeat(40)}`,
      HOST: '127.0.0.1',
      PORT: '0',
    };
    const start = async () => {
      const server = startProcess('node', ['dist/src/main.js'], { cwd: tree!.root, env });
      processes.push(server);
      const listening = await server.waitForLine((line) => line.msg === 'Cartograph listening (API docs at /api/docs)', 60_000);
      return { server, url: listening.url as string };
    };
    try {
      const first = await start();
      const admin = first.server.json().find((line) => typeof line.admin_password === 'string')!;
      const tokens = await fetch(`${first.url}/api/v1/auth/access_tokens`, { method: 'POST', headers: asBasic('admin@cartograph.local', admin.admin_password as string) });
      expect(tokens.status).toBe(201);
      const auth = { ...asBearer(((await tokens.json()) as { access_token: string }).access_token), 'Content-Type': 'application/json' };
      const hook = (await (await fetch(`${first.url}/api/v1/webhooks`, { method: 'POST', headers: auth, body: JSON.stringify({ url: receiver.url }) })).json()) as {
        id: string;
        secret: string;
      };
      receiver.secrets = [hook.secret];
      receiver.mode = 'hang';
      const test = await fetch(`${first.url}/api/v1/webhooks/${hook.id}/test`, { method: 'POST', headers: auth, body: '{}' });
      expect(test.status).toBe(202);
      const messageId = ((await test.json()) as { message_id: string }).message_id;
      // The attempt is under way (the receiver holds it): the server holds a ten-minute lease on it.
      await waitFor(
        () => receiver.byId(messageId).length,
        (n) => n === 1,
        20_000,
        'the first attempt',
      );
      first.server.child.kill('SIGKILL');
      expect(await first.server.exited).toMatchObject({ signal: 'SIGKILL' });

      receiver.mode = 'ok';
      const second = await start();
      await waitFor(
        () => receiver.byId(messageId).length,
        (n) => n >= 2,
        60_000,
        'the delivery after the restart',
      );
      await waitFor(
        async () => ((await (await fetch(`${second.url}/api/v1/webhooks/${hook.id}/deliveries`, { headers: auth })).json()) as { data: Array<{ status: string }> }).data[0]?.status,
        (status) => status === 'succeeded',
        10_000,
        'the recorded success',
      );
      expect(receiver.byId(messageId).every((delivery) => delivery.verifiedWith === 0)).toBe(true);
      second.server.child.kill('SIGTERM');
      await second.server.exited;
    } finally {
      await database.drop();
    }
  }, 240_000);
});
