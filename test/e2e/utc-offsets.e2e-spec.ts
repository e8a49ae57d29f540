import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cartographer, expectError, signUp } from '../support/cartography';
import { operationsOf, OpenApiDocument } from '../support/docs-openapi';
import { eventSite, EventSite } from '../support/geofence-events';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Issue 27, item 7: `from_date=2026-01-01T00:00:00+99:00` shifted a report's range by four days
 * without a word. An offset beyond ±14:00 (or with minutes past 59) is 422 naming the parameter,
 * on every report and analytics route, and every other route that takes a date-time range.
 */
interface Route {
  path: (site: EventSite) => string;
  from: string;
  to: string;
}

const REPORT = (name: string, buildings: 'building_id' | 'building_ids'): Route => ({
  path: (site) => `/api/v1/reports/${name}?${buildings}=${site.building.id}`,
  from: 'from_date',
  to: 'to_date',
});

const ROUTES: Record<string, Route> = {
  '/api/v1/reports/user_positions.json': REPORT('user_positions.json', 'building_id'),
  '/api/v1/reports/user_positions.csv': REPORT('user_positions.csv', 'building_id'),
  '/api/v1/reports/visitors.json': REPORT('visitors.json', 'building_id'),
  '/api/v1/reports/visitors.csv': REPORT('visitors.csv', 'building_id'),
  '/api/v1/reports/positioning_time.json': REPORT('positioning_time.json', 'building_id'),
  '/api/v1/reports/positioning_time.csv': REPORT('positioning_time.csv', 'building_id'),
  '/api/v1/reports/geofencing_stay_time.json': REPORT('geofencing_stay_time.json', 'building_ids'),
  '/api/v1/reports/geofencing_stay_time.csv': REPORT('geofencing_stay_time.csv', 'building_ids'),
  '/api/v1/reports/geofencing_sessions_matches.json': REPORT('geofencing_sessions_matches.json', 'building_ids'),
  '/api/v1/reports/geofencing_sessions_matches.csv': REPORT('geofencing_sessions_matches.csv', 'building_ids'),
  '/api/v1/geofencing/analytics': { path: (site) => `/api/v1/geofencing/analytics?building_ids=${site.building.id}`, from: 'from', to: 'to' },
  '/api/v1/geofencing/analytics/search': { path: (site) => `/api/v1/geofencing/analytics/search?building_ids=${site.building.id}`, from: 'from_date', to: 'to_date' },
  '/api/v1/geofencing/occupancy/history': { path: (site) => `/api/v1/geofencing/occupancy/history?geofence_ids=${site.fence.id}`, from: 'from', to: 'to' },
  '/api/v1/geofences/{id}/visits': { path: (site) => `/api/v1/geofences/${site.fence.id}/visits?`, from: 'from', to: 'to' },
  '/api/v1/geofencing/events': { path: () => '/api/v1/geofencing/events?', from: 'from', to: 'to' },
};

const IMPOSSIBLE = ['2026-01-01T00:00:00+99:00', '2026-01-01T00:00:00+14:30', '2026-01-01T00:00:00-12:60', '2026-01-01T00:00:00.000-1500'];
const day = (offset: string) => `${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}T00:00:00${offset}`;

describe('impossible UTC offsets', () => {
  let t: TestApp;
  let owner: Cartographer;
  let site: EventSite;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signUp(t, 'Offsets');
    site = await eventSite(t, owner.auth);
  });
  afterAll(async () => t?.close());

  it('covers every report and analytics route of the OpenAPI document', async () => {
    const document = (await t.http.get('/api/docs-json').expect(200)).body as OpenApiDocument;
    const documented = operationsOf(document)
      .filter(({ method, path }) => method === 'GET' && (path.startsWith('/api/v1/reports/') || path.includes('/analytics') || path.endsWith('/history')))
      .map(({ path }) => path);
    expect(documented.length).toBeGreaterThan(10);
    for (const path of documented) expect(Object.keys(ROUTES), path).toContain(path);
  });

  it.each(Object.keys(ROUTES))('%s: an offset beyond ±14:00 is 422 naming the parameter; ±14:00 itself is accepted', async (name) => {
    const route = ROUTES[name];
    const base = route.path(site);
    const query = (from: string, to: string) => `${base}${base.endsWith('?') ? '' : '&'}${route.from}=${encodeURIComponent(from)}&${route.to}=${encodeURIComponent(to)}`;
    for (const impossible of IMPOSSIBLE) {
      const asFrom = await t.http.get(query(impossible, day('+14:00'))).set(owner.auth);
      expectError(asFrom, 422, 'validation_failed');
      expect(asFrom.body.errors).toEqual([expect.objectContaining({ fields: route.from, code: 'out_of_range' })]);
      const asTo = await t.http.get(query(day('-12:00'), impossible.replace('2026-01-01', '2099-01-01'))).set(owner.auth);
      expectError(asTo, 422, 'validation_failed');
      expect(asTo.body.errors.map((error: { fields: string }) => error.fields)).toEqual([route.to]);
    }
    const today = new Date().toISOString().slice(0, 10);
    const fine = await t.http.get(query(day('+14:00'), `${today}T00:00:00-12:00`)).set(owner.auth);
    expect(fine.status, JSON.stringify(fine.body)).toBe(200);
  });
});
