import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { CredentialKind, Principal } from '../../src/access/principal';
import { Role } from '../../src/access/roles';
import { UserPositionsReport } from '../../src/reports/user-positions.report';
import { Cartographer, createFloor, createSite, expectStatus, signUp, Site } from '../support/cartography';
import { fix, report } from '../support/positions';
import { createUser } from '../support/users';
import { createTestApp, TestApp } from '../support/test-app';

const REPORT = '/api/v1/reports/user_positions';
const HEADER = 'timestamp,session_mark,floor_id,user_id,device_id,lat,lng,building_id';

/**
 * One device's download is written straight from the rows read (no object per row), in pages:
 * these tests hold its bytes to what a user must see, across page edges, with a device code
 * that needs CSV quoting and doubles whose database text differs from JavaScript's.
 */
describe('user_positions of one device, written from the rows as read (contract 6.3, 8.1)', () => {
  let t: TestApp;
  let a: Cartographer;
  let site: Site;
  let other: Site;
  let upperFloorId: number;
  let userId: string;
  const device = 'lobby, "east"';
  const t0 = Date.now() - 3_600_000;
  const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
  const range = `from_date=${new Date(t0 - 60_000).toISOString()}&to_date=${new Date(Date.now() + 60_000).toISOString()}`;
  const query = () => `${range}&building_id=${site.building.id}&device_id=${encodeURIComponent(device)}`;

  beforeAll(async () => {
    t = await createTestApp();
    // Pages of 3 rows: the second session starts on a page edge, the fourth spans two pages.
    t.app.get(UserPositionsReport).pageRows = 3;
    a = await signUp(t, 'Device report');
    site = await createSite(t, a.auth);
    other = await createSite(t, a.auth);
    upperFloorId = (await createFloor(t, a.auth, site.building.id, { level: 1 })).id;
    userId = (await createUser(t, a.org.organizationId, Role.User)).id;
    const here = site.floor.id;
    await report(t, a.auth, [
      // 0.00001 and 1.5e-7 are written `1e-05` and `1.5e-07` by PostgreSQL.
      fix(device, { time: at(0), floor_id: here, lat: 0.00001, lng: 1.5e-7 }),
      fix(device, { time: at(10), floor_id: here, lat: 0.1 + 0.2, lng: -8.563381752271818 }),
      fix(device, { time: at(20), floor_id: here, lat: 42.87231806651474, lng: 5 }),
      // The other building: session 2, read for the marks, never written.
      fix(device, { time: at(25), floor_id: other.floor.id }),
      fix(device, { time: at(30), floor_id: upperFloorId, user_id: userId, lat: 42.5, lng: -8.25 }),
      fix(device, { time: at(200), floor_id: here, user_id: userId, lat: 42.6, lng: -8.3 }),
      fix(device, { time: at(210), floor_id: here, lat: 42.7, lng: -8.4 }),
      fix(device, { time: at(220), floor_id: here, lat: 42.8, lng: -8.5 }),
      fix(device, { time: at(230), floor_id: here, lat: 42.9, lng: -8.6 }),
      // Another device in the same building and range: not in this download.
      fix('lobby', { time: at(15), floor_id: here }),
    ]);
  });
  afterAll(async () => t?.close());

  it('writes the CSV byte for byte, the device code quoted per RFC 4180, sessions carried across pages', async () => {
    const response = await t.http.get(`${REPORT}.csv?${query()}`).set(a.auth);
    expectStatus(response, 200);
    const building = site.building.id;
    const admin = a.org.adminId;
    const code = '"lobby, ""east"""';
    expect(response.text).toBe(
      [
        HEADER,
        `${at(0)},1,${site.floor.id},${admin},${code},0.00001,1.5e-7,${building}`,
        `${at(10)},1,${site.floor.id},${admin},${code},0.30000000000000004,-8.563381752271818,${building}`,
        `${at(20)},1,${site.floor.id},${admin},${code},42.87231806651474,5,${building}`,
        // Back from the other building (session 2): session 3.
        `${at(30)},3,${upperFloorId},${userId},${code},42.5,-8.25,${building}`,
        // 170 s without a fix: session 4, over the next page edges.
        `${at(200)},4,${site.floor.id},${userId},${code},42.6,-8.3,${building}`,
        `${at(210)},4,${site.floor.id},${admin},${code},42.7,-8.4,${building}`,
        `${at(220)},4,${site.floor.id},${admin},${code},42.8,-8.5,${building}`,
        `${at(230)},4,${site.floor.id},${admin},${code},42.9,-8.6,${building}`,
        '',
      ].join('\n'),
    );
  });

  it('writes the JSON envelope with the same rows and statistics, and the same lines as the whole building gives for the device', async () => {
    const response = await t.http.get(`${REPORT}.json?${query()}`).set(a.auth);
    expectStatus(response, 200);
    expect(response.text).toContain('"lat":0.00001,"lng":1.5e-7');
    expect(response.body.rows).toBe(8);
    // Nine fixes of the device read, the one in the other building included.
    expect(response.body.statistics).toEqual({ elapsed: expect.any(Number), rows_read: 9, bytes_read: expect.any(Number) });
    expect(response.body.data[3]).toEqual({
      timestamp: at(30),
      session_mark: 3,
      floor_id: upperFloorId,
      user_id: userId,
      device_id: device,
      lat: 42.5,
      lng: -8.25,
      building_id: site.building.id,
    });
    // The building's report (every device, rows as objects) holds the same bytes for this device.
    const whole = await t.http.get(`${REPORT}.json?${range}&building_id=${site.building.id}`).set(a.auth);
    const ofDevice = (whole.body.data as Array<{ device_id: string }>).filter((row) => row.device_id === device);
    expect(JSON.stringify(ofDevice)).toBe(JSON.stringify(response.body.data));
    const csv = await t.http.get(`${REPORT}.csv?${query()}`).set(a.auth);
    const wholeCsv = await t.http.get(`${REPORT}.csv?${range}&building_id=${site.building.id}`).set(a.auth);
    expect(wholeCsv.text.split('\n').filter((line) => line.includes('"lobby, ""east"""'))).toEqual(csv.text.trim().split('\n').slice(1));
  });

  it('keeps the user and floor filters on the device path', async () => {
    const byUser = await t.http.get(`${REPORT}.csv?${query()}&user_id=${userId}`).set(a.auth);
    expect(
      byUser.text
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.slice(0, 24)),
    ).toEqual([at(30), at(200)]);
    const byFloor = await t.http.get(`${REPORT}.json?${query()}&floor_id=${upperFloorId}`).set(a.auth);
    expect(byFloor.body.data.map((row: { timestamp: string; session_mark: number }) => [row.timestamp, row.session_mark])).toEqual([[at(30), 3]]);
  });

  it('lets the event loop serve other work between pages', async () => {
    const principal: Principal = {
      userId: a.org.adminId,
      organizationId: a.org.organizationId,
      email: 'reports@example.com',
      role: Role.AdminOrg,
      permission: ApiPermission.ReadOnly,
      credential: CredentialKind.Password,
      apiKeyId: null,
      sessionId: null,
      buildingIds: null,
    };
    const stream = await t.app.get(UserPositionsReport).open(principal, { from_date: at(-60), to_date: at(300), building_id: site.building.id, device_id: device } as never);
    const batches = stream.text!('csv')[Symbol.asyncIterator]();
    expect((await batches.next()).value?.rows).toBe(3);
    // A callback queued for the event loop's next turn (as an arriving request's would be) runs before the next page is read.
    let served = false;
    setImmediate(() => {
      served = true;
    });
    const second = await batches.next();
    expect(served).toBe(true);
    expect(second.value?.rows).toBe(2);
    await batches.return?.(undefined);
  });
});
