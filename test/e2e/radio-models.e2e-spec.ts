import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { asApiKey, createApiKey } from '../support/auth';
import { createFloor, createSite, expectError, expectStatus, signUp, Site } from '../support/cartography';
import { bleOf, eventually, installBeacons } from '../support/radio';
import { ISSUE_31_WORLD, seededRandom, SyntheticBuilding } from '../support/synthetic-scans';
import { Building } from '../../src/cartography/buildings/building.entity';
import { RadioModelRecord } from '../../src/infrastructure/radio-model.entity';
import { createTestApp, FreshDatabase, freshDatabase, TestApp, testDatabaseKind, TwoInstances, twoInstances } from '../support/test-app';

type Auth = Record<string, string>;

interface FloorModel {
  floor_id: number;
  method: string;
  exponent: number;
  exponent_fit: { state: 'prior' | 'fitted' | 'unidentified'; reason: string | null; sd: number };
  scanner: { weakest_rssi: { ble: number | null; wifi: number | null }; max_readings: number; at_max_share: number } | null;
  shadowing_db: { ble: number; wifi: number };
  scans: number;
  updated_at: string | null;
  reference_points: {
    points: number;
    scans: number;
    model_median_error_m: number | null;
    fingerprint_median_error_m: number | null;
    radio_map_median_error_m: number | null;
  } | null;
  transmitters: Array<{ type: string; id: number; offset_db: number; reference_rssi: number }>;
}

/** One floor of 60 × 40 m, beacons every 10 m, true exponent 2 and powers −59 ± 3 dBm, every beacon of the floor heard. */
const WORLD = { ...ISSUE_31_WORLD, floors: 1, exponent: 2, shadowingDb: 3, readings: [24, 24] as [number, number], sensitivity: -130 };

async function radioModel(t: TestApp, auth: Auth, buildingId: number): Promise<FloorModel[]> {
  const response = await t.http.get(`/api/v1/infrastructure/radio_model?building_id=${buildingId}`).set(auth);
  expectStatus(response, 200);
  expect(response.body.building_id).toBe(buildingId);
  return response.body.floors as FloorModel[];
}

/** `count` scans at random places of the floor, posted in batches of 100; how many gave a fix. */
async function postScans(t: TestApp, device: Auth, site: Site, building: SyntheticBuilding, seed: number, count: number, deviceId = 'walker'): Promise<number> {
  const random = seededRandom(seed);
  let accepted = 0;
  for (let start = 0; start < count; start += 100) {
    const time = Date.now() - 5000;
    const scans = Array.from({ length: Math.min(100, count - start) }, (_, i) => ({
      device_id: `${deviceId}-${(start + i) % 7}`,
      time: time + i,
      building_id: site.building.id,
      ble: bleOf(building.scanAt(building.randomPosition(random, 1), random)),
    }));
    const response = await t.http.post('/api/v1/realtime/scans').set(device).send({ scans });
    expectStatus(response, 200);
    accepted += (response.body.fixes as Array<{ method: string; transmitters_used: number }>).filter((fix) => fix.method !== 'single' && fix.transmitters_used >= 3).length;
  }
  return accepted;
}

describe('the radio model learns from the scans it sees, and keeps what it learnt', () => {
  let database: FreshDatabase;
  const env = { JWT_SECRET: randomBytes(32).toString('hex') };

  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => database?.drop());

  it('starts from the prior, fits the exponent and offsets from 500 scans, and reads the same after a restart', async () => {
    const shared = { ...database, drop: async () => undefined };
    const first = await createTestApp({ database: shared, env });
    const admin = await signUp(first, 'Self calibration');
    const reader = asApiKey((await createApiKey(first, admin.token, ApiPermission.ReadOnly)).apikey);
    const device = asApiKey((await createApiKey(first, admin.token, ApiPermission.Positioning)).apikey);
    const site = await createSite(first, admin.auth);
    const building = new SyntheticBuilding(WORLD, 3);
    await installBeacons(first, admin.auth, site.building.id, [site.floor.id], building);

    const [fresh] = await radioModel(first, reader, site.building.id);
    expect(fresh).toMatchObject({
      floor_id: site.floor.id,
      method: 'default',
      exponent: 2.8,
      exponent_fit: { state: 'prior', reason: 'no scans yet', sd: 0.5 },
      scanner: null,
      scans: 0,
      updated_at: null,
      reference_points: null,
    });
    expect(fresh.transmitters).toHaveLength(24);
    expect(fresh.transmitters.every((transmitter) => transmitter.offset_db === 0 && transmitter.reference_rssi === -59)).toBe(true);

    // 500 scans: two batches of 250, each merged as soon as it is full.
    const learnt = await postScans(first, device, site, building, 11, 500);
    expect(learnt).toBe(500);
    const [model] = await eventually(
      () => radioModel(first, reader, site.building.id),
      ([floor]) => floor.scans >= 500,
    );
    expect(model.method).toBe('self_calibrated');
    expect(model.exponent_fit).toMatchObject({ state: 'fitted', reason: null });
    expect(model.exponent_fit.sd).toBeLessThan(0.1);
    // Every beacon of the floor heard in every scan.
    expect(model.scanner).toMatchObject({ max_readings: 24, at_max_share: 1 });
    expect(model.updated_at).not.toBeNull();
    expect(model.exponent).toBeGreaterThan(1.8);
    expect(model.exponent).toBeLessThan(2.2);
    expect(model.shadowing_db.ble).toBeGreaterThan(2);
    expect(model.shadowing_db.ble).toBeLessThan(4);
    // The offsets follow each beacon's true power (less what all share, which the exponent absorbs).
    const truth = new Map(building.transmitters.map((transmitter) => [`${transmitter.x},${transmitter.y}`, building.truePower.get(transmitter.id)! + 59]));
    const infrastructure = await first.http.get(`/api/v1/infrastructure?building_id=${site.building.id}`).set(admin.auth).expect(200);
    const placeOf = new Map((infrastructure.body.ble as Array<{ id: number; x: number; y: number }>).map((beacon) => [beacon.id, `${beacon.x},${beacon.y}`]));
    const pairs = model.transmitters.map((transmitter) => [transmitter.offset_db, truth.get(placeOf.get(transmitter.id)!)!]);
    expect(correlation(pairs)).toBeGreaterThan(0.8);
    await first.close();

    const second = await createTestApp({ database: shared, env });
    try {
      expect(await radioModel(second, reader, site.building.id)).toEqual([model]);
      // And the estimates use it: scans posted now are placed with the learnt model, as well as the true model would.
      const random = seededRandom(99);
      const places = Array.from({ length: 30 }, () => building.randomPosition(random, 1));
      const time = Date.now() - 1000;
      const response = await second.http
        .post('/api/v1/realtime/scans')
        .set(device)
        .send(places.map((at, i) => ({ device_id: `after-restart-${i}`, time, building_id: site.building.id, ble: bleOf(building.scanAt(at, random)) })));
      expectStatus(response, 200);
      const errors = (response.body.fixes as Array<{ x: number; y: number }>).map((fix, i) => Math.hypot(fix.x - places[i].x, fix.y - places[i].y)).sort((x, y) => x - y);
      expect(errors[15]).toBeLessThan(2.5);
    } finally {
      await second.close();
    }
  });
});

describe('reference points fit the model, and cross-validation picks how each floor places scans', () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('fits the floor from its reference points, says what cross-validation found, and the next scans use it', async () => {
    t = await createTestApp();
    const admin = await signUp(t, 'Survey');
    const device = asApiKey((await createApiKey(t, admin.token, ApiPermission.Positioning)).apikey);
    const site = await createSite(t, admin.auth);
    const other = await createFloor(t, admin.auth, site.building.id, { level: 1 });
    const building = new SyntheticBuilding({ ...WORLD, exponent: 2.4 }, 5);
    await installBeacons(t, admin.auth, site.building.id, [site.floor.id], building);
    const random = seededRandom(17);
    const points = [];
    for (let x = 2.5; x < 60; x += 5) for (let y = 2.5; y < 40; y += 5) points.push({ floor_id: site.floor.id, x, y, ble: bleOf(building.scanAt({ floor: 1, x, y }, random)) });
    expectStatus(await t.http.put(`/api/v1/infrastructure/reference_points?building_id=${site.building.id}`).set(admin.auth).send(points), 200);

    const [model] = await radioModel(t, admin.auth, site.building.id);
    expect(['reference_points', 'fingerprinting', 'radio_map']).toContain(model.method);
    expect(model.reference_points).toMatchObject({ points: 96, scans: 96, model_median_error_m: expect.any(Number), fingerprint_median_error_m: expect.any(Number) });
    expect(model.exponent).toBeGreaterThan(2.2);
    expect(model.exponent).toBeLessThan(2.6);
    expect(model.scans).toBe(0);
    // The floor without transmitters has no model; asking for it by id answers an empty list, another building's floor 404.
    expect((await t.http.get(`/api/v1/infrastructure/radio_model?building_id=${site.building.id}&floor_id=${other.id}`).set(admin.auth).expect(200)).body).toEqual({
      building_id: site.building.id,
      floors: [],
    });
    const elsewhere = await createSite(t, admin.auth);
    expectError(await t.http.get(`/api/v1/infrastructure/radio_model?building_id=${site.building.id}&floor_id=${elsewhere.floor.id}`).set(admin.auth), 404, 'entity_not_found');

    const at = { floor: 1, x: 22, y: 13 };
    const fix = (
      await t.http
        .post('/api/v1/realtime/scans')
        .set(device)
        .send([{ device_id: 'surveyed', time: Date.now(), building_id: site.building.id, ble: bleOf(building.scanAt(at, random)) }])
        .expect(200)
    ).body.fixes[0];
    expect(fix.method).toBe({ fingerprinting: 'fingerprint', radio_map: 'radio_map', reference_points: 'fit' }[model.method]);
    expect(Math.hypot(fix.x - at.x, fix.y - at.y)).toBeLessThan(4);

    // Without the reference points the floor falls back to the prior.
    await t.http.put(`/api/v1/infrastructure/reference_points?building_id=${site.building.id}`).set(admin.auth).send([]).expect(200);
    expect((await radioModel(t, admin.auth, site.building.id))[0]).toMatchObject({ method: 'default', exponent: 2.8, reference_points: null });
  });
});

describe('a radio map from reference points where a wall attenuates part of the floor', () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('places scans there better than without the reference points, and says it uses the radio map', async () => {
    t = await createTestApp();
    const admin = await signUp(t, 'Walled survey');
    const reader = asApiKey((await createApiKey(t, admin.token, ApiPermission.ReadOnly)).apikey);
    const device = asApiKey((await createApiKey(t, admin.token, ApiPermission.Positioning)).apikey);
    const site = await createSite(t, admin.auth);
    // A 12 dB wall at x = 30 m across the floor's first 28 m: readings through it lose 12 dB, which no log-distance model knows.
    const building = new SyntheticBuilding({ ...WORLD, exponent: 2.2, walls: [{ from: { x: 30, y: 0 }, to: { x: 30, y: 28 }, lossDb: 12 }] }, 5);
    await installBeacons(t, admin.auth, site.building.id, [site.floor.id], building);
    const random = seededRandom(23);
    const places = Array.from({ length: 100 }, () => building.randomPosition(random, 1));
    const readings = places.map((at) => bleOf(building.scanAt(at, random)));
    const medianError = async (deviceId: string) => {
      const time = Date.now();
      const response = await t.http
        .post('/api/v1/realtime/scans')
        .set(device)
        .send(readings.map((ble, i) => ({ device_id: `${deviceId}-${i}`, time, building_id: site.building.id, ble })));
      expectStatus(response, 200);
      const fixes = response.body.fixes as Array<{ x: number; y: number; accuracy: number; method: string }>;
      const errors = fixes.map((fix, i) => Math.hypot(fix.x - places[i].x, fix.y - places[i].y));
      return {
        median: [...errors].sort((a, b) => a - b)[50],
        methods: new Set(fixes.map((fix) => fix.method)),
        covered: fixes.filter((fix, i) => errors[i] <= fix.accuracy).length,
      };
    };
    const before = await medianError('before');
    expect(before.methods).toEqual(new Set(['fit']));

    // An installer's survey: every 5 m, two scans at each place.
    const points = [];
    for (let x = 2.5; x < 60; x += 5)
      for (let y = 2.5; y < 40; y += 5) for (let i = 0; i < 2; i += 1) points.push({ floor_id: site.floor.id, x, y, ble: bleOf(building.scanAt({ floor: 1, x, y }, random)) });
    expectStatus(await t.http.put(`/api/v1/infrastructure/reference_points?building_id=${site.building.id}`).set(admin.auth).send(points), 200);

    const [model] = await radioModel(t, reader, site.building.id);
    expect(model.method).toBe('radio_map');
    expect(model.reference_points).toEqual({
      points: 96,
      scans: 192,
      model_median_error_m: expect.any(Number),
      fingerprint_median_error_m: expect.any(Number),
      radio_map_median_error_m: expect.any(Number),
    });
    const crossValidation = model.reference_points!;
    expect(crossValidation.radio_map_median_error_m!).toBeLessThan(crossValidation.model_median_error_m!);
    expect(crossValidation.radio_map_median_error_m!).toBeLessThan(crossValidation.fingerprint_median_error_m!);

    const after = await medianError('after');
    expect(after.methods).toEqual(new Set(['radio_map']));
    expect(after.median).toBeLessThan(0.6 * before.median);
    // The accuracy stays honest: about two fixes in three within it (of 100: at least 55).
    expect(after.covered).toBeGreaterThanOrEqual(55);

    // The survey withdrawn, the floor places scans by its model again.
    await t.http.put(`/api/v1/infrastructure/reference_points?building_id=${site.building.id}`).set(admin.auth).send([]).expect(200);
    expect((await radioModel(t, reader, site.building.id))[0].method).not.toBe('radio_map');
    expect((await medianError('withdrawn')).methods).not.toContain('radio_map');
  });
});

describe('scan batches: the documented 1,000 scans fit, a larger body is refused naming the limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('accepts 1,000 scans of 30 readings (about 2.5 MB) in one request', async () => {
    const admin = await signUp(t, 'Big batches');
    const device = asApiKey((await createApiKey(t, admin.token, ApiPermission.Positioning)).apikey);
    const site = await createSite(t, admin.auth);
    const building = new SyntheticBuilding({ ...WORLD, readings: [30, 30], floors: 2 }, 8);
    const upstairs = await createFloor(t, admin.auth, site.building.id, { level: 1 });
    await installBeacons(t, admin.auth, site.building.id, [site.floor.id, upstairs.id], building);
    const random = seededRandom(4);
    const time = Date.now() - 60_000;
    const scans = Array.from({ length: 1000 }, (_, i) => ({
      device_id: `tag-${i % 50}`,
      time: time + i * 10,
      building_id: site.building.id,
      ble: bleOf(building.scanAt(building.randomPosition(random), random)),
    }));
    expect(scans.every((scan) => scan.ble.length === 30)).toBe(true);
    const body = JSON.stringify({ scans });
    expect(body.length).toBeGreaterThan(2_300_000);
    const response = await t.http.post('/api/v1/realtime/scans?return_events=false').set(device).set('Content-Type', 'application/json').send(body);
    expectStatus(response, 200);
    expect(response.body.accepted).toBe(1000);
    expect(response.body.fixes).toHaveLength(1000);
  });

  it('refuses a body over 3 MiB with 413 in the error shape, naming the limit', async () => {
    const admin = await signUp(t, 'Too big');
    const device = asApiKey((await createApiKey(t, admin.token, ApiPermission.Positioning)).apikey);
    const reading = { uuid: 'f7826da6-4fa2-4e98-8024-bc5b71e0893e', major: 1, minor: 1, rssi: -60 };
    const body = JSON.stringify({ scans: Array.from({ length: 1000 }, (_, i) => ({ device_id: `d${i}`, time: Date.now(), ble: Array.from({ length: 45 }, () => reading) })) });
    expect(body.length).toBeGreaterThan(3 * 1024 * 1024);
    const response = await t.http.post('/api/v1/realtime/scans').set(device).set('Content-Type', 'application/json').send(body);
    expectError(response, 413, 'payload_too_large');
    expect(response.body.message).toContain('3 MiB');
    // Other routes keep the API's 1 MiB, and say so.
    const positions = await t.http
      .post('/api/v1/realtime/positions')
      .set(device)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ positions: [], padding: 'x'.repeat(1_100_000) }));
    expectError(positions, 413, 'payload_too_large');
    expect(positions.body.message).toContain('1 MiB');
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('the radio model on two instances (PostgreSQL)', () => {
  let instances: TwoInstances | undefined;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    instances = await twoInstances();
    ({ a, b } = instances);
  }, 60_000);
  afterAll(async () => instances?.close());

  it('merges what both instances learn at the same time into one stored model, losing neither', async () => {
    const admin = await signUp(a, 'Two instances radio');
    const device = asApiKey((await createApiKey(a, admin.token, ApiPermission.Positioning)).apikey);
    const site = await createSite(a, admin.auth);
    const building = new SyntheticBuilding(WORLD, 21);
    await installBeacons(a, admin.auth, site.building.id, [site.floor.id], building);
    // Both instances take 500 scans of the floor at once: each merges two batches of 250 while the other does.
    const [onA, onB] = await Promise.all([postScans(a, device, site, building, 31, 500, 'left'), postScans(b, device, site, building, 32, 500, 'right')]);
    expect(onA + onB).toBe(1000);
    const [fromB] = await eventually(
      () => radioModel(b, admin.auth, site.building.id),
      ([floor]) => floor.scans >= 1000,
    );
    expect(fromB.scans).toBe(1000);
    expect(fromB.method).toBe('self_calibrated');
    // The other instance serves the same stored model.
    expect(await radioModel(a, admin.auth, site.building.id)).toEqual([fromB]);
  });
});

function correlation(pairs: number[][]): number {
  const n = pairs.length;
  const mean = (index: number) => pairs.reduce((sum, pair) => sum + pair[index], 0) / n;
  const [mx, my] = [mean(0), mean(1)];
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of pairs) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

describe('self-calibration with a scanner that cuts at −95 dBm and keeps its strongest 30', () => {
  let database: FreshDatabase;
  let t: TestApp;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('fits the true exponent on both floors, says it is fitted, and reads the scanner off the scans', async () => {
    t = await createTestApp({ database: { ...database, drop: async () => undefined } });
    const admin = await signUp(t, 'Cutting scanner');
    const device = asApiKey((await createApiKey(t, admin.token, ApiPermission.Positioning)).apikey);
    const site = await createSite(t, admin.auth);
    const upstairs = await createFloor(t, admin.auth, site.building.id, { level: 1 });
    // Issue 36's building: two floors of 60 × 40 m, 3.5 m storeys (the default height), 15 dB a floor, true n = 2.
    const building = new SyntheticBuilding({ ...ISSUE_31_WORLD, floors: 2, exponent: 2, storeyM: 3.5, sensitivity: -95, readings: [30, 30] }, 13);
    await installBeacons(t, admin.auth, site.building.id, [site.floor.id, upstairs.id], building);
    const random = seededRandom(29);
    for (let batch = 0; batch < 30; batch += 1) {
      const time = Date.now() - 5000;
      const scans = Array.from({ length: 100 }, (_, i) => ({
        device_id: `cut-${i % 9}`,
        time: time + i,
        building_id: site.building.id,
        ble: bleOf(building.scanAt(building.randomPosition(random, 1 + (i % 2)), random)),
      }));
      expectStatus(await t.http.post('/api/v1/realtime/scans').set(device).send({ scans }), 200);
    }
    const floors = await eventually(
      () => radioModel(t, admin.auth, site.building.id),
      (models) => models.length === 2 && models.every((floor) => floor.scans >= 1000),
      60_000,
    );
    for (const floor of floors) {
      expect(floor.method).toBe('self_calibrated');
      // Before issue 36, 1.69 from 2,000 scans: the loud far beacons pulled it low.
      expect(Math.abs(floor.exponent - 2)).toBeLessThan(0.25);
      expect(floor.exponent_fit.state).toBe('fitted');
      expect(floor.scanner!.weakest_rssi).toEqual({ ble: -95, wifi: null });
      // The cap: no scan had more than 30, and where more than 30 beacons were loud enough, scans had exactly 30.
      expect(floor.scanner!.max_readings).toBe(30);
      expect(floor.scanner!.at_max_share).toBeGreaterThan(0.05);
    }
  });

  it('starts again from the prior where the stored statistics are of the format before the censored model', async () => {
    const admin = await signUp(t, 'Old statistics');
    const site = await createSite(t, admin.auth);
    const building = new SyntheticBuilding({ ...ISSUE_31_WORLD, floors: 1 }, 3);
    await installBeacons(t, admin.auth, site.building.id, [site.floor.id], building);
    // What the server before issue 36 stored: no format version, an exponent fitted without the censored terms.
    const old = { scans: 800, hnn: 4000, bn: 4000 * 1.7, transmitters: {}, residuals: { ble: { sum: 12000, dof: 790 }, wifi: { sum: 0, dof: 0 } } };
    const { organizationId } = await t.dataSource.getRepository(Building).findOneByOrFail({ id: site.building.id });
    const now = new Date();
    await t.dataSource
      .getRepository(RadioModelRecord)
      .insert({ floorId: site.floor.id, organizationId, buildingId: site.building.id, version: 1, scans: 800, statistics: JSON.stringify(old), createdAt: now, updatedAt: now });
    const [floor] = await radioModel(t, admin.auth, site.building.id);
    expect(floor).toMatchObject({ method: 'default', exponent: 2.8, scans: 0, exponent_fit: { state: 'prior' } });
  });
});
