import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { login } from '../support/admin';
import { createApiKey, createOrganization, TestOrganization } from '../support/auth';
import { BuildingBody, createBuilding, createFloor, FloorBody } from '../support/cartography';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { launchChromium, logIn, newPage, screenshot } from '../support/dashboard-browser';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp, testDatabaseKind } from '../support/test-app';

const CENTRE = { lat: 42.8805, lng: -8.5457 };

/**
 * Issue 39's dashboard item: the floor's gateways on the map, silent ones marked. Two Ruuvi gateways on
 * a floor: one heard a moment ago, one last heard six minutes ago (its stored health, as a gateway that
 * stopped leaves it). The Beacons & APs editor lists both with their health, the map draws both, the
 * silent one red.
 */
describe('dashboard gateways in a browser', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;
  let browser: Browser;
  let building: BuildingBody;
  let floor: FloorBody;
  const heardMac = 'AA:CC:EE:10:00:01';
  const quietMac = 'AA:CC:EE:10:00:02';

  beforeAll(async () => {
    process.env.DASHBOARD_DIR = ensureDashboardBuilt();
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'Gateways on the map');
    const session = await login(t, org.email, org.password);
    const admin = session.auth;
    const key = (await createApiKey(t, session.tokens.access_token, ApiPermission.Positioning, 'gateways')).apikey;
    building = await createBuilding(t, admin, { name: 'Warehouse', location: CENTRE, dimensions: { width: 60, length: 40 }, rotation: 0 });
    floor = await createFloor(t, admin, building.id, { name: 'Ground', level: 0 });
    const ids: number[] = [];
    for (const [mac, x, name] of [
      [heardMac, 10, 'Dock'],
      [quietMac, 40, 'Racks'],
    ] as const) {
      const created = await t.http.post('/api/v1/infrastructure/gateways').set(admin).send({ floor_id: floor.id, hardware_id: mac, format: 'ruuvi', x, y: 20, name }).expect(201);
      ids.push(created.body.id);
      const now = Math.floor(Date.now() / 1000);
      await t.http
        .post(`/api/v1/gateways/${encodeURIComponent(mac)}/observations`)
        .set('authorization', `Bearer ${key}`)
        .send({ data: { coordinates: '', timestamp: now, nonce: x, gw_mac: mac, tags: {} } })
        .expect(200);
    }
    const placeholder = testDatabaseKind() === 'postgres' ? ['$1', '$2'] : ['?', '?'];
    await t.dataSource.query(`UPDATE "gateway_health" SET "last_seen_ms" = ${placeholder[0]} WHERE "gateway_id" = ${placeholder[1]}`, [Date.now() - 6 * 60_000, ids[1]]);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    delete process.env.DASHBOARD_DIR;
  });

  it('lists the floor’s gateways with their health and draws them on the map, the silent one marked', async () => {
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await page.goto(`${domain}/buildings/${building.id}/floors/${floor.id}/map?view=edit`);
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
    await page.getByRole('group', { name: 'What to edit' }).getByRole('button', { name: 'Beacons & APs' }).click();
    const section = page.getByRole('region', { name: 'Gateways' });
    await section.getByRole('status').filter({ hasText: '2 gateways, 1 silent' }).waitFor();
    const silent = section.locator('li.gateway.silent');
    await expect.poll(() => silent.count()).toBe(1);
    expect(await silent.textContent()).toContain('Racks (aaccee100002)');
    expect(await silent.textContent()).toContain('Silent: no message for 5 minutes');
    const heard = section.locator('li.gateway.heard');
    expect(await heard.textContent()).toContain('Dock (aaccee100001)');
    expect(await heard.textContent()).toMatch(/last heard \d+ s ago/);
    await expect.poll(() => page.locator('.gateway-marker').count()).toBe(2);
    expect(await page.locator('.gateway-marker.silent').count()).toBe(1);
    expect(await page.locator('.gateway-marker.heard').count()).toBe(1);
    await screenshot(page, 'gateways-on-the-floor-map');
    expect(problems).toEqual([]);
  });
});
