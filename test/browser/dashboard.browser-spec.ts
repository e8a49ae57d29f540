import { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../support/admin';
import { createOrganization, TestOrganization } from '../support/auth';
import { createBuilding, createFloor } from '../support/cartography';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { launchChromium, logIn as logInAs, newPage as openPage, screenshot as shot } from '../support/dashboard-browser';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';
import { waitFor, WebhookReceiver } from '../support/webhook-receiver';

/**
 * The dashboard as a person uses it: Debian's chromium (playwright-core) against the real server
 * on loopback, with the dashboard `npm run build` produces. WebGL for the map runs on SwiftShader.
 */
describe('dashboard in a browser', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;
  let browser: Browser;
  let admin: Record<string, string>;

  beforeAll(async () => {
    process.env.DASHBOARD_DIR = ensureDashboardBuilt();
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'Dashboard');
    admin = (await login(t, org.email, org.password)).auth;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    delete process.env.DASHBOARD_DIR;
  });

  const newPage = (viewport?: { width: number; height: number }) => openPage(browser, viewport);
  const logIn = (page: Page, email = org.email, password = org.password) => logInAs(page, domain, email, password);

  it('logs in, makes an API key, uses it, lowers its permission, revokes it, and logs out', async () => {
    const { page, problems } = await newPage();
    await page.goto(`${domain}/`);
    await page.getByLabel('E-mail').waitFor();
    await shot(page, 'login');

    // A wrong password is said in words, next to the form.
    await page.getByLabel('E-mail').fill(org.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('alert').first().innerText()).toContain('Wrong e-mail or password');

    await logIn(page);
    await createBuilding(t, admin, { name: 'Headquarters' });
    await page.reload();
    await page.getByRole('link', { name: 'Headquarters' }).waitFor();
    await shot(page, 'buildings');

    // Stays logged in across reloads (the cookie, not page memory).
    await page.reload();
    await page.getByRole('heading', { name: 'Buildings' }).waitFor();
    expect(await page.evaluate('document.cookie')).not.toContain('cartograph_session');
    expect(await page.evaluate('JSON.stringify(localStorage)')).toBe('{}');

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Create new API key' }).click();
    const create = page.getByRole('dialog', { name: 'Create new API key' });
    await create.getByLabel('Description').fill('CI script');
    await create.getByRole('radio', { name: /Read\/write/ }).check();
    await create.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    const key = (await shown.getByTestId('new-api-key').innerText()).trim();
    expect(key.length).toBeGreaterThan(20);
    expect(await shown.getByTestId('curl-line').innerText()).toContain(`X-API-KEY: ${key}`);
    await shot(page, 'api-key-created');
    await shown.getByRole('button', { name: 'Done' }).click();

    // The key works for a program, as the curl line says.
    const body = JSON.stringify({ name: 'From a script', location: { lat: 40, lng: -3 }, dimensions: { width: 10, length: 10 } });
    const viaKey = (init: RequestInit = {}) => fetch(`${domain}/api/v1/buildings`, { ...init, headers: { 'X-API-KEY': key, 'Content-Type': 'application/json' } });
    expect((await viaKey({ method: 'POST', body })).status).toBe(201);

    const row = page.locator('tr', { hasText: 'CI script' });
    await expect.poll(() => row.innerText()).toContain('Read/write');
    expect(await row.innerText()).not.toContain(key); // masked once the dialog is closed
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit API key' });
    await edit.getByRole('radio', { name: /Read only/ }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.innerText()).toContain('Read only');
    expect((await viaKey({ method: 'POST', body })).status).toBe(403);
    expect((await viaKey()).status).toBe(200);

    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog', { name: 'Revoke API key' }).getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => page.locator('tr', { hasText: 'CI script' }).count()).toBe(0);
    expect((await viaKey()).status).toBe(401);
    await shot(page, 'profile');

    await page.getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => page.getByRole('status').first().innerText()).toContain('logged out');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws a geofence on the floor map, saves it through the API, and shows a stale edit as a conflict', async () => {
    const building = await createBuilding(t, admin, { name: 'Mapped', location: { lat: 42.8805, lng: -8.5457 }, dimensions: { width: 80, length: 50 }, rotation: 0.3 });
    const floor = await createFloor(t, admin, building.id, { name: 'Ground', level: 0 });
    const { page, problems } = await newPage();
    await logIn(page);
    await page.goto(`${domain}/buildings/${building.id}/floors/${floor.id}/map`);
    await page.locator('[data-testid="floor-map"][data-ready="true"]').waitFor({ timeout: 30_000 });

    await page.getByRole('button', { name: 'Draw a geofence' }).click();
    // The drawing tool loads on first use: the hint says when clicks become corners.
    await page.getByText('Click on the map to place its corners').waitFor();
    const canvas = page.locator('[data-testid="floor-map"] canvas').first();
    const box = (await canvas.boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const corners = [
      [cx - 120, cy - 80],
      [cx + 120, cy - 80],
      [cx + 120, cy + 80],
      [cx - 120, cy + 80],
    ];
    for (const [x, y] of corners) {
      await page.mouse.click(x, y);
      await page.waitForTimeout(150);
    }
    await page.mouse.click(corners[0][0], corners[0][1]);
    await page.getByText('Name it and save.').waitFor();
    await page.getByLabel('Name').fill('Lobby');
    await page.getByRole('button', { name: 'Save geofence' }).click();
    await page.locator('.fence-list').getByRole('button', { name: 'Lobby' }).waitFor();
    await shot(page, 'floor-map');

    const stored = await t.http.get(`/api/v1/geofences?floor_ids=${floor.id}`).set(admin).expect(200);
    const fences = (stored.body.data ?? stored.body) as Array<{ id: string; name: string; geometric: number[][] }>;
    expect(fences.map((f) => f.name)).toEqual(['Lobby']);
    expect(fences[0].geometric).toHaveLength(5);
    const [lat, lng] = fences[0].geometric[0];
    expect(Math.abs(lat - 42.8805)).toBeLessThan(0.001);
    expect(Math.abs(lng - -8.5457)).toBeLessThan(0.002);

    // Someone else renames it after this page opened it: saving here must not overwrite that.
    await page.locator('.fence-list').getByRole('button', { name: 'Lobby' }).click();
    await page.getByTestId('fence-panel').waitFor();
    const current = await t.http.get(`/api/v1/geofences/${fences[0].id}`).set(admin).expect(200);
    await t.http.put(`/api/v1/geofences/${fences[0].id}`).set(admin).set('If-Match', current.headers.etag).send({ name: 'Lobby (renamed elsewhere)' }).expect(200);
    await page.getByRole('button', { name: 'Move vertices' }).click();
    await page.getByRole('button', { name: 'Save shape' }).click();
    await page.getByTestId('conflict').waitFor();
    await shot(page, 'floor-map-conflict');
    const after = await t.http.get(`/api/v1/geofences/${fences[0].id}`).set(admin).expect(200);
    expect(after.body.name).toBe('Lobby (renamed elsewhere)');
    await page.getByRole('button', { name: 'Load their version' }).click();
    await page.getByRole('heading', { name: 'Lobby (renamed elsewhere)' }).waitFor();

    // Delete it from the panel: asked first, then undone from the notice.
    await page.getByTestId('fence-panel').getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete geofence' });
    await confirm.getByText('You can restore it afterwards').waitFor();
    await confirm.getByRole('button', { name: 'Delete geofence' }).click();
    await page.getByTestId('fence-deleted').waitFor();
    await expect.poll(async () => ((await t.http.get(`/api/v1/geofences?floor_ids=${floor.id}`).set(admin)).body.data ?? []).length).toBe(0);
    await page.getByTestId('fence-deleted').getByRole('button', { name: 'Restore' }).click();
    await page.locator('.fence-list').getByRole('button', { name: 'Lobby (renamed elsewhere)' }).waitFor();
    expect(((await t.http.get(`/api/v1/geofences?floor_ids=${floor.id}`).set(admin)).body.data ?? []).map((f: { name: string }) => f.name)).toEqual(['Lobby (renamed elsewhere)']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('registers a webhook, shows its secret once, sends a test event and shows the delivery', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const { page, problems } = await newPage();
      await logIn(page);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('button', { name: 'New webhook' }).click();
      const form = page.getByRole('dialog', { name: 'New webhook' });
      await form.getByLabel('URL').fill('ftp://nowhere.example/');
      await form.getByRole('button', { name: 'Create webhook' }).click();
      await expect.poll(() => form.locator('.field.has-error').innerText()).toContain('http');
      await form.getByLabel('URL').fill(receiver.url);
      await form.getByRole('button', { name: 'Create webhook' }).click();
      const secret = (await page.getByTestId('webhook-secret').innerText()).trim();
      expect(secret).toMatch(/^whsec_/);
      receiver.secrets.push(secret);
      await page.getByRole('dialog', { name: 'Signing secret' }).getByRole('button', { name: 'Done' }).click();

      const row = page.getByRole('row', { name: new RegExp(receiver.url.replace(/[/.:]/g, '.')) });
      await row.getByRole('button', { name: 'Send a test event' }).click();
      await row.getByRole('button', { name: 'Deliveries' }).click();
      await waitFor(
        () => receiver.received.length,
        (n) => n >= 1,
        10_000,
        'the test delivery',
      );
      expect(receiver.received[0].verifiedWith).toBe(0);
      await expect
        .poll(async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return page.locator('[data-delivery-status="succeeded"]').count();
        })
        .toBeGreaterThan(0);
      await shot(page, 'webhooks');
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await receiver.stop();
    }
  });

  it('sends a user whose session ended back to the login page with a message', async () => {
    const { page } = await newPage();
    await logIn(page);
    // A password change elsewhere revokes every password session, this one included.
    await t.http
      .put('/api/v1/users/me/password')
      .set(admin)
      .send({ current_password: org.password, new_password: `${org.password}-2` });
    org.password = `${org.password}-2`;
    admin = (await login(t, org.email, org.password)).auth;
    await page.getByRole('link', { name: 'API keys' }).click();
    await expect.poll(() => page.getByRole('status').first().innerText()).toContain('session has expired');
    await page.getByLabel('E-mail').waitFor();
    await page.close();
  });

  it('fits a phone-width screen without sideways scrolling', async () => {
    const { page } = await newPage({ width: 390, height: 844 });
    await logIn(page);
    await shot(page, 'buildings-phone');
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1')).toBe(true);
    await page.close();
  });
});
