import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { VisitReader } from '../../src/reports/analytics/visit-reader';
import { parseReportWindow } from '../../src/reports/report-window';
import { addUser, login } from '../support/admin';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, createGeofence, createSite, errorFields, expectError, expectStatus, LatLng, signUp, Site } from '../support/cartography';
import { report } from '../support/positions';
import { createTestApp, TestApp } from '../support/test-app';

const METRE_LAT = 1 / 111_195.08;
const ORIGIN_LAT = 42.8723597;
const ORIGIN_LNG = -8.5633224;
const METRE_LNG = METRE_LAT / Math.cos((ORIGIN_LAT * Math.PI) / 180);
const at = (east: number, north: number) => ({ lat: ORIGIN_LAT + north * METRE_LAT, lng: ORIGIN_LNG + east * METRE_LNG });

/** A 10 m square whose south-west corner is `east` metres east of the building's location. */
function square(east: number): LatLng[] {
  const sw = at(east, 0);
  const ne = at(east + 10, 10);
  return [
    [sw.lat, sw.lng],
    [ne.lat, sw.lng],
    [ne.lat, ne.lng],
    [sw.lat, ne.lng],
    [sw.lat, sw.lng],
  ];
}

const IN_A = at(5, 5);
const IN_B = at(25, 5);
const OUT = at(60, 5);
const ZONE = 'Europe/Madrid';
// Every visit is confirmed and closed by fixes alone: no grace, no timer, no timeout in between.
const RULES = { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0, cooldown_seconds: 0, stale_after_seconds: 86_400 };
// The track's day may be up to a year old: the history and the event log keep it (their default
// retentions, 30 and 90 days, would refuse or drop it once the last October Sunday is that far
// back). A small output cap, which the hourly rows of the open visit up to today pass.
const ENV = {
  GEOFENCE_SWEEPER: 'false',
  POSITIONS_MAX_AGE_SECONDS: String(366 * 86_400),
  POSITIONS_RETENTION_DAYS: '3650',
  GEOFENCE_EVENT_RETENTION_DAYS: '3650',
  REPORTS_MAX_ROWS: '50',
};

/** The most recent last Sunday of October (Madrid's 25-hour day) at least three days ago. */
function daylightSavingDay(): DateTime {
  const now = DateTime.now().setZone(ZONE);
  for (const year of [now.year, now.year - 1]) {
    const endOfOctober = DateTime.fromObject({ year, month: 10, day: 31 }, { zone: ZONE });
    const sunday = endOfOctober.minus({ days: endOfOctober.weekday % 7 });
    if (sunday.plus({ days: 3 }) < now) return sunday;
  }
  throw new Error('unreachable');
}

const D = daylightSavingDay();
const day = (offset: number) => D.plus({ days: offset }).toISODate()!;
/** D's UTC midnight (02:00 CEST on D) plus `hours`: the UTC instants of the track. */
const utc = (hours: number, minutes = 0) =>
  DateTime.fromISO(`${day(0)}T00:00:00Z`)
    .plus({ hours, minutes })
    .toMillis();

type Auth = Record<string, string>;
interface Event {
  type: string;
  occurred_at: string;
  visit_id: string;
  device_id: string;
  geofence: { id: string };
}

/**
 * The track, in UTC (Madrid is UTC+2 until 01:00Z on D, UTC+1 after):
 * - dev-1 in A from D-1 23:30 local (21:30Z the day before) to D 01:15 local: crosses midnight.
 * - dev-2 in A from 02:30 CEST (00:30Z) to 02:30 CET (01:30Z): one hour across the fall-back.
 * - dev-1 in B 12:00–12:20 local (11:00Z–11:20Z); dev-3 in B 12:10–12:40 local: two at once.
 * - dev-3 in B from 23:00 local on D (22:00Z) to 00:45 local on D+1: crosses midnight.
 * - dev-2 in A from 10:00 local on D+1 (09:00Z the next day), still inside.
 */
function track(site: Site) {
  const fix = (device: string, ms: number, point: { lat: number; lng: number }) => ({
    device_id: device,
    time: new Date(ms).toISOString(),
    lat: point.lat,
    lng: point.lng,
    accuracy: 1,
    floor_id: site.floor.id,
  });
  return [
    fix('dev-1', utc(-2, -30), IN_A),
    fix('dev-1', utc(-1), IN_A),
    fix('dev-1', utc(-1, 15), OUT),
    fix('dev-1', utc(11), IN_B),
    fix('dev-1', utc(11, 20), OUT),
    fix('dev-2', utc(0, 30), IN_A),
    fix('dev-2', utc(1), IN_A),
    fix('dev-2', utc(1, 30), OUT),
    fix('dev-2', utc(33), IN_A),
    fix('dev-3', utc(11, 10), IN_B),
    fix('dev-3', utc(11, 40), OUT),
    fix('dev-3', utc(22), IN_B),
    fix('dev-3', utc(23, 45), OUT),
  ];
}

describe('geofencing reports and analytics over the visits of the event log (contract 8.1, 8.2)', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let site: Site;
  let otherSite: Site;
  let fenceA: string;
  let fenceB: string;
  let foreignFence: string;
  let events: Event[];
  const window = `from_date=${day(-1)}&to_date=${day(1)}&time_zone=${ZONE}`;

  const get = async (auth: Auth, url: string, status = 200) => {
    const response = await t.http.get(url).set(auth);
    expectStatus(response, status);
    return response;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: ENV });
    a = await signUp(t, 'Analytics A');
    b = await signUp(t, 'Analytics B');
    site = await createSite(t, a.auth);
    otherSite = await createSite(t, b.auth);
    for (const [name, east] of [
      ['Lobby', 0],
      ['Cafe', 20],
    ] as const) {
      const fence = await createGeofence(t, a.auth, site.place, { name, code: name.toLowerCase(), geometric: square(east) });
      expectStatus(await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).send(RULES), 200);
      if (name === 'Lobby') fenceA = fence.id;
      else fenceB = fence.id;
    }
    const foreign = await createGeofence(t, b.auth, otherSite.place, { name: 'Foreign', geometric: square(0) });
    foreignFence = foreign.id;
    expectStatus(await t.http.put(`/api/v1/geofences/${foreign.id}/rules`).set(b.auth).send(RULES), 200);
    // Another organization's visits at the same times, which must never be counted for A.
    await report(t, b.auth, { positions: track(otherSite).map((item) => ({ ...item, lat: IN_A.lat, lng: IN_A.lng })) });
    const answer = (await report(t, a.auth, { positions: track(site) })) as { accepted: number; events: Event[] };
    expect(answer.accepted).toBe(13);
    events = answer.events;
    expect(events.filter((event) => event.type === 'geofence.enter')).toHaveLength(6);
    expect(events.filter((event) => event.type === 'geofence.exit')).toHaveLength(5);
  });
  afterAll(async () => {
    await t?.close();
  });

  const fenceName = () =>
    new Map([
      [fenceA, 'A'],
      [fenceB, 'B'],
    ]);
  const label = (offset: number, time = '00:00:00.000') => `${day(offset)}T${time}`;

  it('geofencing_stay_time by day in Madrid: visits split at local midnight, the 25-hour day whole (golden)', async () => {
    const response = await get(a.auth, `/api/v1/reports/geofencing_stay_time.json?building_ids=${site.building.id}&${window}`);
    expect(response.body.meta.map((column: { name: string }) => column.name)).toEqual([
      'timestamp',
      'device_id',
      'user_id',
      'building_id',
      'floor_id',
      'matched_fence_id',
      'seconds_in_fence',
      'stay_time',
      'sessions_count',
    ]);
    expect(response.body.rows).toBe(7);
    const rows = (response.body.data as Array<Record<string, unknown>>).map((row) => [
      row.timestamp,
      fenceName().get(row.matched_fence_id as string),
      row.device_id,
      row.seconds_in_fence,
      row.stay_time,
      row.sessions_count,
    ]);
    expect(rows).toEqual(
      expect.arrayContaining([
        [label(-1), 'A', 'dev-1', 1800, '00:30:00', 1],
        [label(0), 'A', 'dev-1', 4500, '01:15:00', 1],
        [label(0), 'A', 'dev-2', 3600, '01:00:00', 1],
        [label(0), 'B', 'dev-1', 1200, '00:20:00', 1],
        [label(0), 'B', 'dev-3', 5400, '01:30:00', 2],
        // The open visit counts up to the window's end: 10:00 to midnight on D+1.
        [label(1), 'A', 'dev-2', 50_400, '14:00:00', 1],
        [label(1), 'B', 'dev-3', 2700, '00:45:00', 1],
      ]),
    );
    expect(response.body.data[0]).toMatchObject({ user_id: a.org.adminId, building_id: site.building.id, floor_id: site.floor.id });
    // Ordered by bucket.
    expect(rows.map((row) => row[0])).toEqual([...rows.map((row) => row[0])].sort());
  });

  it('by hour the fall-back day has two 02:00 buckets, and every grouping sums to the same total as the analytics', async () => {
    const hourly = await get(a.auth, `/api/v1/reports/geofencing_stay_time.json?building_ids=${site.building.id}&${window}&grouping=hour&geofence_ids=${fenceA}`);
    const dev2 = (hourly.body.data as Array<{ timestamp: string; device_id: string; seconds_in_fence: number }>).filter(
      (row) => row.device_id === 'dev-2' && row.timestamp.startsWith(day(0)),
    );
    expect(dev2.map((row) => [row.timestamp, row.seconds_in_fence])).toEqual([
      [label(0, '02:00:00.000'), 1800],
      [label(0, '02:00:00.000'), 1800],
    ]);
    const totals: number[] = [];
    for (const grouping of ['hour', 'day', 'week', 'month']) {
      const response = await get(a.auth, `/api/v1/reports/geofencing_stay_time.json?building_ids=${site.building.id}&${window}&grouping=${grouping}`);
      totals.push((response.body.data as Array<{ seconds_in_fence: number }>).reduce((sum, row) => sum + row.seconds_in_fence, 0));
    }
    const analytics = await get(a.auth, `/api/v1/geofencing/analytics?building_ids=${site.building.id}&from=${day(-1)}&to=${day(1)}&time_zone=${ZONE}`);
    const analyticsTotal = (analytics.body.data as Array<{ total_stay_seconds: number }>).reduce((sum, row) => sum + row.total_stay_seconds, 0);
    expect(totals).toEqual([69_600, 69_600, 69_600, 69_600]);
    expect(analyticsTotal).toBe(69_600);
  });

  it('geofencing_sessions_matches: one row per visit, the visit the events carried', async () => {
    const response = await get(a.auth, `/api/v1/reports/geofencing_sessions_matches.json?building_ids=${site.building.id}&${window}`);
    expect(response.body.rows).toBe(6);
    const rows = response.body.data as Array<{
      visit_id: string;
      device_id: string;
      matched_fence_id: string;
      entered_at: string;
      exited_at: string | null;
      exit_reason: string | null;
      seconds_in_fence: number;
    }>;
    const enters = events.filter((event) => event.type === 'geofence.enter');
    expect(rows.map((row) => row.visit_id).sort()).toEqual(enters.map((event) => event.visit_id).sort());
    const local = (iso: string) => DateTime.fromISO(iso, { zone: 'utc' }).setZone(ZONE).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS");
    for (const row of rows) {
      const enter = enters.find((event) => event.visit_id === row.visit_id)!;
      const exit = events.find((event) => event.type === 'geofence.exit' && event.visit_id === row.visit_id);
      expect([row.device_id, row.matched_fence_id, row.entered_at]).toEqual([enter.device_id, enter.geofence.id, local(enter.occurred_at)]);
      expect(row.exited_at).toBe(exit ? local(exit.occurred_at) : null);
      expect(row.exit_reason).toBe(exit ? 'position' : null);
    }
    // Every visit lies in the window whole, but the open one, which runs to the window end.
    expect(rows.map((row) => row.seconds_in_fence).sort((x, y) => x - y)).toEqual([1200, 1800, 3600, 6300, 6300, 50_400]);
  });

  it('geofencing analytics per fence for the whole window (golden), the same on /search', async () => {
    const url = `/api/v1/geofencing/analytics?building_ids=${site.building.id}&from=${day(-1)}&to=${day(1)}&time_zone=${ZONE}`;
    const response = await get(a.auth, url);
    expect(response.body).toMatchObject({ from: label(-1), to: label(2), grouping: 'none', time_zone: ZONE });
    const byFence = new Map((response.body.data as Array<Record<string, unknown>>).map((row) => [fenceName().get(row.geofence_id as string), row]));
    expect(byFence.size).toBe(2);
    expect(byFence.get('A')).toEqual({
      geofence_id: fenceA,
      geofence_name: 'Lobby',
      geofence_code: 'lobby',
      building_id: site.building.id,
      floor_id: site.floor.id,
      bucket: label(-1),
      entries: 3,
      exits: 2,
      unique_devices: 2,
      unique_users: 1,
      total_stay_seconds: 60_300,
      avg_stay_seconds: 20_100,
      p50_stay_seconds: 6300,
      p90_stay_seconds: 41_580,
      max_occupancy: 1,
    });
    expect(byFence.get('B')).toMatchObject({
      geofence_name: 'Cafe',
      entries: 3,
      exits: 3,
      unique_devices: 2,
      unique_users: 1,
      total_stay_seconds: 9300,
      avg_stay_seconds: 3100,
      p50_stay_seconds: 1800,
      p90_stay_seconds: 5400,
      max_occupancy: 2,
    });
    expect((await get(a.auth, url.replace('/analytics?', '/analytics/search?'))).body).toEqual(response.body);
  });

  it('analytics by day: entries and exits in the bucket they happened, stays split at midnight', async () => {
    const response = await get(a.auth, `/api/v1/geofencing/analytics?geofence_ids=${fenceB}&from_date=${day(-1)}&to_date=${day(1)}&time_zone=${ZONE}&grouping=day`);
    expect((response.body.data as Array<Record<string, unknown>>).map((row) => [row.bucket, row.entries, row.exits, row.total_stay_seconds, row.max_occupancy])).toEqual([
      [label(-1), 0, 0, 0, 0],
      [label(0), 3, 2, 6600, 2],
      [label(1), 0, 1, 2700, 1],
    ]);
    expect(response.body.data[0]).toMatchObject({ avg_stay_seconds: null, p50_stay_seconds: null, p90_stay_seconds: null, unique_devices: 0 });
  });

  it('the 2020 client form, verbatim: repeated building_ids, camelCase organizationId, from/to', async () => {
    const raw = `/api/v1/geofencing/analytics?building_ids=${site.building.id}&building_ids=${site.building.id}&organizationId=${a.org.organizationId}&from=${day(-1)}&to=${day(1)}`;
    const response = await get(a.auth, raw);
    expect(response.body).toMatchObject({ grouping: 'none', time_zone: 'UTC', from: `${day(-1)}T00:00:00.000Z` });
    expect(response.body.data).toHaveLength(2);
    // The other spellings answer the same.
    const bracketed = await get(
      a.auth,
      `/api/v1/geofencing/analytics/search?building_ids[]=${site.building.id}&organization_id=${a.org.organizationId}&from_date=${day(-1)}&to_date=${day(1)}`,
    );
    expect(bracketed.body).toEqual(response.body);
    // Another organization's id: 404, as any other organization's resource.
    expectError(await t.http.get(raw.replace(a.org.organizationId, b.org.organizationId)).set(a.auth), 404, 'entity_not_found');
    const malformed = await t.http.get(raw.replace(a.org.organizationId, 'not-a-uuid')).set(a.auth);
    expectError(malformed, 400, 'bad_request');
    expect(errorFields(malformed)).toEqual(['organizationId']);
  });

  it('occupancy history: peak, time-weighted mean and end-of-bucket count per hour', async () => {
    const response = await get(a.auth, `/api/v1/geofencing/occupancy/history?geofence_ids=${fenceB}&from=${day(0)}T12:00:00&to=${day(0)}T14:00:00&time_zone=${ZONE}`);
    expect(response.body).toMatchObject({ grouping: 'hour', time_zone: ZONE, from: label(0, '12:00:00.000'), to: label(0, '14:00:00.000') });
    expect(response.body.data).toEqual([
      {
        geofence_id: fenceB,
        geofence_name: 'Cafe',
        geofence_code: 'cafe',
        building_id: site.building.id,
        floor_id: site.floor.id,
        series: [
          { bucket: label(0, '12:00:00.000'), max_occupancy: 2, avg_occupancy: 0.833, end_occupancy: 0 },
          { bucket: label(0, '13:00:00.000'), max_occupancy: 0, avg_occupancy: 0, end_occupancy: 0 },
        ],
      },
    ]);
    // The open visit of dev-2 is still under way at the end of D+1.
    const open = await get(a.auth, `/api/v1/geofencing/occupancy/history?geofence_ids=${fenceA}&from=${day(1)}&to=${day(1)}&time_zone=${ZONE}&grouping=day`);
    expect(open.body.data[0].series).toEqual([{ bucket: label(1), max_occupancy: 1, avg_occupancy: 0.583, end_occupancy: 1 }]);
  });

  it('CSV: header of the meta names, one line per row, as a download', async () => {
    const response = await get(a.auth, `/api/v1/reports/geofencing_stay_time.csv?building_ids=${site.building.id}&${window}`);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="geofencing_stay_time.csv"');
    const lines = response.text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('timestamp,device_id,user_id,building_id,floor_id,matched_fence_id,seconds_in_fence,stay_time,sessions_count');
    expect(lines).toHaveLength(8);
    expect(lines).toContain(`${label(1)},dev-2,${a.org.adminId},${site.building.id},${site.floor.id},${fenceA},50400,14:00:00,1`);
    const sessions = await get(a.auth, `/api/v1/reports/geofencing_sessions_matches.csv?building_ids=${site.building.id}&${window}`);
    expect(sessions.headers['content-disposition']).toBe('attachment; filename="geofencing_sessions_matches.csv"');
    expect(sessions.text.trim().split(/\r?\n/)).toHaveLength(7);
  });

  it('reads visits in keyset pages without losing or repeating one, older ones still under way included', async () => {
    const reader = t.app.get(VisitReader);
    // From D 01:00 local: dev-1's first visit (entered the day before, exited 01:15) is under way at the start.
    const window = parseReportWindow({ from: `${day(0)}T01:00:00`, to: day(1), timeZone: ZONE }, { from: 'from', to: 'to', timeZone: 'time_zone' });
    const whole = await reader.visits(a.org.organizationId, [fenceA, fenceB], window);
    expect(whole).toHaveLength(6);
    for (const pageSize of [1, 2, 3]) expect(await reader.visits(a.org.organizationId, [fenceA, fenceB], window, pageSize)).toEqual(whole);
    const later = parseReportWindow({ from: `${day(0)}T01:30:00`, to: day(1), timeZone: ZONE }, { from: 'from', to: 'to', timeZone: 'time_zone' });
    expect(await reader.visits(a.org.organizationId, [fenceA, fenceB], later, 1)).toHaveLength(5);
  });

  it('over the output cap: 507 output_too_large before any row, in JSON and CSV', async () => {
    const today = DateTime.now().setZone(ZONE).toISODate();
    for (const format of ['json', 'csv']) {
      const response = await t.http
        .get(`/api/v1/reports/geofencing_stay_time.${format}?building_ids=${site.building.id}&from_date=${day(-1)}&to_date=${today}&time_zone=${ZONE}&grouping=hour`)
        .set(a.auth);
      expectError(response, 507, 'output_too_large');
    }
  });

  it('bad parameters are 400 naming the parameter, on every report and the analytics', async () => {
    const building = `building_ids=${site.building.id}`;
    const cases: Array<[string, string]> = [
      [`/api/v1/reports/geofencing_stay_time.json?${window}`, 'building_ids'],
      [`/api/v1/reports/geofencing_stay_time.csv?${building}&to_date=${day(1)}`, 'from_date'],
      [`/api/v1/reports/geofencing_stay_time.json?${building}&from_date=${day(-1)}`, 'to_date'],
      [`/api/v1/reports/geofencing_stay_time.json?${building}&from_date=yesterday&to_date=${day(1)}`, 'from_date'],
      [`/api/v1/reports/geofencing_stay_time.json?${building}&from_date=${day(1)}&to_date=${day(-1)}`, 'to_date'],
      [`/api/v1/reports/geofencing_stay_time.json?${building}&from_date=2020-01-01&to_date=2021-06-01`, 'to_date'],
      [`/api/v1/reports/geofencing_stay_time.json?${building}&${window.replace(ZONE, 'Mars/Olympus')}`, 'time_zone'],
      [`/api/v1/reports/geofencing_stay_time.json?${building}&${window}&grouping=fortnight`, 'grouping'],
      [`/api/v1/reports/geofencing_sessions_matches.json?${building}&${window}&grouping=none`, 'grouping'],
      [`/api/v1/reports/geofencing_sessions_matches.csv?building_ids=abc&${window}`, 'building_ids'],
      [`/api/v1/reports/geofencing_stay_time.json?${building}&${window}&geofence_ids=nope`, 'geofence_ids'],
      [`/api/v1/geofencing/analytics?from=${day(-1)}`, 'to'],
      [`/api/v1/geofencing/analytics?to=${day(1)}`, 'from'],
      [`/api/v1/geofencing/analytics?from=${day(-1)}&to=${day(1)}&grouping=year`, 'grouping'],
      [`/api/v1/geofencing/analytics/search?from_date=${day(1)}&to_date=${day(-1)}`, 'to_date'],
      [`/api/v1/geofencing/occupancy/history?from=${day(-1)}&to=${day(1)}`, 'geofence_ids'],
      [`/api/v1/geofencing/occupancy/history?geofence_ids=${fenceA}&from=${day(-1)}&to=${day(1)}&time_zone=Nowhere`, 'time_zone'],
    ];
    for (const [url, field] of cases) {
      const response = await t.http.get(url).set(a.auth);
      expectError(response, 400, 'bad_request');
      expect(errorFields(response), url).toEqual([field]);
    }
  });

  it('needs read-only or stronger: a positioning key gets 403, a read-only key the answer', async () => {
    const positioning = asApiKey((await createApiKey(t, a.token, ApiPermission.Positioning)).apikey);
    const readOnly = asApiKey((await createApiKey(t, a.token, ApiPermission.ReadOnly)).apikey);
    const urls = [
      `/api/v1/reports/geofencing_stay_time.json?building_ids=${site.building.id}&${window}`,
      `/api/v1/reports/geofencing_sessions_matches.csv?building_ids=${site.building.id}&${window}`,
      `/api/v1/geofencing/analytics?from=${day(-1)}&to=${day(1)}`,
      `/api/v1/geofencing/occupancy/history?geofence_ids=${fenceA}&from=${day(-1)}&to=${day(1)}`,
    ];
    for (const url of urls) {
      expectError(await t.http.get(url).set(positioning), 403, 'forbidden');
      expectStatus(await t.http.get(url).set(readOnly), 200);
      expectError(await t.http.get(url), 401, 'unauthorized');
    }
  });

  it("another organization's building or fence is 404 and never counted", async () => {
    for (const url of [
      `/api/v1/reports/geofencing_stay_time.json?building_ids=${otherSite.building.id}&${window}`,
      `/api/v1/reports/geofencing_sessions_matches.json?building_ids=${site.building.id},${otherSite.building.id}&${window}`,
      `/api/v1/geofencing/analytics?building_ids=${otherSite.building.id}&from=${day(-1)}&to=${day(1)}`,
      `/api/v1/geofencing/analytics?geofence_ids=${foreignFence}&from=${day(-1)}&to=${day(1)}`,
      `/api/v1/geofencing/occupancy/history?geofence_ids=${fenceA},${foreignFence}&from=${day(-1)}&to=${day(1)}`,
    ]) {
      expectError(await t.http.get(url).set(a.auth), 404, 'entity_not_found');
    }
    // Without a filter the analytics cover the caller's fences only; B's visits at the same times add nothing.
    const mine = await get(a.auth, `/api/v1/geofencing/analytics?from=${day(-1)}&to=${day(1)}&time_zone=${ZONE}`);
    expect((mine.body.data as Array<{ geofence_id: string }>).map((row) => row.geofence_id).sort()).toEqual([fenceA, fenceB].sort());
    const theirs = await get(b.auth, `/api/v1/geofencing/analytics?from=${day(-1)}&to=${day(1)}&time_zone=${ZONE}`);
    expect(theirs.body.data).toEqual([expect.objectContaining({ geofence_id: foreignFence, unique_devices: 3 })]);
    expect(theirs.body.data[0].entries).toBeGreaterThan(0);
  });

  it('a user restricted to another building of the organization: its fences only, the rest 404', async () => {
    const annex = await createSite(t, a.auth, { name: 'Annex' });
    const annexFence = await createGeofence(t, a.auth, annex.place, { name: 'Annex hall', geometric: square(0) });
    const member = await addUser(t, a.auth, { full_name: 'Annex only', building_ids: [annex.building.id] });
    const { auth } = await login(t, member.email, member.password);
    const range = `from=${day(-1)}&to=${day(1)}&time_zone=${ZONE}`;
    const visible = await get(auth, `/api/v1/geofencing/analytics?${range}`);
    expect(visible.body.data).toEqual([expect.objectContaining({ geofence_id: annexFence.id, entries: 0, total_stay_seconds: 0 })]);
    for (const url of [
      `/api/v1/reports/geofencing_stay_time.json?building_ids=${site.building.id}&${window}`,
      `/api/v1/geofencing/analytics?geofence_ids=${fenceA}&${range}`,
      `/api/v1/geofencing/occupancy/history?geofence_ids=${fenceB}&${range}`,
    ]) {
      expectError(await t.http.get(url).set(auth), 404, 'entity_not_found');
    }
  });

  it('a deleted fence keeps its visits in the reports (exit fence_deleted) and is 404 when named', async () => {
    const fence = await createGeofence(t, a.auth, site.place, { name: 'Popup', code: 'popup', geometric: square(40) });
    expectStatus(await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).send(RULES), 200);
    const inside = at(45, 5);
    const entered = Date.now() - 30_000;
    await report(t, a.auth, { positions: [{ device_id: 'dev-9', time: new Date(entered).toISOString(), lat: inside.lat, lng: inside.lng, accuracy: 1, floor_id: site.floor.id }] });
    expectStatus(await t.http.delete(`/api/v1/geofences/${fence.id}`).set(a.auth), 204);
    const today = `from=${new Date(entered - 60_000).toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}`;
    const analytics = await get(a.auth, `/api/v1/geofencing/analytics?building_ids=${site.building.id}&${today}`);
    const rows = analytics.body.data as Array<{ geofence_id: string }>;
    expect(rows.map((row) => row.geofence_id).sort()).toEqual([fenceA, fenceB, fence.id].sort());
    expect(rows.find((row) => row.geofence_id === fence.id)).toMatchObject({ entries: 1, exits: 1, unique_devices: 1, max_occupancy: 1 });
    const sessions = await get(
      a.auth,
      `/api/v1/reports/geofencing_sessions_matches.json?building_ids=${site.building.id}&${today.replace('from', 'from_date').replace('to', 'to_date')}`,
    );
    // dev-2's visit to the lobby, open since D+1, and the popup's, closed by the deletion.
    expect(sessions.body.data).toEqual([
      expect.objectContaining({ matched_fence_id: fenceA, device_id: 'dev-2', exited_at: null }),
      expect.objectContaining({ matched_fence_id: fence.id, device_id: 'dev-9', entered_at: new Date(entered).toISOString(), exit_reason: 'fence_deleted' }),
    ]);
    expectError(await t.http.get(`/api/v1/geofencing/analytics?geofence_ids=${fence.id}&${today}`).set(a.auth), 404, 'entity_not_found');
  });
});
