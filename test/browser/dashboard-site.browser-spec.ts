import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { Role } from '../../src/access/roles';
import type { LiveMapProbe } from '../../web/src/live';
import { addUser, login } from '../support/admin';
import { createApiKey, createOrganization, TestOrganization } from '../support/auth';
import { BuildingBody, createBuilding, createFloor, createGeofence, FloorBody, square } from '../support/cartography';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { launchChromium, logIn, newPage, screenshot } from '../support/dashboard-browser';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';

declare const window: { cartographLiveMap: LiveMapProbe };
declare const document: { documentElement: { scrollWidth: number } };
declare const getComputedStyle: (element: unknown) => { backgroundColor: string };

const CENTRE = { lat: 42.8805, lng: -8.5457 };

/**
 * Issue 30 in Debian's chromium against a seeded server: what was unsafe or wrong (fence delete,
 * data after log out, the freshness of dots, errors), devices, history playback, the heatmap,
 * charts, the phone layout and the dark theme; every page without a console error.
 */
describe('dashboard site operations in a browser', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;
  let browser: Browser;
  let admin: Record<string, string>;
  let deviceKey: string;
  let building: BuildingBody;
  let floor: FloorBody;

  beforeAll(async () => {
    process.env.DASHBOARD_DIR = ensureDashboardBuilt();
    // Fixes up to two days old are accepted (history and heatmap periods); the timer lets silent devices go.
    t = await createTestApp({ env: { POSITIONS_MAX_AGE_SECONDS: String(2 * 86_400), GEOFENCE_SWEEPER: 'true' } });
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'Site operations');
    const session = await login(t, org.email, org.password);
    admin = session.auth;
    deviceKey = (await createApiKey(t, session.tokens.access_token, ApiPermission.Positioning, 'devices')).apikey;
    building = await createBuilding(t, admin, { name: 'Harbour', location: CENTRE, dimensions: { width: 80, length: 50 }, rotation: 0 });
    floor = await createFloor(t, admin, building.id, { name: 'Ground', level: 0 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    delete process.env.DASHBOARD_DIR;
  });

  async function report(positions: Array<Record<string, unknown>>): Promise<{ accepted: number; events: Array<{ type: string }> }> {
    const response = await fetch(`${domain}/api/v1/realtime/positions`, {
      method: 'POST',
      headers: { 'X-API-KEY': deviceKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ positions }),
    });
    const body = (await response.json()) as { accepted: number; events: Array<{ type: string }> };
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body;
  }
  const fixAt = (device: string, msAgo: number, east = 0, north = 0, accuracy = 2) => ({
    device_id: device,
    time: new Date(Date.now() - msAgo).toISOString(),
    building_id: building.id,
    floor_id: floor.id,
    lat: CENTRE.lat + north / 111_195,
    lng: CENTRE.lng + east / (111_195 * Math.cos((CENTRE.lat * Math.PI) / 180)),
    accuracy,
  });
  const mapUrl = (view = '') => `${domain}/buildings/${building.id}/floors/${floor.id}/map${view}`;
  async function openMap(page: Page, view = ''): Promise<void> {
    await page.goto(mapUrl(view));
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
  }

  it('never shows data after "Log out": not on Back, not in another tab', async () => {
    await addUser(t, admin, { email: 'visible.person@example.test', role: Role.User });
    // Two tabs of one browser: same cookies, same session.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const tab = async () => {
      const opened = { page: await context.newPage(), problems: [] as string[] };
      opened.page.on('pageerror', (e) => opened.problems.push(e.message));
      opened.page.on('console', (m) => m.type() === 'error' && !/status of 4\d\d/.test(m.text()) && opened.problems.push(m.text()));
      return opened;
    };
    const { page, problems } = await tab();
    await logIn(page, domain, org.email, org.password);
    const other = await tab();
    await other.page.goto(`${domain}/admin`);
    await other.page.getByText('visible.person@example.test').waitFor();

    // Full page loads, as when addresses are typed: each page is its own document.
    await page.goto(`${domain}/admin`);
    await page.getByText('visible.person@example.test').waitFor();
    await page.goto(`${domain}/devices`);
    await page.getByRole('heading', { name: 'Devices' }).waitFor();
    const served = await fetch(`${domain}/admin`);
    expect(served.headers.get('cache-control')).toBe('no-store');

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByLabel('E-mail').waitFor();
    // The other tab drops its data at once.
    await other.page.getByLabel('E-mail').waitFor();
    expect(await other.page.getByText('visible.person@example.test').count()).toBe(0);
    expect(await other.page.getByRole('status').first().innerText()).toContain('logged out in another tab');

    await page.goBack();
    await page.getByLabel('E-mail').waitFor();
    expect(await page.getByText('visible.person@example.test').count()).toBe(0);
    expect(problems).toEqual([]);
    expect(other.problems).toEqual([]);
    await context.close();
  });

  it('answers a mistyped address with a page that says so, and names wrong building fields in plain words', async () => {
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    const response = await page.goto(`${domain}/buildngs`);
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('/buildngs');
    expect(await page.content()).not.toContain('route_not_found');

    await page.goto(`${domain}/buildings`);
    await page.getByRole('button', { name: 'New building' }).click();
    const form = page.getByRole('dialog', { name: 'New building' });
    await form.getByLabel('Name').fill('Depot');
    await form.getByLabel('Latitude').fill('abc');
    await form.getByLabel('Longitude').fill('-8.5');
    await form.getByLabel('Width (m)').fill('40');
    await form.getByRole('button', { name: 'Create' }).click();
    const latitude = form.locator('.field', { has: page.getByLabel('Latitude') });
    await expect.poll(() => latitude.innerText()).toContain('The latitude must be a number of degrees between -90 and 90');
    expect(await form.locator('.field', { has: page.getByLabel('Length (m)') }).innerText()).toContain('Enter the length: a number of metres greater than 0');
    await screenshot(page, 'building-form-errors');
    // Nothing was sent.
    expect(((await t.http.get('/api/v1/buildings').set(admin)).body as Array<{ name: string }>).map((b) => b.name)).not.toContain('Depot');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('handles a failed fence click and an unreachable event log in words, each with a retry that works', async () => {
    const fence = await createGeofence(
      t,
      admin,
      { buildingId: building.id, floorId: floor.id },
      { name: 'Quay', geometric: square(CENTRE.lat + 0.0001, CENTRE.lng + 0.0001, 0.0001) },
    );
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await openMap(page);
    // The fence's read fails (the connection drops): the panel says so and offers a retry.
    await page.route(`**/api/v1/geofences/${fence.id}`, (route) => route.abort('connectionreset'));
    await page.locator('.fence-list').getByRole('button', { name: 'Quay' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The server cannot be reached' });
    await alert.waitFor();
    await page.unroute(`**/api/v1/geofences/${fence.id}`);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('fence-panel').getByRole('heading', { name: 'Quay' }).waitFor();

    // The event log cannot be read: no talk of "a range that has ended".
    await page.route('**/api/v1/geofencing/events?*', (route) => route.abort('connectionrefused'));
    await page.goto(`${domain}/events`);
    const failed = page.getByRole('alert').filter({ hasText: 'The server cannot be reached' });
    await failed.waitFor();
    expect(await page.getByTestId('tail-status').innerText()).not.toContain('ended');
    await screenshot(page, 'events-unreachable');
    await page.unroute('**/api/v1/geofencing/events?*');
    await failed.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.getByTestId('tail-status').getAttribute('data-status'), { timeout: 15_000 }).toBe('live');
    expect(problems.filter((p) => !/ERR_CONNECTION|net::/.test(p))).toEqual([]);
    await page.close();
  });

  it('keeps a silent device on the map, frozen with its age, exactly as long as the fences keep it; hover and click say who it is', async () => {
    // About 5 m × 4 m north-east of the centre: only frozen-1 is inside.
    const fence = await createGeofence(t, admin, { buildingId: building.id, floorId: floor.id }, { name: 'Cafe 12', geometric: square(CENTRE.lat, CENTRE.lng, 0.00005) });
    await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(admin).send({ min_dwell_seconds: 0 }).expect(200);
    // Inside 45 s ago and silent since; a second device 150 s ago (past the 120 s stale timeout); a third reporting now.
    await report([fixAt('frozen-1', 47_000, 1, 1), fixAt('frozen-1', 45_000, 1, 1)]);
    await report([fixAt('gone-1', 150_000, -3, -3)]);
    await report([fixAt('walker-1', 1000, 5, 2, 3.5)]);
    await t.http.put('/api/v1/devices/walker-1').set(admin).send({ name: 'Forklift 7', code: 'Zebra TC52' }).expect(200);

    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await openMap(page);
    await expect.poll(() => page.getByTestId('live-status').innerText(), { timeout: 15_000 }).toMatch(/positions live · events live/);
    await expect
      .poll(() =>
        page.evaluate(() =>
          window.cartographLiveMap
            .renderedDevices()
            .map((d) => `${d.id}:${d.frozen}`)
            .sort(),
        ),
      )
      .toEqual(['frozen-1:true', 'walker-1:false']);
    expect(await page.getByTestId('live-status').getAttribute('data-devices')).toBe('2');
    // The fence counts the same silent device the map shows.
    const cafe = page.locator(`.fence-list li[data-fence-id="${fence.id}"]`);
    expect(await cafe.getAttribute('data-occupants')).toBe('1');
    await expect.poll(() => page.evaluate(() => window.cartographLiveMap.frozenLabels())).toEqual([{ id: 'frozen-1', text: expect.stringMatching(/^\d+ s ago$/) }]);
    expect(Number((await page.evaluate(() => window.cartographLiveMap.frozenLabels()))[0].text.split(' ')[0])).toBeGreaterThanOrEqual(45);
    await expect.poll(() => page.locator('.device-label[data-device-id="frozen-1"]').innerText()).toMatch(/s ago$/);

    // Hover: who it is, its accuracy and last fix; click pins it with its name and model.
    const walker = (await page.evaluate(() => window.cartographLiveMap.renderedDevices().find((d) => d.id === 'walker-1')!.lngLat)) as [number, number];
    const at = await page.evaluate((lngLat) => window.cartographLiveMap.project(lngLat), walker);
    const box = (await page.getByTestId('floor-map').boundingBox())!;
    const popupText = () =>
      page.evaluate(() => (document as unknown as { querySelector(s: string): { textContent: string } | null }).querySelector('[data-testid="device-popup"]')?.textContent ?? '');
    // Hovered again at each look: the pointer over the dot is what shows it.
    let jitter = 0;
    await expect
      .poll(
        async () => {
          jitter = (jitter + 1) % 3;
          await page.mouse.move(box.x + at.x + 20, box.y + at.y + 20);
          await page.mouse.move(box.x + at.x + jitter - 1, box.y + at.y, { steps: 3 });
          return popupText();
        },
        { timeout: 20_000, interval: 300 },
      )
      .toMatch(/walker-1[\s\S]*3\.5 m/);
    await page.mouse.click(box.x + at.x, box.y + at.y);
    const details = page.getByTestId('device-details');
    await expect.poll(() => details.innerText()).toContain('Forklift 7');
    // The name is known before the device record arrives (one display name, issue 35): wait for the record too.
    await expect.poll(() => details.innerText()).toContain('Zebra TC52');
    expect(await details.innerText()).toContain('3.5 m');
    await screenshot(page, 'floor-map-device');
    // The same from the keyboard: the list of devices on the floor.
    await page.getByTestId('device-details').getByRole('button', { name: 'Close the device details' }).click();
    await page.locator('.devices-on-floor summary').click();
    await page.locator('.devices-on-floor').getByRole('button', { name: 'frozen-1' }).click();
    await expect.poll(() => page.getByTestId('device-details').innerText()).toContain('stale');

    // Past the stale timeout the fences let it go, and so does the map.
    await t.http.put('/api/v1/geofencing/settings').set(admin).send({ stale_after_seconds: 50 }).expect(200);
    await page.reload();
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.evaluate(() => window.cartographLiveMap.renderedDevices().map((d) => d.id)), { timeout: 20_000 }).toEqual(['walker-1']);
    await expect.poll(() => cafe.getAttribute('data-occupants'), { timeout: 20_000 }).toBe('0');
    await t.http.put('/api/v1/geofencing/settings').set(admin).send({ stale_after_seconds: 120 }).expect(200);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('lists devices with their status, filters them, renames and deletes one', async () => {
    await report([fixAt('list-online', 2000, 2, 2), fixAt('list-stale', 60_000, 3, 3), fixAt('list-old', 3600_000, 4, 4)]);
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await page.getByRole('link', { name: 'Devices' }).click();
    const row = (id: string) => page.locator(`tr[data-device-id="${id}"]`);
    await row('list-online').waitFor();
    expect(await row('list-online').getAttribute('data-status')).toBe('online');
    expect(await row('list-stale').getAttribute('data-status')).toBe('stale');
    expect(await row('list-old').getAttribute('data-status')).toBe('offline');
    expect(await row('list-old').innerText()).toContain('1 h ago');
    expect(await row('list-online').innerText()).toContain('Harbour · Ground');
    await screenshot(page, 'devices');

    const filters = page.getByRole('form', { name: 'Device filters' });
    await filters.getByLabel('Status').selectOption('stale');
    const shown = () => page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-device-id')));
    await expect.poll(async () => [...new Set(await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status'))))]).toEqual(['stale']);
    expect(await shown()).toContain('list-stale');
    await filters.getByLabel('Status').selectOption('');
    await filters.getByLabel('Search').fill('LIST-O');
    await filters.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-device-id')).sort())).toEqual(['list-old', 'list-online']);
    expect(page.url()).toContain('search=LIST-O');

    await row('list-online').getByRole('button', { name: 'Rename list-online' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename device' });
    await rename.getByLabel('Name').fill('Trolley 3');
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row('list-online').innerText()).toContain('Trolley 3');
    expect((await t.http.get('/api/v1/devices/list-online').set(admin).expect(200)).body.name).toBe('Trolley 3');

    await row('list-old').getByRole('button', { name: 'Delete list-old' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete device' });
    await confirm.getByText('whole position history').waitFor();
    await confirm.getByRole('button', { name: 'Delete device and its history' }).click();
    await expect.poll(() => row('list-old').count()).toBe(0);
    await t.http.get('/api/v1/devices/list-old').set(admin).expect(404);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('plays back the history of a device with a time slider, and shows the heatmap of the floor', async () => {
    // A walk east along the floor over ten minutes, 50 minutes ago (the page shows the last hour).
    const start = Date.now() - 50 * 60_000;
    await report(Array.from({ length: 11 }, (_, i) => ({ ...fixAt('tour-1', 0, i * 3, 0), time: new Date(start + i * 60_000).toISOString() })));
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await openMap(page, '?view=history');
    const form = page.getByRole('form', { name: 'History period' });
    await form.getByLabel('Device').fill('tour-1');
    await form.getByRole('button', { name: 'Show history' }).click();
    await expect.poll(() => page.getByTestId('history-summary').innerText(), { timeout: 20_000 }).toBe('11 positions of 1 device.');
    const slider = page.getByRole('slider');
    const time = page.getByTestId('playback-time');
    const first = await time.innerText();
    expect(first).toContain('1 device here');
    // With the keyboard: End jumps to the last fix, arrows step through time.
    await slider.focus();
    await page.keyboard.press('End');
    await expect.poll(() => time.innerText()).not.toBe(first);
    expect(await page.getByTestId('history-devices').innerText()).toContain('tour-1');
    await screenshot(page, 'floor-map-history');
    await page.getByRole('button', { name: 'Play' }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();

    await page.getByRole('tab', { name: 'Heatmap' }).click();
    const summary = page.getByTestId('heatmap-summary');
    await expect.poll(() => summary.innerText(), { timeout: 20_000 }).toMatch(/\d+ positions in \d+ cells of 2 m/);
    const busiest = Number(await page.getByTestId('busiest').locator('li').first().getAttribute('data-count'));
    expect(busiest).toBeGreaterThan(0);
    const api = (
      await t.http
        .get(`/api/v1/floors/${floor.id}/heatmap?from=${new Date(Date.now() - 7 * 86_400_000).toISOString()}&to=${new Date().toISOString()}`)
        .set(admin)
        .expect(200)
    ).body;
    expect(busiest).toBe(Math.max(...(api.cells as Array<{ count: number }>).map((c) => c.count)));
    await screenshot(page, 'floor-map-heatmap');
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('charts hours with readable axis labels and exact values under the cursor', async () => {
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    const today = new Date().toISOString().slice(0, 10);
    await page.goto(`${domain}/analytics?building_id=${building.id}&from=${today}&to=${today}&time_zone=UTC&grouping=hour`);
    const chart = page.getByTestId('visitors-section').getByTestId('chart');
    await chart.waitFor();
    const over = chart.locator('.u-over');
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width - 4, box.y + box.height / 2);
    const tooltip = chart.getByTestId('chart-tooltip');
    await expect.poll(() => tooltip.isVisible()).toBe(true);
    expect(await tooltip.innerText()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d\nVisitors: \d+$/);
    await screenshot(page, 'analytics-hourly');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('works at 390 px with a menu button and tables that scroll inside themselves, and follows a dark colour scheme', async () => {
    const { page, problems } = await newPage(browser, { width: 390, height: 844 });
    await logIn(page, domain, org.email, org.password);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Devices' }).click();
    await page.locator('tbody tr').first().waitFor();
    expect(await nav.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);
    await screenshot(page, 'devices-phone');
    await openMap(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);

    const brightness = async () =>
      (await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor))
        .match(/\d+/g)!
        .slice(0, 3)
        .map(Number)
        .reduce((x, y) => x + y, 0);
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await brightness()).toBeGreaterThan(600);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${domain}/devices`);
    await page.locator('tbody tr').first().waitFor();
    expect(await brightness()).toBeLessThan(150);
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'devices-dark');
    expect(problems).toEqual([]);
    await page.close();
  });
});
