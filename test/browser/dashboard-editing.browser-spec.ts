import type { Browser, Page } from 'playwright-core';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { login } from '../support/admin';
import { createApiKey, createOrganization, TestOrganization } from '../support/auth';
import { BuildingBody, createBuilding, createFloor, FloorBody } from '../support/cartography';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { launchChromium, logIn, newPage, screenshot } from '../support/dashboard-browser';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';
import { waitFor, WebhookReceiver } from '../support/webhook-receiver';

declare const document: { documentElement: { scrollWidth: number } };

const CENTRE = { lat: 42.8805, lng: -8.5457 };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const listOf = <T>(body: unknown): T[] => (Array.isArray(body) ? body : (body as { data: T[] }).data);

/**
 * Issue 35 in Debian's chromium, as a site team edits and reviews: History right after an
 * incident (items 6), the paths editor's selection (7), and the Edit map panel, the word for a
 * silent device and the webhooks' actions (12), at desktop width and at 390 px in the dark theme.
 */
describe('dashboard editing and review in a browser', () => {
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
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'Editing');
    const session = await login(t, org.email, org.password);
    admin = session.auth;
    deviceKey = (await createApiKey(t, session.tokens.access_token, ApiPermission.Positioning, 'devices')).apikey;
    building = await createBuilding(t, admin, { name: 'Depot', location: CENTRE, dimensions: { width: 80, length: 50 }, rotation: 0 });
    floor = await createFloor(t, admin, building.id, { name: 'Ground', level: 0 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    delete process.env.DASHBOARD_DIR;
  });

  async function report(positions: Array<Record<string, unknown>>): Promise<void> {
    const response = await fetch(`${domain}/api/v1/realtime/positions`, {
      method: 'POST',
      headers: { 'X-API-KEY': deviceKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ positions }),
    });
    const body = (await response.json()) as { accepted: number };
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.accepted).toBe(positions.length);
  }
  const fixAt = (device: string, time: number, east = 0, north = 0) => ({
    device_id: device,
    time: new Date(time).toISOString(),
    building_id: building.id,
    floor_id: floor.id,
    lat: CENTRE.lat + north / 111_195,
    lng: CENTRE.lng + east / (111_195 * Math.cos((CENTRE.lat * Math.PI) / 180)),
    accuracy: 2,
  });
  async function openMap(page: Page, view = ''): Promise<void> {
    await page.goto(`${domain}/buildings/${building.id}/floors/${floor.id}/map${view}`);
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
  }
  async function openEditor(page: Page, editor: string): Promise<void> {
    await openMap(page, '?view=edit');
    await page.getByRole('group', { name: 'What to edit' }).getByRole('button', { name: editor }).click();
  }
  const paths = async () =>
    (await t.http.get(`/api/v1/buildings/${building.id}/paths`).set(admin).expect(200)).body as { nodes: Array<{ id: number }>; links: Array<{ source: number; target: number }> };
  const linkPairs = (links: Array<{ source: number; target: number }>) =>
    links.map((l) => [Math.min(l.source, l.target), Math.max(l.source, l.target)]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);

  it('History shows every fix of the last minute with its default period, up to now, and says which period it shows', async () => {
    const { page, problems } = await newPage(browser, PHONE);
    await page.emulateMedia({ colorScheme: 'dark' });
    await logIn(page, domain, org.email, org.password);
    await openMap(page, '?view=history');
    // Then the incident: 20 devices walking, 3 fixes each over the last minute, the newest a moment ago.
    const posted = Date.now();
    const fixes = Array.from({ length: 60 }, (_, i) =>
      fixAt(`walker-${String(i % 20).padStart(2, '0')}`, posted - 59_000 + i * 1000, (i % 20) * 2 - 20, Math.floor(i / 20) * 3 - 3),
    );
    await report(fixes);
    const reportQuery = `building_id=${building.id}&floor_id=${floor.id}&from_date=${new Date(posted - 3600_000).toISOString()}&to_date=${new Date(Date.now() + 1000).toISOString()}`;
    expect((await t.http.get(`/api/v1/reports/user_positions.json?${reportQuery}`).set(admin).expect(200)).body.data).toHaveLength(60);

    const form = page.getByRole('form', { name: 'History period' });
    const fromField = await form.getByLabel('From').inputValue();
    const pressed = Date.now();
    await form.getByRole('button', { name: 'Show history' }).click();
    await expect.poll(() => page.getByTestId('history-summary').innerText(), { timeout: 20_000 }).toBe('60 positions of 20 devices.');
    expect(await form.getByRole('checkbox', { name: 'Up to now' }).isChecked()).toBe(true);

    // The period in words: from the From field to now (the moment the button was pressed), both in.
    const period = page.getByTestId('history-period');
    const [fromIso, toIso] = await period.locator('time').evaluateAll((times) => times.map((e) => e.getAttribute('datetime')!));
    const words = await page.evaluate(([f, to, field]) => ({ from: new Date(f).toLocaleString(), to: new Date(to).toLocaleString(), field: new Date(field).toISOString() }), [
      fromIso,
      toIso,
      fromField,
    ] as const);
    expect(fromIso).toBe(words.field);
    expect(Date.parse(toIso)).toBeGreaterThanOrEqual(Math.max(pressed, Date.parse(fixes[59].time)));
    expect(Date.parse(toIso)).toBeLessThanOrEqual(Date.now());
    expect(await period.innerText()).toBe(`From ${words.from} to now (${words.to}), both included.`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'history-up-to-now-phone-dark');
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('paths: Escape and a change of tool clear the selection, so "Draw links" links only the nodes clicked', async () => {
    await t.http.put(`/api/v1/buildings/${building.id}/paths`).set(admin).send({ nodes: [], links: [] }).expect(200);
    const { page, problems } = await newPage(browser, DESKTOP);
    await logIn(page, domain, org.email, org.password);
    await openEditor(page, 'Paths');
    const box = (await page.getByTestId('floor-map').boundingBox())!;
    const spot = (dx: number, dy: number) => ({ x: box.x + box.width / 2 + dx, y: box.y + box.height / 2 + dy });
    const click = async (p: { x: number; y: number }) => page.mouse.click(p.x, p.y);
    const tool = (name: string) => page.getByRole('group', { name: 'Path tool' }).getByRole('button', { name });
    const node = page.getByTestId('path-node');
    const spots = [spot(-120, 0), spot(0, 0), spot(120, 0), spot(0, 90)];

    await tool('Add nodes').click();
    for (const p of spots.slice(0, 3)) await click(p);
    await node.getByRole('heading', { name: 'Node 3' }).waitFor();
    // Escape: nothing is selected any more.
    await page.keyboard.press('Escape');
    await expect.poll(() => node.count()).toBe(0);
    await tool('Draw links').click();
    // The first click selects node 1; it links nothing.
    await click(spots[0]);
    await node.getByRole('heading', { name: 'Node 1' }).waitFor();
    await page.locator('.path-node-selected').waitFor();
    expect(await node.innerText()).not.toContain('Linked to');
    await click(spots[1]);
    await node.getByText('Linked to node 1').waitFor();
    expect(await page.locator('.paths-editor').innerText()).toContain('1 links in the building');

    // "Select" after adding a node: the next link starts where the user clicks.
    await tool('Add nodes').click();
    await click(spots[3]);
    await node.getByRole('heading', { name: 'Node 4' }).waitFor();
    await tool('Select').click();
    await expect.poll(() => node.count()).toBe(0);
    await tool('Draw links').click();
    await click(spots[2]);
    await node.getByRole('heading', { name: 'Node 3' }).waitFor();
    await page.locator('.path-node-selected').waitFor();
    expect(await node.innerText()).not.toContain('Linked to');
    await click(spots[3]);
    await node.getByText('Linked to node 3').waitFor();
    await page.getByRole('button', { name: 'Save paths' }).click();
    await expect.poll(async () => (await paths()).nodes.length).toBe(4);
    expect(linkPairs((await paths()).links)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    await screenshot(page, 'paths-selection-cleared');
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['390 px', PHONE],
  ] as const) {
    it(`Edit map at ${width}: the four editors on one line, each POI's Delete beside its name`, async () => {
      for (const name of ['Loading bay 3 (north gate, refrigerated goods)', 'Café']) {
        await t.http
          .post('/api/v1/pois')
          .set(admin)
          .send({ name, building_id: building.id, position: { floor_id: floor.id, cartesians: { x: 10, y: 10 } } })
          .expect(201);
      }
      const { page, problems } = await newPage(browser, viewport);
      if (viewport === PHONE) await page.emulateMedia({ colorScheme: 'dark' });
      await logIn(page, domain, org.email, org.password);
      await openEditor(page, 'POIs');
      const tabs = page.getByRole('group', { name: 'What to edit' });
      const panel = (await page.locator('.map-side').boundingBox())!;
      const strip = (await tabs.boundingBox())!;
      const boxes = await Promise.all(['POIs', 'Paths', 'Beacons & APs', 'Geofence files'].map(async (name) => (await tabs.getByRole('button', { name }).boundingBox())!));
      // One line: every tab at the same height, the strip no taller than one tab, inside the panel.
      for (const b of boxes) expect(Math.abs(b.y - boxes[0].y)).toBeLessThan(1);
      expect(strip.height).toBeLessThan(boxes[0].height * 1.5);
      expect(strip.x + strip.width).toBeLessThanOrEqual(panel.x + panel.width + 0.5);
      // All four in view, the strip not scrolled.
      expect(await tabs.evaluate((e: { scrollWidth: number; clientWidth: number }) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
      // Each POI's row: name, Edit and Delete on one line.
      const rows = page.locator('.poi-list li');
      await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
      for (const row of await rows.all()) {
        const name = (await row.locator('.poi-name').boundingBox())!;
        const del = (await row.getByRole('button', { name: /^Delete / }).boundingBox())!;
        const edit = (await row.getByRole('button', { name: /^Edit / }).boundingBox())!;
        expect(del.y).toBeLessThan(name.y + name.height);
        expect(del.y + del.height).toBeGreaterThan(name.y);
        expect(del.x).toBeGreaterThan(name.x + name.width - 1);
        expect(Math.abs(edit.y - del.y)).toBeLessThan(1);
        expect(del.x + del.width).toBeLessThanOrEqual(panel.x + panel.width + 0.5);
      }
      await screenshot(page, `edit-panel-${viewport.width}`);
      // The last editor of the strip is reachable and opens.
      await tabs.getByRole('button', { name: 'Geofence files' }).click();
      const chosen = tabs.getByRole('button', { name: 'Geofence files' });
      expect(await chosen.getAttribute('aria-pressed')).toBe('true');
      const seen = (await chosen.boundingBox())!;
      const stripNow = (await tabs.boundingBox())!;
      expect(seen.x).toBeGreaterThanOrEqual(stripNow.x - 0.5);
      expect(seen.x + seen.width).toBeLessThanOrEqual(stripNow.x + stripNow.width + 0.5);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);
  }

  it('calls a silent device by one word on the map and in the device list', async () => {
    const now = Date.now();
    await report([fixAt('quiet-7', now - 47_000, 4, 4), fixAt('quiet-7', now - 45_000, 4, 4), fixAt('busy-8', now, -4, -4)]);
    const { page, problems } = await newPage(browser, DESKTOP);
    await logIn(page, domain, org.email, org.password);
    await page.goto(`${domain}/devices?search=quiet-7`);
    const badge = page.locator('tr[data-device-id="quiet-7"] .badge');
    await badge.waitFor();
    const word = (await badge.innerText()).trim();
    expect(await page.locator('tr[data-device-id="quiet-7"]').getAttribute('data-status')).toBe('stale');
    expect(word).toBe('stale');

    await openMap(page);
    await page.locator('.devices-on-floor summary').click();
    const listed = page.locator('.devices-on-floor li', { hasText: 'quiet-7' });
    await expect.poll(() => listed.innerText()).toMatch(new RegExp(`^quiet-7\\s+${word}, \\d+ (s|min) ago$`));
    await listed.getByRole('button', { name: 'quiet-7' }).click();
    await expect.poll(() => page.getByTestId('device-details').innerText()).toMatch(new RegExp(`ago, ${word}\\)`));
    expect(await page.locator('.devices-on-floor li', { hasText: 'busy-8' }).innerText()).not.toContain(word);
    expect(await page.locator('main').innerText()).not.toMatch(/frozen/i);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('acts on a webhook from its row of the list: edit, test, disable and enable, rotate the secret, delete', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const created = (
        await t.http
          .post('/api/v1/webhooks')
          .set(admin)
          .send({ url: receiver.url, description: 'Dock alarms', event_types: ['geofence.enter'] })
          .expect(201)
      ).body;
      receiver.secrets.push(created.secret);
      const stored = async () => (await t.http.get(`/api/v1/webhooks/${created.id}`).set(admin).expect(200)).body;
      const { page, problems } = await newPage(browser, PHONE);
      await page.emulateMedia({ colorScheme: 'dark' });
      await logIn(page, domain, org.email, org.password);
      await page.goto(`${domain}/webhooks`);
      const row = page.locator(`tr[data-webhook-id="${created.id}"]`);
      await row.waitFor();
      // Every action is on the row: no dialog is opened to reach them.
      for (const name of ['Edit', 'Send a test event', 'Disable', 'Rotate secret', 'Delete', 'Deliveries']) await row.getByRole('button', { name, exact: true }).waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      await screenshot(page, 'webhooks-row-actions-phone-dark');

      // Edit: the description and the events, stored.
      await row.getByRole('button', { name: 'Edit', exact: true }).click();
      const edit = page.getByRole('dialog', { name: 'Edit webhook' });
      await edit.getByLabel('Description').fill('Dock alarms and dwell');
      await edit.getByLabel('geofence.dwell').check();
      await edit.getByRole('button', { name: 'Save webhook' }).click();
      await expect.poll(() => row.innerText()).toContain('Dock alarms and dwell');
      expect((await stored()).description).toBe('Dock alarms and dwell');
      expect((await stored()).event_types.sort()).toEqual(['geofence.dwell', 'geofence.enter']);

      // Send a test event: the receiver gets it, signed, and the page says so.
      await row.getByRole('button', { name: 'Send a test event' }).click();
      await expect.poll(() => page.getByTestId('webhook-done').innerText()).toContain('test event');
      await waitFor(
        () => receiver.received.length,
        (n) => n >= 1,
        15_000,
        'the test delivery',
      );
      expect(receiver.received[0].verifiedWith).toBe(0);
      const deliveries = listOf<{ message_id: string }>((await t.http.get(`/api/v1/webhooks/${created.id}/deliveries`).set(admin).expect(200)).body);
      expect(deliveries.some((d) => d.message_id === receiver.received[0].id)).toBe(true);

      // Disable, then enable.
      await row.getByRole('button', { name: 'Disable' }).click();
      await row.getByRole('button', { name: 'Enable' }).waitFor();
      expect(await row.innerText()).toContain('Disabled');
      expect((await stored()).enabled).toBe(false);
      await row.getByRole('button', { name: 'Enable' }).click();
      await row.getByRole('button', { name: 'Disable' }).waitFor();
      expect((await stored()).enabled).toBe(true);

      // Rotate the secret: a new one, shown once; the next delivery is signed with it.
      await row.getByRole('button', { name: 'Rotate secret' }).click();
      const shown = page.getByRole('dialog', { name: 'New signing secret' });
      const secret = (await shown.getByTestId('webhook-secret').innerText()).trim();
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(created.secret);
      await shown.getByRole('button', { name: 'Done' }).click();
      expect((await stored()).previous_secret_expires_at).not.toBeNull();
      await expect.poll(() => row.innerText()).toContain('previous secret also signs until');
      await row.getByRole('button', { name: 'Send a test event' }).click();
      await waitFor(
        () => receiver.received.length,
        (n) => n >= 2,
        15_000,
        'the delivery after the rotation',
      );
      const second = receiver.received[1];
      expect(() =>
        new StandardWebhook(secret).verify(second.body, { 'webhook-id': second.id, 'webhook-timestamp': second.timestamp, 'webhook-signature': second.signature }),
      ).not.toThrow();

      // Delete, after a confirmation.
      await row.getByRole('button', { name: 'Delete', exact: true }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete webhook' });
      await confirm.getByRole('button', { name: 'Delete webhook' }).click();
      await expect.poll(() => row.count()).toBe(0);
      await t.http.get(`/api/v1/webhooks/${created.id}`).set(admin).expect(404);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await receiver.stop();
    }
  }, 90_000);
});
