import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { Role } from '../../src/access/roles';
import type { LiveMapProbe } from '../../web/src/live';
import { addGroup, addUser, login } from '../support/admin';
import { createApiKey, createOrganization, TestOrganization } from '../support/auth';
import { BuildingBody, createBuilding, createFloor, createGeofence, FloorBody, square, TINY_PNG, uploadImage } from '../support/cartography';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { makePng } from '../support/images';
import { launchChromium, logIn, newPage, screenshot } from '../support/dashboard-browser';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';
import { waitFor, WebhookReceiver } from '../support/webhook-receiver';

declare const window: { cartographLiveMap: LiveMapProbe };
/** Whether an element has the keyboard focus (run in the page). */
const hasFocus = (element: unknown) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement;

const CENTRE = { lat: 42.8805, lng: -8.5457 };
const listOf = <T>(body: unknown): T[] => (Array.isArray(body) ? body : (body as { data: T[] }).data);

/**
 * Issue 30's setup and administration in Debian's chromium against a seeded server: the guided
 * start of an empty organization, placing a building, the cartography editors (POIs and their
 * categories, paths, beacons and access points, GeoJSON fences), users, groups, webhooks and
 * the geofencing settings, and what a non-administrator sees of them.
 */
describe('dashboard setup and administration in a browser', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;
  let browser: Browser;
  let admin: Record<string, string>;
  let building: BuildingBody;
  let floor: FloorBody;

  beforeAll(async () => {
    process.env.DASHBOARD_DIR = ensureDashboardBuilt();
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'Setup');
    admin = (await login(t, org.email, org.password)).auth;
    building = await createBuilding(t, admin, { name: 'Warehouse', location: CENTRE, dimensions: { width: 60, length: 40 }, rotation: 0 });
    floor = await createFloor(t, admin, building.id, { name: 'Ground', level: 0 });
    await createFloor(t, admin, building.id, { name: 'First', level: 1 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    delete process.env.DASHBOARD_DIR;
  });

  async function openEditor(page: Page, editor: string): Promise<void> {
    await page.goto(`${domain}/buildings/${building.id}/floors/${floor.id}/map?view=edit`);
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
    await page.getByRole('group', { name: 'What to edit' }).getByRole('button', { name: editor }).click();
  }
  /** Clicks the map `east`, `north` metres from the building's centre. */
  async function clickMap(page: Page, east: number, north: number): Promise<void> {
    const lngLat: [number, number] = [CENTRE.lng + east / (111_195 * Math.cos((CENTRE.lat * Math.PI) / 180)), CENTRE.lat + north / 111_195];
    const at = await page.evaluate((p) => window.cartographLiveMap.project(p), lngLat).catch(() => null);
    const box = (await page.getByTestId('floor-map').boundingBox())!;
    // Without the live probe (other views), the centre of the map is the building's centre.
    const x = at ? at.x : box.width / 2 + east * 6;
    const y = at ? at.y : box.height / 2 - north * 6;
    await page.mouse.click(box.x + x, box.y + y);
  }

  it('guides an empty organization from nothing to a first dot on the map, with a command that really posts a position', async () => {
    const fresh = await createOrganization(t, 'Newcomer');
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, fresh.email, fresh.password);
    await page.getByTestId('empty-organization').getByRole('link', { name: 'Start the guide' }).click();
    await page.getByRole('heading', { name: 'Set up your site' }).waitFor();
    const step = (n: number) => page.locator(`li.step[data-step="${n}"]`);
    await step(1).getByLabel('Name').fill('First site');
    await step(1).getByLabel('Latitude').fill('40.4168');
    await step(1).getByLabel('Longitude').fill('-3.7038');
    await step(1).getByLabel('Width (m)').fill('50');
    await step(1).getByLabel('Length (m)').fill('30');
    await step(1).getByRole('button', { name: 'Create the building' }).click();
    await expect.poll(() => step(1).getAttribute('data-done')).toBe('true');
    await step(2).getByLabel('Name').fill('Ground');
    await step(2).getByRole('button', { name: 'Add the floor' }).click();
    await step(2).locator('input[type="file"]').setInputFiles({ name: 'plan.png', mimeType: 'image/png', buffer: TINY_PNG });
    await expect.poll(() => step(2).getAttribute('data-done')).toBe('true');
    await step(2).getByRole('link', { name: 'Align the plan with the building' }).waitFor();
    await step(4).getByRole('button', { name: 'Make a positioning key' }).click();
    await expect.poll(() => step(4).getAttribute('data-done')).toBe('true');
    const command = (await page.getByTestId('first-position-command').innerText()).trim();
    await screenshot(page, 'onboarding');
    // What a person would paste in a terminal (run beside the server, which answers it in this process).
    const { stdout } = await promisify(execFile)('sh', ['-c', command], { timeout: 20_000 });
    const answer = JSON.parse(stdout) as { accepted: number };
    expect(answer.accepted).toBe(1);
    await page.getByTestId('first-device').waitFor({ timeout: 15_000 });
    await page.getByTestId('first-device').getByRole('link', { name: 'See its dot on the floor map' }).click();
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.evaluate(() => window.cartographLiveMap.renderedDevices().map((d) => d.id)), { timeout: 15_000 }).toEqual(['my-first-device']);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('gives a new positioning key an example that reports a position on the first floor, from API keys in the main navigation', async () => {
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Create new API key' }).click();
    const create = page.getByRole('dialog', { name: 'Create new API key' });
    await create.getByLabel('Description').fill('Forklift app');
    await create.getByRole('radio', { name: /Positioning/ }).check();
    await create.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    const command = (await shown.getByTestId('curl-line').innerText()).trim();
    expect(command).toContain('/api/v1/realtime/positions');
    expect(command).toContain(`"floor_id":${floor.id}`);
    const { stdout } = await promisify(execFile)('sh', ['-c', command.replace('my-first-device', 'forklift-app')], { timeout: 20_000 });
    expect(JSON.parse(stdout)).toMatchObject({ accepted: 1 });
    expect((await t.http.get('/api/v1/devices/forklift-app').set(admin).expect(200)).body.last_position).toMatchObject({ floor_id: floor.id, building_id: building.id });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('places a building by dragging it and by typing, rotation in degrees, and aligns the plan by two anchor points', async () => {
    await t.http
      .put(`/api/v1/floors/${floor.id}`)
      .set(admin)
      .send({ map_id: (await uploadImage(t, admin)).id })
      .expect(200);
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await page.goto(`${domain}/buildings/${building.id}`);
    await page.getByRole('link', { name: 'Place on the map' }).click();
    await page.locator('[data-testid="placement-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
    const form = page.getByRole('form', { name: 'Placement' });
    // Drag the middle handle 100 px to the east: the building moves east.
    const centre = page.locator('.edit-handle.centre');
    const box = (await centre.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 50, box.y + box.height / 2, { steps: 5 });
    await page.mouse.move(box.x + box.width / 2 + 100, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => Number(await form.getByLabel('Longitude').inputValue())).toBeGreaterThan(CENTRE.lng + 0.00001);
    expect(Number(await form.getByLabel('Latitude').inputValue())).toBeCloseTo(CENTRE.lat, 4);
    // Typed: 30 degrees.
    await form.getByLabel('Rotation (°)').fill('30');
    await form.getByRole('button', { name: 'Apply typed values' }).click();
    await expect.poll(() => form.getByLabel('Rotation (°)').inputValue()).toBe('30');
    await page.getByRole('button', { name: 'Save placement' }).click();
    await page.getByText('Placement saved.').waitFor();
    const stored = (await t.http.get(`/api/v1/buildings/${building.id}`).set(admin).expect(200)).body;
    expect(stored.rotation).toBeCloseTo((30 * Math.PI) / 180, 6);
    expect(stored.location.lng).toBeGreaterThan(CENTRE.lng + 0.00001);
    await screenshot(page, 'building-placement');

    // Two anchors: the plan's top-left and bottom-right corners onto two points of the map.
    await page.getByRole('button', { name: 'Align by two points' }).click();
    const plan = page.getByRole('img', { name: 'The floor plan: click a point of it' });
    await plan.waitFor();
    const planBox = (await plan.boundingBox())!;
    const map = (await page.getByTestId('placement-map').boundingBox())!;
    await page.mouse.click(planBox.x + 1, planBox.y + 1);
    await page.getByText('Now click where point 1 is on the map.').waitFor();
    await page.mouse.click(map.x + map.width * 0.3, map.y + map.height * 0.3);
    await page.getByText('Click point 2 on the plan.').waitFor();
    await page.mouse.click(planBox.x + planBox.width - 1, planBox.y + planBox.height - 1);
    await page.getByText('Now click where point 2 is on the map.').waitFor();
    await page.mouse.click(map.x + map.width * 0.7, map.y + map.height * 0.6);
    await page.getByRole('button', { name: 'Align by two points' }).waitFor();
    // A 1 × 1 pixel plan: a square building now, turned to the diagonal.
    await expect.poll(async () => Number(await form.getByLabel('Width (m)').inputValue())).toBeCloseTo(Number(await form.getByLabel('Length (m)').inputValue()), 1);
    await page.getByRole('button', { name: 'Save placement' }).click();
    await page.getByText('Placement saved.').waitFor();
    const aligned = (await t.http.get(`/api/v1/buildings/${building.id}`).set(admin).expect(200)).body;
    expect(aligned.dimensions.width).toBeCloseTo(aligned.dimensions.length, 1);
    await t.http
      .put(`/api/v1/buildings/${building.id}`)
      .set(admin)
      .send({ location: CENTRE, dimensions: { width: 60, length: 40 }, rotation: 0 })
      .expect(200);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('aligns the plan by two anchor points with the keyboard alone: arrow keys move each point, Enter sets it, the saved placement follows', async () => {
    // A plan twice as wide as it is tall on the ground floor (the one the placement page aligns).
    const image = (await t.http.post('/api/v1/images').set(admin).attach('image', makePng(200, 100), 'wide.png').expect(201)).body as { id: string };
    await t.http.put(`/api/v1/floors/${floor.id}`).set(admin).send({ map_id: image.id }).expect(200);
    const before = (await t.http.get(`/api/v1/buildings/${building.id}`).set(admin).expect(200)).body;
    expect(before).toMatchObject({ location: CENTRE, rotation: 0 });
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await page.goto(`${domain}/buildings/${building.id}/place`);
    await page.locator('[data-testid="placement-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
    const align = page.getByRole('button', { name: 'Align by two points' });
    await align.focus();
    await page.keyboard.press('Enter');

    // Point 1 on the plan: its pointer has the focus, a quarter in from the top-left; moved and moved back, then set.
    const planPointer = page.getByRole('button', { name: /^Point 1 on the plan/ });
    await expect.poll(() => planPointer.evaluate(hasFocus)).toBe(true);
    expect(await planPointer.getAttribute('aria-label')).toContain('25.0 % from the left and 25.0 % from the top');
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => planPointer.getAttribute('aria-label')).not.toContain('25.0 % from the left');
    await page.keyboard.press('Shift+ArrowLeft');
    await expect.poll(() => planPointer.getAttribute('aria-label')).toContain('25.0 % from the left and 25.0 % from the top');
    await page.keyboard.press('Enter');

    // Point 1 on the map: a handle in the middle of the map takes the focus; 50 px west with the arrow keys, then set.
    await page.getByText('Now click where point 1 is on the map.').waitFor();
    const mapHandle = page.getByRole('button', { name: /^Point 1 on the map/ });
    await expect.poll(() => mapHandle.evaluate(hasFocus)).toBe(true);
    const shown = page.getByTestId('map-anchor');
    const start = await shown.innerText();
    const handleStart = (await mapHandle.boundingBox())!;
    for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+ArrowLeft');
    await expect.poll(async () => handleStart.x - (await mapHandle.boundingBox())!.x).toBeGreaterThan(48);
    expect(handleStart.x - (await mapHandle.boundingBox())!.x).toBeLessThan(52);
    expect((await mapHandle.boundingBox())!.y).toBeCloseTo(handleStart.y, 0);
    // What the handle's place reads as: the same latitude, a smaller longitude.
    const [, startLat, startLng] = /(-?[\d.]+), (-?[\d.]+)$/.exec(start)!.map(Number);
    await expect.poll(async () => Number(/(-?[\d.]+)$/.exec(await shown.innerText())![1])).toBeLessThan(startLng);
    expect(Number(/(-?[\d.]+), /.exec(await shown.innerText())![1])).toBeCloseTo(startLat, 6);
    await page.keyboard.press('Enter');

    // Point 2: three quarters in on the plan as it starts; 50 px east of the middle on the map.
    await page.getByText('Click point 2 on the plan.').waitFor();
    const planPointer2 = page.getByRole('button', { name: /^Point 2 on the plan/ });
    await expect.poll(() => planPointer2.evaluate(hasFocus)).toBe(true);
    expect(await planPointer2.getAttribute('aria-label')).toContain('75.0 % from the left and 75.0 % from the top');
    await page.keyboard.press('Enter');
    await page.getByText('Now click where point 2 is on the map.').waitFor();
    const mapHandle2 = page.getByRole('button', { name: /^Point 2 on the map/ });
    await expect.poll(() => mapHandle2.evaluate(hasFocus)).toBe(true);
    for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(async () => Number(/(-?[\d.]+)$/.exec(await page.getByTestId('map-anchor').innerText())![1])).toBeGreaterThan(startLng);
    await page.keyboard.press('Enter');
    await align.waitFor();

    // On screen, the plan lies on the building's outline, turned with it.
    const plan = page.locator('img.placed-image');
    const outline = page.locator('.leaflet-floor-pane path');
    await expect
      .poll(async () => {
        const [a, b] = [(await plan.boundingBox())!, (await outline.boundingBox())!];
        return Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y), Math.abs(a.width - b.width), Math.abs(a.height - b.height));
      })
      .toBeLessThan(3);
    await screenshot(page, 'plan-aligned-by-keyboard');

    // Saved with the keyboard too: the plan's middle (halfway between the two points) on the map's middle, its long
    // side turned by atan(50 / 100) from east (the plan's points are 100 px apart across and 50 down, the map's due east).
    const save = page.getByRole('button', { name: 'Save placement' });
    await save.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Placement saved.').waitFor();
    const stored = (await t.http.get(`/api/v1/buildings/${building.id}`).set(admin).expect(200)).body;
    expect(stored.rotation).toBeCloseTo(Math.atan2(50, 100), 2);
    expect(stored.dimensions.width / stored.dimensions.length).toBeCloseTo(2, 2);
    expect(stored.location.lat).toBeCloseTo(startLat, 6);
    expect(stored.location.lng).toBeCloseTo(CENTRE.lng, 5);
    expect(stored.location.lat).toBeCloseTo(CENTRE.lat, 5);
    await t.http
      .put(`/api/v1/buildings/${building.id}`)
      .set(admin)
      .send({ location: CENTRE, dimensions: { width: 60, length: 40 }, rotation: 0 })
      .expect(200);
    await t.http
      .put(`/api/v1/floors/${floor.id}`)
      .set(admin)
      .send({ map_id: (await uploadImage(t, admin)).id })
      .expect(200);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('renames and deletes floors and buildings, confirming what the API cascades', async () => {
    const doomed = await createBuilding(t, admin, { name: 'Doomed', location: CENTRE, dimensions: { width: 20, length: 20 } });
    const level = await createFloor(t, admin, doomed.id, { name: 'Basement', level: -1 });
    const fence = await createGeofence(t, admin, { buildingId: doomed.id, floorId: level.id }, { name: 'Store', geometric: square(CENTRE.lat, CENTRE.lng, 0.00005) });
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await page.goto(`${domain}/buildings/${doomed.id}`);
    await page.getByRole('button', { name: 'Rename Basement' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename floor' });
    await rename.getByLabel('Name').fill('Cellar');
    await rename.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: /Cellar/ }).waitFor();
    await page.getByRole('button', { name: 'Delete Cellar' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete floor' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    // The API refuses while a live geofence stands on it: its words, and a second confirmation.
    await expect.poll(() => confirm.getByTestId('cascade-warning').innerText()).toContain('1 live geofence(s)');
    await screenshot(page, 'floor-delete-cascade');
    await confirm.getByRole('button', { name: 'Delete it with all of them' }).click();
    await page.getByText('No floors yet.').waitFor();
    expect((await t.http.get(`/api/v1/geofences/${fence.id}`).set(admin).expect(200)).body.deleted).toBe(true);

    await page.getByRole('button', { name: 'Delete building' }).click();
    await page.getByRole('dialog', { name: 'Delete building' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('heading', { name: 'Buildings' }).waitFor();
    await t.http.get(`/api/v1/buildings/${doomed.id}`).set(admin).expect(404);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('places, moves and edits POIs with a category and its icon', async () => {
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await openEditor(page, 'POIs');
    await page.getByRole('button', { name: 'Categories' }).click();
    const categories = page.getByRole('dialog', { name: 'POI categories' });
    await categories.getByRole('button', { name: 'New category' }).click();
    await categories.getByLabel('Name').fill('Cafe');
    await categories.getByLabel('Code').fill('cafe');
    await categories.locator('input[type="file"]').setInputFiles({ name: 'cup.png', mimeType: 'image/png', buffer: TINY_PNG });
    await categories.getByRole('button', { name: 'Save category' }).click();
    await categories.locator('li', { hasText: 'Cafe' }).locator('img.icon').waitFor();
    await categories.getByRole('button', { name: 'Close' }).click();

    // Placed by typing where (floor metres), as with the keyboard alone.
    await page.getByRole('button', { name: 'Add a POI' }).click();
    const form = page.getByRole('form', { name: 'New POI' });
    await form.getByLabel('Name').fill('Coffee corner');
    await form.getByLabel('Category').selectOption({ label: 'Cafe' });
    await form.getByLabel('x (m)').fill('12.5');
    await form.getByLabel('y (m)').fill('8');
    await form.getByRole('button', { name: 'Save POI' }).click();
    await page.locator('.poi-list li', { hasText: 'Coffee corner' }).waitFor();
    const [poi] = listOf<{ id: number; name: string; category_name: string; position: { x: number; y: number; floor_id: number } }>(
      (await t.http.get(`/api/v1/buildings/${building.id}/pois`).set(admin).expect(200)).body,
    );
    expect(poi).toMatchObject({ name: 'Coffee corner', category_name: 'Cafe', position: { floor_id: floor.id } });
    expect(poi.position.x).toBeCloseTo(12.5, 1);
    expect(poi.position.y).toBeCloseTo(8, 1);

    // Moved by dragging its handle, then renamed.
    await page.locator('.poi-list li', { hasText: 'Coffee corner' }).getByRole('button', { name: 'Edit Coffee corner' }).click();
    const handle = page.locator('.poi-handle');
    const at = (await handle.boundingBox())!;
    await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
    await page.mouse.down();
    await page.mouse.move(at.x + 40, at.y + at.height / 2, { steps: 4 });
    await page.mouse.move(at.x + 80, at.y + at.height / 2, { steps: 4 });
    await page.mouse.up();
    const edit = page.getByRole('form', { name: 'Edit POI' });
    await expect.poll(async () => Number(await edit.getByLabel('x (m)').inputValue())).toBeGreaterThan(13);
    await edit.getByLabel('Name').fill('Coffee bar');
    await edit.getByRole('button', { name: 'Save POI' }).click();
    await page.locator('.poi-list li', { hasText: 'Coffee bar' }).waitFor();
    const moved = (await t.http.get(`/api/v1/pois/${poi.id}`).set(admin).expect(200)).body;
    expect(moved.name).toBe('Coffee bar');
    expect(moved.position.x).toBeGreaterThan(13);
    await screenshot(page, 'poi-editor');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('edits the paths graph: nodes, links, and a link to another floor', async () => {
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await openEditor(page, 'Paths');
    const add = page.getByRole('form', { name: 'Add a node by position' });
    for (const [x, y] of [
      ['5', '5'],
      ['25', '5'],
    ]) {
      await add.getByLabel('x (m)').fill(x);
      await add.getByLabel('y (m)').fill(y);
      await add.getByRole('button', { name: 'Add node' }).click();
    }
    const node = page.getByTestId('path-node');
    await node.getByRole('heading', { name: 'Node 2' }).waitFor();
    await node.getByLabel('Link to a node').selectOption({ label: 'node 1' });
    await node.getByText('Linked to node 1').waitFor();
    // Nodes drawn on the map by clicks, in the link tool: the second linked to the first (selected).
    await page.getByRole('button', { name: 'Draw links' }).click();
    await clickMap(page, -10, -10);
    await node.getByRole('heading', { name: 'Node 3' }).waitFor();
    await clickMap(page, -10, 0);
    await node.getByRole('heading', { name: 'Node 4' }).waitFor();
    await node.getByText('Linked to node 3').waitFor();
    await page.getByRole('button', { name: 'Save paths' }).click();
    await expect.poll(async () => (await t.http.get(`/api/v1/buildings/${building.id}/paths`).set(admin)).body.links?.length ?? 0).toBe(2);
    const graph = (await t.http.get(`/api/v1/buildings/${building.id}/paths`).set(admin).expect(200)).body as {
      nodes: Array<{ id: number; floor_id: number }>;
      links: Array<{ source: number; target: number }>;
    };
    expect(graph.nodes.map((n) => n.id).sort()).toEqual([1, 2, 3, 4]);
    await screenshot(page, 'paths-editor');

    // A stair: node 1 linked to a node of the first floor.
    const first = listOf<{ id: number; level: number }>((await t.http.get(`/api/v1/buildings/${building.id}/floors`).set(admin)).body).find((f) => f.level === 1)!;
    await t.http
      .put(`/api/v1/buildings/${building.id}/paths`)
      .set(admin)
      .send({ nodes: [...graph.nodes.map((n) => ({ ...n })), { id: 10, floor_id: first.id, x: 5, y: 5 }], links: graph.links })
      .expect(200);
    await page.reload();
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
    await page.getByRole('group', { name: 'What to edit' }).getByRole('button', { name: 'Paths' }).click();
    await page.getByRole('form', { name: 'Add a node by position' }).waitFor();
    // Select node 1 through its link list: choose it with the keyboard-friendly select of node 3.
    await add.getByLabel('x (m)').fill('40');
    await add.getByLabel('y (m)').fill('30');
    await add.getByRole('button', { name: 'Add node' }).click();
    await node.getByLabel('Link to a node').selectOption({ label: 'node 10 (First)' });
    await node.getByText('Linked to node 10 (First)').waitFor();
    await page.getByRole('button', { name: 'Save paths' }).click();
    await expect
      .poll(async () =>
        ((await t.http.get(`/api/v1/buildings/${building.id}/paths`).set(admin)).body.links as Array<{ source: number; target: number }>).some(
          (l) => l.source === 11 && l.target === 10,
        ),
      )
      .toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("places beacons and access points, exports the CSV and shows the API's reason for each bad line of an import", async () => {
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await openEditor(page, 'Beacons & APs');
    await page.getByRole('button', { name: 'Add access point' }).click();
    await page.getByText('Click on the map where it is.').waitFor();
    await clickMap(page, 3, 3);
    const form = page.getByRole('form', { name: 'Access point details' });
    await form.getByLabel('BSSID').fill('AA:BB:CC:DD:EE:01');
    await form.getByLabel('SSID', { exact: true }).fill('Office');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.locator('li[data-transmitter^="wifi-"]').waitFor();
    const stored = (await t.http.get(`/api/v1/infrastructure?building_id=${building.id}`).set(admin).expect(200)).body;
    expect(stored.wifi).toMatchObject([{ bssid: 'aa:bb:cc:dd:ee:01', ssid: 'Office', floor_id: floor.id }]);

    // A beacon placed by typing where it is (the keyboard's way).
    await page.getByRole('button', { name: 'Add beacon' }).click();
    const beacon = page.getByRole('form', { name: 'Beacon details' });
    await beacon.getByLabel('x (m)').fill('10');
    await beacon.getByLabel('y (m)').fill('5');
    await beacon.getByLabel('UUID').fill('f7826da6-4fa2-4e98-8024-bc5b71e0893e');
    await beacon.getByLabel('Major').fill('1');
    await beacon.getByLabel('Minor').fill('2');
    await beacon.getByRole('button', { name: 'Save' }).click();
    await page.locator('li[data-transmitter^="ble-"]').waitFor();
    const [ble] = (await t.http.get(`/api/v1/infrastructure?building_id=${building.id}`).set(admin).expect(200)).body.ble as Array<{
      x: number;
      y: number;
      major: number;
      minor: number;
    }>;
    expect(ble).toMatchObject({ major: 1, minor: 2 });
    expect(ble.x).toBeCloseTo(10, 1);
    expect(ble.y).toBeCloseTo(5, 1);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export the building as CSV' }).click();
    const csv = readFileSync((await (await download).path())!, 'utf8');
    expect(csv).toContain('aa:bb:cc:dd:ee:01');

    const header = 'type,id,floor_id,x,y,lat,lng,bssid,ssid,frequency,uuid,major,minor,tx_power,battery';
    const bad = `${header}\nwifi,,${floor.id},1,1,,,not-a-bssid,Lobby,,,,,,\nble,,${floor.id},2,2,,,,,,f7826da6-4fa2-4e98-8024-bc5b71e0893e,1,70000,,\n`;
    await page.locator('.csv-transfer input[type="file"]').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    const errors = page.getByTestId('csv-errors');
    await expect.poll(() => errors.innerText()).toMatch(/Line 2/);
    expect(await errors.innerText()).toMatch(/Line 3/);
    await screenshot(page, 'infrastructure-csv-errors');
    // Nothing changed.
    expect((await t.http.get(`/api/v1/infrastructure?building_id=${building.id}`).set(admin).expect(200)).body.wifi).toHaveLength(1);
    expect((await t.http.get(`/api/v1/infrastructure?building_id=${building.id}`).set(admin).expect(200)).body.ble).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("exports the floor's geofences as GeoJSON and imports a file, each feature's result shown; fence details and custom fields are edited", async () => {
    const fence = await createGeofence(t, admin, { buildingId: building.id, floorId: floor.id }, { name: 'Dock', geometric: square(CENTRE.lat, CENTRE.lng, 0.00005) });
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await openEditor(page, 'Geofence files');
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: /Export \d+ geofences?/ }).click();
    const exported = JSON.parse(readFileSync((await (await download).path())!, 'utf8')) as { features: Array<{ properties: { name: string } }> };
    expect(exported.features.map((f) => f.properties.name)).toContain('Dock');

    const file = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { name: 'Loading bay', code: 'LB1' },
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [CENTRE.lng, CENTRE.lat],
                [CENTRE.lng + 0.0001, CENTRE.lat],
                [CENTRE.lng + 0.0001, CENTRE.lat + 0.0001],
                [CENTRE.lng, CENTRE.lat + 0.0001],
                [CENTRE.lng, CENTRE.lat],
              ],
            ],
          },
        },
        {
          type: 'Feature',
          properties: { name: 'Bow tie' },
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [CENTRE.lng, CENTRE.lat],
                [CENTRE.lng + 0.0001, CENTRE.lat + 0.0001],
                [CENTRE.lng + 0.0001, CENTRE.lat],
                [CENTRE.lng, CENTRE.lat + 0.0001],
                [CENTRE.lng, CENTRE.lat],
              ],
            ],
          },
        },
        { type: 'Feature', properties: { name: 'A point' }, geometry: { type: 'Point', coordinates: [CENTRE.lng, CENTRE.lat] } },
      ],
    };
    await page.locator('.fence-files input[type="file"]').setInputFiles({ name: 'fences.geojson', mimeType: 'application/geo+json', buffer: Buffer.from(JSON.stringify(file)) });
    const results = page.getByTestId('import-results');
    await expect.poll(() => results.locator('li').count(), { timeout: 15_000 }).toBe(3);
    expect(await results.locator('li.ok').innerText()).toContain('Loading bay');
    expect(await results.locator('li.error', { hasText: 'Bow tie' }).innerText()).toMatch(/geometric/);
    expect(await results.locator('li.error', { hasText: 'A point' }).innerText()).toContain('not a polygon');
    await screenshot(page, 'geofence-import');
    const names = listOf<{ name: string; code: string }>((await t.http.get(`/api/v1/geofences?floor_ids=${floor.id}`).set(admin)).body).map((f) => `${f.name}:${f.code}`);
    expect(names).toContain('Loading bay:LB1');

    // Name, code and custom fields of a fence, from its panel.
    await page.getByRole('tab', { name: 'Live' }).click();
    await page.locator(`.fence-list li[data-fence-id="${fence.id}"]`).getByRole('button', { name: 'Dock' }).click();
    await page.getByTestId('fence-panel').getByRole('button', { name: 'Edit details' }).click();
    const details = page.getByRole('form', { name: 'Geofence details' });
    await details.getByLabel('Name').fill('Dock 2');
    await details.getByLabel('Code').fill('D2');
    await details.getByRole('button', { name: 'Add a field' }).click();
    await details.getByLabel('Key 1').fill('zone');
    await details.getByLabel('Value 1').fill('north');
    await details.getByRole('button', { name: 'Save details' }).click();
    await page.getByTestId('fence-panel').getByRole('heading', { name: 'Dock 2' }).waitFor();
    expect((await t.http.get(`/api/v1/geofences/${fence.id}`).set(admin).expect(200)).body).toMatchObject({
      name: 'Dock 2',
      code: 'D2',
      custom_fields: [{ key: 'zone', value: 'north' }],
    });
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it("deletes a user, manages a group's members and changes the organization's geofencing defaults", async () => {
    const leaving = await addUser(t, admin, { email: 'leaving@example.test', full_name: 'Leaving Soon' });
    const staying = await addUser(t, admin, { email: 'staying@example.test', full_name: 'Staying On' });
    const group = await addGroup(t, admin, { name: 'Night shift' });
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'Delete leaving@example.test' }).click();
    await page.getByRole('dialog', { name: 'Delete user' }).getByRole('button', { name: 'Delete user' }).click();
    await expect.poll(() => page.getByText('leaving@example.test').count()).toBe(0);
    await t.http.get(`/api/v1/users/${leaving.id}`).set(admin).expect(404);

    await page.getByRole('button', { name: 'Members of Night shift' }).click();
    const members = page.getByRole('dialog', { name: 'Group members' });
    await members.getByLabel('staying@example.test').check();
    await members.getByRole('button', { name: 'Save members' }).click();
    await expect.poll(() => page.locator(`li[data-group-id="${group.id}"]`).innerText()).toContain('staying@example.test');
    expect((await t.http.get(`/api/v1/groups/${group.id}`).set(admin).expect(200)).body.user_ids).toEqual([staying.id]);
    await screenshot(page, 'users-groups');

    await page.getByRole('link', { name: 'Settings' }).click();
    const rules = page.getByRole('form', { name: 'Rules' });
    await rules.getByLabel(/Exit when silent for/).fill('90');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await rules.getByText('Rules saved.').waitFor();
    expect((await t.http.get('/api/v1/geofencing/settings').set(admin).expect(200)).body.stale_after_seconds).toBe(90);
    await screenshot(page, 'settings');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('edits a webhook (URL, events, building and fence filters), its deliveries refresh by themselves and name the device and fence', async () => {
    const fence = await createGeofence(
      t,
      admin,
      { buildingId: building.id, floorId: floor.id },
      { name: 'Gate', geometric: square(CENTRE.lat + 0.0002, CENTRE.lng + 0.0002, 0.0001) },
    );
    await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(admin).send({ min_dwell_seconds: 0 }).expect(200);
    const receiver = await new WebhookReceiver().start();
    try {
      const created = await t.http
        .post('/api/v1/webhooks')
        .set(admin)
        .send({ url: 'http://127.0.0.1:9/nowhere', event_types: ['geofence.exit'] })
        .expect(201);
      receiver.secrets.push(created.body.secret);
      const { page, problems } = await newPage(browser);
      await logIn(page, domain, org.email, org.password);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      const row = page.locator(`tr[data-webhook-id="${created.body.id}"]`);
      await row.getByRole('button', { name: 'Edit' }).click();
      const form = page.getByRole('dialog', { name: 'Edit webhook' }).getByRole('form', { name: 'Webhook settings' });
      await form.getByLabel('URL').fill(receiver.url);
      await form.getByLabel('geofence.enter').check();
      await form.getByLabel('Warehouse').check();
      await form.getByLabel('Gate').check();
      await form.getByRole('button', { name: 'Save webhook' }).click();
      await row.getByText(receiver.url).waitFor();
      await row.getByRole('button', { name: 'Deliveries' }).click();
      const dialog = page.getByRole('dialog', { name: 'Webhook deliveries' });
      await dialog.getByText(receiver.url).waitFor();
      const stored = (await t.http.get(`/api/v1/webhooks/${created.body.id}`).set(admin).expect(200)).body;
      expect(stored).toMatchObject({ url: receiver.url, filters: { building_ids: [String(building.id)], geofence_ids: [fence.id] } });
      expect(stored.event_types.sort()).toEqual(['geofence.enter', 'geofence.exit']);

      // A device walks into the gate while the dialog is open: its delivery shows up without a click.
      const key = (await createApiKey(t, (await login(t, org.email, org.password)).tokens.access_token, ApiPermission.Positioning)).apikey;
      await fetch(`${domain}/api/v1/realtime/positions`, {
        method: 'POST',
        headers: { 'X-API-KEY': key, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          positions: [
            {
              device_id: 'courier-9',
              time: new Date().toISOString(),
              building_id: building.id,
              floor_id: floor.id,
              lat: CENTRE.lat + 0.00025,
              lng: CENTRE.lng + 0.00025,
              accuracy: 1,
            },
          ],
        }),
      });
      await waitFor(
        () => receiver.received.length,
        (n) => n >= 1,
        10_000,
        'the enter delivery',
      );
      const about = dialog.getByTestId('delivery-about').first();
      await expect.poll(() => about.innerText(), { timeout: 15_000 }).toContain('courier-9');
      expect(await about.innerText()).toContain('Gate');
      await screenshot(page, 'webhook-edit');
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await receiver.stop();
    }
  });

  it('shows a non-administrator the administration pages read-only', async () => {
    const user = await addUser(t, admin, { email: 'viewer@example.test', role: Role.User });
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, user.email, user.password);
    await page.goto(`${domain}/settings`);
    await page.getByText('Only administrators change the organization').waitFor();
    await page.getByRole('form', { name: 'Rules' }).waitFor();
    expect(await page.getByRole('button', { name: 'Save rules' }).count()).toBe(0);
    await page.goto(`${domain}/admin`);
    await page.getByText('Only administrators add, change and delete users').waitFor();
    expect(await page.getByRole('button', { name: 'New user' }).count()).toBe(0);
    await page.goto(`${domain}/webhooks`);
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    expect(await page.getByRole('button', { name: 'New webhook' }).count()).toBe(0);
    await page.goto(`${domain}/devices`);
    await page.getByRole('heading', { name: 'Devices' }).waitFor();
    await page.getByText('Only administrators rename and delete devices.').waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});
