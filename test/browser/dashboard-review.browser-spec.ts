import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import type { LiveMapProbe } from '../../web/src/live';
import { login } from '../support/admin';
import { createApiKey, createOrganization, TestOrganization } from '../support/auth';
import { BuildingBody, createBuilding, createFloor, createGeofence, FloorBody, square } from '../support/cartography';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { launchChromium, logIn, screenshot } from '../support/dashboard-browser';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

declare const window: { cartographLiveMap: LiveMapProbe; innerWidth: number };
interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
declare const document: {
  documentElement: { scrollWidth: number };
  querySelector(selector: string): { getBoundingClientRect(): Box } | null;
  querySelectorAll(selector: string): Array<{ dataset: Record<string, string>; textContent: string; checkVisibility(options: object): boolean; getBoundingClientRect(): Box }>;
};

const CENTRE = { lat: 42.8805, lng: -8.5457 };
const PHONE = { width: 390, height: 844 };
const DEVICES = 20;

/**
 * Issue 35: the dashboard as a site team uses it, twenty devices walking a floor, on a phone
 * (390 px) in light and dark: one display name for a device everywhere, no page wider than the
 * screen, and age labels on the live map that never pile on each other or run off the map.
 */
describe('dashboard review in a browser', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;
  let browser: Browser;
  let admin: Record<string, string>;
  let deviceKey: string;
  let building: BuildingBody;
  let floor: FloorBody;
  let fenceId: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    process.env.DASHBOARD_DIR = ensureDashboardBuilt();
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'Site review');
    const session = await login(t, org.email, org.password);
    admin = session.auth;
    deviceKey = (await createApiKey(t, session.tokens.access_token, ApiPermission.Positioning, 'Walkers on the ground floor')).apikey;
    await createApiKey(t, session.tokens.access_token, ApiPermission.ReadOnly, 'Nightly export to the warehouse system');
    building = await createBuilding(t, admin, { name: 'Depot', location: CENTRE, dimensions: { width: 80, length: 50 }, rotation: 0 });
    floor = await createFloor(t, admin, building.id, { name: 'Ground', level: 0 });
    fenceId = (await createGeofence(t, admin, { buildingId: building.id, floorId: floor.id }, { name: 'Loading bay', geometric: square(CENTRE.lat, CENTRE.lng, 0.0001) })).id;
    await t.http.put(`/api/v1/geofences/${fenceId}/rules`).set(admin).send({ min_dwell_seconds: 0 }).expect(200);
    // Silent devices stay on the map (frozen, with their age) for an hour.
    await t.http.put('/api/v1/geofencing/settings').set(admin).send({ stale_after_seconds: 3600 }).expect(200);
    receiver = await new WebhookReceiver().start();
    await t.http.post('/api/v1/webhooks').set(admin).send({ url: receiver.url, description: 'Site alarms' }).expect(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
    await t?.close();
    delete process.env.DASHBOARD_DIR;
  });

  async function report(positions: Array<Record<string, unknown>>): Promise<void> {
    const response = await fetch(`${domain}/api/v1/realtime/positions`, {
      method: 'POST',
      headers: { 'X-API-KEY': deviceKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ positions }),
    });
    expect(response.status, await response.text()).toBe(200);
  }
  /** A fix `msAgo` old, `east` and `north` metres from the building's centre. */
  const fixAt = (device: string, msAgo: number, east: number, north: number) => ({
    device_id: device,
    time: new Date(Date.now() - msAgo).toISOString(),
    building_id: building.id,
    floor_id: floor.id,
    lat: CENTRE.lat + north / 111_195,
    lng: CENTRE.lng + east / (111_195 * Math.cos((CENTRE.lat * Math.PI) / 180)),
    accuracy: 2,
  });
  /** Twenty devices that walked a few metres each, side by side, and went quiet 40 to 97 s ago: all frozen, labelled with their age. */
  async function walkAndGoQuiet(prefix: string, east: number): Promise<string[]> {
    const ids = Array.from({ length: DEVICES }, (_, i) => `${prefix}-${String(i + 1).padStart(2, '0')}`);
    for (const [i, id] of ids.entries()) {
      const quiet = 40_000 + i * 3000;
      const [col, row] = [i % 5, Math.floor(i / 5)];
      await report([0, 1, 2].map((step) => fixAt(id, quiet + (2 - step) * 2000, east + col * 1.5 + step * 0.3, row * 1.5)));
    }
    return ids;
  }

  async function phone(colorScheme: 'light' | 'dark'): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport: PHONE, colorScheme });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await logIn(page, domain, org.email, org.password);
    return { context, page, problems };
  }
  const mapPath = (view = '') => `/buildings/${building.id}/floors/${floor.id}/map${view}`;
  async function openMap(page: Page, view = ''): Promise<void> {
    await page.goto(`${domain}${mapPath(view)}`);
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
  }

  it('names a renamed device by its new name everywhere: the device list, the floor list, the hover tooltip, the device panel and the fence occupants', async () => {
    await report([fixAt('walker-07', 1000, 2, 2)]);
    const { context, page, problems } = await phone('light');
    await page.goto(`${domain}/devices`);
    const row = page.locator('tr[data-device-id="walker-07"]');
    await row.waitFor();
    await row.getByRole('button', { name: 'Rename walker-07' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename device' });
    await rename.getByLabel('Name').fill('Forklift 7');
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('strong').innerText()).toBe('Forklift 7');

    // From the list to the map, as a person would: the "Where" link.
    await row.getByRole('link', { name: 'Depot · Ground' }).click();
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
    // The link pins the device: its panel says who it is.
    await expect.poll(() => page.getByTestId('device-details').getByRole('heading').innerText()).toBe('Forklift 7');
    await page.getByTestId('device-details').getByRole('button', { name: 'Close the device details' }).click();
    await page.locator('.devices-on-floor summary').click();
    const listed = page.locator('.devices-on-floor li', { hasText: 'walker-07' });
    await expect.poll(() => listed.getByRole('button').innerText()).toBe('Forklift 7');

    // Hover the dot: the tooltip names it too.
    await expect.poll(() => page.evaluate(() => window.cartographLiveMap.renderedDevices().some((d) => d.id === 'walker-07'))).toBe(true);
    const lngLat = (await page.evaluate(() => window.cartographLiveMap.renderedDevices().find((d) => d.id === 'walker-07')!.lngLat)) as [number, number];
    const at = await page.evaluate((point) => window.cartographLiveMap.project(point), lngLat);
    const box = (await page.getByTestId('floor-map').boundingBox())!;
    const tooltip = page.getByTestId('device-popup');
    let jitter = 0;
    await expect
      .poll(
        async () => {
          jitter = (jitter + 1) % 3;
          await page.mouse.move(box.x + at.x + 20, box.y + at.y + 20);
          await page.mouse.move(box.x + at.x + jitter - 1, box.y + at.y, { steps: 3 });
          return (await tooltip.count()) ? tooltip.locator('strong').innerText() : '';
        },
        { timeout: 20_000, interval: 300 },
      )
      .toBe('Forklift 7');
    expect(await tooltip.innerText()).toContain('walker-07');

    // The fence it stands in lists it by name among who is inside.
    await page.locator(`.fence-list li[data-fence-id="${fenceId}"]`).getByRole('button', { name: 'Loading bay' }).click();
    await expect.poll(() => page.getByTestId('occupants').locator('[data-device-id="walker-07"] strong').innerText()).toBe('Forklift 7');

    // Renamed again in another tab while the map stays open: the map follows without a reload.
    const other = await context.newPage();
    await other.goto(`${domain}/devices`);
    const again = other.locator('tr[data-device-id="walker-07"]');
    await again.getByRole('button', { name: 'Rename walker-07' }).click();
    await other.getByRole('dialog', { name: 'Rename device' }).getByLabel('Name').fill('Forklift 8');
    await other.getByRole('dialog', { name: 'Rename device' }).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => again.locator('strong').innerText()).toBe('Forklift 8');
    await expect.poll(() => listed.getByRole('button').innerText(), { timeout: 15_000 }).toBe('Forklift 8');
    await expect.poll(() => page.getByTestId('occupants').locator('[data-device-id="walker-07"] strong').innerText(), { timeout: 15_000 }).toBe('Forklift 8');
    await screenshot(page, 'review-renamed-device');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('fits every page into 390 px, light and dark, and shows each API key on one readable line', async () => {
    await walkAndGoQuiet('wide', -30);
    const routes = [
      '/buildings',
      `/buildings/${building.id}`,
      `/buildings/${building.id}/place`,
      mapPath(),
      mapPath('?view=history'),
      mapPath('?view=heatmap'),
      mapPath('?view=edit'),
      '/start',
      '/devices',
      '/analytics',
      '/events',
      '/webhooks',
      '/api-keys',
      '/admin',
      '/settings',
      '/profile',
      '/no-such-page',
    ];
    const tooWide: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page, problems } = await phone(scheme);
      for (const route of routes) {
        await page.goto(`${domain}${route}`);
        await page.locator('h1').first().waitFor();
        if (route.includes('/map')) await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
        await expect.poll(() => page.locator('.loading').count(), { timeout: 20_000 }).toBe(0);
        const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
        if (widths.page > widths.screen) tooWide.push(`${scheme} ${route}: ${widths.page} px`);
      }
      // Each key on one line (not a column of short pieces), its table scrolling inside itself.
      await page.goto(`${domain}/api-keys`);
      const keys = page.locator('table.keys tbody tr');
      await expect.poll(() => keys.count()).toBe(2);
      for (const key of await keys.all()) {
        const code = key.locator('code');
        const lineHeight = await code.evaluate((element) =>
          parseFloat((globalThis as unknown as { getComputedStyle(e: unknown): { lineHeight: string } }).getComputedStyle(element).lineHeight),
        );
        expect((await code.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
      }
      await screenshot(page, `review-api-keys-${scheme}`);
      expect(problems).toEqual([]);
      await context.close();
    }
    expect(tooWide).toEqual([]);
  }, 300_000);

  it('never piles the age labels of twenty quiet devices on each other, nor lets one run off the map', async () => {
    const ids = await walkAndGoQuiet('quiet', 30);
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page, problems } = await phone(scheme);
      await openMap(page);
      await expect
        .poll(() => page.evaluate((wanted) => window.cartographLiveMap.renderedDevices().filter((d) => wanted.includes(d.id) && d.frozen).length, ids), { timeout: 20_000 })
        .toBe(DEVICES);
      const labels = () =>
        page.evaluate(() => {
          const map = document.querySelector('[data-testid="floor-map"]')!.getBoundingClientRect();
          const shown = [...document.querySelectorAll('.device-label')].filter((l) => l.checkVisibility({ visibilityProperty: true, opacityProperty: true }));
          return { map, shown: shown.map((l) => ({ id: l.dataset.deviceId, text: l.textContent, box: l.getBoundingClientRect() })) };
        });
      const check = async (where: string) => {
        await expect.poll(async () => (await labels()).shown.length, { timeout: 15_000 }).toBeGreaterThan(0);
        const { map, shown } = await labels();
        for (const label of shown) expect(label.text, where).toMatch(/^\d+ (s|min) ago$/);
        const outside = shown.filter((l) => l.box.left < map.left || l.box.right > map.right || l.box.top < map.top || l.box.bottom > map.bottom).map((l) => l.id);
        expect(outside, `${where}: labels outside the map`).toEqual([]);
        const overlapping: string[] = [];
        for (const [i, a] of shown.entries())
          for (const b of shown.slice(i + 1))
            if (a.box.left < b.box.right && b.box.left < a.box.right && a.box.top < b.box.bottom && b.box.top < a.box.bottom) overlapping.push(`${a.id}/${b.id}`);
        expect(overlapping, `${where}: overlapping labels`).toEqual([]);
        return shown.length;
      };
      await check(`${scheme}, as opened`);
      await screenshot(page, `review-age-labels-${scheme}`);
      // Zoomed out the dots crowd closer; zoomed in they spread past the edges.
      // Every frame drawn while the zoom animates is sampled too: no frame may show two labels on each other.
      for (const [button, times] of [
        ['Zoom out', 1],
        ['Zoom in', 3],
      ] as const) {
        await page.evaluate(() => {
          const w = window as unknown as { labelFrames: { overlaps: string[]; frames: number; on: boolean } };
          w.labelFrames = { overlaps: [], frames: 0, on: true };
          const nextFrame = (f: () => void) => (globalThis as unknown as { requestAnimationFrame(f: () => void): void }).requestAnimationFrame(f);
          const sample = () => {
            if (!w.labelFrames.on) return;
            const shown = [...document.querySelectorAll('.device-label')]
              .filter((l) => l.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
              .map((l) => ({ id: l.dataset.deviceId, box: l.getBoundingClientRect() }));
            for (const [i, a] of shown.entries())
              for (const b of shown.slice(i + 1))
                if (a.box.left < b.box.right && b.box.left < a.box.right && a.box.top < b.box.bottom && b.box.top < a.box.bottom) w.labelFrames.overlaps.push(`${a.id}/${b.id}`);
            w.labelFrames.frames++;
            nextFrame(sample);
          };
          nextFrame(sample);
        });
        for (let i = 0; i < times; i++) await page.getByRole('button', { name: button, exact: true }).click();
        // Once the zoom has settled, the labels are placed again, and stay so.
        await expect.poll(() => check(`${scheme}, after ${button}`).catch(() => -1), { timeout: 15_000 }).toBeGreaterThan(0);
        await page.waitForTimeout(500);
        await check(`${scheme}, after ${button}`);
        const frames = await page.evaluate(() => {
          const w = window as unknown as { labelFrames: { overlaps: string[]; frames: number; on: boolean } };
          w.labelFrames.on = false;
          return { overlaps: [...new Set(w.labelFrames.overlaps)], frames: w.labelFrames.frames };
        });
        expect(frames.frames, `${scheme}, ${button}: frames sampled`).toBeGreaterThan(0);
        expect(frames.overlaps, `${scheme}, while zooming (${button}): overlapping labels in some frame`).toEqual([]);
      }
      expect(problems).toEqual([]);
      await context.close();
    }
  }, 240_000);
});
