import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { Gateway } from '../../src/infrastructure/gateway.entity';
import { DeviceTagKey } from '../../src/positions/device-tag-key.entity';
import { TagObservationsRepository } from '../../src/positions/tag-observations.repository';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, CARTOGRAPHY_KEY_LEVELS, createFloor, createSite, errorFields, expectError, expectStatus, keysOf, signUp, TIMESTAMP } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

const GATEWAYS = '/api/v1/infrastructure/gateways';
const DEVICES = '/api/v1/devices';
const UUID = 'e2c56db5-dffb-48d2-b060-d0f5a71096e0';
const GATEWAY_KEYS = ['building_id', 'created_at', 'floor_id', 'format', 'hardware_id', 'height_m', 'id', 'lat', 'lng', 'name', 'updated_at', 'x', 'y'];

describe('gateways (issue 39)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Gateways A');
    b = await signUp(t, 'Gateways B');
  });
  afterAll(async () => t?.close());

  let macs = 0;
  /** A fresh MAC, upper case with colons as a Ruuvi Gateway prints it. */
  const nextMac = () => {
    macs += 1;
    return `AA:CC:EE:00:${(macs >> 8).toString(16).padStart(2, '0').toUpperCase()}:${(macs & 0xff).toString(16).padStart(2, '0').toUpperCase()}`;
  };
  const compact = (mac: string) => mac.replace(/[:-]/g, '').toLowerCase();
  const gateway = (floorId: number, overrides: Record<string, unknown> = {}) => ({
    floor_id: floorId,
    hardware_id: nextMac(),
    format: 'ruuvi',
    x: 10,
    y: 20,
    height_m: 2.8,
    name: 'Corridor',
    ...overrides,
  });
  const create = async (c: Cartographer, body: Record<string, unknown>, status = 201) => {
    const response = await t.http.post(GATEWAYS).set(c.auth).send(body);
    expectStatus(response, status);
    return response;
  };

  describe('CRUD', () => {
    it('registers a gateway: 201, both coordinate systems, the hardware id normalised, an ETag; GET reads it back', async () => {
      const site = await createSite(t, a.auth);
      const mac = nextMac();
      const response = await create(a, {
        ...gateway(site.floor.id),
        hardware_id: mac.toLowerCase().replace(/:/g, '-'),
        building_id: site.building.id,
        id: 7,
        organization_id: b.org.organizationId,
      });
      expect(keysOf(response.body)).toEqual(GATEWAY_KEYS);
      expect(response.body).toMatchObject({
        building_id: site.building.id,
        floor_id: site.floor.id,
        x: 10,
        y: 20,
        height_m: 2.8,
        hardware_id: compact(mac),
        name: 'Corridor',
        format: 'ruuvi',
      });
      expect(response.body.created_at).toMatch(TIMESTAMP);
      expect(response.headers.etag).toBe('"1"');
      const row = await t.dataSource.getRepository(Gateway).findOneByOrFail({ id: response.body.id });
      expect(row.organizationId).toBe(a.org.organizationId);
      const read = await t.http.get(`${GATEWAYS}/${response.body.id}`).set(a.auth);
      expectStatus(read, 200);
      expect(read.body).toEqual(response.body);
      const list = await t.http.get(`${GATEWAYS}?building_id=${site.building.id}`).set(a.auth);
      expectStatus(list, 200);
      expect(list.body).toEqual([response.body]);
    });

    it('takes lat/lng, a node name as hardware id (lower-cased), no height (null) and no name', async () => {
      const site = await createSite(t, a.auth);
      const placed = await create(a, gateway(site.floor.id, { x: 30, y: 30 }));
      const response = await create(a, { floor_id: site.floor.id, hardware_id: 'Kitchen-Node', format: 'cartograph', lat: placed.body.lat, lng: placed.body.lng });
      expect(response.body).toMatchObject({ hardware_id: 'kitchen-node', height_m: null, name: '', format: 'cartograph' });
      expect(response.body.x).toBeCloseTo(30, 6);
    });

    it.each([
      ['a hardware id with a space', { hardware_id: 'my gateway' }, 'hardware_id'],
      ['no hardware id', { hardware_id: undefined }, 'hardware_id'],
      ['an unknown format', { format: 'bluecats' }, 'format'],
      ['no format', { format: undefined }, 'format'],
      ['a negative height', { height_m: -1 }, 'height_m'],
      ['no position', { x: undefined, y: undefined }, 'x'],
      ['a position 1 km away', { x: 1000 }, 'x'],
      ['a name of 256 characters', { name: 'n'.repeat(256) }, 'name'],
    ])('refuses %s with 422 naming the field', async (_label, overrides, field) => {
      const site = await createSite(t, a.auth);
      const response = await t.http.post(GATEWAYS).set(a.auth).send(gateway(site.floor.id, overrides));
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response)).toContain(field);
    });

    it('refuses a building_id that is not the floor’s (422), and a hardware id taken in the organization in any form (409); another organization may use it', async () => {
      const site = await createSite(t, a.auth);
      const other = await createSite(t, a.auth);
      const wrong = await t.http
        .post(GATEWAYS)
        .set(a.auth)
        .send(gateway(site.floor.id, { building_id: other.building.id }));
      expectError(wrong, 422, 'validation_failed');
      expect(errorFields(wrong)).toEqual(['building_id']);
      const mac = nextMac();
      await create(a, gateway(site.floor.id, { hardware_id: mac }));
      const again = await t.http
        .post(GATEWAYS)
        .set(a.auth)
        .send(gateway(other.floor.id, { hardware_id: compact(mac).toUpperCase() }));
      expectError(again, 409, 'conflict');
      expect(errorFields(again)).toEqual(['hardware_id']);
      const siteB = await createSite(t, b.auth);
      await create(b, gateway(siteB.floor.id, { hardware_id: mac }));
    });

    it('updates partially by PUT and PATCH (ETag checked), moves floors within the building, refuses null for what cannot be null, deletes', async () => {
      const site = await createSite(t, a.auth);
      const upper = await createFloor(t, a.auth, site.building.id, { level: 1 });
      const created = await create(a, gateway(site.floor.id));
      const url = `${GATEWAYS}/${created.body.id}`;
      const renamed = await t.http.put(url).set(a.auth).set('If-Match', '"1"').send({ name: 'Hall', floor_id: upper.id, height_m: null });
      expectStatus(renamed, 200);
      expect(renamed.body).toMatchObject({ name: 'Hall', floor_id: upper.id, height_m: null, x: 10, y: 20, hardware_id: created.body.hardware_id });
      expect(renamed.headers.etag).toBe('"2"');
      expectError(await t.http.put(url).set(a.auth).set('If-Match', '"1"').send({ name: 'Stale' }), 409, 'conflict');
      const patched = await t.http.patch(url).set(a.auth).send({ format: 'minew', x: 12, y: 22 });
      expectStatus(patched, 200);
      expect(patched.body).toMatchObject({ format: 'minew', x: 12, y: 22, name: 'Hall' });
      for (const field of ['name', 'format', 'hardware_id', 'floor_id', 'x']) {
        const response = await t.http
          .put(url)
          .set(a.auth)
          .send({ [field]: null });
        expectError(response, 422, 'validation_failed');
        expect(new Set(errorFields(response))).toEqual(new Set([field]));
      }
      const elsewhere = await createSite(t, a.auth);
      expectError(await t.http.put(url).set(a.auth).send({ floor_id: elsewhere.floor.id }), 422, 'validation_failed');
      await t.http.delete(url).set(a.auth).expect(204);
      expectError(await t.http.get(url).set(a.auth), 404, 'entity_not_found');
      expectError(await t.http.delete(url).set(a.auth), 404, 'entity_not_found');
    });
  });

  describe('isolation and permissions', () => {
    it('a gateway of another organization does not exist for the caller (404), nor its building’s list', async () => {
      const site = await createSite(t, a.auth);
      const created = await create(a, gateway(site.floor.id));
      const url = `${GATEWAYS}/${created.body.id}`;
      expectError(await t.http.get(url).set(b.auth), 404, 'entity_not_found');
      expectError(await t.http.put(url).set(b.auth).send({ name: 'Mine' }), 404, 'entity_not_found');
      expectError(await t.http.delete(url).set(b.auth), 404, 'entity_not_found');
      expectError(await t.http.get(`${url}/health`).set(b.auth), 404, 'entity_not_found');
      expectError(await t.http.get(`${GATEWAYS}?building_id=${site.building.id}`).set(b.auth), 404, 'entity_not_found');
      expectError(await t.http.post(GATEWAYS).set(b.auth).send(gateway(site.floor.id)), 422, 'validation_failed');
      expect((await t.http.get(url).set(a.auth)).body.name).toBe('Corridor');
    });

    it.each(CARTOGRAPHY_KEY_LEVELS)('an API key %s reads gateways and writes them only with cartography write (%s)', async (permission, writes) => {
      const site = await createSite(t, a.auth);
      const created = await create(a, gateway(site.floor.id));
      const key = await createApiKey(t, a.token, permission);
      const auth = asApiKey(key.apikey);
      expectStatus(await t.http.get(`${GATEWAYS}/${created.body.id}`).set(auth), 200);
      expectStatus(await t.http.get(`${GATEWAYS}?building_id=${site.building.id}`).set(auth), 200);
      expectStatus(await t.http.get(`${GATEWAYS}/${created.body.id}/health`).set(auth), 200);
      const post = await t.http.post(GATEWAYS).set(auth).send(gateway(site.floor.id));
      const put = await t.http.put(`${GATEWAYS}/${created.body.id}`).set(auth).send({ name: 'Keyed' });
      if (writes) {
        expectStatus(post, 201);
        expectStatus(put, 200);
        await t.http.delete(`${GATEWAYS}/${created.body.id}`).set(auth).expect(204);
      } else {
        expectError(post, 403, 'forbidden');
        expectError(put, 403, 'forbidden');
        expectError(await t.http.delete(`${GATEWAYS}/${created.body.id}`).set(auth), 403, 'forbidden');
      }
    });
  });

  describe('CSV and replacement', () => {
    it('exports with Accept: text/csv (formulas escaped), and the CSV put back unchanged changes nothing', async () => {
      const site = await createSite(t, a.auth);
      const first = await create(a, gateway(site.floor.id, { name: '=HYPERLINK("http://evil")' }));
      const second = await create(a, gateway(site.floor.id, { hardware_id: 'node-2', format: 'cartograph', height_m: null, x: 40, y: 50 }));
      const csv = await t.http.get(`${GATEWAYS}?building_id=${site.building.id}`).set(a.auth).set('Accept', 'text/csv');
      expectStatus(csv, 200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      const lines = csv.text.trim().split('\r\n');
      expect(lines[0]).toBe('id,floor_id,x,y,lat,lng,height_m,hardware_id,name,format');
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
      expect(lines[2]).toMatch(/,,node-2,Corridor,cartograph$/);
      const back = await t.http.put(`${GATEWAYS}?building_id=${site.building.id}`).set(a.auth).set('Content-Type', 'text/csv').send(csv.text);
      expectStatus(back, 200);
      const list = await t.http.get(`${GATEWAYS}?building_id=${site.building.id}`).set(a.auth);
      expect(list.body).toEqual([first.body, second.body]);
    });

    it('replaces a building’s gateways from JSON: kept by hardware id, others removed, new ones added; line-numbered 422 from CSV', async () => {
      const site = await createSite(t, a.auth);
      const kept = await create(a, gateway(site.floor.id));
      const gone = await create(a, gateway(site.floor.id));
      const replaced = await t.http
        .put(`${GATEWAYS}?building_id=${site.building.id}`)
        .set(a.auth)
        .send([
          { ...gateway(site.floor.id), hardware_id: kept.body.hardware_id, name: 'Kept' },
          { floor_id: site.floor.id, hardware_id: 'new-node', format: 'cartograph', x: 5, y: 5 },
        ]);
      expectStatus(replaced, 200);
      expect(replaced.body.map((item: { hardware_id: string }) => item.hardware_id)).toEqual([kept.body.hardware_id, 'new-node']);
      expect(replaced.body[0]).toMatchObject({ id: kept.body.id, name: 'Kept' });
      expectError(await t.http.get(`${GATEWAYS}/${gone.body.id}`).set(a.auth), 404, 'entity_not_found');
      const bad = await t.http
        .put(`${GATEWAYS}?building_id=${site.building.id}`)
        .set(a.auth)
        .set('Content-Type', 'text/csv')
        .send(`floor_id,x,y,hardware_id,format\r\n${site.floor.id},1,1,ok-node,ruuvi\r\n${site.floor.id},1,1,bad node,ruuvi\r\n`);
      expectError(bad, 422, 'validation_failed');
      expect(errorFields(bad)).toEqual(['line 3.hardware_id']);
      const twice = await t.http
        .put(`${GATEWAYS}?building_id=${site.building.id}`)
        .set(a.auth)
        .send([gateway(site.floor.id, { hardware_id: 'twin' }), gateway(site.floor.id, { hardware_id: 'TWIN' })]);
      expectError(twice, 409, 'conflict');
      const elsewhere = await createSite(t, a.auth);
      const taken = await t.http
        .put(`${GATEWAYS}?building_id=${elsewhere.building.id}`)
        .set(a.auth)
        .send([gateway(elsewhere.floor.id, { hardware_id: kept.body.hardware_id })]);
      expectError(taken, 409, 'conflict');
      expect(errorFields(taken)).toEqual(['[0].hardware_id']);
      expect((await t.http.get(`${GATEWAYS}?building_id=${site.building.id}`).set(a.auth)).body).toHaveLength(2);
    });
  });

  describe('tags', () => {
    let tagged = 0;
    const nextId = (label: string) => `${label}-${(tagged += 1)}`;
    const keysOfDevice = async (c: Cartographer, deviceId: string) =>
      (await t.dataSource.getRepository(DeviceTagKey).find({ where: { organizationId: c.org.organizationId, deviceId } })).map((row) => row.key).sort();

    it('creates a device with an iBeacon tag (normalised, 201), stored as its canonical key; GET and the list show it', async () => {
      const id = nextId('badge');
      const created = await t.http
        .post(DEVICES)
        .set(a.auth)
        .send({ id, name: 'Badge', tag: { ibeacon: { uuid: UUID.toUpperCase().replace(/-/g, ''), major: 1, minor: 42 } } });
      expectStatus(created, 201);
      expect(created.body).toMatchObject({ id, name: 'Badge', code: '', last_seen_at: null, last_position: null, tag: { ibeacon: { uuid: UUID, major: 1, minor: 42 } } });
      expect(await keysOfDevice(a, id)).toEqual([`ibeacon:${UUID}:1:42`]);
      expect((await t.http.get(`${DEVICES}/${id}`).set(a.auth)).body.tag).toEqual({ ibeacon: { uuid: UUID, major: 1, minor: 42 } });
      const list = await t.http.get(`${DEVICES}?search=${id}`).set(a.auth);
      expect(list.body.data.map((device: { tag: unknown }) => device.tag)).toEqual([{ ibeacon: { uuid: UUID, major: 1, minor: 42 } }]);
      expectError(await t.http.post(DEVICES).set(a.auth).send({ id }), 409, 'conflict');
    });

    it('takes a MAC in any form and an ESPresense id (whose iBeacon form gives the iBeacon key too); PUT changes or removes the tag', async () => {
      const id = nextId('forklift');
      const created = await t.http
        .post(DEVICES)
        .set(a.auth)
        .send({ id, tag: { mac: 'AC-23-3F-A0-32-08' } });
      expectStatus(created, 201);
      expect(created.body.tag).toEqual({ mac: 'ac233fa03208' });
      expect(await keysOfDevice(a, id)).toEqual(['mac:ac233fa03208']);
      const espresense = await t.http
        .put(`${DEVICES}/${id}`)
        .set(a.auth)
        .send({ tag: { espresense_id: `iBeacon:${UUID}-7-8` } });
      expectStatus(espresense, 200);
      expect(espresense.body.tag).toEqual({ espresense_id: `iBeacon:${UUID}-7-8` });
      expect(await keysOfDevice(a, id)).toEqual([`espresense:ibeacon:${UUID}-7-8`, `ibeacon:${UUID}:7:8`]);
      const renamed = await t.http.patch(`${DEVICES}/${id}`).set(a.auth).send({ name: 'Forklift' });
      expect(renamed.body.tag).toEqual({ espresense_id: `iBeacon:${UUID}-7-8` });
      const removed = await t.http.put(`${DEVICES}/${id}`).set(a.auth).send({ tag: null });
      expectStatus(removed, 200);
      expect(removed.body.tag).toBeNull();
      expect(await keysOfDevice(a, id)).toEqual([]);
    });

    it.each([
      ['no identity', {}],
      ['two identities', { mac: 'ac233fa03208', espresense_id: 'watch' }],
      ['a MAC of 11 digits', { mac: 'ac233fa0320' }],
      ['a major of 70000', { ibeacon: { uuid: UUID, major: 70000, minor: 1 } }],
      ['a bad uuid', { ibeacon: { uuid: 'not-a-uuid', major: 1, minor: 1 } }],
      ['an ESPresense id with a topic separator', { espresense_id: 'a/b' }],
      ['an unknown kind', { bluetooth_name: 'x' }],
    ])('refuses %s with 422', async (_label, tag) => {
      const response = await t.http
        .post(DEVICES)
        .set(a.auth)
        .send({ id: nextId('bad'), tag });
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response).every((field) => field.startsWith('tag'))).toBe(true);
    });

    it('a tag is unique in its organization (409, in any form), not across organizations; deleting the device frees it', async () => {
      const first = nextId('owner');
      await t.http
        .post(DEVICES)
        .set(a.auth)
        .send({ id: first, tag: { mac: '11:22:33:44:55:66' } })
        .expect(201);
      const second = nextId('thief');
      const taken = await t.http
        .post(DEVICES)
        .set(a.auth)
        .send({ id: second, tag: { espresense_id: '112233445566' } });
      expectError(taken, 409, 'conflict');
      expect(errorFields(taken)).toEqual(['tag']);
      expectError(await t.http.get(`${DEVICES}/${second}`).set(a.auth), 404, 'entity_not_found');
      await t.http
        .post(DEVICES)
        .set(b.auth)
        .send({ id: second, tag: { mac: '112233445566' } })
        .expect(201);
      await t.http.delete(`${DEVICES}/${first}`).set(a.auth).expect(204);
      await t.http
        .post(DEVICES)
        .set(a.auth)
        .send({ id: second, tag: { mac: '112233445566' } })
        .expect(201);
    });

    it('creating a device and its tag needs an administrator’s write (403 for other keys)', async () => {
      for (const permission of [ApiPermission.Positioning, ApiPermission.ReadOnly, ApiPermission.CartographyReadWrite]) {
        const key = await createApiKey(t, a.token, permission);
        expectError(
          await t.http
            .post(DEVICES)
            .set(asApiKey(key.apikey))
            .send({ id: nextId('keyed') }),
          403,
          'forbidden',
        );
      }
    });
  });

  describe('HTTP ingest', () => {
    const ingest = (hardwareId: string) => `/api/v1/gateways/${encodeURIComponent(hardwareId)}/observations`;
    const nowSeconds = () => Math.floor(Date.now() / 1000);
    let positioning: Record<string, string>;
    let tagCount = 0;
    beforeAll(async () => {
      positioning = asApiKey((await createApiKey(t, a.token, ApiPermission.Positioning)).apikey);
    });

    /** A registered gateway and a tag (a device with a MAC identity) of organization a. */
    async function setUp(format: string, hardwareId = nextMac()) {
      const site = await createSite(t, a.auth);
      const created = await create(a, gateway(site.floor.id, { hardware_id: hardwareId, format }));
      tagCount += 1;
      const tagMac = `C0:FF:EE:00:00:${tagCount.toString(16).padStart(2, '0')}`;
      const deviceId = `tag-${format}-${tagCount}`;
      await t.http
        .post(DEVICES)
        .set(a.auth)
        .send({ id: deviceId, tag: { mac: tagMac } })
        .expect(201);
      return { gateway: created.body as { id: number; hardware_id: string; building_id: number }, hardwareId, tagMac, deviceId };
    }
    const stored = (deviceId: string) => t.app.get(TagObservationsRepository).window(t.dataSource.manager, a.org.organizationId, deviceId, 0, Date.now() + 120_000);
    const health = async (id: number) => (await t.http.get(`${GATEWAYS}/${id}/health`).set(a.auth).expect(200)).body;

    it('takes a Ruuvi Gateway batch with a positioning key: the tag’s observation stored before 200, the unknown advertiser only counted; a redelivery (same nonce) stores nothing twice', async () => {
      const { gateway: gw, hardwareId, tagMac, deviceId } = await setUp('ruuvi');
      const batch = {
        data: {
          coordinates: '',
          timestamp: nowSeconds(),
          nonce: 12345678,
          gw_mac: hardwareId,
          tags: {
            [tagMac]: { rssi: -70, timestamp: nowSeconds(), data: '0201061BFF99040515714D9FC56DFFF0FFF803E4B516E84D7EF41F0C28CBD6' },
            'DE:AD:BE:EF:00:01': { rssi: -80, timestamp: nowSeconds(), data: '' },
          },
        },
      };
      const first = await t.http.post(ingest(hardwareId)).set(positioning).send(batch);
      expectStatus(first, 200);
      expect(first.body).toEqual({ stored: 1, duplicates: 0, unknown: 1, rejected: 0, last_reason: null });
      const rows = await stored(deviceId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ device_id: deviceId, gateway_id: gw.id, rssi: -70 });
      const again = await t.http.post(ingest(hardwareId.toLowerCase())).set(positioning).send(batch);
      expectStatus(again, 200);
      expect(again.body).toMatchObject({ stored: 0, duplicates: 1, unknown: 1 });
      expect(await stored(deviceId)).toHaveLength(1);
      const next = await t.http
        .post(ingest(hardwareId))
        .set(positioning)
        .send({ data: { ...batch.data, nonce: 12345679 } });
      expect(next.body).toMatchObject({ stored: 1 });
      expect(await stored(deviceId)).toHaveLength(2);
      const h = await health(gw.id);
      expect(h).toMatchObject({
        gateway_id: gw.id,
        silent: false,
        messages: 3,
        observations_stored: 2,
        observations_duplicate: 1,
        unknown_advertisers: 3,
        tags_heard: 1,
        messages_not_understood: 0,
        last_reason: null,
        last_limit: null,
      });
      expect(h.last_seen_at).toMatch(TIMESTAMP);
      expect(h.messages_per_second).toBeGreaterThan(0);
    });

    it('takes a Minew array and Cartograph JSON; the records it cannot read are dropped with the reason on the health', async () => {
      const minew = await setUp('minew');
      const mac = compact(minew.tagMac).toUpperCase();
      const array = [
        { timestamp: new Date().toISOString(), type: 'Gateway', mac: compact(minew.hardwareId).toUpperCase(), gatewayFree: 98, gatewayLoad: 0.05 },
        { timestamp: new Date().toISOString(), type: 'Unknown', mac, bleName: '', rssi: -61, rawData: '' },
        { timestamp: new Date().toISOString(), type: 'Unknown', mac: '0BE383050DE8', bleName: '', rssi: -58, rawData: '' },
      ];
      const m = await t.http.post(ingest(minew.hardwareId)).set(positioning).send(array);
      expectStatus(m, 200);
      expect(m.body).toMatchObject({ stored: 1, unknown: 1 });
      expect(await stored(minew.deviceId)).toHaveLength(1);

      const node = await setUp('cartograph', `pi-node-${tagCount}`);
      const body = {
        time: new Date().toISOString(),
        observations: [
          { tag: node.tagMac.toLowerCase(), rssi: -71 },
          { tag: node.tagMac, rssi: 999 },
          { tag: 'stranger', rssi: -90 },
        ],
      };
      const c = await t.http.post(ingest(node.hardwareId.toUpperCase())).set(positioning).send(body);
      expectStatus(c, 200);
      expect(c.body).toMatchObject({ stored: 1, unknown: 1, rejected: 1, last_reason: expect.stringContaining('rssi 999') });
      const h = await health(node.gateway.id);
      expect(h).toMatchObject({ records_not_understood: 1, messages_not_understood: 0, last_reason: expect.stringContaining('rssi 999') });
      expect(h.last_reason_at).toMatch(TIMESTAMP);
    });

    it('an unreadable payload is 422 (the contract’s shape), one over 256 KiB 413, each counted on the gateway’s health with the reason and the limit; the next message is taken', async () => {
      const { gateway: gw, hardwareId, deviceId, tagMac } = await setUp('cartograph', `bad-node-${tagCount + 1}`);
      const broken = await t.http.post(ingest(hardwareId)).set(positioning).set('Content-Type', 'application/json').send('{"observations": [');
      expectError(broken, 422, 'validation_failed');
      expect(broken.body.errors).toEqual([expect.objectContaining({ fields: 'body', message: 'payload is not JSON' })]);
      const shape = await t.http.post(ingest(hardwareId)).set(positioning).send({ readings: [] });
      expectError(shape, 422, 'validation_failed');
      const big = JSON.stringify({ observations: [], padding: 'x'.repeat(300 * 1024) });
      const tooLarge = await t.http.post(ingest(hardwareId)).set(positioning).set('Content-Type', 'application/json').send(big);
      expectError(tooLarge, 413, 'payload_too_large');
      let h = await health(gw.id);
      expect(h).toMatchObject({
        messages: 3,
        messages_not_understood: 3,
        last_reason: 'payload larger than 262144 bytes',
        last_limit: { name: 'message_size', at: expect.stringMatching(TIMESTAMP) },
      });
      const fine = await t.http
        .post(ingest(hardwareId))
        .set(positioning)
        .send({ observations: [{ tag: tagMac, rssi: -60 }] });
      expectStatus(fine, 200);
      h = await health(gw.id);
      expect(h).toMatchObject({ messages: 4, messages_not_understood: 3, observations_stored: 1, last_limit: { name: 'message_size' } });
      expect(await stored(deviceId)).toHaveLength(1);
    });

    it('takes the key in Authorization as gateway firmware sends it (Bearer, Token, bare, Basic password); a wrong key there is 401; other routes do not take it so', async () => {
      const { hardwareId, tagMac, deviceId } = await setUp('ruuvi');
      const key = positioning['X-API-KEY'];
      const batch = (nonce: number) => ({
        data: { coordinates: '', timestamp: nowSeconds(), nonce, gw_mac: hardwareId, tags: { [tagMac]: { rssi: -71, timestamp: nowSeconds(), data: '' } } },
      });
      const forms = [`Bearer ${key}`, `Token ${key}`, key, `Basic ${Buffer.from(`ruuvi-gw:${key}`).toString('base64')}`];
      for (const [index, authorization] of forms.entries()) {
        const response = await t.http
          .post(ingest(hardwareId))
          .set('authorization', authorization)
          .send(batch(500 + index));
        expectStatus(response, 200);
        expect(response.body).toMatchObject({ stored: 1, duplicates: 0 });
      }
      expect(await stored(deviceId)).toHaveLength(forms.length);
      const wrong = `cgk_${'A'.repeat(43)}`;
      expectError(await t.http.post(ingest(hardwareId)).set('authorization', `Bearer ${wrong}`).send(batch(600)), 401, 'unauthorized');
      expect(await stored(deviceId)).toHaveLength(forms.length);
      // Elsewhere a Bearer is a token, as ever: the key there is refused.
      expectError(await t.http.get(GATEWAYS).query({ building_id: 1 }).set('authorization', `Bearer ${key}`), 401, 'unauthorized');
    });

    it('a gateway not registered in the key’s organization is 404 (another organization’s too); a key that may not post positions is 403; a gateway never heard has empty health', async () => {
      const { gateway: gw, hardwareId, tagMac } = await setUp('cartograph', `iso-node-${tagCount + 1}`);
      const body = { observations: [{ tag: tagMac, rssi: -60 }] };
      expectError(await t.http.post(ingest('never-registered')).set(positioning).send(body), 404, 'entity_not_found');
      const other = asApiKey((await createApiKey(t, b.token, ApiPermission.Positioning)).apikey);
      expectError(await t.http.post(ingest(hardwareId)).set(other).send(body), 404, 'entity_not_found');
      const readOnly = asApiKey((await createApiKey(t, a.token, ApiPermission.ReadOnly)).apikey);
      expectError(await t.http.post(ingest(hardwareId)).set(readOnly).send(body), 403, 'forbidden');
      expectError(await t.http.post(ingest(hardwareId)).send(body), 401, 'unauthorized');
      expect(await health(gw.id)).toMatchObject({ last_seen_at: null, silent: false, messages: 0, messages_per_second: 0, tags_heard: 0, last_reason: null, last_limit: null });
      const readWrite = asApiKey((await createApiKey(t, a.token, ApiPermission.ReadWrite)).apikey);
      expectStatus(await t.http.post(ingest(hardwareId)).set(readWrite).send(body), 200);
    });

    it('a gateway in a deleted building takes no message (404)', async () => {
      const { gateway: gw, hardwareId, tagMac } = await setUp('cartograph', `deleted-node-${tagCount + 1}`);
      await t.http.delete(`/api/v1/buildings/${gw.building_id}`).set(a.auth).expect(204);
      expectError(
        await t.http
          .post(ingest(hardwareId))
          .set(positioning)
          .send({ observations: [{ tag: tagMac, rssi: -60 }] }),
        404,
        'entity_not_found',
      );
    });

    it('an ESPresense gateway cannot post over HTTP (422, counted); deleting a gateway deletes its observations', async () => {
      const { gateway: gw, hardwareId, deviceId } = await setUp('espresense', `esp-room-${tagCount + 1}`);
      const refused = await t.http.post(ingest(hardwareId)).set(positioning).send({ rssi: -60 });
      expectError(refused, 422, 'validation_failed');
      expect((await health(gw.id)).last_reason).toMatch(/MQTT only/);
      const node = await setUp('cartograph', `gone-node-${tagCount + 1}`);
      await t.http
        .post(ingest(node.hardwareId))
        .set(positioning)
        .send({ observations: [{ tag: node.tagMac, rssi: -60 }] })
        .expect(200);
      expect(await stored(node.deviceId)).toHaveLength(1);
      await t.http.delete(`${GATEWAYS}/${node.gateway.id}`).set(a.auth).expect(204);
      expect(await stored(node.deviceId)).toHaveLength(0);
      expect(deviceId).toBeTruthy();
    });
  });
});
