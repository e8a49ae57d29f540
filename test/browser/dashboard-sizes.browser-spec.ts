import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGETS, pageSizes } from '../../scripts/web-sizes.mjs';
import { login } from '../support/admin';
import { createOrganization, TestOrganization } from '../support/auth';
import sharp from 'sharp';
import { createBuilding, createFloor, expectStatus } from '../support/cartography';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { launchChromium, logIn } from '../support/dashboard-browser';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';

interface PageSize {
  page: string;
  bytes: number;
  budget: number;
  over: boolean;
  files: string[];
  /** What the page fetches only when it shows it (its dynamic imports), compressed. */
  later: number;
  laterFiles: string[];
}

const KIB = 1024;

/**
 * How heavy each page is: from the build (the Vite manifest: what a page needs before it runs,
 * brotli as the server sends it), and as Chromium receives it on a cold load (an empty cache).
 */
describe('dashboard page weight', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;
  let browser: Browser;

  beforeAll(async () => {
    process.env.DASHBOARD_DIR = ensureDashboardBuilt();
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'Weights');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    delete process.env.DASHBOARD_DIR;
  });

  it('keeps every page within its budget in the build: the map pages within 350 KiB, the others within 60 KiB', () => {
    const sizes = pageSizes() as PageSize[];
    console.info(sizes.map((s) => `${(s.bytes / KIB).toFixed(1)} KiB ${s.page}`).join('\n'));
    expect(sizes.length).toBeGreaterThan(10);
    for (const size of sizes) expect({ page: size.page, over: size.over }).toEqual({ page: size.page, over: false });
    expect(BUDGETS).toEqual({ map: 350 * KIB, page: 60 * KIB });
  });

  it('loads the floor map cold with what the build says, all of it from the server itself, compressed', async () => {
    const admin = (await login(t, org.email, org.password)).auth;
    const building = await createBuilding(t, admin, { name: 'Weighed' });
    const floor = await createFloor(t, admin, building.id, { level: 0 });
    const context = await browser.newContext();
    const page: Page = await context.newPage();
    await logIn(page, domain, org.email, org.password);
    // A cold load: a fresh context has no cache; count the code and styles it receives for the page.
    const cold = await browser.newContext({ storageState: await context.storageState() });
    const mapPage = await cold.newPage();
    const received: Array<{ url: string; bytes: number; encoding: string | null }> = [];
    mapPage.on('requestfinished', async (request) => {
      const type = request.resourceType();
      if (type !== 'script' && type !== 'stylesheet' && type !== 'document') return;
      const response = await request.response();
      // When Chromium reports no body size, the Content-Length says it.
      const bytes = (await request.sizes()).responseBodySize || Number((await response?.headerValue('content-length')) ?? 0);
      received.push({ url: request.url(), bytes, encoding: (await response?.headerValue('content-encoding')) ?? null });
    });
    await mapPage.goto(`${domain}/buildings/${building.id}/floors/${floor.id}/map`);
    await mapPage.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
    await mapPage.waitForLoadState('networkidle');
    const assets = received.filter((r) => r.url.includes('/assets/'));
    const total = received.reduce((sum, r) => sum + r.bytes, 0);
    console.info(`floor map, cold: ${(total / KIB).toFixed(1)} KiB in ${received.length} files`);
    expect(received.every((r) => new URL(r.url).origin === new URL(domain).origin)).toBe(true);
    expect(assets.every((r) => r.encoding === 'br')).toBe(true);
    // No worker any more: the map draws in the page (Leaflet), so scripts and styles are all there is.
    expect(assets.some((r) => r.url.includes('worker'))).toBe(false);
    const planned = (pageSizes() as PageSize[]).find((s) => s.page === 'src/floor-map/floor-map-page.tsx')!;
    expect(total).toBeLessThanOrEqual(BUDGETS.map);
    // What arrived is what the build check counts (give or take the HTML page).
    expect(Math.abs(total - planned.bytes)).toBeLessThan(4 * KIB);
    await cold.close();
    await context.close();
  });

  /** What a cold load (a fresh context, no cache) of `path` receives, after `ready` is on screen. */
  async function coldLoad(path: string, ready: (page: Page) => Promise<unknown>) {
    const context = await browser.newContext();
    const page: Page = await context.newPage();
    await logIn(page, domain, org.email, org.password);
    const cold = await browser.newContext({ storageState: await context.storageState() });
    const coldPage = await cold.newPage();
    const received: Array<{ url: string; type: string; bytes: number }> = [];
    coldPage.on('requestfinished', async (request) => {
      const response = await request.response();
      const bytes = (await request.sizes()).responseBodySize || Number((await response?.headerValue('content-length')) ?? 0);
      received.push({ url: request.url(), type: request.resourceType(), bytes });
    });
    await coldPage.goto(`${domain}${path}`);
    await ready(coldPage);
    await coldPage.waitForLoadState('networkidle');
    await cold.close();
    await context.close();
    return received;
  }

  it('shows floor plans on the building page as thumbnails: no full-size plan is fetched', async () => {
    const admin = (await login(t, org.email, org.password)).auth;
    const building = await createBuilding(t, admin, { name: 'Planned' });
    const pixels = Buffer.alloc(2400 * 1600 * 3, 0x80);
    for (let i = 0; i < pixels.length; i += 7) pixels[i] = i % 251;
    const plan = await sharp(pixels, { raw: { width: 2400, height: 1600, channels: 3 } })
      .png()
      .toBuffer();
    const uploaded = await t.http.post('/api/v1/images').set(admin).attach('image', plan, 'plan.png');
    expectStatus(uploaded, 201);
    await createFloor(t, admin, building.id, { level: 0, name: 'Ground', map_id: uploaded.body.id });
    const received = await coldLoad(`/buildings/${building.id}`, async (page) => {
      const img = page.getByRole('img', { name: /Plan of/ });
      await img.waitFor();
      await expect.poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth), { timeout: 20_000 }).toBeGreaterThan(0);
    });
    const images = received.filter((r) => r.url.includes('/api/v1/images/'));
    console.info(
      `building page, cold: plan images ${images.map((r) => `${(r.bytes / KIB).toFixed(1)} KiB ${new URL(r.url).search}`).join(', ')} (the plan is ${(plan.length / KIB).toFixed(0)} KiB)`,
    );
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(new URL(image.url).searchParams.get('width')).toMatch(/^\d+$/);
    expect(images.reduce((sum, r) => sum + r.bytes, 0)).toBeLessThan(plan.length / 4);
  });

  it('loads analytics cold within 60 KiB (brotli): the chart code comes only with a chart', async () => {
    const admin = (await login(t, org.email, org.password)).auth;
    const building = await createBuilding(t, admin, { name: 'Charted' });
    let chartStyles: boolean | undefined;
    const received = await coldLoad(`/analytics?building_id=${building.id}`, async (page) => {
      await page.getByText('No device was positioned in this building in this range.').waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      // The chart library's styles come with its code: none on the page while no chart is drawn.
      chartStyles = await page.evaluate(() => {
        const sheets = (globalThis as unknown as { document: { styleSheets: Iterable<{ cssRules: Iterable<{ cssText: string }> }> } }).document.styleSheets;
        return [...sheets].some((sheet) => [...sheet.cssRules].some((rule) => rule.cssText.startsWith('.uplot')));
      });
    });
    expect(chartStyles).toBe(false);
    const code = received.filter((r) => ['script', 'stylesheet', 'document'].includes(r.type));
    const total = code.reduce((sum, r) => sum + r.bytes, 0);
    console.info(`analytics, cold, no chart to draw: ${(total / KIB).toFixed(1)} KiB in ${code.length} files`);
    expect(total).toBeLessThanOrEqual(60 * KIB);
    // No chart on screen, no chart library: the build counts it as what the page loads later,
    // and the page with its charts drawn is still within the budget.
    expect(code.some((r) => /\/assets\/uplot-/.test(r.url))).toBe(false);
    const planned = (pageSizes() as PageSize[]).find((s) => s.page === 'src/pages/analytics.tsx')!;
    expect(planned.laterFiles.some((file) => /^assets\/uplot-.*\.js$/.test(file))).toBe(true);
    expect(planned.files.some((file) => /uplot/.test(file))).toBe(false);
    expect(planned.bytes + planned.later).toBeLessThanOrEqual(BUDGETS.page);
  });
});
