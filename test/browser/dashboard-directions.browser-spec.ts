import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import type { FloorDrawing } from '../../web/src/floor-map/directions';
import type { LiveMapProbe } from '../../web/src/live';
import { login } from '../support/admin';
import { createApiKey, createOrganization, TestOrganization } from '../support/auth';
import { BuildingBody, createBuilding, createFloor, FloorBody } from '../support/cartography';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { launchChromium, logIn, newPage, screenshot } from '../support/dashboard-browser';
import { createPoi, PoiBody, poiInput, putPaths } from '../support/pois';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';

declare const window: {
  cartographRouteMap?: { floorId: number; rendered: () => FloorDrawing; project: (lngLat: [number, number]) => { x: number; y: number } };
  cartographLiveMap?: LiveMapProbe;
};

const CENTRE = { lat: 42.8805, lng: -8.5457 };
const M_LAT = 1 / 111_195;
const M_LNG = 1 / (111_195 * Math.cos((CENTRE.lat * Math.PI) / 180));
const at = (east: number, north: number) => ({ lat: CENTRE.lat + north * M_LAT, lng: CENTRE.lng + east * M_LNG });

/**
 * Issue 40's dashboard item: the floor map's Directions mode. Two floors joined by a lift at the
 * east end of a corridor on each; a kiosk (a POI) at the west end of the upper one. A start
 * clicked on the ground floor, the floor changed, the kiosk clicked as the end: the route is
 * drawn per floor, its indications listed with the floor the lift goes to; options that leave no
 * route show the server's reason. Then a device guided to the kiosk (PUT /devices/{id}/navigation)
 * walking the ground floor: the live map draws what is left of its route and says its progress.
 */
describe('dashboard directions in a browser', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;
  let admin: Record<string, string>;
  let browser: Browser;
  let building: BuildingBody;
  let ground: FloorBody;
  let upper: FloorBody;
  let kiosk: PoiBody;
  let deviceKey: string;

  beforeAll(async () => {
    process.env.DASHBOARD_DIR = ensureDashboardBuilt();
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'Directions');
    const session = await login(t, org.email, org.password);
    admin = session.auth;
    deviceKey = (await createApiKey(t, session.tokens.access_token, ApiPermission.Positioning, 'devices')).apikey;
    building = await createBuilding(t, admin, { name: 'Terminal', location: CENTRE, dimensions: { width: 80, length: 50 }, rotation: 0 });
    ground = await createFloor(t, admin, building.id, { name: 'Ground', level: 0 });
    upper = await createFloor(t, admin, building.id, { name: 'Upper deck', level: 1 });
    const node = (id: number, floor: FloorBody, east: number, north = 0) => ({ id, floor_id: floor.id, ...at(east, north) });
    await putPaths(t, admin, building.id, {
      nodes: [node(1, ground, -30), node(2, ground, 30), node(11, upper, 30), node(12, upper, -30, 10)],
      links: [
        { source: 1, target: 2, tags: ['corridor'] },
        { source: 11, target: 12, tags: ['corridor'] },
        { source: 2, target: 11, tags: ['lift'] },
      ],
    });
    kiosk = await createPoi(t, admin, poiInput(building.id, upper.id, { name: 'Kiosk' }, at(-30, 8)));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    delete process.env.DASHBOARD_DIR;
  });

  const onFloor = (page: Page, floor: FloorBody) => page.waitForFunction((id) => window.cartographRouteMap?.floorId === id, floor.id);
  const drawn = (page: Page) => page.evaluate(() => window.cartographRouteMap!.rendered());
  /** A click on the map at a point, or `offsetPx` pixels right of it. */
  async function clickAt(page: Page, where: { lat: number; lng: number }, offsetPx = 0): Promise<void> {
    const box = (await page.getByTestId('floor-map').boundingBox())!;
    const p = await page.evaluate((lngLat) => window.cartographRouteMap!.project(lngLat), [where.lng, where.lat] as [number, number]);
    await page.mouse.click(box.x + p.x + offsetPx, box.y + p.y);
  }

  it('routes from a point clicked on one floor to a POI clicked on another, draws each floor and lists the indications', async () => {
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await page.goto(`${domain}/buildings/${building.id}/floors/${ground.id}/map?view=directions`);
    await onFloor(page, ground);
    const panel = page.getByRole('tabpanel');
    await panel.getByTestId('route-picking').getByText('for the start').waitFor();

    await clickAt(page, at(-20, 1));
    await panel.getByTestId('route-start').getByText('A point on Ground').waitFor();
    await panel.getByTestId('route-picking').getByText('for the end').waitFor();
    await expect.poll(async () => (await drawn(page)).markers.map((m) => m.kind)).toEqual(['start']);

    // The end is on the other floor: the panel keeps the start across the change.
    await panel.getByLabel('Floor shown', { exact: true }).selectOption(String(upper.id));
    await onFloor(page, upper);
    expect(page.url()).toContain(`/floors/${upper.id}/map?view=directions`);
    expect(await panel.getByTestId('route-start').innerText()).toBe('A point on Ground');
    // A click beside the kiosk takes the kiosk.
    await clickAt(page, kiosk.position, 8);
    await panel.getByTestId('route-end').getByText('Kiosk (Upper deck)').waitFor();

    const summary = panel.getByTestId('route-summary');
    await summary.waitFor();
    const route = (
      await t.http
        .post(`/api/v1/buildings/${building.id}/directions`)
        .set(admin)
        .send({ from: { floor_id: ground.id, ...at(-20, 1) }, to: { poi_id: kiosk.id } })
        .expect(200)
    ).body as { distance: number; indications: Array<{ action: string; text: string }> };
    // 50 m on the ground floor, the lift, about 62 m up to the kiosk: the clicked start is a pixel or so off the one asked here.
    expect(route.distance).toBeGreaterThan(100);
    const [distanceWords, durationWords] = await summary.locator('strong').allInnerTexts();
    expect(Number(distanceWords.replace(' m', ''))).toBeCloseTo(route.distance, -1);
    expect(durationWords).toMatch(/min/);

    const items = panel.getByRole('list', { name: 'Indications' }).getByRole('listitem');
    expect(await items.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-action')))).toEqual(route.indications.map((i) => i.action));
    const change = panel.locator('li[data-action="change_floor"]');
    expect(await change.count()).toBe(1);
    const changeText = await change.innerText();
    expect(changeText).toContain('Upper deck');
    expect(changeText).toContain('Ground → Upper deck');
    expect(changeText).toContain(route.indications.find((i) => i.action === 'change_floor')!.text);

    // The upper floor draws its part: from the lift (arriving from Ground) to the kiosk.
    await expect.poll(async () => (await drawn(page)).markers.map((m) => m.kind)).toEqual(['arrive', 'end']);
    expect((await drawn(page)).lines).toHaveLength(1);
    expect(await page.locator('.leaflet-route-pane path.route-line').count()).toBe(1);
    expect(await page.locator('.route-marker.arrive').getAttribute('data-floor')).toBe('Ground');
    await screenshot(page, 'floor-map-directions');

    // A click on the first indication shows its floor: the ground floor, from the start to the lift.
    await items.first().getByRole('button').click();
    await onFloor(page, ground);
    await expect.poll(async () => (await drawn(page)).markers.map((m) => m.kind)).toEqual(['start', 'leave']);
    expect((await drawn(page)).lines).toHaveLength(1);
    await page.locator('.route-marker.leave[data-floor="Upper deck"]').waitFor();
    await page.locator('.leaflet-route-pane path.route-line').waitFor({ state: 'attached' });
    expect(await panel.getByTestId('route-end').innerText()).toBe('Kiosk (Upper deck)');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('shows the reason of a 422 in the panel, the map still there', async () => {
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await page.goto(`${domain}/buildings/${building.id}/floors/${ground.id}/map?view=directions`);
    await onFloor(page, ground);
    const panel = page.getByRole('tabpanel');
    await clickAt(page, at(-20, 1));
    await panel.getByTestId('route-start').getByText('A point on Ground').waitFor();
    await clickAt(page, at(25, 0));
    await panel.getByTestId('route-summary').waitFor();

    // The lift is the only way up; without lifts, an end on another floor has no route.
    await panel.getByLabel('Floor shown', { exact: true }).selectOption(String(upper.id));
    await onFloor(page, upper);
    await panel.getByRole('button', { name: 'Pick the end' }).click();
    await clickAt(page, at(0, 5));
    await panel.getByTestId('route-end').getByText('A point on Upper deck').waitFor();
    await panel.getByTestId('route-summary').waitFor();
    await panel.getByLabel('Lifts', { exact: true }).selectOption('exclude');
    const alert = panel.getByRole('alert');
    await alert.waitFor();
    const refusal = await t.http
      .post(`/api/v1/buildings/${building.id}/directions`)
      .set(admin)
      .send({ from: { floor_id: ground.id, ...at(-20, 1) }, to: { floor_id: upper.id, ...at(0, 5) }, exclude: ['elevator'] })
      .expect(422);
    expect(refusal.body.code).toBe('no_route');
    expect(await alert.innerText()).toContain(refusal.body.message);
    expect(await panel.getByTestId('route-summary').count()).toBe(0);
    // No route drawn, the ends still are; the map is there.
    await expect.poll(async () => (await drawn(page)).markers.map((m) => m.kind)).toEqual(['end']);
    expect((await drawn(page)).lines).toEqual([]);
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor();

    // An end too far from every path: the message names it.
    await panel.getByLabel('Lifts', { exact: true }).selectOption('use');
    await panel.getByTestId('route-summary').waitFor();
    await panel.getByRole('button', { name: 'Pick the end' }).click();
    await clickAt(page, at(0, -22));
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/destination is not within 10 m/);
    await screenshot(page, 'floor-map-directions-refused');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  async function device(path: string, method: string, body?: unknown): Promise<Record<string, any>> {
    const response = await fetch(`${domain}/api/v1${path}`, {
      method,
      headers: { 'X-API-KEY': deviceKey, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, any>;
    expect(response.status, JSON.stringify(answer)).toBe(200);
    return answer;
  }
  const walkTo = (east: number, north: number) =>
    device('/realtime/positions', 'POST', {
      positions: [{ device_id: 'guide-1', time: new Date().toISOString(), building_id: building.id, floor_id: ground.id, ...at(east, north), accuracy: 2 }],
    });
  const guided = (page: Page) => page.evaluate(() => window.cartographLiveMap!.renderedNavigations());

  it("draws a guided device's remaining route on the live map and says its progress, off route included", async () => {
    await walkTo(-25, 0);
    const started = await device('/devices/guide-1/navigation', 'PUT', { to: { poi_id: kiosk.id } });
    expect(started.arrived).toBe(false);
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await page.goto(`${domain}/buildings/${building.id}/floors/${ground.id}/map`);
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor();
    await expect.poll(() => page.getByTestId('live-status').innerText()).toMatch(/positions live/);

    // A fix along the corridor: the stream's item carries the navigation.
    await walkTo(-10, 0);
    await expect.poll(async () => (await guided(page)).map((g) => g.id)).toEqual(['guide-1']);
    const [drawing] = await guided(page);
    // On the ground floor: what is left up to the lift, and the lift up to the kiosk's floor.
    expect(drawing.drawing.lines).toHaveLength(1);
    expect(drawing.drawing.markers.map((m) => m.kind)).toEqual(['leave']);
    // What is left: from where the device is (15 m walked), not from where it started.
    const [from] = drawing.drawing.lines[0];
    expect(Math.abs(from[0] - at(-10, 0).lng) / M_LNG).toBeLessThan(1);
    await page.locator('.route-marker.leave[data-floor="Upper deck"]').waitFor();
    expect(await page.locator('.leaflet-route-pane path.navigation-line').count()).toBe(1);

    await page.getByText('Devices on this floor').click();
    await page.locator('.devices-on-floor').getByRole('button', { name: 'guide-1' }).click();
    const details = page.getByTestId('device-details');
    const now = await device('/devices/guide-1/navigation', 'GET');
    await expect.poll(() => details.getByTestId('navigation-next').innerText()).toBe(now.next_indication.text);
    expect(await details.getByTestId('navigation-progress').innerText()).toMatch(/^\d+ m · .+ left$/);
    expect(await details.locator('.badge.off-route').count()).toBe(0);

    // 20 m off the corridor: off route.
    await walkTo(-10, 20);
    await details.locator('.badge.off-route').getByText('Off route').waitFor();
    await expect.poll(async () => (await guided(page))[0]?.offRoute).toBe(true);
    await screenshot(page, 'floor-map-navigation');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
