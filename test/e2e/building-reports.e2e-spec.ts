import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { PositionRollups } from '../../src/positions/position-rollups.service';
import { orderedStatement, orderedValues } from '../../src/database/statements';
import { SQLITE_NEIGHBOURS } from '../../src/positions/position-rollup-store';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, createSite, expectError, expectStatus, signUp, Site } from '../support/cartography';
import { fix, report } from '../support/positions';
import { createTestApp, TestApp } from '../support/test-app';

const ZONE = 'Europe/Madrid';
const DAY = 86_400_000;

/** The latest daylight saving change in Madrid (last Sunday of March or October) at least two days ago. */
function latestDstDay(now = Date.now()): DateTime {
  const candidates: DateTime[] = [];
  const year = DateTime.fromMillis(now, { zone: ZONE }).year;
  for (const y of [year, year - 1]) {
    for (const month of [3, 10]) {
      const last = DateTime.fromObject({ year: y, month, day: 31 }, { zone: ZONE }).endOf('month').startOf('day');
      candidates.push(last.minus({ days: last.weekday % 7 }));
    }
  }
  return candidates.filter((day) => day.toMillis() < now - 2 * DAY).sort((a, b) => b.toMillis() - a.toMillis())[0];
}

describe('visitors and positioning_time (contract 8.1), from the position rollups', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let site: Site;
  let other: Site;
  let siteB: Site;
  const day = latestDstDay();
  const dayBefore = day.minus({ days: 1 });
  const dayAfter = day.plus({ days: 1 });
  const local = (base: DateTime, hms: string) => {
    const [hour, minute, second] = hms.split(':').map(Number);
    return base.set({ hour, minute, second }).toUTC().toISO()!;
  };
  const date = (d: DateTime) => d.toISODate()!;
  const range = `from_date=${date(dayBefore)}&to_date=${date(dayAfter)}`;
  const hoursOfDay = day.plus({ days: 1 }).diff(day, 'hours').hours;

  beforeAll(async () => {
    // Old enough fixes accepted (PostgreSQL then makes a partition for each day of that age, so no more than needed).
    const maxAge = Math.ceil((Date.now() - dayBefore.toMillis()) / 1000) + 2 * 86_400;
    t = await createTestApp({ env: { POSITIONS_MAX_AGE_SECONDS: String(maxAge), POSITIONS_RETENTION_DAYS: '3650' } });
    a = await signUp(t, 'Visitors A');
    b = await signUp(t, 'Visitors B');
    site = await createSite(t, a.auth);
    other = await createSite(t, a.auth);
    siteB = await createSite(t, b.auth);
    const floor = { floor_id: site.floor.id };
    await report(t, a.auth, [
      // v-1: 60 s positioned at 00:30 local on the DST day; 20 s the day after.
      fix('v-1', { ...floor, time: local(day, '00:30:00') }),
      fix('v-1', { ...floor, time: local(day, '00:30:30') }),
      fix('v-1', { ...floor, time: local(day, '00:31:00') }),
      fix('v-1', { ...floor, time: local(dayAfter, '10:00:00') }),
      fix('v-1', { ...floor, time: local(dayAfter, '10:00:20') }),
      // v-1 in the other building: never counted here.
      fix('v-1', { floor_id: other.floor.id, time: local(day, '09:00:00') }),
      // v-2 across local midnight: 20 s the day before, 10 s on the DST day.
      fix('v-2', { ...floor, time: local(dayBefore, '23:59:40') }),
      fix('v-2', { ...floor, time: local(day, '00:00:10') }),
      // v-3: one fix at noon, seen but not positioned for any time.
      fix('v-3', { ...floor, time: local(day, '12:00:00') }),
    ]);
    // Sent again (a client's retry): the rollups count each fix once.
    await report(t, a.auth, [fix('v-2', { ...floor, time: local(dayBefore, '23:59:40') }), fix('v-2', { ...floor, time: local(day, '00:00:10') })]);
    await report(t, b.auth, [fix('v-b', { floor_id: siteB.floor.id, time: local(day, '00:30:00') }), fix('v-b', { floor_id: siteB.floor.id, time: local(day, '00:30:30') })]);
  });
  afterAll(async () => t?.close());

  const get = (path: string, auth = a.auth) => t.http.get(`/api/v1/reports/${path}`).set(auth);

  it('visitors per local day in Europe/Madrid, every bucket listed', async () => {
    const response = await get(`visitors.json?${range}&building_id=${site.building.id}&time_zone=${ZONE}`);
    expectStatus(response, 200);
    expect(Object.keys(response.body)).toEqual(['meta', 'data', 'rows', 'statistics']);
    expect(response.body.meta).toEqual([
      { name: 'date', type: 'String' },
      { name: 'visitors', type: 'UInt64' },
    ]);
    expect(response.body.data).toEqual([
      { date: `${date(dayBefore)}T00:00:00.000`, visitors: 1 },
      { date: `${date(day)}T00:00:00.000`, visitors: 3 },
      { date: `${date(dayAfter)}T00:00:00.000`, visitors: 1 },
    ]);
    expect(response.body.rows).toBe(3);
    expect(response.body.statistics).toEqual({ elapsed: expect.any(Number), rows_read: expect.any(Number), bytes_read: expect.any(Number) });
    expect(response.body.statistics.rows_read).toBeGreaterThanOrEqual(5);
    // The same fixes by UTC days: the hours after local midnight were the evening before in UTC.
    const utc = await get(`visitors.json?${range}&building_id=${site.building.id}`);
    expect(utc.body.data).toEqual([
      { date: `${date(dayBefore)}T00:00:00.000Z`, visitors: 2 },
      { date: `${date(day)}T00:00:00.000Z`, visitors: 1 },
      { date: `${date(dayAfter)}T00:00:00.000Z`, visitors: 1 },
    ]);
  });

  it(`the DST day has ${'23 or 25'} hourly buckets, and the visitors land in local hours`, async () => {
    const response = await get(`visitors.json?from_date=${date(day)}&to_date=${date(day)}&building_id=${site.building.id}&time_zone=${ZONE}&grouping=hour`);
    expectStatus(response, 200);
    expect([23, 25]).toContain(hoursOfDay);
    expect(response.body.rows).toBe(hoursOfDay);
    const busy = (response.body.data as Array<{ date: string; visitors: number }>).filter((row) => row.visitors > 0);
    expect(busy).toEqual([
      { date: `${date(day)}T00:00:00.000`, visitors: 2 },
      { date: `${date(day)}T12:00:00.000`, visitors: 1 },
    ]);
  });

  it('positioning_time: seconds per device from its sessions, total, mean and standard deviation per bucket', async () => {
    const response = await get(`positioning_time.json?${range}&building_id=${site.building.id}&time_zone=${ZONE}`);
    expectStatus(response, 200);
    expect(response.body.meta.map((column: { name: string }) => column.name)).toEqual(['timestamp', 'total', 'avg', 'std']);
    expect(response.body.data).toEqual([
      { timestamp: dayBefore.toSeconds(), total: 20, avg: 20, std: 0 },
      // v-1 60 s, v-2 10 s, v-3 0 s.
      { timestamp: day.toSeconds(), total: 70, avg: 23.333, std: 26.247 },
      { timestamp: dayAfter.toSeconds(), total: 20, avg: 20, std: 0 },
    ]);
    // Every grouping sums to the same total.
    for (const grouping of ['hour', 'week', 'month']) {
      const grouped = await get(`positioning_time.json?${range}&building_id=${site.building.id}&time_zone=${ZONE}&grouping=${grouping}`);
      expectStatus(grouped, 200);
      expect(
        (grouped.body.data as Array<{ total: number }>).reduce((sum, row) => sum + row.total, 0),
        grouping,
      ).toBe(110);
    }
  });

  it('both reports as CSV downloads, header = meta names', async () => {
    const visitors = await get(`visitors.csv?${range}&building_id=${site.building.id}&time_zone=${ZONE}`);
    expectStatus(visitors, 200);
    expect(visitors.headers['content-type']).toMatch(/^text\/csv/);
    expect(visitors.headers['content-disposition']).toBe('attachment; filename="visitors.csv"');
    expect(visitors.text).toBe(`date,visitors\n${date(dayBefore)}T00:00:00.000,1\n${date(day)}T00:00:00.000,3\n${date(dayAfter)}T00:00:00.000,1\n`);
    const time = await get(`positioning_time.csv?${range}&building_id=${site.building.id}&time_zone=${ZONE}`);
    expectStatus(time, 200);
    expect(time.headers['content-disposition']).toBe('attachment; filename="positioning_time.csv"');
    expect(time.text).toBe(`timestamp,total,avg,std\n${dayBefore.toSeconds()},20,20,0\n${day.toSeconds()},70,23.333,26.247\n${dayAfter.toSeconds()},20,20,0\n`);
  });

  it('answers 400 naming the parameter', async () => {
    const building = `building_id=${site.building.id}`;
    const cases: Array<[string, string]> = [
      [`to_date=${date(day)}&${building}`, 'from_date'],
      [`from_date=${date(day)}&${building}`, 'to_date'],
      [range, 'building_id'],
      [`${range}&building_id=x`, 'building_id'],
      [`from_date=soon&to_date=${date(day)}&${building}`, 'from_date'],
      [`from_date=${date(dayAfter)}&to_date=${date(dayBefore)}&${building}`, 'to_date'],
      [`from_date=2024-01-01&to_date=2025-06-01&${building}`, 'to_date'],
      [`${range}&${building}&time_zone=Mars/Olympus`, 'time_zone'],
      [`${range}&${building}&grouping=fortnight`, 'grouping'],
    ];
    for (const format of ['json', 'csv']) {
      for (const report of ['visitors', 'positioning_time']) {
        for (const [query, field] of cases) {
          const response = await get(`${report}.${format}?${query}`);
          expectError(response, 400, 'bad_request');
          expect(
            response.body.errors.map((error: { fields: string }) => error.fields),
            `${report}.${format}?${query}`,
          ).toContain(field);
        }
      }
    }
  });

  it("keeps organizations apart: another organization's building is 404, its devices never counted", async () => {
    for (const path of ['visitors.json', 'visitors.csv', 'positioning_time.json', 'positioning_time.csv']) {
      expectError(await get(`${path}?${range}&building_id=${site.building.id}`, b.auth), 404, 'entity_not_found');
    }
    const own = await get(`visitors.json?${range}&building_id=${siteB.building.id}&time_zone=${ZONE}`, b.auth);
    expect(own.body.data.map((row: { visitors: number }) => row.visitors)).toEqual([0, 1, 0]);
    const otherBuilding = await get(`visitors.json?${range}&building_id=${other.building.id}&time_zone=${ZONE}`);
    expect(otherBuilding.body.data.map((row: { visitors: number }) => row.visitors)).toEqual([0, 1, 0]);
  });

  it('needs read-only or stronger', async () => {
    const query = `visitors.json?${range}&building_id=${site.building.id}`;
    const positioning = asApiKey((await createApiKey(t, a.token, ApiPermission.Positioning)).apikey);
    const readOnly = asApiKey((await createApiKey(t, a.token, ApiPermission.ReadOnly)).apikey);
    expectError(await get(query, positioning), 403, 'forbidden');
    expectError(await get(query.replace('visitors', 'positioning_time'), positioning), 403, 'forbidden');
    expectStatus(await get(query, readOnly), 200);
    expectError(await t.http.get(`/api/v1/reports/${query}`), 401, 'unauthorized');
  });

  it('a deleted device no longer counts', async () => {
    expectStatus(await t.http.delete('/api/v1/devices/v-3').set(a.auth), 204);
    const response = await get(`visitors.json?${range}&building_id=${site.building.id}&time_zone=${ZONE}`);
    expect(response.body.data.map((row: { visitors: number }) => row.visitors)).toEqual([1, 2, 1]);
  });

  it("the ingest's read of stored neighbours goes through the history key, one device window at a time", async () => {
    if (t.dataSource.options.type !== 'better-sqlite3') return;
    const neighbours = orderedStatement(SQLITE_NEIGHBOURS, 'sqlite');
    const plan: Array<{ detail: string }> = await t.dataSource.query(`EXPLAIN QUERY PLAN ${neighbours.text}`, orderedValues(neighbours, ['[]', a.org.organizationId]));
    const details = plan.map((row) => row.detail);
    // Every read of the history is a seek on its key, one device window at a time; none scans it.
    const history = details.filter((detail) => / (h|p) /.test(detail) || /position_history/.test(detail));
    expect(history.length).toBeGreaterThanOrEqual(5);
    for (const detail of history)
      expect(detail).toMatch(/^SEARCH (h|p) USING (COVERING )?INDEX sqlite_autoindex_position_history_1 \(organization_id=\? AND device_id=\? AND time[<>]\?/);
    expect(details.filter((detail) => /^SCAN (h|p)\b/.test(detail))).toEqual([]);
  });

  it('drops rollups with the days the history no longer keeps', async () => {
    const rollups = t.app.get(PositionRollups);
    const count = async () => Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM position_rollups'))[0].n);
    const before = await count();
    expect(before).toBeGreaterThan(0);
    // With 3650 days kept, nothing goes; ten years on, everything does.
    expect(await rollups.applyRetention()).toBe(0);
    expect(await rollups.applyRetention(Date.now() + 3651 * DAY)).toBe(before);
    expect(await count()).toBe(0);
  });
});
