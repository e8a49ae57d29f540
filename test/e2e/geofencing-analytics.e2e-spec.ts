import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/auth/permissions';
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
const ENV = { GEOFENCE_SWEEPER: 'false', POSITIONS_MAX_AGE_SECONDS: String(366 * 86_400) };

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
const utc = (hours: number, minutes = 0) => DateTime.fromISO(`${day(0)}T00:00:00Z`).plus({ hours, minutes }).toMillis();

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
  const fix = (device: string, ms: number, point: { lat: number; lng: number }) => ({ device_id: device, time: new Date(ms).toISOString(), lat: point.lat, lng: point.lng, accuracy: 1, floor_id: site.floor.id });
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

  const fenceName = () => new Map([[fenceA, 'A'], [fenceB, 'B']]);
  const label = (offset: number, time = '00:00:00.000') => `${day(offset)}T${time}`;

  it('geofencing_stay_time by day in Madrid: visits split at local midnight, the 25-hour day whole (golden)', async () => {
    const response = await get(a.auth, `/api/v1/reports/geofencing_stay_time.json?building_ids=${site.building.id}&${window}`);
    expect(response.body.meta.map((column: { name: string }) => column.name)).toEqual([
      'timestamp', 'device_id', 'user_id', 'building_id', 'floor_id', 'matched_fence_id', 'seconds_in_fence', 'stay_time', 'sessions_count',
    ]);
    expect(response.body.rows).toBe(7);
    const rows = (response.body.data as Array<Record<string, unknown>>).map((row) => [row.timestamp, fenceName().get(row.matched_fence_id as string), row.device_id, row.seconds_in_fence, row.stay_time, row.sessions_count]);
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
    const dev2 = (hourly.body.data as Array<{ timestamp: string; device_id: string; seconds_in_fence: number }>).filter((row) => row.device_id === 'dev-2' && row.timestamp.startsWith(day(0)));
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
    const rows = response.body.data as Array<{ visit_id: string; device_id: string; matched_fence_id: string; entered_at: string; exited_at: string | null; exit_reason: string | null; seconds_in_fence: number }>;
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
});
