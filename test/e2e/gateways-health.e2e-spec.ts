import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { asApiKey, asBearer, createApiKey } from '../support/auth';
import { Cartographer, createSite, expectStatus, signUp } from '../support/cartography';
import { createTestApp, TestApp, testDatabaseKind, TwoInstances, twoInstances } from '../support/test-app';

const GATEWAYS = '/api/v1/infrastructure/gateways';
const METRICS_TOKEN = 'metrics-token-for-the-gateway-scrape-01';
const SILENT_AFTER_MS = 5 * 60_000;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const ingest = (hardwareId: string) => `/api/v1/gateways/${encodeURIComponent(hardwareId)}/observations`;

let macs = 0;
const nextMac = (prefix: string) => {
  macs += 1;
  return `${prefix}:00:00:${macs.toString(16).padStart(2, '0').toUpperCase()}`;
};

/** The value of the unlabelled gauge in a Prometheus text exposition. */
function gauge(text: string, name: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  if (!line) throw new Error(`${name} is not in the scrape`);
  return Number(line.slice(name.length + 1));
}

/** A Ruuvi Gateway batch that hears one tag, with its own nonce. */
const ruuviBatch = (gatewayMac: string, tagMac: string, nonce: number, rssi = -70) => ({
  data: { coordinates: '', timestamp: nowSeconds(), nonce, gw_mac: gatewayMac, tags: { [tagMac]: { rssi, timestamp: nowSeconds(), data: '' } } },
});

interface Placed {
  positioning: Record<string, string>;
  gatewayId: number;
  gatewayMac: string;
  tagMac: string;
}

/** A site with a Ruuvi gateway and a tag of the owner's organization, and a positioning key. */
async function placeGateway(t: TestApp, owner: Cartographer, prefix: string): Promise<Placed> {
  const site = await createSite(t, owner.auth);
  const gatewayMac = nextMac(prefix);
  const created = await t.http.post(GATEWAYS).set(owner.auth).send({ floor_id: site.floor.id, hardware_id: gatewayMac, format: 'ruuvi', x: 5, y: 5 });
  expectStatus(created, 201);
  const tagMac = nextMac('C0:FF:EE');
  await t.http
    .post('/api/v1/devices')
    .set(owner.auth)
    .send({ id: `tag-${tagMac}`, tag: { mac: tagMac } })
    .expect(201);
  const positioning = asApiKey((await createApiKey(t, owner.token, ApiPermission.Positioning)).apikey);
  return { positioning, gatewayId: created.body.id, gatewayMac, tagMac };
}

describe('gateway health on /metrics (issue 39)', () => {
  let t: TestApp;
  let owner: Cartographer;

  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN } });
    owner = await signUp(t, 'Gateway health');
  });
  afterAll(async () => t?.close());

  const scrape = async () => (await t.http.get('/metrics').set(asBearer(METRICS_TOKEN)).expect(200)).text;
  const health = async (id: number) => (await t.http.get(`${GATEWAYS}/${id}/health`).set(owner.auth).expect(200)).body;

  it('cartograph_gateways_silent counts the gateways not heard for 5 minutes, as their health says; a message ends the silence', async () => {
    const before = gauge(await scrape(), 'cartograph_gateways_silent');
    const heard = await placeGateway(t, owner, 'AA:BB:01');
    const quiet = await placeGateway(t, owner, 'AA:BB:02');
    expectStatus(
      await t.http
        .post(ingest(heard.gatewayMac))
        .set(heard.positioning)
        .send(ruuviBatch(heard.gatewayMac, heard.tagMac, 1)),
      200,
    );
    expectStatus(
      await t.http
        .post(ingest(quiet.gatewayMac))
        .set(quiet.positioning)
        .send(ruuviBatch(quiet.gatewayMac, quiet.tagMac, 2)),
      200,
    );
    expect(gauge(await scrape(), 'cartograph_gateways_silent')).toBe(before);
    expect((await health(quiet.gatewayId)).silent).toBe(false);

    // The quiet gateway was last heard six minutes ago (its stored health, as a gateway that stopped would leave it).
    const sixMinutesAgo = Date.now() - SILENT_AFTER_MS - 60_000;
    await t.dataSource.query(
      `UPDATE "gateway_health" SET "last_seen_ms" = ${testDatabaseKind() === 'postgres' ? '$1' : '?'} WHERE "gateway_id" = ${testDatabaseKind() === 'postgres' ? '$2' : '?'}`,
      [sixMinutesAgo, quiet.gatewayId],
    );
    expect(gauge(await scrape(), 'cartograph_gateways_silent')).toBe(before + 1);
    const silent = await health(quiet.gatewayId);
    expect(silent.silent).toBe(true);
    expect(Date.parse(silent.last_seen_at)).toBe(sixMinutesAgo);
    expect((await health(heard.gatewayId)).silent).toBe(false);

    // It speaks again: no longer silent, in the metric and in its health.
    expectStatus(
      await t.http
        .post(ingest(quiet.gatewayMac))
        .set(quiet.positioning)
        .send(ruuviBatch(quiet.gatewayMac, quiet.tagMac, 3)),
      200,
    );
    expect(gauge(await scrape(), 'cartograph_gateways_silent')).toBe(before);
    expect((await health(quiet.gatewayId)).silent).toBe(false);
  });
});

/** Issue 39: health and deduplication live in the database, so two instances add to the same figures. */
describe.runIf(testDatabaseKind() === 'postgres')('gateway health across instances (PostgreSQL)', () => {
  let instances: TwoInstances | undefined;

  beforeAll(async () => {
    instances = await twoInstances({ METRICS_TOKEN });
  });
  afterAll(async () => instances?.close());

  it("one gateway's messages through both instances add up in one health; a batch redelivered to the other instance is stored once", async () => {
    const { a, b } = instances!;
    const owner = await signUp(a, 'Gateways on two instances');
    const placed = await placeGateway(a, owner, 'AA:BB:03');
    const post = (instance: TestApp, nonce: number) =>
      instance.http
        .post(ingest(placed.gatewayMac))
        .set(placed.positioning)
        .send(ruuviBatch(placed.gatewayMac, placed.tagMac, nonce));

    // Interleaved: 3 through A, 3 through B, each with its own nonce.
    for (let i = 0; i < 6; i += 1) {
      const response = await post(i % 2 === 0 ? a : b, 100 + i);
      expectStatus(response, 200);
      expect(response.body).toMatchObject({ stored: 1, duplicates: 0 });
    }
    // Batch 100 again, through the instance that did not take it: nothing stored twice.
    const redelivered = await post(b, 100);
    expectStatus(redelivered, 200);
    expect(redelivered.body).toMatchObject({ stored: 0, duplicates: 1 });

    const healthOn = async (instance: TestApp) => (await instance.http.get(`${GATEWAYS}/${placed.gatewayId}/health`).set(owner.auth).expect(200)).body;
    const [onA, onB] = [await healthOn(a), await healthOn(b)];
    expect(onA).toMatchObject({ messages: 7, observations_stored: 6, observations_duplicate: 1, tags_heard: 1, silent: false });
    expect({ ...onB, messages_per_second: onA.messages_per_second }).toEqual(onA);
    const rows = await a.dataSource.query(`SELECT COUNT(*) AS "count" FROM "gateway_observations" WHERE "gateway_id" = $1`, [placed.gatewayId]);
    expect(Number(rows[0].count)).toBe(6);

    // The silent gauge is read from the database at each scrape: both instances say the same.
    const silentOn = async (instance: TestApp) => gauge((await instance.http.get('/metrics').set(asBearer(METRICS_TOKEN)).expect(200)).text, 'cartograph_gateways_silent');
    expect(await silentOn(a)).toBe(await silentOn(b));
  });
});
