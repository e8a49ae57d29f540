import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { Role } from '../../src/access/roles';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, createFloor, createSite, expectError, expectStatus, keysOf, signUp, Site } from '../support/cartography';
import { fix, report } from '../support/positions';
import { createUser } from '../support/users';
import { createTestApp, TestApp } from '../support/test-app';
import { UserPositionsReport } from '../../src/reports/user-positions.report';

const REPORT = '/api/v1/reports/user_positions';

describe('trajectory report: user_positions (contract 6.3, envelope 8.1)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let site: Site;
  let other: Site;
  let upperFloorId: number;
  let userId: string;
  const t0 = Date.now() - 3_600_000;
  const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
  const range = `from_date=${new Date(t0 - 60_000).toISOString()}&to_date=${new Date(Date.now() + 60_000).toISOString()}`;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Reports A');
    b = await signUp(t, 'Reports B');
    site = await createSite(t, a.auth);
    other = await createSite(t, a.auth);
    upperFloorId = (await createFloor(t, a.auth, site.building.id, { level: 1 })).id;
    userId = (await createUser(t, a.org.organizationId, Role.User)).id;
    await report(t, a.auth, [
      fix('r-1', { time: at(0), floor_id: site.floor.id, lat: 42.1, lng: -8.1 }),
      fix('r-1', { time: at(10), floor_id: site.floor.id, lat: 42.2, lng: -8.2 }),
      fix('r-1', { time: at(100), floor_id: upperFloorId, lat: 42.3, lng: -8.3 }),
      fix('r-1', { time: at(110), floor_id: other.floor.id }),
      fix('r-1', { time: at(120), floor_id: site.floor.id, lat: 42.4, lng: -8.4 }),
      fix('r-2', { time: at(5), floor_id: site.floor.id, user_id: userId, lat: 43, lng: -9 }),
      fix('r-2', { time: at(65), floor_id: site.floor.id, user_id: userId, lat: 43.1, lng: -9.1 }),
    ]);
    await report(t, b.auth, [fix('r-b', { time: at(1), floor_id: (await createSite(t, b.auth)).floor.id })]);
  });
  afterAll(async () => t?.close());

  it('answers the JSON envelope, rows ordered by time, sessions numbered per device', async () => {
    const response = await t.http.get(`${REPORT}.json?${range}&building_id=${site.building.id}`).set(a.auth);
    expectStatus(response, 200);
    expect(keysOf(response.body)).toEqual(['data', 'meta', 'rows', 'statistics']);
    expect(response.body.meta.map((column: { name: string }) => column.name)).toEqual([
      'timestamp',
      'session_mark',
      'floor_id',
      'user_id',
      'device_id',
      'lat',
      'lng',
      'building_id',
    ]);
    for (const column of response.body.meta) expect(column.type).toEqual(expect.any(String));
    expect(response.body.rows).toBe(6);
    // The six rows, and the one fix elsewhere in their time span (for the session marks).
    expect(response.body.statistics).toEqual({ elapsed: expect.any(Number), rows_read: 7, bytes_read: expect.any(Number) });
    expect(response.body.statistics.bytes_read).toBeGreaterThan(0);
    const building = site.building.id;
    expect(response.body.data).toEqual([
      { timestamp: at(0), session_mark: 1, floor_id: site.floor.id, user_id: a.org.adminId, device_id: 'r-1', lat: 42.1, lng: -8.1, building_id: building },
      { timestamp: at(5), session_mark: 1, floor_id: site.floor.id, user_id: userId, device_id: 'r-2', lat: 43, lng: -9, building_id: building },
      { timestamp: at(10), session_mark: 1, floor_id: site.floor.id, user_id: a.org.adminId, device_id: 'r-1', lat: 42.2, lng: -8.2, building_id: building },
      { timestamp: at(65), session_mark: 1, floor_id: site.floor.id, user_id: userId, device_id: 'r-2', lat: 43.1, lng: -9.1, building_id: building },
      // 90 s without a fix: a new session (a floor change alone is not one).
      { timestamp: at(100), session_mark: 2, floor_id: upperFloorId, user_id: a.org.adminId, device_id: 'r-1', lat: 42.3, lng: -8.3, building_id: building },
      // Session 3 was the visit to the other building at 110 s; coming back starts session 4.
      { timestamp: at(120), session_mark: 4, floor_id: site.floor.id, user_id: a.org.adminId, device_id: 'r-1', lat: 42.4, lng: -8.4, building_id: building },
    ]);
  });

  it('filters by user, device and floor, and by the time range', async () => {
    const rows = async (query: string) => {
      const response = await t.http.get(`${REPORT}.json?building_id=${site.building.id}&${query}`).set(a.auth);
      expectStatus(response, 200);
      return response.body.data as Array<{ device_id: string; timestamp: string }>;
    };
    expect((await rows(`${range}&user_id=${userId}`)).map((row) => row.device_id)).toEqual(['r-2', 'r-2']);
    expect((await rows(`${range}&device_id=r-1`)).map((row) => row.timestamp)).toEqual([at(0), at(10), at(100), at(120)]);
    expect((await rows(`${range}&floor_id=${upperFloorId}`)).map((row) => row.timestamp)).toEqual([at(100)]);
    expect((await rows(`from_date=${at(6)}&to_date=${at(100)}`)).map((row) => row.timestamp)).toEqual([at(10), at(65)]);
    const day = new Date(t0).toISOString().slice(0, 10);
    const nextDay = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await rows(`from_date=${day}&to_date=${nextDay}`)).toHaveLength(6);
    const otherBuilding = await t.http.get(`${REPORT}.json?${range}&building_id=${other.building.id}`).set(a.auth);
    expect(otherBuilding.body.data).toEqual([expect.objectContaining({ device_id: 'r-1', session_mark: 3, building_id: other.building.id })]);
    const empty = await t.http.get(`${REPORT}.json?from_date=2020-01-01&to_date=2020-01-02&building_id=${site.building.id}`).set(a.auth);
    expect(empty.body).toMatchObject({ data: [], rows: 0 });
  });

  it('streams the CSV as an attachment, header = meta names', async () => {
    const response = await t.http.get(`${REPORT}.csv?${range}&building_id=${site.building.id}&device_id=r-2`).set(a.auth);
    expectStatus(response, 200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="user_positions.csv"');
    expect(response.text.trim().split('\n')).toEqual([
      'timestamp,session_mark,floor_id,user_id,device_id,lat,lng,building_id',
      `${at(5)},1,${site.floor.id},${userId},r-2,43,-9,${site.building.id}`,
      `${at(65)},1,${site.floor.id},${userId},r-2,43.1,-9.1,${site.building.id}`,
    ]);
  });

  it('answers 400 naming the parameter for bad queries, 404 for other organizations', async () => {
    const cases: Array<[string, string]> = [
      [`to_date=${at(10)}&building_id=${site.building.id}`, 'from_date'],
      [`from_date=${at(0)}&building_id=${site.building.id}`, 'to_date'],
      [range, 'building_id'],
      [`${range}&building_id=abc`, 'building_id'],
      [`from_date=yesterday&to_date=${at(10)}&building_id=${site.building.id}`, 'from_date'],
      [`from_date=${at(10)}&to_date=${at(0)}&building_id=${site.building.id}`, 'to_date'],
      [`from_date=2024-01-01&to_date=2025-06-01&building_id=${site.building.id}`, 'to_date'],
      [`${range}&building_id=${site.building.id}&user_id=nope`, 'user_id'],
      [`${range}&building_id=${site.building.id}&floor_id=x`, 'floor_id'],
    ];
    for (const [query, field] of cases) {
      const response = await t.http.get(`${REPORT}.json?${query}`).set(a.auth);
      expectError(response, 400, 'bad_request');
      expect(
        response.body.errors.map((error: { fields: string }) => error.fields),
        query,
      ).toContain(field);
    }
    expectError(await t.http.get(`${REPORT}.json?${range}&building_id=${site.building.id}`).set(b.auth), 404, 'entity_not_found');
    expectError(await t.http.get(`${REPORT}.csv?${range}&building_id=${site.building.id}`).set(b.auth), 404, 'entity_not_found');
  });

  it('needs read-only or stronger: a positioning key gets 403', async () => {
    const query = `${REPORT}.json?${range}&building_id=${site.building.id}`;
    const positioning = asApiKey((await createApiKey(t, a.token, ApiPermission.Positioning)).apikey);
    const readOnly = asApiKey((await createApiKey(t, a.token, ApiPermission.ReadOnly)).apikey);
    expectError(await t.http.get(query).set(positioning), 403, 'forbidden');
    expectError(await t.http.get(query.replace('.json', '.csv')).set(positioning), 403, 'forbidden');
    expectStatus(await t.http.get(query).set(readOnly), 200);
    expectError(await t.http.get(query), 401, 'unauthorized');
  });
});

describe('user_positions streamed in keyset pages, with an output cap (contract 8.1)', () => {
  let t: TestApp;
  let a: Cartographer;
  let site: Site;
  let other: Site;
  const t0 = Date.now() - 3_600_000;
  const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
  const range = `from_date=${new Date(t0 - 60_000).toISOString()}&to_date=${new Date(Date.now() + 60_000).toISOString()}`;

  beforeAll(async () => {
    t = await createTestApp({ env: { REPORTS_MAX_ROWS: '40' } });
    // Pages of 4 rows: every edge case of the keyset (a page ending inside an instant, a page filled by one instant) is crossed.
    t.app.get(UserPositionsReport).pageRows = 4;
    a = await signUp(t, 'Report pages');
    site = await createSite(t, a.auth);
    other = await createSite(t, a.auth);
    const fixes: Array<Record<string, unknown>> = [];
    // Five devices at the same instant (more than a page), then each on its own track.
    for (const device of ['p-1', 'p-2', 'p-3', 'p-4', 'p-5']) fixes.push(fix(device, { time: at(0), floor_id: site.floor.id }));
    for (const seconds of [10, 20, 30, 200, 210]) fixes.push(fix('p-1', { time: at(seconds), floor_id: site.floor.id }));
    fixes.push(fix('p-1', { time: at(215), floor_id: other.floor.id }));
    for (const seconds of [220, 230]) fixes.push(fix('p-1', { time: at(seconds), floor_id: site.floor.id }));
    for (const seconds of [10, 20, 95, 100]) fixes.push(fix('p-2', { time: at(seconds), floor_id: site.floor.id }));
    fixes.push(fix('p-3', { time: at(20), floor_id: site.floor.id }));
    await report(t, a.auth, fixes);
  });
  afterAll(async () => t?.close());

  it('gives the same rows and session marks as the whole track would, across page edges', async () => {
    const response = await t.http.get(`${REPORT}.json?${range}&building_id=${site.building.id}`).set(a.auth);
    expectStatus(response, 200);
    const rows = (response.body.data as Array<{ timestamp: string; device_id: string; session_mark: number }>).map((row) => [row.timestamp, row.device_id, row.session_mark]);
    expect(rows).toEqual([
      [at(0), 'p-1', 1],
      [at(0), 'p-2', 1],
      [at(0), 'p-3', 1],
      [at(0), 'p-4', 1],
      [at(0), 'p-5', 1],
      [at(10), 'p-1', 1],
      [at(10), 'p-2', 1],
      [at(20), 'p-1', 1],
      [at(20), 'p-2', 1],
      [at(20), 'p-3', 1],
      [at(30), 'p-1', 1],
      [at(95), 'p-2', 2],
      [at(100), 'p-2', 2],
      [at(200), 'p-1', 2],
      [at(210), 'p-1', 2],
      // 215 s was in the other building (session 3).
      [at(220), 'p-1', 4],
      [at(230), 'p-1', 4],
    ]);
    expect(response.body.rows).toBe(17);
    expect(response.body.statistics.rows_read).toBe(18);
    // One device: its own track read through its key, with the same marks.
    const one = await t.http.get(`${REPORT}.json?${range}&building_id=${site.building.id}&device_id=p-1`).set(a.auth);
    expect(one.body.data.map((row: { timestamp: string; session_mark: number }) => [row.timestamp, row.session_mark])).toEqual(
      rows.filter((row) => row[1] === 'p-1').map(([timestamp, , mark]) => [timestamp, mark]),
    );
    expect(one.body.statistics.rows_read).toBe(9);
    const csv = await t.http.get(`${REPORT}.csv?${range}&building_id=${site.building.id}`).set(a.auth);
    expectStatus(csv, 200);
    const lines = csv.text.trim().split('\n');
    expect(lines).toHaveLength(18);
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 2).concat(line.split(',')[4]))).toEqual(
      rows.map(([timestamp, device, mark]) => [timestamp, String(mark), device]),
    );
  });

  it('answers 507 output_too_large in the error shape before any row when the rows exceed the cap', async () => {
    const many = Array.from({ length: 30 }, (_, i) => fix('p-9', { time: at(1000 + i), floor_id: site.floor.id }));
    await report(t, a.auth, many);
    for (const format of ['json', 'csv']) {
      const response = await t.http.get(`${REPORT}.${format}?${range}&building_id=${site.building.id}`).set(a.auth);
      expectError(response, 507, 'output_too_large');
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['content-disposition']).toBeUndefined();
      expect(response.body).toEqual({ status: 507, code: 'output_too_large', message: expect.stringContaining('40 rows'), errors: [] });
    }
    // Aggregated reports: their rows are buckets, known before any is computed (24 under the cap of 40, 72 over it).
    const day = new Date(t0).toISOString().slice(0, 10);
    const hours = await t.http.get(`/api/v1/reports/visitors.json?from_date=${day}&to_date=${day}&building_id=${site.building.id}&grouping=hour`).set(a.auth);
    expectStatus(hours, 200);
    expect(hours.body.rows).toBe(24);
    for (const format of ['json', 'csv']) {
      const response = await t.http
        .get(`/api/v1/reports/positioning_time.${format}?from_date=2026-01-01&to_date=2026-01-03&building_id=${site.building.id}&grouping=hour`)
        .set(a.auth);
      expectError(response, 507, 'output_too_large');
      expect(response.headers['content-disposition']).toBeUndefined();
    }
    // Filtered below the cap, the same range answers.
    const narrowed = await t.http.get(`${REPORT}.json?${range}&building_id=${site.building.id}&device_id=p-9`).set(a.auth);
    expectStatus(narrowed, 200);
    expect(narrowed.body.rows).toBe(30);
  });
});
