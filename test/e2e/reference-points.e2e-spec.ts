import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, createFloor, createSite, errorFields, expectError, expectStatus, signUp, Site, TIMESTAMP } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

const UUID = 'f7826da6-4fa2-4e98-8024-bc5b71e0893e';
const BASE = '/api/v1/infrastructure/reference_points';

const point = (floorId: number, x: number, y: number, rssi = -65) => ({
  floor_id: floorId,
  x,
  y,
  ble: [
    { uuid: UUID.toUpperCase(), major: 1, minor: 1, rssi },
    { uuid: UUID, major: 1, minor: 2, rssi: rssi - 10 },
  ],
  wifi: [{ bssid: 'AA-BB-CC-DD-EE-01', rssi: -70 }],
});

describe('reference points', () => {
  let t: TestApp;
  let admin: Cartographer;
  let site: Site;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signUp(t, 'Surveyors');
    site = await createSite(t, admin.auth);
  });
  afterAll(async () => t?.close());

  it('creates, reads, updates and deletes a reference point, with its readings normalised and an ETag', async () => {
    const created = await t.http
      .post(BASE)
      .set(admin.auth)
      .send(point(site.floor.id, 12.5, 7.25));
    expectStatus(created, 201);
    expect(created.headers.etag).toBe('"1"');
    expect(created.body).toEqual({
      id: expect.any(Number),
      floor_id: site.floor.id,
      x: 12.5,
      y: 7.25,
      lat: expect.any(Number),
      lng: expect.any(Number),
      ble: [
        { uuid: UUID, major: 1, minor: 1, rssi: -65 },
        { uuid: UUID, major: 1, minor: 2, rssi: -75 },
      ],
      wifi: [{ bssid: 'aa:bb:cc:dd:ee:01', rssi: -70 }],
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
    });
    const id = created.body.id as number;
    const read = await t.http.get(`${BASE}/${id}`).set(admin.auth).expect(200);
    expect(read.body).toEqual(created.body);

    // Placed by lat/lng: the same floor metres come back.
    const byGeo = await t.http
      .post(BASE)
      .set(admin.auth)
      .send({ ...point(site.floor.id, 0, 0), x: undefined, y: undefined, lat: created.body.lat, lng: created.body.lng });
    expectStatus(byGeo, 201);
    expect(byGeo.body.x).toBeCloseTo(12.5, 6);
    expect(byGeo.body.y).toBeCloseTo(7.25, 6);

    // Partial update: readings of one kind replaced, the rest kept; a stale If-Match is 409.
    const updated = await t.http
      .put(`${BASE}/${id}`)
      .set(admin.auth)
      .set('If-Match', '"1"')
      .send({ wifi: [{ bssid: 'aa:bb:cc:dd:ee:02', rssi: -60 }] });
    expectStatus(updated, 200);
    expect(updated.headers.etag).toBe('"2"');
    expect(updated.body).toMatchObject({ x: 12.5, ble: created.body.ble, wifi: [{ bssid: 'aa:bb:cc:dd:ee:02', rssi: -60 }] });
    expectError(await t.http.put(`${BASE}/${id}`).set(admin.auth).set('If-Match', '"1"').send({ x: 3, y: 4 }), 409, 'conflict');
    expect((await t.http.get(`${BASE}/${id}`).set(admin.auth)).body).toEqual(updated.body);

    const list = await t.http.get(`${BASE}?building_id=${site.building.id}`).set(admin.auth).expect(200);
    expect(list.body.map((item: { id: number }) => item.id)).toEqual([id, byGeo.body.id]);
    await t.http.delete(`${BASE}/${id}`).set(admin.auth).expect(204);
    expectError(await t.http.get(`${BASE}/${id}`).set(admin.auth), 404, 'entity_not_found');
    await t.http.delete(`${BASE}/${byGeo.body.id}`).set(admin.auth).expect(204);
  });

  it('refuses reference points without readings, with bad readings, positions or floors, naming the field', async () => {
    const noReadings = await t.http.post(BASE).set(admin.auth).send({ floor_id: site.floor.id, x: 1, y: 1 });
    expectError(noReadings, 422, 'validation_failed');
    expect(errorFields(noReadings)).toEqual(['ble']);
    const badReading = await t.http
      .post(BASE)
      .set(admin.auth)
      .send({ ...point(site.floor.id, 1, 1), ble: [{ uuid: 'nope', major: 1, minor: 70000, rssi: 5000 }] });
    expectError(badReading, 422, 'validation_failed');
    expect(errorFields(badReading)).toEqual(expect.arrayContaining(['ble[0].uuid', 'ble[0].minor', 'ble[0].rssi']));
    const farAway = await t.http
      .post(BASE)
      .set(admin.auth)
      .send(point(site.floor.id, 5000, 1));
    expectError(farAway, 422, 'validation_failed');
    expect(errorFields(farAway)).toEqual(['x']);
    const unknownFloor = await t.http
      .post(BASE)
      .set(admin.auth)
      .send(point(2_000_000_000, 1, 1));
    expectError(unknownFloor, 422, 'validation_failed');
    expect(errorFields(unknownFloor)).toEqual(['floor_id']);
    expectError(await t.http.get(`${BASE}?building_id=abc`).set(admin.auth), 400, 'bad_request');
    expect((await t.http.get(`${BASE}?building_id=${site.building.id}`).set(admin.auth).expect(200)).body).toEqual([]);
  });

  it('refuses null floor_id or x on PUT and PATCH by id with 422 naming the field, and writes nothing', async () => {
    const created = await t.http
      .post(BASE)
      .set(admin.auth)
      .send(point(site.floor.id, 10, 10));
    expectStatus(created, 201);
    const id = created.body.id as number;
    const { ble } = point(site.floor.id, 15, 15);
    const bodies: Array<[string, Record<string, unknown>]> = [
      ['floor_id', { floor_id: null, x: 15, y: 15, ble }],
      ['x', { floor_id: site.floor.id, x: null, y: 15, ble }],
    ];
    for (const method of ['put', 'patch'] as const) {
      for (const [field, body] of bodies) {
        const response = await t.http[method](`${BASE}/${id}`).set(admin.auth).send(body);
        expectError(response, 422, 'validation_failed');
        expect(new Set(errorFields(response)), `${method} ${JSON.stringify(body)}`).toEqual(new Set([field]));
      }
    }
    const stored = await t.http.get(`${BASE}/${id}`).set(admin.auth).expect(200);
    expect(stored.body).toEqual(created.body);
    expect(stored.headers.etag).toBe('"1"');
    await t.http.delete(`${BASE}/${id}`).set(admin.auth).expect(204);
  });

  it('exports CSV with every text cell escaped, and a CSV sent back replaces the set unchanged', async () => {
    const floor2 = await createFloor(t, admin.auth, site.building.id, { level: 1 });
    const replaced = await t.http
      .put(`${BASE}?building_id=${site.building.id}`)
      .set(admin.auth)
      .send([point(site.floor.id, 5, 5), point(site.floor.id, 10, 5, -70), point(floor2.id, 5, 10, -80)]);
    expectStatus(replaced, 200);
    expect(replaced.body).toHaveLength(3);
    const csv = await t.http.get(`${BASE}?building_id=${site.building.id}`).set(admin.auth).set('Accept', 'text/csv').expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="reference-points-${site.building.id}.csv"`);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('point,floor_id,x,y,lat,lng,type,uuid,major,minor,bssid,rssi');
    // One line per reading: three per point.
    expect(lines).toHaveLength(1 + 9);
    expect(lines[1]).toMatch(new RegExp(`^${replaced.body[0].id},${site.floor.id},5,5,[-\\d.]+,[-\\d.]+,ble,${UUID},1,1,,-65$`));

    // Labels are free text on import: one that a spreadsheet would run as a formula comes back escaped.
    const imported = [
      'point,floor_id,x,y,type,uuid,major,minor,bssid,rssi',
      `"=HYPERLINK(""x"")",${site.floor.id},20,20,ble,${UUID},1,1,,-60`,
      `"=HYPERLINK(""x"")",${site.floor.id},20,20,wifi,,,,aa:bb:cc:dd:ee:01,-72`,
      `B,${floor2.id},30,10,ble,${UUID},1,2,,-81`,
    ].join('\n');
    const fromCsv = await t.http.put(`${BASE}?building_id=${site.building.id}`).set(admin.auth).set('Content-Type', 'text/csv').send(imported);
    expectStatus(fromCsv, 200);
    expect(fromCsv.body.map((item: { x: number; ble: unknown[]; wifi: unknown[] }) => [item.x, item.ble.length, item.wifi.length])).toEqual([
      [20, 1, 1],
      [30, 1, 0],
    ]);
    const again = await t.http.get(`${BASE}?building_id=${site.building.id}`).set(admin.auth).set('Accept', 'text/csv').expect(200);
    // Exported ids are numbers (no escaping needed); the round trip through the export changes nothing.
    const roundTrip = await t.http.put(`${BASE}?building_id=${site.building.id}`).set(admin.auth).set('Content-Type', 'text/csv').send(again.text).expect(200);
    const strip = (items: Array<Record<string, unknown>>) => items.map(({ id: _id, created_at: _c, updated_at: _u, ...rest }) => rest);
    expect(strip(roundTrip.body)).toEqual(strip(fromCsv.body));

    // Cells that start like formulas are escaped on export.
    const formula = await t.http
      .put(`${BASE}?building_id=${site.building.id}&floor_id=${floor2.id}`)
      .set(admin.auth)
      .set('Content-Type', 'text/csv')
      .send(`point,floor_id,x,y,type,bssid,rssi\n1,${floor2.id},1,1,wifi,aa:bb:cc:dd:ee:03,-50\n`);
    expectStatus(formula, 200);
    const exported = await t.http.get(`${BASE}?building_id=${site.building.id}&floor_id=${floor2.id}`).set(admin.auth).set('Accept', 'text/csv').expect(200);
    for (const line of exported.text.trim().split('\r\n').slice(1)) for (const cell of line.split(',')) expect(cell).not.toMatch(/^[=+@\t\r]/);
    // Replacing one floor leaves the other's points.
    expect((await t.http.get(`${BASE}?building_id=${site.building.id}&floor_id=${site.floor.id}`).set(admin.auth)).body).toHaveLength(1);
  });

  it('refuses a malformed CSV naming the line, and a point whose rows disagree about where it is', async () => {
    const malformed = await t.http
      .put(`${BASE}?building_id=${site.building.id}`)
      .set(admin.auth)
      .set('Content-Type', 'text/csv')
      .send(`point,floor_id,x,y,type,bssid,rssi\n1,${site.floor.id},1,1,wifi,"aa:bb,-50\n`);
    expectError(malformed, 422, 'validation_failed');
    expect(errorFields(malformed)).toEqual(['line 2']);
    const split = await t.http
      .put(`${BASE}?building_id=${site.building.id}`)
      .set(admin.auth)
      .set('Content-Type', 'text/csv')
      .send(
        `point,floor_id,x,y,type,bssid,rssi\nA,${site.floor.id},1,1,wifi,aa:bb:cc:dd:ee:01,-50\nA,${site.floor.id},9,1,wifi,aa:bb:cc:dd:ee:02,-50\nB,${site.floor.id},1,1,bluetooth,aa:bb:cc:dd:ee:02,-50\n`,
      );
    expectError(split, 422, 'validation_failed');
    expect(errorFields(split)).toEqual(['line 3.x', 'line 4.type']);
    const badValue = await t.http
      .put(`${BASE}?building_id=${site.building.id}`)
      .set(admin.auth)
      .set('Content-Type', 'text/csv')
      .send(`point,floor_id,x,y,type,bssid,rssi\nA,${site.floor.id},1,1,wifi,zz,-50\n`);
    expectError(badValue, 422, 'validation_failed');
    expect(errorFields(badValue)).toEqual(['line 2.wifi[0].bssid']);
  });

  it("another organization's reference points do not exist for the caller", async () => {
    const other = await signUp(t, 'Other surveyors');
    const mine = await t.http
      .post(BASE)
      .set(admin.auth)
      .send(point(site.floor.id, 2, 2))
      .expect(201);
    expectError(await t.http.get(`${BASE}/${mine.body.id}`).set(other.auth), 404, 'entity_not_found');
    expectError(await t.http.put(`${BASE}/${mine.body.id}`).set(other.auth).send({ x: 1, y: 1 }), 404, 'entity_not_found');
    expectError(await t.http.delete(`${BASE}/${mine.body.id}`).set(other.auth), 404, 'entity_not_found');
    expectError(await t.http.get(`${BASE}?building_id=${site.building.id}`).set(other.auth), 404, 'entity_not_found');
    expectError(await t.http.put(`${BASE}?building_id=${site.building.id}`).set(other.auth).send([]), 404, 'entity_not_found');
    expectError(await t.http.get(`/api/v1/infrastructure/radio_model?building_id=${site.building.id}`).set(other.auth), 404, 'entity_not_found');
    const intruder = await t.http
      .post(BASE)
      .set(other.auth)
      .send(point(site.floor.id, 2, 2));
    expectError(intruder, 422, 'validation_failed');
    expect(errorFields(intruder)).toEqual(['floor_id']);
    // Still there, unchanged.
    expect((await t.http.get(`${BASE}/${mine.body.id}`).set(admin.auth).expect(200)).body).toEqual(mine.body);
  });

  it.each([
    [ApiPermission.Positioning, 200, 403],
    [ApiPermission.ReadOnly, 200, 403],
    [ApiPermission.CartographyReadWrite, 200, 201],
    [ApiPermission.ReadWrite, 200, 201],
  ])('a %s key reads (%i) and writes (%i) reference points as the permission table says', async (permission, read, write) => {
    const key = asApiKey((await createApiKey(t, admin.token, permission)).apikey);
    expect((await t.http.get(`${BASE}?building_id=${site.building.id}`).set(key)).status).toBe(read);
    expect((await t.http.get(`/api/v1/infrastructure/radio_model?building_id=${site.building.id}`).set(key)).status).toBe(read);
    expect(
      (
        await t.http
          .post(BASE)
          .set(key)
          .send(point(site.floor.id, 3, 3))
      ).status,
    ).toBe(write);
    expect((await t.http.put(`${BASE}?building_id=${site.building.id}&floor_id=${site.floor.id}`).set(key).send([])).status).toBe(write === 201 ? 200 : 403);
  });
});
