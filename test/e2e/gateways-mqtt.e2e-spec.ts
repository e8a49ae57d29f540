import { connect, connectAsync, type MqttClient } from 'mqtt';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { EmbeddedBrokerService } from '../../src/gateway-mqtt/embedded-broker.service';
import { TagObservationsRepository } from '../../src/positions/tag-observations.repository';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, createSite, expectError, signUp } from '../support/cartography';
import { Mosquitto, mosquittoMissing, startMosquitto } from '../support/mosquitto';
import { createTestApp, TestApp, testDatabaseKind, TwoInstances, twoInstances } from '../support/test-app';

const GATEWAYS = '/api/v1/infrastructure/gateways';
const DEVICES = '/api/v1/devices';

let macs = 0;
/** A fresh MAC, upper case with colons as gateways print them. */
const nextMac = (prefix = 'AA:DD:EE') => {
  macs += 1;
  return `${prefix}:00:${(macs >> 8).toString(16).padStart(2, '0').toUpperCase()}:${(macs & 0xff).toString(16).padStart(2, '0').toUpperCase()}`;
};
const compact = (mac: string) => mac.replace(/[:-]/g, '').toLowerCase();

/** A registered gateway of this format, and a tag (a device with a MAC identity), in a new building of the organization. */
async function setUp(t: TestApp, c: Cartographer, format: string, hardwareId: string = nextMac()) {
  const site = await createSite(t, c.auth);
  const created = await t.http
    .post(GATEWAYS)
    .set(c.auth)
    .send({ floor_id: site.floor.id, hardware_id: hardwareId, format, x: 5, y: 5, height_m: 2.8, name: `${format} gateway` })
    .expect(201);
  const tagMac = nextMac('C0:FF:EE');
  const deviceId = `tag-${format}-${compact(tagMac)}`;
  await t.http
    .post(DEVICES)
    .set(c.auth)
    .send({ id: deviceId, tag: { mac: tagMac } })
    .expect(201);
  return { gatewayId: created.body.id as number, hardwareId, tagMac, deviceId };
}

const stored = (t: TestApp, organizationId: string, deviceId: string) =>
  t.app.get(TagObservationsRepository).window(t.dataSource.manager, organizationId, deviceId, 0, Date.now() + 120_000);
const health = async (t: TestApp, c: Cartographer, id: number) => (await t.http.get(`${GATEWAYS}/${id}/health`).set(c.auth).expect(200)).body;

/** Polls until `check` holds (no tight wall-clock limit: 30 s). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const clients: MqttClient[] = [];
async function gatewayClient(url: string, password?: string, clientId?: string): Promise<MqttClient> {
  const client = await connectAsync(url, { username: 'gateway', password, reconnectPeriod: 0, connectTimeout: 10_000, clientId });
  clients.push(client);
  return client;
}
async function closeClients(): Promise<void> {
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true).catch(() => undefined)));
}

/** What each format sends for one tag heard by one gateway. */
function examples(tagMac: string) {
  const now = Date.now();
  return {
    espresense: (room: string) => ({
      topic: `espresense/devices/tag:${compact(tagMac)}/${room}`,
      payload: JSON.stringify({ mac: compact(tagMac), id: `tag:${compact(tagMac)}`, 'rssi@1m': -59, rssi: -71, distance: 2.4 }),
    }),
    ruuvi: (gw: string) => ({
      topic: `ruuvi/${gw}/${tagMac}`,
      payload: JSON.stringify({ gw_mac: gw, rssi: -70, aoa: [], gwts: Math.floor(now / 1000), ts: Math.floor(now / 1000), data: '0201061BFF9904', coords: '' }),
    }),
    minew: (gw: string) => ({
      topic: `minew/${compact(gw)}`,
      payload: JSON.stringify([
        { timestamp: new Date(now).toISOString(), type: 'Gateway', mac: compact(gw).toUpperCase(), gatewayFree: 42, gatewayLoad: 1.1 },
        { timestamp: new Date(now).toISOString(), type: 'Unknown', mac: compact(tagMac).toUpperCase(), bleName: '', rssi: -64, rawData: '' },
      ]),
    }),
    cartograph: (gw: string) => ({
      topic: `cartograph/gateways/${gw}/observations`,
      payload: JSON.stringify({ time: new Date(now).toISOString(), observations: [{ tag: tagMac, rssi: -66 }] }),
    }),
  };
}

describe('gateways over the embedded MQTT broker (issue 39)', () => {
  let t: TestApp;
  let a: Cartographer;
  let url: string;
  let positioning: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', GATEWAY_MESSAGES_PER_SECOND: '1', GATEWAY_MESSAGE_BURST: '5', MQTT_CONNECTIONS_PER_ORGANIZATION: '3' },
    });
    a = await signUp(t, 'MQTT A');
    url = `mqtt://127.0.0.1:${t.app.get(EmbeddedBrokerService).port}`;
    positioning = (await createApiKey(t, a.token, ApiPermission.Positioning)).apikey;
  });
  afterEach(closeClients);
  afterAll(async () => {
    await closeClients();
    await t?.close();
  });

  it("takes each format's message with a positioning key: a QoS 1 publish is acknowledged once its observation is stored, and the health counts it", async () => {
    const client = await gatewayClient(url, positioning);
    for (const format of ['espresense', 'ruuvi', 'minew', 'cartograph'] as const) {
      const { gatewayId, hardwareId, tagMac, deviceId } = await setUp(t, a, format, format === 'espresense' ? `room-${macs}` : undefined);
      const { topic, payload } = examples(tagMac)[format](hardwareId);
      await client.publishAsync(topic, payload, { qos: 1 });
      // The PUBACK came: the observation is already durable, no polling.
      const rows = await stored(t, a.org.organizationId, deviceId);
      expect(rows, format).toHaveLength(1);
      expect(Number(rows[0].gateway_id), format).toBe(gatewayId);
      const h = await health(t, a, gatewayId);
      expect(h, format).toMatchObject({ messages: 1, messages_not_understood: 0, observations_stored: 1, silent: false });
      expect(h.last_seen_at, format).toEqual(expect.any(String));
    }
    expect(client.connected).toBe(true);
  });

  it('refuses a bad key, a read-only key and no key with CONNACK "not authorized"', async () => {
    const readOnly = (await createApiKey(t, a.token, ApiPermission.ReadOnly)).apikey;
    for (const password of [`${positioning.slice(0, -2)}xx`, readOnly, undefined, 'not a key']) {
      await expect(gatewayClient(url, password)).rejects.toMatchObject({ code: 5 });
    }
    const readWrite = (await createApiKey(t, a.token, ApiPermission.ReadWrite)).apikey;
    expect((await gatewayClient(url, readWrite)).connected).toBe(true);
  });

  it('an oversized message is dropped and counted on the health with the limit; a message not understood is counted with its reason; neither disconnects the gateway', async () => {
    const { gatewayId, hardwareId, tagMac, deviceId } = await setUp(t, a, 'cartograph');
    const client = await gatewayClient(url, positioning);
    const topic = `cartograph/gateways/${hardwareId}/observations`;
    await client.publishAsync(topic, JSON.stringify({ observations: [{ tag: tagMac, rssi: -60 }], padding: 'x'.repeat(300 * 1024) }), { qos: 1 });
    let h = await health(t, a, gatewayId);
    expect(h).toMatchObject({ messages: 1, messages_not_understood: 1, observations_stored: 0, last_limit: { name: 'message_size', at: expect.any(String) } });
    expect(h.last_reason).toMatch(/larger than/);
    await client.publishAsync(topic, '{"observations": [', { qos: 1 });
    h = await health(t, a, gatewayId);
    expect(h).toMatchObject({ messages: 2, messages_not_understood: 2, last_reason: expect.stringMatching(/JSON/) });
    await client.publishAsync(topic, JSON.stringify({ observations: [{ tag: tagMac, rssi: -60 }] }), { qos: 1 });
    expect(await stored(t, a.org.organizationId, deviceId)).toHaveLength(1);
    expect(client.connected).toBe(true);
  });

  it('a packet far over the limit (more than twice it) is not even read: that connection is closed, the others and the next are served', async () => {
    const { hardwareId, tagMac, deviceId } = await setUp(t, a, 'cartograph');
    const bystander = await gatewayClient(url, positioning);
    const client = await gatewayClient(url, positioning);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish(`cartograph/gateways/${hardwareId}/observations`, Buffer.alloc(700 * 1024, 0x20), { qos: 1 }, () => undefined);
    await closed;
    const body = JSON.stringify({ observations: [{ tag: tagMac, rssi: -60 }] });
    await bystander.publishAsync(`cartograph/gateways/${hardwareId}/observations`, body, { qos: 1 });
    await (await gatewayClient(url, positioning)).publishAsync(`cartograph/gateways/${hardwareId}/observations`, body, { qos: 1 });
    expect(await stored(t, a.org.organizationId, deviceId)).toHaveLength(2);
  });

  it('beyond the rate (a burst of 5 here, then 1/s) messages are dropped and the health says message_rate and when', async () => {
    const { gatewayId, hardwareId, tagMac, deviceId } = await setUp(t, a, 'cartograph');
    const client = await gatewayClient(url, positioning);
    for (let i = 0; i < 12; i += 1) {
      await client.publishAsync(`cartograph/gateways/${hardwareId}/observations`, JSON.stringify({ observations: [{ tag: tagMac, rssi: -60 - i }] }), { qos: 1 });
    }
    const rows = await stored(t, a.org.organizationId, deviceId);
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows.length).toBeLessThan(12);
    const h = await health(t, a, gatewayId);
    expect(h.last_limit).toEqual({ name: 'message_rate', at: expect.any(String) });
    expect(h.observations_stored).toBe(rows.length);
    expect(client.connected).toBe(true);
    // The bucket is the gateway's, whatever the transport: over HTTP it is 429 with Retry-After.
    const refused = await t.http
      .post(`/api/v1/gateways/${hardwareId}/observations`)
      .set(asApiKey(positioning))
      .send({ observations: [{ tag: tagMac, rssi: -60 }] });
    expectError(refused, 429, 'too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('a publish of an unknown tag stores nothing and is counted; one naming no gateway of the organization stores nothing; subscriptions are refused', async () => {
    const { gatewayId, hardwareId } = await setUp(t, a, 'cartograph');
    const client = await gatewayClient(url, positioning);
    await client.publishAsync(`cartograph/gateways/${hardwareId}/observations`, JSON.stringify({ observations: [{ tag: 'DE:AD:BE:EF:00:01', rssi: -60 }] }), { qos: 1 });
    expect(await health(t, a, gatewayId)).toMatchObject({ messages: 1, observations_stored: 0, unknown_advertisers: 1 });
    const count = async () => Number((await t.dataSource.query('SELECT COUNT(*) AS "n" FROM "gateway_observations"'))[0].n);
    const before = await count();
    await client.publishAsync('cartograph/gateways/never-registered/observations', JSON.stringify({ observations: [{ tag: 'DE:AD:BE:EF:00:01', rssi: -60 }] }), { qos: 1 });
    await client.publishAsync('somewhere/else', 'hello', { qos: 1 });
    expect(await count()).toBe(before);
    // SUBACK 128 for every filter: MQTT.js turns it into a subscribe error.
    await expect(client.subscribeAsync('#', { qos: 1 })).rejects.toThrow(/Subscribe error/);
    await expect(client.subscribeAsync(`org/${a.org.organizationId}/#`, { qos: 0 })).rejects.toThrow(/Subscribe error/);
    expect(client.connected).toBe(true);
  });

  it('another organization’s key cannot publish for this organization’s gateway, whatever the topic, nor take its client id over', async () => {
    const { gatewayId, hardwareId, tagMac, deviceId } = await setUp(t, a, 'cartograph');
    const b = await signUp(t, 'MQTT B');
    const own = await gatewayClient(url, positioning, 'ceiling-7');
    // The same client id in another organization does not take this one's session over.
    const other = await gatewayClient(url, (await createApiKey(t, b.token, ApiPermission.Positioning)).apikey, 'ceiling-7');
    await other.publishAsync(`cartograph/gateways/${hardwareId}/observations`, JSON.stringify({ observations: [{ tag: tagMac, rssi: -60 }] }), { qos: 1 });
    expect(await stored(t, a.org.organizationId, deviceId)).toHaveLength(0);
    expect(await health(t, a, gatewayId)).toMatchObject({ messages: 0 });
    expect(own.connected).toBe(true);
    await own.publishAsync(`cartograph/gateways/${hardwareId}/observations`, JSON.stringify({ observations: [{ tag: tagMac, rssi: -60 }] }), { qos: 1 });
    expect(await stored(t, a.org.organizationId, deviceId)).toHaveLength(1);
  });

  it('beyond the connections of an organization (3 here) a client is refused, and the gateway it names shows the limit', async () => {
    const c = await signUp(t, 'MQTT connections');
    const key = (await createApiKey(t, c.token, ApiPermission.Positioning)).apikey;
    const { gatewayId, hardwareId } = await setUp(t, c, 'cartograph', 'crowded-gateway');
    const open = [await gatewayClient(url, key), await gatewayClient(url, key), await gatewayClient(url, key)];
    await expect(gatewayClient(url, key, hardwareId)).rejects.toMatchObject({ code: 3 });
    expect((await health(t, c, gatewayId)).last_limit).toEqual({ name: 'connections', at: expect.any(String) });
    await open[0].endAsync(true);
    const again = await eventually(
      () =>
        gatewayClient(url, key).then(
          (client) => client.connected,
          () => false,
        ),
      (connected) => connected,
    );
    expect(again).toBe(true);
  });
});

describe('the embedded broker at shutdown', () => {
  it('disconnects its clients and stops listening when the server closes', async () => {
    const t = await createTestApp({ env: { MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' } });
    try {
      const a = await signUp(t, 'MQTT shutdown');
      const url = `mqtt://127.0.0.1:${t.app.get(EmbeddedBrokerService).port}`;
      const client = await gatewayClient(url, (await createApiKey(t, a.token, ApiPermission.Positioning)).apikey);
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      await t.close();
      await closed;
      await expect(gatewayClient(url, 'any')).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await closeClients();
      await t.close();
    }
  });
});

const opensslMissing = spawnSync('openssl', ['version']).status !== 0;

describe.skipIf(opensslMissing && !process.env.CI)(`the embedded broker over TLS (MQTT_TLS_CERT_FILE, MQTT_TLS_KEY_FILE)${opensslMissing ? ': skipped, no openssl' : ''}`, () => {
  let t: TestApp;
  let dir: string;
  let cert: Buffer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cartograph-mqtt-tls-'));
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
    cert = readFileSync(join(dir, 'cert.pem'));
    t = await createTestApp({ env: { MQTT_PORT: '0', MQTT_HOST: '127.0.0.1', MQTT_TLS_CERT_FILE: join(dir, 'cert.pem'), MQTT_TLS_KEY_FILE: join(dir, 'key.pem') } });
  });
  afterAll(async () => {
    await closeClients();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes a gateway over mqtts:// (the key as the password) and nothing in clear', async () => {
    const a = await signUp(t, 'MQTT TLS');
    const { hardwareId, tagMac, deviceId } = await setUp(t, a, 'cartograph');
    const port = t.app.get(EmbeddedBrokerService).port;
    const key = (await createApiKey(t, a.token, ApiPermission.Positioning)).apikey;
    const client = await connectAsync(`mqtts://127.0.0.1:${port}`, { username: 'gateway', password: key, ca: cert, reconnectPeriod: 0, connectTimeout: 10_000 });
    clients.push(client);
    await client.publishAsync(`cartograph/gateways/${hardwareId}/observations`, JSON.stringify({ observations: [{ tag: tagMac, rssi: -60 }] }), { qos: 1 });
    expect(await stored(t, a.org.organizationId, deviceId)).toHaveLength(1);
    // MQTT in clear on the TLS port: the handshake fails and the connection closes, never a CONNACK.
    const plain = connect(`mqtt://127.0.0.1:${port}`, { password: key, reconnectPeriod: 0, connectTimeout: 5_000 });
    clients.push(plain);
    const outcome = await new Promise<string>((resolve) => {
      plain.once('connect', () => resolve('connected'));
      plain.once('close', () => resolve('closed'));
      plain.once('error', () => resolve('closed'));
    });
    expect(outcome).toBe('closed');
  });
});

const missing = mosquittoMissing();
if (missing && process.env.CI) throw new Error(`The MQTT tests need mosquitto in CI: ${missing}`);

describe.skipIf(missing !== null)(`gateways through an external MQTT broker (mosquitto with docs/operations.md's ACL${missing ? `: skipped, ${missing}` : ''})`, () => {
  // docs/operations.md's example: Cartograph reads every organization's topics, each organization's gateways write under its prefix only.
  const CARTOGRAPH_ACL = 'user cartograph\ntopic read org/#\ntopic read $share/cartograph/org/#\n';
  const gatewaysOf = (organizationId: string) => `user gateways-${organizationId}\ntopic write org/${organizationId}/#\n`;
  let broker: Mosquitto;
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let gatewaysA: string;
  let gatewaysB: string;

  beforeAll(async () => {
    broker = await startMosquitto({ users: { cartograph: 'cartograph-secret' }, acl: CARTOGRAPH_ACL });
    t = await createTestApp({ env: { MQTT_URL: broker.urlFor('cartograph', 'cartograph-secret') } });
    // Organizations created after the server started: the one wildcard subscription covers them.
    a = await signUp(t, 'External A');
    b = await signUp(t, 'External B');
    await broker.reload({
      users: { cartograph: 'cartograph-secret', [`gateways-${a.org.organizationId}`]: 'a-secret', [`gateways-${b.org.organizationId}`]: 'b-secret' },
      acl: CARTOGRAPH_ACL + gatewaysOf(a.org.organizationId) + gatewaysOf(b.org.organizationId),
    });
    gatewaysA = broker.urlFor(`gateways-${a.org.organizationId}`, 'a-secret');
    gatewaysB = broker.urlFor(`gateways-${b.org.organizationId}`, 'b-secret');
  });
  afterEach(closeClients);
  afterAll(async () => {
    await closeClients();
    await t?.close();
    await broker?.stop();
  });

  it('a gateway publishing under its organization’s prefix (from current_organization) has its observation stored and its health updated', async () => {
    const organization = (await t.http.get('/api/v1/organizations/current_organization').set(a.auth).expect(200)).body;
    expect(organization.mqtt_topic_prefix).toBe(`org/${a.org.organizationId}`);
    const { gatewayId, hardwareId, tagMac, deviceId } = await setUp(t, a, 'ruuvi');
    const gateway = await gatewayClient(gatewaysA);
    const { topic, payload } = examples(tagMac).ruuvi(hardwareId);
    await gateway.publishAsync(`${organization.mqtt_topic_prefix}/${topic}`, payload, { qos: 1 });
    const rows = await eventually(
      () => stored(t, a.org.organizationId, deviceId),
      (found) => found.length > 0,
    );
    expect(rows).toHaveLength(1);
    expect(await health(t, a, gatewayId)).toMatchObject({ messages: 1, observations_stored: 1 });
  });

  it('the prefix decides the organization: B’s gateways naming A’s gateway under B’s prefix store nothing in A; under A’s prefix the broker’s ACL drops them', async () => {
    const { gatewayId, hardwareId, tagMac, deviceId } = await setUp(t, a, 'cartograph');
    const intruder = await gatewayClient(gatewaysB);
    const body = (rssi: number) => JSON.stringify({ observations: [{ tag: tagMac, rssi }] });
    await intruder.publishAsync(`org/${b.org.organizationId}/cartograph/gateways/${hardwareId}/observations`, body(-61), { qos: 1 });
    await intruder.publishAsync(`org/${a.org.organizationId}/cartograph/gateways/${hardwareId}/observations`, body(-62), { qos: 1 });
    const own = await gatewayClient(gatewaysA);
    await own.publishAsync(`org/${a.org.organizationId}/cartograph/gateways/${hardwareId}/observations`, body(-63), { qos: 1 });
    // One subscription takes its messages in order: once the last is stored, the others were taken too.
    const rows = await eventually(
      () => stored(t, a.org.organizationId, deviceId),
      (found) => found.length > 0,
    );
    expect(rows.map((row) => Number(row.rssi))).toEqual([-63]);
    expect(await health(t, a, gatewayId)).toMatchObject({ messages: 1 });
  });
});

describe.skipIf(missing !== null || testDatabaseKind() !== 'postgres')('two instances on one PostgreSQL and one external broker (shared subscription)', () => {
  let broker: Mosquitto;
  let both: TwoInstances;

  beforeAll(async () => {
    broker = await startMosquitto();
    both = await twoInstances({ MQTT_URL: broker.url });
  });
  afterAll(async () => {
    await closeClients();
    await both?.close();
    await broker?.stop();
  });

  it('stores each observation once', async () => {
    const t = both.a;
    const a = await signUp(t, 'Shared');
    const { hardwareId, tagMac, deviceId } = await setUp(t, a, 'cartograph');
    const gateway = await gatewayClient(broker.url);
    const start = Date.now() - 60_000;
    const messages = 30;
    for (let i = 0; i < messages; i += 1) {
      const body = JSON.stringify({ time: start + i * 1000, observations: [{ tag: tagMac, rssi: -60 }] });
      await gateway.publishAsync(`org/${a.org.organizationId}/cartograph/gateways/${hardwareId}/observations`, body, { qos: 1 });
    }
    const rows = await eventually(
      () => stored(t, a.org.organizationId, deviceId),
      (found) => found.length >= messages,
    );
    expect(rows).toHaveLength(messages);
    // A second copy would come from the other instance's subscription: give it time to show, then count again.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const again = await stored(both.b, a.org.organizationId, deviceId);
    expect(again).toHaveLength(messages);
    expect(new Set(again.map((row) => Number(row.time))).size).toBe(messages);
  });
});
