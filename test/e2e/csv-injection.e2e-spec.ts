import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/common/csv/csv-parse';
import { Cartographer, signUp } from '../support/cartography';
import { operationsOf, OpenApiDocument } from '../support/docs-openapi';
import { eventSite, EventSite, visits } from '../support/geofence-events';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Issue 27, item 1: every CSV the server writes escapes text cells a spreadsheet would run
 * (OWASP's CSV injection rule). The routes are taken from the OpenAPI document, so a new CSV
 * route without a request below fails here.
 */
const HYPERLINK = '=HYPERLINK("http://evil.example","x")';
const SUM = '@SUM(1+1)';
const FORMULA_START = /^[=+\-@\t\r]/;

interface Fixture {
  owner: Cartographer;
  site: EventSite;
  day: string;
}

/** A CSV import answered as CSV: the access points keep the SSID of the fixture, one more is added. */
const replaceInfrastructure = (f: Fixture) => ({
  url: `/api/v1/infrastructure?building_id=${f.site.building.id}`,
  accept: 'text/csv',
  body: [
    'type,floor_id,x,y,bssid,ssid,uuid,major,minor,tx_power',
    `wifi,${f.site.floor.id},1,1,a4:5e:60:e8:1f:0c,${SUM},,,,`,
    `wifi,${f.site.floor.id},1,2,a4:5e:60:e8:1f:0d,-cmd|calc,,,,`,
    `ble,${f.site.floor.id},2,2,,,f7826da6-4fa2-4e98-8024-bc5b71e0893e,1,2,-59`,
    '',
  ].join('\r\n'),
  injected: [SUM, '-cmd|calc'],
});

/** A gateways CSV import answered as CSV: a formula-like name and hardware id are kept, escaped. */
const replaceGateways = (f: Fixture) => ({
  url: `/api/v1/infrastructure/gateways?building_id=${f.site.building.id}`,
  accept: 'text/csv',
  body: ['floor_id,x,y,hardware_id,name,format', `${f.site.floor.id},1,1,aa:cc:ee:00:11:22,${SUM},ruuvi`, `${f.site.floor.id},2,2,-node,-cmd|calc,cartograph`, ''].join('\r\n'),
  injected: [SUM, '-cmd|calc', '-node'],
});

/** For each documented CSV operation: how to ask for it, and the formula values its answer must hold escaped. */
const CSV_REQUESTS: Record<string, (f: Fixture) => { url: string; accept?: string; body?: string; injected: string[] }> = {
  'GET /api/v1/reports/user_positions.csv': (f) => ({
    url: `/api/v1/reports/user_positions.csv?from_date=${f.day}&to_date=${f.day}&building_id=${f.site.building.id}`,
    injected: [HYPERLINK, SUM],
  }),
  'GET /api/v1/reports/geofencing_sessions_matches.csv': (f) => ({
    url: `/api/v1/reports/geofencing_sessions_matches.csv?from_date=${f.day}&to_date=${f.day}&building_ids=${f.site.building.id}`,
    injected: [HYPERLINK, SUM, f.site.fence.name],
  }),
  'GET /api/v1/reports/geofencing_stay_time.csv': (f) => ({
    url: `/api/v1/reports/geofencing_stay_time.csv?from_date=${f.day}&to_date=${f.day}&building_ids=${f.site.building.id}`,
    injected: [HYPERLINK, SUM],
  }),
  'GET /api/v1/reports/visitors.csv': (f) => ({ url: `/api/v1/reports/visitors.csv?from_date=${f.day}&to_date=${f.day}&building_id=${f.site.building.id}`, injected: [] }),
  'GET /api/v1/reports/positioning_time.csv': (f) => ({
    url: `/api/v1/reports/positioning_time.csv?from_date=${f.day}&to_date=${f.day}&building_id=${f.site.building.id}`,
    injected: [],
  }),
  'GET /api/v1/infrastructure': (f) => ({ url: `/api/v1/infrastructure?building_id=${f.site.building.id}`, accept: 'text/csv', injected: [SUM] }),
  'PUT /api/v1/infrastructure': (f) => replaceInfrastructure(f),
  'PATCH /api/v1/infrastructure': (f) => replaceInfrastructure(f),
  // Its text cells are ids and identifiers the API validates; negative RSSIs are numbers.
  'GET /api/v1/infrastructure/gateways': (f) => ({ url: `/api/v1/infrastructure/gateways?building_id=${f.site.building.id}`, accept: 'text/csv', injected: [HYPERLINK] }),
  'PUT /api/v1/infrastructure/gateways': (f) => replaceGateways(f),
  'PATCH /api/v1/infrastructure/gateways': (f) => replaceGateways(f),
  'GET /api/v1/infrastructure/reference_points': (f) => ({ url: `/api/v1/infrastructure/reference_points?building_id=${f.site.building.id}`, accept: 'text/csv', injected: [] }),
};

/** Whether a cell is a number as the server writes numbers (those may start with "-"). */
const isNumber = (cell: string) => cell.trim() !== '' && Number.isFinite(Number(cell));

describe('CSV injection: every CSV route escapes formula cells', () => {
  let t: TestApp;
  let fixture: Fixture;
  let documented: string[];

  beforeAll(async () => {
    t = await createTestApp();
    const owner = await signUp(t, 'Spreadsheet');
    const site = await eventSite(t, owner.auth, '+Lobby');
    await t.http
      .put(`/api/v1/geofences/${site.fence.id}`)
      .set(owner.auth)
      .send({ name: `${HYPERLINK} fence` })
      .expect(200);
    site.fence.name = `${HYPERLINK} fence`;
    const events = await visits(t, owner.auth, site, [HYPERLINK, SUM]);
    expect(events.length).toBe(4);
    await t.http.post('/api/v1/infrastructure/wifi').set(owner.auth).send({ floor_id: site.floor.id, bssid: 'a4:5e:60:e8:1f:0c', ssid: SUM, x: 1, y: 1 }).expect(201);
    await t.http
      .post('/api/v1/infrastructure/gateways')
      .set(owner.auth)
      .send({ floor_id: site.floor.id, hardware_id: 'gw-fixture', format: 'cartograph', name: HYPERLINK, x: 1, y: 1 })
      .expect(201);
    await t.http
      .post('/api/v1/infrastructure/reference_points')
      .set(owner.auth)
      .send({ floor_id: site.floor.id, x: 2, y: 3, ble: [{ uuid: 'f7826da6-4fa2-4e98-8024-bc5b71e0893e', major: 1, minor: 2, rssi: -61 }] })
      .expect(201);
    fixture = { owner, site, day: new Date(Date.now() - 3_600_000).toISOString().slice(0, 10) };
    const document = (await t.http.get('/api/docs-json').expect(200)).body as OpenApiDocument;
    documented = operationsOf(document)
      .filter(({ operation }) => Object.values(operation.responses).some((response) => Object.keys(response.content ?? {}).some((type) => type.startsWith('text/csv'))))
      .map(({ method, path }) => `${method} ${path}`)
      .sort();
  });
  afterAll(async () => t?.close());

  it('has a request here for every operation the OpenAPI document says answers text/csv', () => {
    expect(documented).toEqual(Object.keys(CSV_REQUESTS).sort());
  });

  it.each(Object.keys(CSV_REQUESTS))('%s: no cell starts a formula; the injected values come back with a leading apostrophe', async (operation) => {
    const request = CSV_REQUESTS[operation](fixture);
    const [method, path] = operation.split(' ');
    expect(request.url.split('?')[0]).toBe(path);
    let call = method === 'PUT' ? t.http.put(request.url) : method === 'PATCH' ? t.http.patch(request.url) : t.http.get(request.url);
    call = call.set(fixture.owner.auth).set('Accept', request.accept ?? '*/*');
    if (request.body !== undefined) call = call.set('Content-Type', 'text/csv').send(request.body);
    const response = await call.buffer(true).parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });
    expect(response.status, String(response.body)).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    const cells = parseCsv(response.body as string, ',').flatMap((record) => record.fields);
    expect(cells.length).toBeGreaterThan(1);
    const running = cells.filter((cell) => FORMULA_START.test(cell) && !isNumber(cell));
    expect(running).toEqual([]);
    for (const value of request.injected) expect(cells).toContain(`'${value}`);
  });
});
