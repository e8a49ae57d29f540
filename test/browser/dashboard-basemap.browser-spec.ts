import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../support/admin';
import { createOrganization, TestOrganization } from '../support/auth';
import { createBuilding, createFloor } from '../support/cartography';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { launchChromium, logIn, newPage, screenshot } from '../support/dashboard-browser';
import { makePng } from '../support/images';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * The operator's optional basemap (DASHBOARD_BASEMAP_URL): raster tiles from a tile server of
 * its own, here one on the loopback, drawn under the building on the maps with its attribution.
 */
describe('dashboard maps over an operator basemap', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;
  let browser: Browser;
  let tiles: Server;
  const asked: string[] = [];

  beforeAll(async () => {
    const tile = makePng(256, 256);
    tiles = createServer((request, response) => {
      asked.push(request.url ?? '');
      if (!/^\/tiles\/\d+\/\d+\/\d+\.png$/.test(request.url ?? '')) return void response.writeHead(404).end();
      response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': tile.length }).end(tile);
    });
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    process.env.DASHBOARD_DIR = ensureDashboardBuilt();
    process.env.DASHBOARD_BASEMAP_URL = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}/tiles/{z}/{x}/{y}.png`;
    process.env.DASHBOARD_BASEMAP_ATTRIBUTION = 'Tiles: the operator';
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'Basemap');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await new Promise((resolve) => tiles?.close(resolve));
    delete process.env.DASHBOARD_DIR;
    delete process.env.DASHBOARD_BASEMAP_URL;
    delete process.env.DASHBOARD_BASEMAP_ATTRIBUTION;
  });

  it("draws the tiles under the building on the placement page and the floor map, with the attribution, within the page's own security policy", async () => {
    const admin = (await login(t, org.email, org.password)).auth;
    const building = await createBuilding(t, admin, { name: 'On the map', location: { lat: 48.8584, lng: 2.2945 }, dimensions: { width: 60, length: 40 }, rotation: 0 });
    const floor = await createFloor(t, admin, building.id, { name: 'Ground', level: 0 });
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);

    for (const [path, map] of [
      [`/buildings/${building.id}/place`, 'placement-map'],
      [`/buildings/${building.id}/floors/${floor.id}/map`, 'floor-map'],
    ]) {
      asked.length = 0;
      await page.goto(`${domain}${path}`);
      await page.locator(`[data-testid="${map}"][data-ready="true"]`).waitFor({ timeout: 30_000 });
      // Tiles of the building's place (zoom 19, the deepest the server has, scaled up beyond), loaded and shown.
      const loaded = page.getByTestId(map).locator('img.leaflet-tile-loaded');
      await expect.poll(() => loaded.count(), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await loaded.first().evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(256);
      expect(await loaded.first().isVisible()).toBe(true);
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every((url) => url.startsWith('/tiles/19/'))).toBe(true);
      expect(await page.getByTestId(map).locator('.leaflet-control-attribution').innerText()).toContain('Tiles: the operator');
    }
    await screenshot(page, 'floor-map-basemap');
    expect(problems).toEqual([]);
    await page.close();
  });
});
