import { afterAll, describe, expect, it } from 'vitest';
import { readWebhooksConfig } from '../../src/config/webhooks.config';
import { expectError, signUp } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';
import { waitFor, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 27, item 3: a webhook must not be a way to read the server's own network. With
 * NODE_ENV=production private and loopback targets are refused unless the operator allows them,
 * and the deliveries log holds the status and a reason of ours, not what the receiver answered,
 * unless the operator opts in to response bodies.
 */
const SECRET_ANSWER = '{"internal_admin_api":"token=s3cr3t-internal"}';
const ENV = { WEBHOOK_RETRY_SCHEDULE: '0s', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_POLL_INTERVAL_MS: '100' };

interface Delivery {
  id: string;
  status: string;
  last_status_code: number | null;
  last_error: string | null;
  attempt_log: Array<{ status_code: number | null; error: string | null }>;
}

describe('webhook targets and the deliveries log', () => {
  const receiver = new WebhookReceiver();
  const apps: TestApp[] = [];
  const app = async (env: Record<string, string>) => {
    const t = await createTestApp({ env: { ...ENV, ...env } });
    apps.push(t);
    return t;
  };
  afterAll(async () => {
    for (const t of apps) await t.close();
    await receiver.stop();
  });

  it('the setting defaults to refusing private targets in production only, and can be set either way', () => {
    expect(readWebhooksConfig({ NODE_ENV: 'production' }).blockPrivateNetworks).toBe(true);
    expect(readWebhooksConfig({ NODE_ENV: 'production', WEBHOOK_BLOCK_PRIVATE_NETWORKS: 'false' }).blockPrivateNetworks).toBe(false);
    expect(readWebhooksConfig({ NODE_ENV: 'development' }).blockPrivateNetworks).toBe(false);
    expect(readWebhooksConfig({ NODE_ENV: 'test', WEBHOOK_BLOCK_PRIVATE_NETWORKS: 'true' }).blockPrivateNetworks).toBe(true);
    expect(readWebhooksConfig({}).recordResponseBodies).toBe(false);
  });

  it('NODE_ENV=production: a loopback or private target is refused (422 naming url), at registration and on update', async () => {
    await receiver.start();
    const t = await app({ NODE_ENV: 'production' });
    const owner = await signUp(t, 'Production targets');
    for (const url of [receiver.url, 'http://10.1.2.3/hook', 'http://[::1]:8080/hook', 'http://192.168.1.10/hook', 'http://[::ffff:127.0.0.1]/hook']) {
      const refused = await t.http.post('/api/v1/webhooks').set(owner.auth).send({ url });
      expectError(refused, 422, 'validation_failed');
      expect(refused.body.errors[0]).toMatchObject({ fields: 'url' });
    }
    expect((await t.http.get('/api/v1/webhooks').set(owner.auth).expect(200)).body.data).toEqual([]);
    // A public target is taken (a literal address: nothing to resolve); moving it inside is refused.
    const publicHook = await t.http.post('/api/v1/webhooks').set(owner.auth).send({ url: 'http://93.184.216.34/hook', enabled: false }).expect(201);
    const moved = await t.http.put(`/api/v1/webhooks/${publicHook.body.id}`).set(owner.auth).send({ url: 'http://127.0.0.1:8080/admin' });
    expectError(moved, 422, 'validation_failed');
    expect(moved.body.errors[0]).toMatchObject({ fields: 'url' });
  });

  it('NODE_ENV=production with WEBHOOK_BLOCK_PRIVATE_NETWORKS=false: loopback targets are allowed and delivered to', async () => {
    const t = await app({ NODE_ENV: 'production', WEBHOOK_BLOCK_PRIVATE_NETWORKS: 'false' });
    const owner = await signUp(t, 'Allowed targets');
    const hook = await t.http.post('/api/v1/webhooks').set(owner.auth).send({ url: receiver.url }).expect(201);
    receiver.secrets = [hook.body.secret];
    receiver.mode = 'ok';
    const sent = await t.http.post(`/api/v1/webhooks/${hook.body.id}/test`).set(owner.auth).expect(202);
    await waitFor(
      () => receiver.byId(sent.body.message_id).length,
      (n) => n === 1,
      10_000,
      'the test delivery',
    );
  });

  async function failedDelivery(t: TestApp): Promise<Delivery> {
    const owner = await signUp(t, 'Deliveries log');
    receiver.mode = (_req, res) => void res.writeHead(500, { 'content-type': 'application/json' }).end(SECRET_ANSWER);
    const hook = await t.http.post('/api/v1/webhooks').set(owner.auth).send({ url: receiver.url }).expect(201);
    const sent = await t.http.post(`/api/v1/webhooks/${hook.body.id}/test`).set(owner.auth).expect(202);
    return waitFor(
      async () => ((await t.http.get(`/api/v1/webhooks/${hook.body.id}/deliveries`).set(owner.auth).expect(200)).body.data as Delivery[]).find((d) => d.id === sent.body.id),
      (delivery) => delivery !== undefined && delivery.attempt_log.length > 0 && delivery.status !== 'pending',
      10_000,
      'the failed attempt',
    ) as Promise<Delivery>;
  }

  it("by default the deliveries log keeps the status and our reason, never the receiver's answer", async () => {
    const t = await app({});
    const delivery = await failedDelivery(t);
    expect(delivery).toMatchObject({ last_status_code: 500, last_error: 'HTTP 500' });
    expect(delivery.attempt_log[0]).toMatchObject({ status_code: 500, error: 'HTTP 500' });
    expect(JSON.stringify(delivery)).not.toContain('s3cr3t');
    const [stored] = (await t.dataSource.query('SELECT error FROM webhook_delivery_attempts')) as Array<{ error: string }>;
    expect(stored.error).toBe('HTTP 500');
  });

  it('WEBHOOK_RECORD_RESPONSE_BODIES=true keeps the first bytes of the answer, as the operator asked', async () => {
    const t = await app({ WEBHOOK_RECORD_RESPONSE_BODIES: 'true' });
    const delivery = await failedDelivery(t);
    expect(delivery.last_error).toBe(`HTTP 500: ${SECRET_ANSWER}`);
  });
});
