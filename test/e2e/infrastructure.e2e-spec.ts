import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { CredentialKind, Principal } from '../../src/access/principal';
import { Role } from '../../src/access/roles';
import { toGeoreference } from '../../src/common/geometry/cartesian';
import { BleBeacon } from '../../src/infrastructure/ble-beacon.entity';
import { ScanPositioningService } from '../../src/infrastructure/scan-positioning.service';
import { WifiAccessPoint } from '../../src/infrastructure/wifi-access-point.entity';
import { seededRandom, gaussian } from '../support/synthetic-scans';
import { addUser, login } from '../support/admin';
import { asApiKey, createApiKey } from '../support/auth';
import {
  BuildingBody,
  Cartographer,
  CARTOGRAPHY_KEY_LEVELS,
  createFloor,
  createSite,
  errorFields,
  expectError,
  expectStatus,
  keysOf,
  signUp,
  Site,
  TIMESTAMP,
} from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

const UUID_A = 'f7826da6-4fa2-4e98-8024-bc5b71e0893e';
const UUID_B = 'b9407f30-f5f8-466e-aff9-25556b57fe6d';
const DOCUMENT_KEYS = ['beacon_uuids', 'ble', 'building_id', 'wifi'];
const WIFI_KEYS = ['bssid', 'created_at', 'floor_id', 'frequency', 'id', 'lat', 'lng', 'ssid', 'updated_at', 'x', 'y'];
const BLE_KEYS = ['battery', 'created_at', 'floor_id', 'id', 'lat', 'lng', 'major', 'minor', 'tx_power', 'updated_at', 'uuid', 'x', 'y'];

/** buildingInput(): 120.5 x 80 m, rotated 0.5 rad, centred at 42.8723597, -8.5633224. */
const frameOf = (building: BuildingBody) => ({
  latitude: building.location.lat,
  longitude: building.location.lng,
  width: building.dimensions.width,
  length: building.dimensions.length,
  rotation: building.rotation,
});

describe('infrastructure (contract section 9)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Infrastructure A');
    b = await signUp(t, 'Infrastructure B');
  });
  afterAll(async () => t?.close());

  const ble = (floorId: number, minor: number, overrides: Record<string, unknown> = {}) => ({
    floor_id: floorId,
    uuid: UUID_A,
    major: 1,
    minor,
    tx_power: -59,
    battery: 80,
    x: 10 + minor,
    y: 20,
    ...overrides,
  });
  const wifi = (floorId: number, last: number, overrides: Record<string, unknown> = {}) => ({
    floor_id: floorId,
    bssid: `a4:5e:60:e8:1f:${last.toString(16).padStart(2, '0')}`,
    ssid: 'Office',
    frequency: 2437,
    x: 30,
    y: 40 + last,
    ...overrides,
  });
  const document = (c: Cartographer, buildingId: number, query = '') => t.http.get(`/api/v1/infrastructure?building_id=${buildingId}${query}`).set(c.auth);

  describe('single transmitters', () => {
    it('adds a beacon in floor metres: 201, both coordinate systems, an ETag, the stored row; GET reads it back', async () => {
      const site = await createSite(t, a.auth);
      const response = await t.http
        .post('/api/v1/infrastructure/ble')
        .set(a.auth)
        .send({ ...ble(site.floor.id, 7), uuid: UUID_A.toUpperCase(), id: 99, organization_id: b.org.organizationId });
      expectStatus(response, 201);
      expect(keysOf(response.body)).toEqual(BLE_KEYS);
      const expected = toGeoreference(frameOf(site.building), { x: 17, y: 20 });
      expect(response.body).toEqual({
        id: expect.any(Number),
        uuid: UUID_A,
        major: 1,
        minor: 7,
        tx_power: -59,
        battery: 80,
        floor_id: site.floor.id,
        lat: expected.lat,
        lng: expected.lng,
        x: 17,
        y: 20,
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: response.body.created_at,
      });
      expect(response.headers.etag).toBe('"1"');
      const row = await t.dataSource.getRepository(BleBeacon).findOneByOrFail({ id: response.body.id });
      expect(row).toMatchObject({ organizationId: a.org.organizationId, buildingId: site.building.id, floorId: site.floor.id, uuid: UUID_A, x: 17, y: 20 });
      const read = await t.http.get(`/api/v1/infrastructure/ble/${response.body.id}`).set(a.auth);
      expectStatus(read, 200);
      expect(read.body).toEqual(response.body);
    });

    it('adds an access point by lat/lng (x/y derived) and normalizes the BSSID to lower-case xx:xx:…', async () => {
      const site = await createSite(t, a.auth);
      const at = toGeoreference(frameOf(site.building), { x: 50, y: 60 });
      const response = await t.http.post('/api/v1/infrastructure/wifi').set(a.auth).send({ floor_id: site.floor.id, bssid: 'A4-5E-60-E8-1F-0C', lat: at.lat, lng: at.lng });
      expectStatus(response, 201);
      expect(keysOf(response.body)).toEqual(WIFI_KEYS);
      expect(response.body).toMatchObject({ bssid: 'a4:5e:60:e8:1f:0c', ssid: '', frequency: null, lat: at.lat, lng: at.lng });
      expect(response.body.x).toBeCloseTo(50, 6);
      expect(response.body.y).toBeCloseTo(60, 6);
      const compact = await t.http.post('/api/v1/infrastructure/wifi').set(a.auth).send({ floor_id: site.floor.id, bssid: 'A45E60E81F0D', x: 1, y: 1 });
      expectStatus(compact, 201);
      expect(compact.body.bssid).toBe('a4:5e:60:e8:1f:0d');
    });

    it.each([
      ['a malformed BSSID', 'wifi', { bssid: 'a4:5e:60:e8:1f' }, 'bssid'],
      ['a BSSID with a non-hex digit', 'wifi', { bssid: 'g4:5e:60:e8:1f:01' }, 'bssid'],
      ['a frequency of 0', 'wifi', { frequency: 0 }, 'frequency'],
      ['a malformed UUID', 'ble', { uuid: 'f7826da6-4fa2-4e98-8024' }, 'uuid'],
      ['major 65536', 'ble', { major: 65536 }, 'major'],
      ['minor -1', 'ble', { minor: -1 }, 'minor'],
      ['a fractional minor', 'ble', { minor: 1.5 }, 'minor'],
      ['tx_power 21', 'ble', { tx_power: 21 }, 'tx_power'],
      ['tx_power -101', 'ble', { tx_power: -101 }, 'tx_power'],
      ['battery 101', 'ble', { battery: 101 }, 'battery'],
      ['no position', 'ble', { x: undefined, y: undefined }, 'x'],
      ['lat without lng', 'ble', { x: undefined, y: undefined, lat: 42.87 }, 'lng'],
      ['a position 1 km from the building', 'ble', { x: 1000, y: 20 }, 'x'],
      ['lat/lng on another continent', 'wifi', { x: undefined, y: undefined, lat: 40.7, lng: -74 }, 'lat'],
      ['no floor', 'ble', { floor_id: undefined }, 'floor_id'],
      ['a floor id that is not an integer', 'ble', { floor_id: 'first' }, 'floor_id'],
    ])('refuses %s: 422 naming the field, nothing stored', async (_label, type, overrides, field) => {
      const site = await createSite(t, a.auth);
      const base = type === 'wifi' ? wifi(site.floor.id, 1) : ble(site.floor.id, 1);
      const response = await t.http
        .post(`/api/v1/infrastructure/${type}`)
        .set(a.auth)
        .send({ ...base, ...overrides });
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response)).toContain(field);
      expect((await document(a, site.building.id)).body[type]).toEqual([]);
    });

    it("refuses another organization's floor as 422, and a floor that does not exist", async () => {
      const theirs = await createSite(t, b.auth);
      const response = await t.http.post('/api/v1/infrastructure/ble').set(a.auth).send(ble(theirs.floor.id, 1));
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response)).toEqual(['floor_id']);
      expect(await t.dataSource.getRepository(BleBeacon).countBy({ floorId: theirs.floor.id })).toBe(0);
    });

    it('a beacon (uuid, major, minor) or a BSSID is unique per building: 409; the same in another building is fine', async () => {
      const site = await createSite(t, a.auth);
      const upstairs = await createFloor(t, a.auth, site.building.id, { level: 1 });
      await t.http.post('/api/v1/infrastructure/ble').set(a.auth).send(ble(site.floor.id, 3)).expect(201);
      await t.http.post('/api/v1/infrastructure/wifi').set(a.auth).send(wifi(site.floor.id, 3)).expect(201);
      const again = await t.http
        .post('/api/v1/infrastructure/ble')
        .set(a.auth)
        .send(ble(upstairs.id, 3, { uuid: UUID_A.toUpperCase(), x: 50 }));
      expectError(again, 409, 'conflict');
      expect(errorFields(again)).toEqual(['uuid,major,minor']);
      const sameBssid = await t.http
        .post('/api/v1/infrastructure/wifi')
        .set(a.auth)
        .send(wifi(upstairs.id, 3, { bssid: 'A4:5E:60:E8:1F:03' }));
      expectError(sameBssid, 409, 'conflict');
      const other = await createSite(t, a.auth);
      await t.http.post('/api/v1/infrastructure/ble').set(a.auth).send(ble(other.floor.id, 3)).expect(201);
      await t.http.post('/api/v1/infrastructure/wifi').set(a.auth).send(wifi(other.floor.id, 3)).expect(201);
      expect(await t.dataSource.getRepository(BleBeacon).countBy({ buildingId: site.building.id })).toBe(1);
    });

    it('updates only what is sent (PUT and PATCH), keeps x/y when moving floors, honours If-Match, refuses a taken identity', async () => {
      const site = await createSite(t, a.auth);
      const upstairs = await createFloor(t, a.auth, site.building.id, { level: 1 });
      const created = (await t.http.post('/api/v1/infrastructure/ble').set(a.auth).send(ble(site.floor.id, 1)).expect(201)).body;
      await t.http.post('/api/v1/infrastructure/ble').set(a.auth).send(ble(site.floor.id, 2)).expect(201);

      const moved = await t.http.put(`/api/v1/infrastructure/ble/${created.id}`).set(a.auth).set('If-Match', '"1"').send({ floor_id: upstairs.id, battery: null });
      expectStatus(moved, 200);
      expect(moved.body).toEqual({ ...created, floor_id: upstairs.id, battery: null, updated_at: expect.stringMatching(TIMESTAMP) });
      expect(moved.headers.etag).toBe('"2"');

      const stale = await t.http.patch(`/api/v1/infrastructure/ble/${created.id}`).set(a.auth).set('If-Match', '"1"').send({ minor: 9 });
      expectError(stale, 409, 'conflict');
      const taken = await t.http.patch(`/api/v1/infrastructure/ble/${created.id}`).set(a.auth).send({ minor: 2 });
      expectError(taken, 409, 'conflict');

      const repositioned = await t.http.patch(`/api/v1/infrastructure/ble/${created.id}`).set(a.auth).send({ x: 5, y: 6, tx_power: 4 });
      expectStatus(repositioned, 200);
      const at = toGeoreference(frameOf(site.building), { x: 5, y: 6 });
      expect(repositioned.body).toMatchObject({ x: 5, y: 6, lat: at.lat, lng: at.lng, tx_power: 4, minor: 1, floor_id: upstairs.id });
      const halfPosition = await t.http.patch(`/api/v1/infrastructure/ble/${created.id}`).set(a.auth).send({ x: 7 });
      expectError(halfPosition, 422, 'validation_failed');
      expect(errorFields(halfPosition)).toEqual(['y']);

      const elsewhere = await createSite(t, a.auth);
      const otherBuilding = await t.http.patch(`/api/v1/infrastructure/ble/${created.id}`).set(a.auth).send({ floor_id: elsewhere.floor.id });
      expectError(otherBuilding, 422, 'validation_failed');
      expect(errorFields(otherBuilding)).toEqual(['floor_id']);

      const row = await t.dataSource.getRepository(BleBeacon).findOneByOrFail({ id: created.id });
      expect(row).toMatchObject({ floorId: upstairs.id, x: 5, y: 6, txPower: 4, battery: null, version: 3 });
    });

    it('deletes: 204, then 404 everywhere', async () => {
      const site = await createSite(t, a.auth);
      const created = (await t.http.post('/api/v1/infrastructure/wifi').set(a.auth).send(wifi(site.floor.id, 1)).expect(201)).body;
      await t.http.delete(`/api/v1/infrastructure/wifi/${created.id}`).set(a.auth).expect(204);
      expectError(await t.http.get(`/api/v1/infrastructure/wifi/${created.id}`).set(a.auth), 404, 'entity_not_found');
      expectError(await t.http.delete(`/api/v1/infrastructure/wifi/${created.id}`).set(a.auth), 404, 'entity_not_found');
      expect(await t.dataSource.getRepository(WifiAccessPoint).countBy({ id: created.id })).toBe(0);
    });
  });

  describe('GET /api/v1/infrastructure', () => {
    it('answers the section 9 document; floor_id and type filter; beacon_uuids joins the beacons and the beacons_uuids custom field', async () => {
      const site = await createSite(t, a.auth, { custom_fields: [{ key: 'beacons_uuids', value: `${UUID_B.toUpperCase()}, not-a-uuid;${UUID_A}` }] });
      const upstairs = await createFloor(t, a.auth, site.building.id, { level: 1 });
      const b1 = (await t.http.post('/api/v1/infrastructure/ble').set(a.auth).send(ble(site.floor.id, 1)).expect(201)).body;
      const b2 = (
        await t.http
          .post('/api/v1/infrastructure/ble')
          .set(a.auth)
          .send(ble(upstairs.id, 2, { uuid: '00000000-0000-0000-0000-0000000000aa' }))
          .expect(201)
      ).body;
      const w1 = (await t.http.post('/api/v1/infrastructure/wifi').set(a.auth).send(wifi(upstairs.id, 1)).expect(201)).body;

      const all = await document(a, site.building.id);
      expectStatus(all, 200);
      expect(keysOf(all.body)).toEqual(DOCUMENT_KEYS);
      expect(all.body).toEqual({ building_id: site.building.id, beacon_uuids: ['00000000-0000-0000-0000-0000000000aa', UUID_B, UUID_A], wifi: [w1], ble: [b1, b2] });
      expect((await document(a, site.building.id, `&floor_id=${upstairs.id}`)).body).toMatchObject({ wifi: [w1], ble: [b2] });
      expect((await document(a, site.building.id, '&type=wifi')).body).toMatchObject({ wifi: [w1], ble: [] });
      expect((await document(a, site.building.id, `&type=ble&floor_id=${site.floor.id}`)).body).toMatchObject({ wifi: [], ble: [b1] });

      // A deleted floor takes its transmitters out of the document.
      await t.http.delete(`/api/v1/floors/${upstairs.id}`).set(a.auth).expect(204);
      expect((await document(a, site.building.id)).body).toEqual({ building_id: site.building.id, beacon_uuids: [UUID_B, UUID_A], wifi: [], ble: [b1] });
      expectError(await t.http.get(`/api/v1/infrastructure/wifi/${w1.id}`).set(a.auth), 404, 'entity_not_found');
    });

    it.each([
      ['no building_id', ''],
      ['a malformed building_id', '?building_id=abc'],
      ['an unknown type', '?building_id=1&type=lora'],
      ['a malformed floor_id', '?building_id=1&floor_id=-2'],
    ])('refuses %s: 400', async (_label, query) => {
      expectError(await t.http.get(`/api/v1/infrastructure${query}`).set(a.auth), 400, 'bad_request');
    });
  });

  describe('PUT /api/v1/infrastructure?building_id= (replace the set)', () => {
    it('keeps the ids of transmitters still listed, updates the changed ones, removes the others and adds the new ones', async () => {
      const site = await createSite(t, a.auth);
      const kept = (await t.http.post('/api/v1/infrastructure/ble').set(a.auth).send(ble(site.floor.id, 1)).expect(201)).body;
      const changed = (await t.http.post('/api/v1/infrastructure/ble').set(a.auth).send(ble(site.floor.id, 2)).expect(201)).body;
      const gone = (await t.http.post('/api/v1/infrastructure/wifi').set(a.auth).send(wifi(site.floor.id, 1)).expect(201)).body;

      const current = (await document(a, site.building.id)).body;
      const body = {
        ...current,
        ble: [current.ble[0], { ...current.ble[1], battery: 10, lat: undefined, lng: undefined, x: 3, y: 4 }, ble(site.floor.id, 3)],
        wifi: [wifi(site.floor.id, 9, { bssid: 'A4:5E:60:E8:1F:09' })],
      };
      const response = await t.http.put(`/api/v1/infrastructure?building_id=${site.building.id}`).set(a.auth).send(body);
      expectStatus(response, 200);
      expect(response.body.ble[0]).toEqual(kept);
      expect(response.body.ble[1]).toMatchObject({ id: changed.id, battery: 10, x: 3, y: 4, created_at: changed.created_at });
      expect(response.body.ble[2]).toMatchObject({ minor: 3, x: 13, y: 20 });
      expect(response.body.wifi).toEqual([expect.objectContaining({ bssid: 'a4:5e:60:e8:1f:09' })]);
      expect(await t.dataSource.getRepository(WifiAccessPoint).countBy({ id: gone.id })).toBe(0);
      expect(await document(a, site.building.id).then((read) => read.body)).toEqual(response.body);
      expect((await t.dataSource.getRepository(BleBeacon).findOneByOrFail({ id: changed.id })).version).toBe(2);
      expect((await t.dataSource.getRepository(BleBeacon).findOneByOrFail({ id: kept.id })).version).toBe(1);
    });

    it('with type=ble replaces only the beacons; without type both lists are required', async () => {
      const site = await createSite(t, a.auth);
      const ap = (await t.http.post('/api/v1/infrastructure/wifi').set(a.auth).send(wifi(site.floor.id, 1)).expect(201)).body;
      await t.http.post('/api/v1/infrastructure/ble').set(a.auth).send(ble(site.floor.id, 1)).expect(201);
      const onlyBle = await t.http.put(`/api/v1/infrastructure?building_id=${site.building.id}&type=ble`).set(a.auth).send({ ble: [] });
      expectStatus(onlyBle, 200);
      expect(onlyBle.body).toMatchObject({ wifi: [ap], ble: [] });
      const missing = await t.http.put(`/api/v1/infrastructure?building_id=${site.building.id}`).set(a.auth).send({ ble: [] });
      expectError(missing, 422, 'validation_failed');
      expect(errorFields(missing)).toEqual(['wifi']);
      expect((await document(a, site.building.id)).body.wifi).toEqual([ap]);
    });

    it('is all or nothing: one bad item (or a floor of another building) is 422 naming its index; a duplicate is 409; nothing changes', async () => {
      const site = await createSite(t, a.auth);
      const other = await createSite(t, a.auth);
      const before = (await t.http.post('/api/v1/infrastructure/ble').set(a.auth).send(ble(site.floor.id, 1)).expect(201)).body;
      const url = `/api/v1/infrastructure?building_id=${site.building.id}`;

      const invalid = await t.http
        .put(url)
        .set(a.auth)
        .send({ wifi: [wifi(site.floor.id, 1), wifi(site.floor.id, 2, { bssid: 'nope' })], ble: [ble(site.floor.id, 5, { major: 70000 }), 'x'] });
      expectError(invalid, 422, 'validation_failed');
      expect(errorFields(invalid).sort()).toEqual(['ble[0].major', 'ble[1]', 'wifi[1].bssid']);

      const wrongFloor = await t.http
        .put(url)
        .set(a.auth)
        .send({ wifi: [], ble: [ble(site.floor.id, 5), ble(other.floor.id, 6)] });
      expectError(wrongFloor, 422, 'validation_failed');
      expect(errorFields(wrongFloor)).toEqual(['ble[1].floor_id']);

      const twice = await t.http
        .put(url)
        .set(a.auth)
        .send({ wifi: [wifi(site.floor.id, 1), wifi(site.floor.id, 1, { bssid: 'A4-5E-60-E8-1F-01' })], ble: [] });
      expectError(twice, 409, 'conflict');
      expect(errorFields(twice)).toEqual(['wifi[1].bssid']);

      expect((await document(a, site.building.id)).body).toMatchObject({ wifi: [], ble: [before] });
    });
  });

  describe('concurrent writers', () => {
    it('two replacements at once end as one of them, never a mix; two creations of one beacon give 201 and 409', async () => {
      const site = await createSite(t, a.auth);
      const url = `/api/v1/infrastructure?building_id=${site.building.id}`;
      const first = { wifi: [wifi(site.floor.id, 1)], ble: [1, 2, 3].map((minor) => ble(site.floor.id, minor)) };
      const second = { wifi: [], ble: [2, 3, 4, 5].map((minor) => ble(site.floor.id, minor, { battery: 5 })) };
      const answers = await Promise.all([t.http.put(url).set(a.auth).send(first), t.http.put(url).set(a.auth).send(second)]);
      for (const answer of answers) expectStatus(answer, 200);
      const final = (await document(a, site.building.id)).body;
      const shape = (body: { wifi: Array<{ bssid: string }>; ble: Array<{ minor: number; battery: number }> }) => ({
        wifi: body.wifi.map((item) => item.bssid),
        ble: body.ble.map((item) => [item.minor, item.battery]).sort(),
      });
      expect([shape(answers[0].body), shape(answers[1].body)]).toContainEqual(shape(final));

      const creations = await Promise.all([0, 1].map(() => t.http.post('/api/v1/infrastructure/ble').set(a.auth).send(ble(site.floor.id, 99))));
      expect(creations.map((response) => response.status).sort()).toEqual([201, 409]);
      expect(await t.dataSource.getRepository(BleBeacon).countBy({ buildingId: site.building.id, minor: 99 })).toBe(1);
    });
  });

  describe('CSV import and export', () => {
    it('exports with Accept: text/csv, and a CSV put back unchanged changes nothing (round trip)', async () => {
      const site = await createSite(t, a.auth);
      const upstairs = await createFloor(t, a.auth, site.building.id, { level: 1 });
      await t.http
        .put(`/api/v1/infrastructure?building_id=${site.building.id}`)
        .set(a.auth)
        .send({
          wifi: [wifi(site.floor.id, 1, { ssid: 'Guest, "free"\nwifi' }), wifi(upstairs.id, 2, { ssid: null, frequency: null })],
          ble: [ble(site.floor.id, 1), ble(upstairs.id, 2, { tx_power: null, battery: null, x: 12.345678901234, y: 0.1 })],
        })
        .expect(200);
      const json = (await document(a, site.building.id)).body;

      const csv = await t.http.get(`/api/v1/infrastructure?building_id=${site.building.id}`).set(a.auth).set('Accept', 'text/csv');
      expectStatus(csv, 200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      expect(csv.headers['content-disposition']).toBe(`attachment; filename="infrastructure-${site.building.id}.csv"`);
      const lines = csv.text.split('\r\n');
      expect(lines[0]).toBe('type,id,floor_id,x,y,lat,lng,bssid,ssid,frequency,uuid,major,minor,tx_power,battery');
      const [w1, w2] = json.wifi;
      expect(lines[1]).toBe(`wifi,${w1.id},${site.floor.id},${w1.x},${w1.y},${w1.lat},${w1.lng},a4:5e:60:e8:1f:01,"Guest, ""free""\nwifi",2437,,,,,`);
      expect(lines[2]).toBe(`wifi,${w2.id},${upstairs.id},${w2.x},${w2.y},${w2.lat},${w2.lng},a4:5e:60:e8:1f:02,,,,,,,`);

      const back = await t.http.put(`/api/v1/infrastructure?building_id=${site.building.id}`).set(a.auth).set('Content-Type', 'text/csv').send(csv.text);
      expectStatus(back, 200);
      expect(back.body).toEqual(json);

      // Emptied, then imported again: the same transmitters (new ids), the same CSV apart from the ids.
      await t.http.put(`/api/v1/infrastructure?building_id=${site.building.id}`).set(a.auth).send({ wifi: [], ble: [] }).expect(200);
      await t.http.put(`/api/v1/infrastructure?building_id=${site.building.id}`).set(a.auth).set('Content-Type', 'text/csv; charset=utf-8').send(csv.text).expect(200);
      const again = await t.http.get(`/api/v1/infrastructure?building_id=${site.building.id}`).set(a.auth).set('Accept', 'text/csv');
      const withoutIds = (text: string) => text.split('\r\n').map((line) => line.replace(/^(wifi|ble),\d+,/, '$1,,'));
      expect(withoutIds(again.text)).toEqual(withoutIds(csv.text));
    });

    it('imports a spreadsheet with semicolons, decimal commas, any column order, upper-case identifiers; answers CSV when asked', async () => {
      const site = await createSite(t, a.auth);
      const text = ['Type;UUID;Major;Minor;X;Y;Floor_ID;Notes', `BLE;${UUID_B.toUpperCase()};7;8;12,5;3;${site.floor.id};by the door`, ''].join('\n');
      const response = await t.http
        .put(`/api/v1/infrastructure?building_id=${site.building.id}&type=ble`)
        .set(a.auth)
        .set('Content-Type', 'text/csv')
        .set('Accept', 'text/csv')
        .send(text);
      expectStatus(response, 200);
      expect(response.headers['content-type']).toMatch(/^text\/csv/);
      expect(response.text.split('\r\n')[1]).toMatch(new RegExp(`^ble,\\d+,${site.floor.id},12.5,3,[-\\d.]+,[-\\d.]+,,,,${UUID_B},7,8,,$`));
    });

    it.each([
      ['an unclosed quote', 'type,floor_id,x,y,bssid\nwifi,1,2,3,"a4:5e', 'line 2'],
      ['no type column', 'floor_id,x,y,bssid\n1,2,3,a4:5e:60:e8:1f:01\n', 'line 1.type'],
      ['an unknown type', 'type,floor_id,x,y\nlora,1,2,3\n', 'line 2.type'],
      ['a bad BSSID on line 3', 'type,floor_id,x,y,bssid\nwifi,FLOOR,2,3,a4:5e:60:e8:1f:01\nwifi,FLOOR,2,3,zz\n', 'line 3.bssid'],
      ['a number that is not one', 'type,floor_id,x,y,uuid,major,minor\nble,FLOOR,2,3,f7826da6-4fa2-4e98-8024-bc5b71e0893e,one,2\n', 'line 2.major'],
      ['an empty body', '', 'body'],
    ])('refuses a CSV with %s: 422 naming the line, nothing changed', async (_label, text, field) => {
      const site = await createSite(t, a.auth);
      const existing = (await t.http.post('/api/v1/infrastructure/wifi').set(a.auth).send(wifi(site.floor.id, 7)).expect(201)).body;
      const response = await t.http
        .put(`/api/v1/infrastructure?building_id=${site.building.id}`)
        .set(a.auth)
        .set('Content-Type', 'text/csv')
        .send(text.replaceAll('FLOOR', String(site.floor.id)));
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response)).toContain(field);
      expect((await document(a, site.building.id)).body.wifi).toEqual([existing]);
    });
  });

  describe('bodies of the wrong kind', () => {
    it('a CSV body where JSON is expected is 422, never a 500; an unknown media type is 415', async () => {
      const site = await createSite(t, a.auth);
      const csvToJsonRoute = await t.http.post('/api/v1/infrastructure/ble').set(a.auth).set('Content-Type', 'text/csv').send('type,floor_id\nble,1\n');
      expectError(csvToJsonRoute, 422, 'validation_failed');
      const csvToPois = await t.http.post('/api/v1/pois').set(a.auth).set('Content-Type', 'text/csv').send('name\nx\n');
      expectError(csvToPois, 422, 'validation_failed');
      const xml = await t.http.put(`/api/v1/infrastructure?building_id=${site.building.id}`).set(a.auth).set('Content-Type', 'application/xml').send('<wifi/>');
      expectError(xml, 415, 'unsupported_media_type');
      const jsonArray = await t.http.put(`/api/v1/infrastructure?building_id=${site.building.id}`).set(a.auth).send([]);
      expectError(jsonArray, 422, 'validation_failed');
    });
  });

  describe('permissions (contract 2.3) and organization isolation', () => {
    it.each(CARTOGRAPHY_KEY_LEVELS)('a %s key reads the infrastructure; writes it only when it covers cartography (%s)', async (permission, canWrite) => {
      const auth = asApiKey((await createApiKey(t, a.token, permission)).apikey);
      const site = await createSite(t, a.auth);
      const beacon = (await t.http.post('/api/v1/infrastructure/ble').set(a.auth).send(ble(site.floor.id, 1)).expect(201)).body;
      expectStatus(await t.http.get(`/api/v1/infrastructure?building_id=${site.building.id}`).set(auth), 200);
      expectStatus(await t.http.get(`/api/v1/infrastructure?building_id=${site.building.id}`).set(auth).set('Accept', 'text/csv'), 200);
      expectStatus(await t.http.get(`/api/v1/infrastructure/ble/${beacon.id}`).set(auth), 200);

      const writes = [
        await t.http.post('/api/v1/infrastructure/ble').set(auth).send(ble(site.floor.id, 2)),
        await t.http.post('/api/v1/infrastructure/wifi').set(auth).send(wifi(site.floor.id, 2)),
        await t.http.patch(`/api/v1/infrastructure/ble/${beacon.id}`).set(auth).send({ battery: 1 }),
        await t.http.put(`/api/v1/infrastructure?building_id=${site.building.id}&type=wifi`).set(auth).send({ wifi: [] }),
      ];
      for (const response of writes) {
        if (canWrite) expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
        else expectError(response, 403, 'forbidden');
      }
      const remove = await t.http.delete(`/api/v1/infrastructure/ble/${beacon.id}`).set(auth);
      if (canWrite) expectStatus(remove, 204);
      else {
        expectError(remove, 403, 'forbidden');
        expect(await t.dataSource.getRepository(BleBeacon).findOneByOrFail({ id: beacon.id })).toMatchObject({ battery: 80, version: 1 });
        expect(await t.dataSource.getRepository(BleBeacon).countBy({ buildingId: site.building.id })).toBe(1);
      }
    });

    it("every route treats another organization's building and transmitters as not found, and changes nothing", async () => {
      const site = await createSite(t, a.auth);
      const beacon = (await t.http.post('/api/v1/infrastructure/ble').set(a.auth).send(ble(site.floor.id, 1)).expect(201)).body;
      const ap = (await t.http.post('/api/v1/infrastructure/wifi').set(a.auth).send(wifi(site.floor.id, 1)).expect(201)).body;
      const attempts = [
        t.http.get(`/api/v1/infrastructure?building_id=${site.building.id}`),
        t.http.get(`/api/v1/infrastructure?building_id=${site.building.id}`).set('Accept', 'text/csv'),
        t.http.put(`/api/v1/infrastructure?building_id=${site.building.id}`).send({ wifi: [], ble: [] }),
        t.http.put(`/api/v1/infrastructure?building_id=${site.building.id}`).set('Content-Type', 'text/csv').send('type,floor_id,x,y\n'),
        t.http.get(`/api/v1/infrastructure/ble/${beacon.id}`),
        t.http.put(`/api/v1/infrastructure/ble/${beacon.id}`).send({ battery: 1 }),
        t.http.patch(`/api/v1/infrastructure/wifi/${ap.id}`).send({ ssid: 'Hijacked' }),
        t.http.delete(`/api/v1/infrastructure/ble/${beacon.id}`),
        t.http.delete(`/api/v1/infrastructure/wifi/${ap.id}`),
      ];
      for (const attempt of attempts) expectError(await attempt.set(b.auth), 404, 'entity_not_found');
      const post = await t.http.post('/api/v1/infrastructure/ble').set(b.auth).send(ble(site.floor.id, 9));
      expectError(post, 422, 'validation_failed');
      expect((await document(a, site.building.id)).body).toMatchObject({ wifi: [ap], ble: [beacon] });
    });
  });

  describe('building restriction (building_ids on a USER)', () => {
    it("a restricted user reads and writes the infrastructure of its buildings only; the others' are not found", async () => {
      const mine = await createSite(t, a.auth);
      const other = await createSite(t, a.auth);
      const hidden = (await t.http.post('/api/v1/infrastructure/ble').set(a.auth).send(ble(other.floor.id, 1)).expect(201)).body;
      const user = await addUser(t, a.auth, { building_ids: [mine.building.id] });
      const { auth } = await login(t, user.email, user.password);
      expectStatus(await t.http.get(`/api/v1/infrastructure?building_id=${mine.building.id}`).set(auth), 200);
      expectError(await t.http.get(`/api/v1/infrastructure?building_id=${other.building.id}`).set(auth), 404, 'entity_not_found');
      expectError(await t.http.get(`/api/v1/infrastructure/ble/${hidden.id}`).set(auth), 404, 'entity_not_found');
      expectError(await t.http.patch(`/api/v1/infrastructure/ble/${hidden.id}`).set(auth).send({ battery: 1 }), 404, 'entity_not_found');
      expectError(await t.http.post('/api/v1/infrastructure/wifi').set(auth).send(wifi(other.floor.id, 1)), 422, 'validation_failed');
    });
  });

  describe('scan positioning (the service behind POST /api/v1/realtime/scans)', () => {
    let site: Site;
    let principal: Principal;
    const grid: Array<{ minor: number; x: number; y: number }> = [];

    beforeAll(async () => {
      site = await createSite(t, a.auth, { dimensions: { width: 60, length: 40 }, rotation: 0 });
      for (let column = 0; column < 6; column += 1) for (let row = 0; row < 4; row += 1) grid.push({ minor: column * 4 + row, x: 5 + column * 10, y: 5 + row * 10 });
      await t.http
        .put(`/api/v1/infrastructure?building_id=${site.building.id}`)
        .set(a.auth)
        .send({ wifi: [wifi(site.floor.id, 1, { x: 30, y: 20 })], ble: grid.map((beacon) => ble(site.floor.id, beacon.minor, { x: beacon.x, y: beacon.y })) })
        .expect(200);
      principal = {
        userId: a.org.adminId,
        organizationId: a.org.organizationId,
        email: a.org.email,
        role: Role.AdminOrg,
        permission: ApiPermission.Positioning,
        credential: CredentialKind.ApiKey,
        apiKeyId: null,
        sessionId: null,
        buildingIds: null,
      };
    });

    const scanAt = (at: { x: number; y: number }, random: () => number) =>
      grid.map((beacon) => ({
        uuid: UUID_A.toUpperCase(),
        major: 1,
        minor: beacon.minor,
        rssi: Math.round(-59 - 30 * Math.log10(Math.max(0.5, Math.hypot(at.x - beacon.x, at.y - beacon.y))) + 2 * gaussian(random)),
      }));

    it('turns scans into fixes (building found from the transmitters when not given) and rejects the ones it cannot place, with reasons', async () => {
      const random = seededRandom(15);
      const service = t.app.get(ScanPositioningService);
      const theirs = await createSite(t, b.auth);
      const spots = [
        { x: 12, y: 17 },
        { x: 41, y: 9 },
        { x: 30, y: 30 },
      ];
      const scans = [
        { device_id: 'tag-1', time: '2026-11-23T01:00:00.000Z', building_id: site.building.id, ble: scanAt(spots[0], random) },
        { device_id: 'tag-1', time: Date.parse('2026-11-23T01:00:01.000Z'), ble: scanAt(spots[1], random), wifi: [{ bssid: 'A4-5E-60-E8-1F-01', rssi: -60 }] },
        { device_id: 'tag-2', time: '2026-11-23T01:00:02.000Z', ble: scanAt(spots[2], random) },
        { device_id: 'tag-3', time: '2026-11-23T01:00:00.000Z', ble: [{ uuid: UUID_B, major: 1, minor: 1, rssi: -50 }] },
        { device_id: 'tag-4', time: '2026-11-23T01:00:00.000Z', ble: [] },
        { device_id: 'tag-5', time: 'yesterday', ble: scanAt(spots[0], random) },
        { device_id: 'tag-6', time: '2026-11-23T01:00:00.000Z', building_id: theirs.building.id, ble: scanAt(spots[0], random) },
        { device_id: 'tag-7', time: '2026-11-23T01:00:00.000Z', ble: [{ uuid: UUID_A, major: 70000, minor: 1, rssi: -50 }] },
      ];
      const result = await service.estimateBatch(principal, scans);
      expect(result.rejected).toEqual([
        { index: 3, code: 'no_known_transmitters', fields: '[3]', message: expect.any(String) },
        { index: 4, code: 'no_readings', fields: '[4]', message: expect.any(String) },
        { index: 5, code: 'invalid', fields: '[5].time', message: expect.any(String) },
        { index: 6, code: 'not_found', fields: '[6].building_id', message: expect.any(String) },
        { index: 7, code: 'invalid', fields: '[7].ble[0].major', message: expect.any(String) },
      ]);
      expect(result.fixes.map((fix) => fix.index)).toEqual([0, 1, 2]);
      for (const [position, fix] of result.fixes.entries()) {
        expect(fix).toMatchObject({ building_id: site.building.id, floor_id: site.floor.id, method: 'fit' });
        const error = Math.hypot(fix.x - spots[position].x, fix.y - spots[position].y);
        expect(error).toBeLessThan(3);
        expect(fix.accuracy).toBeGreaterThanOrEqual(1);
        const expected = toGeoreference(frameOf(site.building), fix);
        expect(fix.lat).toBeCloseTo(expected.lat, 10);
        expect(fix.lng).toBeCloseTo(expected.lng, 10);
      }
      // A floor with no model yet: its strongest 16 of the 25 heard (issue 36: a floor with a model counts every reading).
      expect(new Set((scans[1].ble as Array<{ minor: number }>).map((reading) => reading.minor)).size + 1).toBeGreaterThan(16);
      expect(result.fixes[1]).toMatchObject({ device_id: 'tag-1', time: new Date('2026-11-23T01:00:01.000Z'), transmitters_used: 16 });
      expect(result.fixes[1].used.some((used) => used.type === 'wifi')).toBe(true);
    });
  });
});
