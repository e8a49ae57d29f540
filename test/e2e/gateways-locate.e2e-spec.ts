import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { PositionsRetention } from '../../src/positions/positions-retention.service';
import { asApiKey, createApiKey } from '../support/auth';
import { BuildingFrame, toGeoreference } from '../../src/common/geometry/cartesian';
import { Cartographer, createGeofence, createSite, expectStatus, signUp, Site } from '../support/cartography';
import { eventually } from '../support/radio';
import { createTestApp, freshDatabase, TestApp, testDatabaseKind, TwoInstances, twoInstances } from '../support/test-app';

const GATEWAYS = '/api/v1/infrastructure/gateways';
const DEVICES = '/api/v1/devices';
/** The default model of a floor without calibration: the estimator's exponent and a tag's usual power at 1 m. */
const EXPONENT = 3;
const POWER = -59;
const ingest = (hardwareId: string) => `/api/v1/gateways/${encodeURIComponent(hardwareId)}/observations`;

/** The default model's reading at `distance` metres. */
const rssiAt = (distance: number) => Math.round((POWER - 10 * EXPONENT * Math.log10(Math.max(0.5, distance))) * 10) / 10;

interface Feature {
  id: string;
  properties: { local_coordinates: [number, number] | null; floor_id: number | null; accuracy: number; method?: string; gateways_used?: string[] };
}

let sites = 0;

/** A floor with gateways at `places` (Cartograph JSON), a tag (a device with a MAC identity) and a positioning key. */
async function setUp(t: TestApp, c: Cartographer, places: Array<[number, number]>) {
  sites += 1;
  const site = await createSite(t, c.auth);
  const hardwareIds: string[] = [];
  for (const [index, [x, y]] of places.entries()) {
    const hardwareId = `locate-${sites}-${index}`;
    const response = await t.http.post(GATEWAYS).set(c.auth).send({ floor_id: site.floor.id, hardware_id: hardwareId, format: 'cartograph', x, y, height_m: 2.8 });
    expectStatus(response, 201);
    hardwareIds.push(hardwareId);
  }
  const tagMac = `C0:FF:EE:10:00:${sites.toString(16).padStart(2, '0')}`;
  const deviceId = `badge-${sites}`;
  expectStatus(
    await t.http
      .post(DEVICES)
      .set(c.auth)
      .send({ id: deviceId, tag: { mac: tagMac } }),
    201,
  );
  const key = asApiKey((await createApiKey(t, c.token, ApiPermission.Positioning)).apikey);
  return { site, hardwareIds, tagMac, deviceId, key, places };
}

type Setup = Awaited<ReturnType<typeof setUp>>;

/** Every gateway of the set-up reports the tag at `at` (noise-free readings of the default model), through `apps` in turn. */
async function hear(apps: TestApp[], setup: Setup, at: [number, number], time = Date.now()) {
  for (const [index, hardwareId] of setup.hardwareIds.entries()) {
    const [x, y] = setup.places[index];
    const body = { time, observations: [{ tag: setup.tagMac, rssi: rssiAt(Math.hypot(x - at[0], y - at[1])) }] };
    const response = await apps[index % apps.length].http.post(ingest(hardwareId)).set(setup.key).send(body);
    expectStatus(response, 200);
    expect(response.body).toMatchObject({ stored: 1 });
  }
}

async function liveFeature(t: TestApp, c: Cartographer, deviceId: string): Promise<Feature | undefined> {
  const response = await t.http.get('/api/v1/realtime/positions').set(c.auth).expect(200);
  return (response.body.features as Feature[]).find((feature) => feature.id === deviceId);
}

const located = (t: TestApp, c: Cartographer, deviceId: string) =>
  eventually(
    () => liveFeature(t, c, deviceId),
    (feature) => feature !== undefined,
  ) as Promise<Feature>;

const SQUARE: Array<[number, number]> = [
  [5, 5],
  [17, 5],
  [17, 17],
  [5, 17],
];

describe('locating tags from gateways (issue 39, part 3)', () => {
  let t: TestApp;
  let a: Cartographer;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Locate A');
  });
  afterAll(async () => t?.close());

  it('a tag heard by four gateways over HTTP becomes a fix of its device near the truth, with method "gateways" and the gateways used', async () => {
    const setup = await setUp(t, a, SQUARE);
    const truth: [number, number] = [9, 12];
    await hear([t], setup, truth);
    const feature = await located(t, a, setup.deviceId);
    const [x, y] = feature.properties.local_coordinates!;
    expect(Math.hypot(x - truth[0], y - truth[1])).toBeLessThan(1.5);
    expect(feature.properties.floor_id).toBe(setup.site.floor.id);
    expect(feature.properties.method).toBe('gateways');
    expect([...feature.properties.gateways_used!].sort()).toEqual([...setup.hardwareIds].sort());
    expect(feature.properties.accuracy).toBeGreaterThan(0);
  });

  it('three gateways: a fix near the truth', async () => {
    const setup = await setUp(t, a, SQUARE.slice(0, 3));
    const truth: [number, number] = [13, 8];
    await hear([t], setup, truth);
    const [x, y] = (await located(t, a, setup.deviceId)).properties.local_coordinates!;
    expect(Math.hypot(x - truth[0], y - truth[1])).toBeLessThan(1.5);
  });

  it('one gateway: a fix at the gateway, with an accuracy of at least the distance its reading implies', async () => {
    const setup = await setUp(t, a, [[20, 10]]);
    await hear([t], setup, [26, 10]);
    const feature = await located(t, a, setup.deviceId);
    const [x, y] = feature.properties.local_coordinates!;
    expect(Math.hypot(x - 20, y - 10)).toBeLessThan(0.01);
    expect(feature.properties.accuracy).toBeGreaterThanOrEqual(6);
    expect(feature.properties.gateways_used).toEqual(setup.hardwareIds);
  });

  it('one window is one fix: a second round of readings a window later moves the tag', async () => {
    const setup = await setUp(t, a, SQUARE);
    await hear([t], setup, [7, 7]);
    await located(t, a, setup.deviceId);
    await hear([t], setup, [15, 15]);
    const moved = await eventually(
      () => liveFeature(t, a, setup.deviceId),
      (feature) => feature !== undefined && Math.hypot(feature.properties.local_coordinates![0] - 15, feature.properties.local_coordinates![1] - 15) < 1.5,
    );
    expect(moved!.properties.method).toBe('gateways');
    const claimed = await t.dataSource.query(
      `SELECT COUNT(DISTINCT window_id) AS windows, COUNT(*) AS rows FROM gateway_observations WHERE device_id = '${setup.deviceId}' AND window_id IS NOT NULL`,
    );
    expect(Number(claimed[0].windows)).toBe(2);
    expect(Number(claimed[0].rows)).toBe(8);
  });

  it('the positions retention deletes observations older than GATEWAY_OBSERVATION_RETENTION_HOURS, and keeps the fixes', async () => {
    const setup = await setUp(t, a, SQUARE.slice(0, 3));
    await hear([t], setup, [8, 8]);
    await located(t, a, setup.deviceId);
    const count = async () => Number((await t.dataSource.query(`SELECT COUNT(*) AS n FROM gateway_observations WHERE device_id = '${setup.deviceId}'`))[0].n);
    expect(await count()).toBe(3);
    const retention = t.app.get(PositionsRetention);
    await retention.applyObservationRetention(Date.now() + 23 * 3_600_000);
    expect(await count()).toBe(3);
    await retention.applyObservationRetention(Date.now() + 25 * 3_600_000);
    expect(await count()).toBe(0);
    expect((await liveFeature(t, a, setup.deviceId))?.properties.method).toBe('gateways');
  });

  it('a tag walking into a fence fires its enter event', async () => {
    const setup = await setUp(t, a, SQUARE);
    const frame = frameOf(setup.site);
    // Its west edge 5 m from either place of the walk, more than the fixes' accuracy.
    const ring = [
      [11, 0],
      [60, 0],
      [60, 60],
      [11, 60],
      [11, 0],
    ].map(([x, y]) => toGeoreference(frame, { x, y }));
    const fence = await createGeofence(t, a.auth, setup.site.place, { name: 'Ward', geometric: ring.map((corner) => [corner.lat, corner.lng]) });
    await hear([t], setup, [6, 11]);
    await located(t, a, setup.deviceId);
    // The fence's default rules want 3 s inside: the tag stays, a window after another, until the event is there.
    let lastHeard = 0;
    const events = await eventually(
      async () => {
        if (Date.now() - lastHeard > 1_000) {
          lastHeard = Date.now();
          await hear([t], setup, [16, 11]);
        }
        const log = await t.http.get('/api/v1/geofencing/events').set(a.auth).expect(200);
        return (log.body.data as Array<{ type: string; device_id: string; geofence: { id: string } }>).filter((event) => event.device_id === setup.deviceId);
      },
      (found) => found.length > 0,
    );
    expect(events.map((event) => [event.type, event.geofence.id])).toEqual([['geofence.enter', fence.id]]);
  });
});

function frameOf(site: Site): BuildingFrame {
  return {
    latitude: site.building.location.lat,
    longitude: site.building.location.lng,
    width: site.building.dimensions.width,
    length: site.building.dimensions.length,
    rotation: site.building.rotation,
  };
}

describe('observations stored while no instance located them are located after a restart', () => {
  it('locates them once the app is back', async () => {
    const database = await freshDatabase();
    const shared = { ...database, drop: async () => undefined };
    // The same secret on both runs, so the token signed before the restart holds after it.
    const secret = { JWT_SECRET: 'locate-restart-'.padEnd(64, 'x') };
    try {
      // A window far longer than the test: the first app stores and never locates.
      let t = await createTestApp({ database: shared, env: { ...secret, GATEWAY_WINDOW_MS: '60000' } });
      const c = await signUp(t, 'Locate restart');
      const setup = await setUp(t, c, SQUARE);
      await hear([t], setup, [11, 11], Date.now() - 5_000);
      await t.close();
      t = await createTestApp({ database: shared, env: { ...secret, GATEWAY_WINDOW_MS: '1500' } });
      try {
        const feature = await located(t, c, setup.deviceId);
        const [x, y] = feature.properties.local_coordinates!;
        expect(Math.hypot(x - 11, y - 11)).toBeLessThan(1.5);
        expect(feature.properties.method).toBe('gateways');
      } finally {
        await t.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('locating tags across instances (PostgreSQL)', () => {
  let instances: TwoInstances;
  beforeAll(async () => {
    instances = await twoInstances();
  });
  afterAll(async () => instances?.close());

  it('observations of one tag posted to both instances in one window make exactly one fix', async () => {
    const { a: first, b: second } = instances;
    const c = await signUp(first, 'Locate two');
    const setup = await setUp(first, c, SQUARE);
    await hear([first, second], setup, [10, 9]);
    await located(second, c, setup.deviceId);
    // Both instances have had several windows' time to look.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const fixes = await first.dataSource.query(`SELECT COUNT(*) AS n FROM position_history WHERE device_id = $1`, [setup.deviceId]);
    expect(Number(fixes[0].n)).toBe(1);
    const windows = await first.dataSource.query(
      `SELECT COUNT(DISTINCT window_id) AS n, COUNT(*) AS rows FROM gateway_observations WHERE device_id = $1 AND window_id IS NOT NULL`,
      [setup.deviceId],
    );
    expect(Number(windows[0].n)).toBe(1);
    expect(Number(windows[0].rows)).toBe(4);
  });
});
