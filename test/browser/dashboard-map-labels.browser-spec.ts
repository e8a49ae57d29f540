import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveMapProbe } from '../../web/src/live';
import { login } from '../support/admin';
import { createOrganization } from '../support/auth';
import { BuildingBody, createBuilding, createFloor, createGeofence, expectStatus, FloorBody } from '../support/cartography';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { launchChromium, logIn, newPage, screenshot } from '../support/dashboard-browser';
import { makePng } from '../support/images';
import { poiInput } from '../support/pois';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';

declare const window: { cartographLiveMap: LiveMapProbe };
declare const getComputedStyle: (element: unknown) => { color: string; backgroundColor: string };

const CENTRE = { lat: 42.8805, lng: -8.5457 };
const M_LAT = 1 / 111_195;
const M_LNG = 1 / (111_195 * Math.cos((CENTRE.lat * Math.PI) / 180));
const at = (east: number, north: number) => ({ lat: CENTRE.lat + north * M_LAT, lng: CENTRE.lng + east * M_LNG });

/** Issue 35 item 10: the floor map says what things are (POI icons and names, fence names) where they fit. */
describe('floor map labels in a browser', () => {
  let t: TestApp;
  let domain: string;
  let email: string;
  let password: string;
  let browser: Browser;
  let building: BuildingBody;
  let floor: FloorBody;
  let iconUrl: string;
  let admin: Record<string, string>;

  beforeAll(async () => {
    process.env.DASHBOARD_DIR = ensureDashboardBuilt();
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    const org = await createOrganization(t, 'Map labels');
    ({ email, password } = org);
    admin = (await login(t, org.email, org.password)).auth;
    building = await createBuilding(t, admin, { name: 'Harbour', location: CENTRE, dimensions: { width: 80, length: 50 }, rotation: 0 });
    floor = await createFloor(t, admin, building.id, { name: 'Ground', level: 0 });
    const image = await t.http.post('/api/v1/images').set(admin).attach('image', makePng(24, 24), { filename: 'cafe.png', contentType: 'image/png' });
    expectStatus(image, 201);
    const category = await t.http
      .post('/api/v1/poi_categories')
      .set(admin)
      .send({ name_en: 'Café', code: 'cafe', icon: (image.body as { id: string }).id });
    expectStatus(category, 201);
    iconUrl = (category.body as { icon_url: string }).icon_url;
    expect(iconUrl).toMatch(/^\/api\/v1\/images\//);
    const categoryId = (category.body as { id: number }).id;
    expectStatus(
      await t.http
        .post('/api/v1/pois')
        .set(admin)
        .send(poiInput(building.id, floor.id, { name: 'Harbour café', category_id: categoryId }, at(-15, -12))),
      201,
    );
    expectStatus(
      await t.http
        .post('/api/v1/pois')
        .set(admin)
        .send(poiInput(building.id, floor.id, { name: 'Fire exit', category_id: null }, at(15, -12))),
      201,
    );
    // A 20 m square north of the POIs.
    const ring: Array<[number, number]> = [at(-10, 2), at(10, 2), at(10, 22), at(-10, 22), at(-10, 2)].map((p) => [p.lat, p.lng]);
    await createGeofence(t, admin, { buildingId: building.id, floorId: floor.id }, { name: 'Loading bay', geometric: ring });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    delete process.env.DASHBOARD_DIR;
  });

  const labels = ['Harbour café', 'Fire exit', 'Loading bay'];
  async function shownLabels(page: Page): Promise<string[]> {
    const shown: string[] = [];
    for (const text of labels) if (await page.locator('.leaflet-container').getByText(text, { exact: true }).isVisible()) shown.push(text);
    return shown;
  }
  async function boxesOverlap(page: Page): Promise<boolean> {
    const boxes: Array<{ x: number; y: number; width: number; height: number }> = [];
    for (const text of await shownLabels(page)) boxes.push((await page.locator('.leaflet-container').getByText(text, { exact: true }).boundingBox())!);
    return boxes.some((a, i) => boxes.some((b, j) => i < j && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height));
  }

  const zoom = (page: Page) => page.evaluate(() => window.cartographLiveMap.view().zoom);
  /** Presses + or - (on the focused map) until the map's zoom is within half a step of `target`; a press during an animation may be dropped, so it presses again. */
  async function zoomTo(page: Page, target: number): Promise<void> {
    await expect
      .poll(
        async () => {
          const now = await zoom(page);
          if (Math.abs(now - target) <= 0.5) return true;
          await page.locator('.leaflet-container').focus();
          await page.keyboard.press(now > target ? 'Minus' : 'Equal');
          return false;
        },
        { timeout: 60_000, interval: 700 },
      )
      .toBe(true);
  }

  it("shows a POI with its category's icon, POI and fence names close up, none of them when zoomed far out", async () => {
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, email, password);
    await page.goto(`${domain}/buildings/${building.id}/floors/${floor.id}/map`);
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });

    // The categorised POI is its category's icon; the one without a category stays a dot.
    const icon = page.locator('.leaflet-container img.poi-icon');
    await icon.waitFor({ timeout: 30_000 });
    expect(await icon.count()).toBe(1);
    expect(await icon.getAttribute('src')).toBe(iconUrl);
    expect(await icon.getAttribute('alt')).toBe('Harbour café');
    expect(await icon.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBe(24);

    // The whole building fits the screen: every name is there, none over another.
    await expect.poll(() => shownLabels(page), { timeout: 30_000 }).toEqual(labels);
    expect(await boxesOverlap(page)).toBe(false);
    await screenshot(page, 'map-labels-close');

    // Readable in the dark theme too: light text on a dark backing.
    await page.emulateMedia({ colorScheme: 'dark' });
    const luminance = (rgb: string) => {
      const [r, g, b] = rgb.match(/[\d.]+/g)!.map(Number);
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const dark = await page
      .locator('.map-label', { hasText: 'Loading bay' })
      .last()
      .evaluate((e) => ({ color: getComputedStyle(e).color, background: getComputedStyle(e).backgroundColor }));
    expect(luminance(dark.color) - luminance(dark.background), JSON.stringify(dark)).toBeGreaterThan(120);
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await page
      .locator('.map-label', { hasText: 'Loading bay' })
      .last()
      .evaluate((e) => ({ color: getComputedStyle(e).color, background: getComputedStyle(e).backgroundColor }));
    expect(luminance(light.background) - luminance(light.color), JSON.stringify(light)).toBeGreaterThan(120);

    // Zoomed far out the fence is a few pixels wide and the POIs a few pixels apart: no names.
    const closeZoom = await zoom(page);
    await zoomTo(page, 16.5);
    await expect.poll(() => shownLabels(page), { timeout: 30_000 }).toEqual([]);
    await screenshot(page, 'map-labels-far');
    // And back close, they return.
    await zoomTo(page, closeZoom);
    await expect.poll(() => shownLabels(page), { timeout: 30_000 }).toEqual(labels);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the icon a category is given in the editor on the map at once, without a reload', async () => {
    const exits = await t.http.post('/api/v1/poi_categories').set(admin).send({ name_en: 'Exits', code: 'exits' });
    expectStatus(exits, 201);
    const poi = (await t.http.get(`/api/v1/buildings/${building.id}/pois`).set(admin).expect(200)).body as Array<{ id: number; name: string }>;
    const fireExit = poi.find((p) => p.name === 'Fire exit')!;
    await t.http
      .put(`/api/v1/pois/${fireExit.id}`)
      .set(admin)
      .send({ category_id: (exits.body as { id: number }).id })
      .expect(200);

    const { page, problems } = await newPage(browser);
    await logIn(page, domain, email, password);
    await page.goto(`${domain}/buildings/${building.id}/floors/${floor.id}/map?view=edit`);
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
    const exitIcon = page.locator('.leaflet-container img.poi-icon[alt="Fire exit"]');
    await page.locator('.leaflet-container img.poi-icon[alt="Harbour café"]').waitFor({ timeout: 30_000 });
    expect(await exitIcon.count()).toBe(0);

    await page.getByRole('button', { name: 'POIs', exact: true }).click();
    await page.getByRole('button', { name: 'Categories', exact: true }).click();
    await page.getByRole('button', { name: 'Edit Exits' }).click();
    await page.locator('form[aria-label="Edit category"] input[type="file"]').setInputFiles({ name: 'exit.png', mimeType: 'image/png', buffer: makePng(24, 24) });
    await page.getByRole('button', { name: 'Save category' }).click();

    await exitIcon.waitFor({ timeout: 30_000 });
    const stored = (
      await t.http
        .get(`/api/v1/poi_categories/${(exits.body as { id: number }).id}`)
        .set(admin)
        .expect(200)
    ).body as { icon_url: string };
    expect(stored.icon_url).toMatch(/^\/api\/v1\/images\//);
    expect(await exitIcon.getAttribute('src')).toBe(stored.icon_url);
    expect(problems).toEqual([]);
    await page.close();
  });
});
