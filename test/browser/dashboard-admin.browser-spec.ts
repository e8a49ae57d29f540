import { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../support/admin';
import { ApiPermission } from '../../src/access/permissions';
import { createApiKey, createOrganization, TestOrganization } from '../support/auth';
import { createBuilding, createFloor, TINY_PNG } from '../support/cartography';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { createPoi } from '../support/pois';
import { launchChromium, logIn as logInAs, newPage as openPage, screenshot as shot } from '../support/dashboard-browser';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';
import { waitFor, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 17's pages the other browser tests do not walk through (rev2): buildings and floors with
 * their plan, users and groups, a user restricted by the administrator, the password change.
 */
describe('dashboard administration in a browser', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;
  let browser: Browser;
  let admin: Record<string, string>;

  beforeAll(async () => {
    process.env.DASHBOARD_DIR = ensureDashboardBuilt();
    // A failed delivery waits an hour for its next attempt: only "Retry now" sends it sooner.
    t = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '0s,1h', WEBHOOK_POLL_INTERVAL_MS: '100' } });
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'Dashboard admin');
    admin = (await login(t, org.email, org.password)).auth;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    delete process.env.DASHBOARD_DIR;
  });

  const logIn = (page: Page, email = org.email, password = org.password) => logInAs(page, domain, email, password);
  /** A list answer, whether the route pages it (`data`) or answers an array. */
  const listOf = <T>(body: unknown): T[] => (Array.isArray(body) ? body : ((body as { data?: T[] }).data ?? [])) as T[];

  it('creates and edits a building, adds a floor, uploads its plan and shows it; a bad field is named next to it', async () => {
    const { page, problems } = await openPage(browser);
    await logIn(page);
    await page.getByRole('button', { name: 'New building' }).click();
    const create = page.getByRole('dialog', { name: 'New building' });
    await create.getByLabel('Name').fill('Annex');
    await create.getByLabel('Latitude').fill('142');
    await create.getByLabel('Longitude').fill('-8.5457');
    await create.getByLabel('Width (m)').fill('40');
    await create.getByLabel('Length (m)').fill('30');
    await create.getByRole('button', { name: 'Create' }).click();
    // The API's refusal, in words, next to the field that caused it.
    await expect.poll(() => create.locator('.field.has-error').count()).toBeGreaterThan(0);
    expect(await create.locator('.field.has-error').first().innerText()).toContain('Latitude');
    await create.getByLabel('Latitude').fill('42.8805');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Annex' }).waitFor();
    const [stored] = listOf<{ id: number; name: string; location: { lat: number } }>((await t.http.get('/api/v1/buildings').set(admin).expect(200)).body);
    expect(stored).toMatchObject({ name: 'Annex', location: { lat: 42.8805 } });

    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit building' });
    await edit.getByLabel('Name').fill('Annex B');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Annex B' }).waitFor();
    expect((await t.http.get(`/api/v1/buildings/${stored.id}`).set(admin).expect(200)).body.name).toBe('Annex B');

    await page.getByRole('button', { name: 'New floor' }).click();
    const floorForm = page.getByRole('dialog', { name: 'New floor' });
    await floorForm.getByLabel('Name').fill('Ground');
    await floorForm.getByLabel('Level').fill('0');
    await floorForm.getByRole('button', { name: 'Create floor' }).click();
    await page.getByText('No plan uploaded.').waitFor();
    await page.locator('li.floor input[type="file"]').setInputFiles({ name: 'plan.png', mimeType: 'image/png', buffer: TINY_PNG });
    const plan = page.getByRole('img', { name: 'Plan of Ground' });
    await plan.waitFor();
    // The image the page shows is the one the floor points at (its thumbnail, issue 35), and it loads.
    await expect
      .poll(() => plan.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(1);
    const floorList = listOf<{ maps: { map_url: string | null } }>((await t.http.get(`/api/v1/buildings/${stored.id}/floors`).set(admin).expect(200)).body);
    expect(floorList[0].maps.map_url).toBeTruthy();
    expect(await plan.getAttribute('src')).toBe(`${floorList[0].maps.map_url}?width=640`);
    await shot(page, 'building-floors');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('an administrator makes a user, restricts it to a building, changes its role and makes a group; the user sees only what the API lets it', async () => {
    const headquarters = (
      await t.http
        .post('/api/v1/buildings')
        .set(admin)
        .send({ name: 'Headquarters', location: { lat: 40, lng: -3 }, dimensions: { width: 10, length: 10 } })
        .expect(201)
    ).body;
    const { page, problems } = await openPage(browser);
    await logIn(page);
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users and groups' }).waitFor();

    const email = `restricted-${Date.now()}@example.com`;
    const password = 'a-long-enough-password-1';
    await page.getByRole('button', { name: 'New user' }).click();
    const create = page.getByRole('dialog', { name: 'New user' });
    await create.getByLabel('E-mail').fill(email);
    await create.getByLabel('Full name').fill('Rita Restricted');
    await create.getByLabel('Password').fill(password);
    await create.getByRole('checkbox', { name: 'Headquarters' }).check();
    await create.getByRole('button', { name: 'Save' }).click();
    const row = page.locator('tr', { hasText: email });
    await expect.poll(() => row.innerText()).toContain('Headquarters');
    expect(await row.innerText()).toContain('User');
    const stored = listOf<{ email: string; role: string; building_ids: number[] }>((await t.http.get('/api/v1/users').set(admin).expect(200)).body).find((u) => u.email === email);
    expect(stored).toMatchObject({ role: 'USER', building_ids: [headquarters.id] });

    // The restricted user, in a browser of its own: only its building, and the administration read-only.
    const other = await openPage(browser);
    await logIn(other.page, email, password);
    await other.page.getByRole('link', { name: 'Headquarters' }).waitFor();
    expect(await other.page.getByRole('link', { name: 'Annex B' }).count()).toBe(0);
    await other.page.goto(`${domain}/admin`);
    await other.page.getByText('Only administrators add, change and delete users and groups.').waitFor();
    await other.page.waitForLoadState('networkidle');
    expect(await other.page.getByRole('button', { name: 'New user' }).count()).toBe(0);
    expect(await other.page.getByRole('button', { name: /^Edit|^Delete/ }).count()).toBe(0);
    await other.page.close();

    // Promoted, it is an administrator for the API too.
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit user' });
    await edit.getByLabel('Role').selectOption('ADMIN_ORG');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.innerText()).toContain('Administrator');
    const promoted = await login(t, email, password);
    expect((await t.http.get('/api/v1/users').set(promoted.auth)).status).toBe(200);

    await page.getByRole('button', { name: 'New group' }).click();
    const group = page.getByRole('dialog', { name: 'New group' });
    await group.getByLabel('Name').fill('Night shift');
    await group.getByLabel('Description').fill('After 22:00');
    await group.getByRole('button', { name: 'Create group' }).click();
    await page.getByText('Night shift').waitFor();
    expect(listOf<{ name: string }>((await t.http.get('/api/v1/groups').set(admin).expect(200)).body).map((g) => g.name)).toContain('Night shift');
    await shot(page, 'admin');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a positioning key in full (readable again, with a copy button) and every other key masked; a description is edited later', async () => {
    const token = (await login(t, org.email, org.password)).tokens.access_token;
    const positioning = await createApiKey(t, token, ApiPermission.Positioning, 'Phone app');
    const reader = await createApiKey(t, token, ApiPermission.ReadOnly, 'Reporting job');
    const { page, problems } = await openPage(browser);
    await logIn(page);
    await page.getByRole('link', { name: 'API keys' }).click();
    const phone = page.locator('tr', { hasText: 'Phone app' });
    await expect.poll(() => phone.innerText()).toContain(positioning.apikey);
    expect(await phone.getByRole('button', { name: /Copy/ }).count()).toBe(1);
    const job = page.locator('tr', { hasText: 'Reporting job' });
    expect(await job.innerText()).not.toContain(reader.apikey);
    expect(await job.getByRole('button', { name: /Copy/ }).count()).toBe(0);
    // The description is edited later, like the permission.
    await job.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit API key' });
    await edit.getByLabel('Description').fill('Nightly report');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.locator('tr', { hasText: 'Nightly report' }).waitFor();
    const keys = listOf<{ id: string; description: string; permission: string }>(
      (
        await t.http
          .get('/api/v1/auth/apikeys')
          .set({ Authorization: `Bearer ${token}` })
          .expect(200)
      ).body,
    );
    expect(keys.find((k) => k.id === reader.id)).toMatchObject({ description: 'Nightly report', permission: 'read-only' });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('retries a failed delivery from the webhooks page, and shows its attempts', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const hook = (await t.http.post('/api/v1/webhooks').set(admin).send({ url: receiver.url, description: 'Flaky receiver' }).expect(201)).body;
      receiver.secrets.push(hook.secret);
      receiver.mode = 'fail';
      const sent = (await t.http.post(`/api/v1/webhooks/${hook.id}/test`).set(admin).expect(202)).body;
      const deliveryOf = async () =>
        ((await t.http.get(`/api/v1/webhooks/${hook.id}/deliveries`).set(admin).expect(200)).body.data as Array<{ id: string; status: string; attempts: number }>).find(
          (d) => d.id === sent.id,
        )!;
      await waitFor(deliveryOf, (d) => d.status === 'failed', 10_000, 'the failed first attempt');
      receiver.mode = 'ok';

      const { page, problems } = await openPage(browser);
      await logIn(page);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page
        .getByRole('row', { name: /Flaky receiver/ })
        .getByRole('button', { name: 'Deliveries' })
        .click();
      const failed = page.locator('[data-delivery-status="failed"]');
      await expect.poll(() => failed.innerText()).toContain('500');
      await failed.getByRole('button', { name: 'Retry now' }).click();
      await waitFor(deliveryOf, (d) => d.status === 'succeeded', 10_000, 'the retried delivery');
      const succeeded = page.locator('[data-delivery-status="succeeded"]');
      await expect
        .poll(async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return succeeded.count();
        })
        .toBe(1);
      expect(await succeeded.innerText()).toContain('2 attempts');
      expect(receiver.byId(sent.message_id).map((r) => r.verifiedWith)).toEqual([0, 0]);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await receiver.stop();
    }
  });

  it("asks nothing of any other origin on any page, the floor map included (works with no internet); the map shows the floor's POIs", async () => {
    const building = await createBuilding(t, admin, { name: 'Offline', location: { lat: 42.88, lng: -8.54 }, dimensions: { width: 40, length: 30 }, rotation: 0 });
    const floor = await createFloor(t, admin, building.id, { name: 'Only', level: 0 });
    await createPoi(t, admin, { building_id: building.id, name: 'Info desk', position: { floor_id: floor.id, georeferences: { lat: 42.88, lng: -8.54 } } });
    const { page, problems } = await openPage(browser);
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== new URL(domain).origin && url.protocol !== 'data:' && url.protocol !== 'blob:') elsewhere.push(request.url());
    });
    await logIn(page);
    for (const path of [
      '/buildings',
      `/buildings/${building.id}`,
      `/buildings/${building.id}/floors/${floor.id}/map`,
      `/buildings/${building.id}/floors/${floor.id}/map?view=heatmap`,
      `/buildings/${building.id}/floors/${floor.id}/map?view=edit`,
      `/buildings/${building.id}/place`,
      '/devices',
      '/events',
      '/webhooks',
      '/analytics',
      '/profile',
      '/api-keys',
      '/admin',
      '/settings',
      '/start',
    ]) {
      await page.goto(`${domain}${path}`);
      await page.waitForLoadState('networkidle');
    }
    // The map page really drew its map (WebGL canvas), from our own files only.
    await page.goto(`${domain}/buildings/${building.id}/floors/${floor.id}/map`);
    await page.locator('canvas').first().waitFor();
    await page.waitForLoadState('networkidle');
    // The floor's POIs are drawn on it.
    await expect
      .poll(() => page.evaluate('window.cartographLiveMap ? window.cartographLiveMap.renderedPois().map((p) => p.name) : []'), { timeout: 15_000 })
      .toEqual(['Info desk']);
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('dialogs are reached and used with the keyboard alone', async () => {
    const { page, problems } = await openPage(browser);
    await logIn(page);
    await page.getByRole('button', { name: 'New building' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New building' });
    await dialog.waitFor();
    // Focus moved into the dialog; Tab walks its labelled fields; Escape closes it.
    expect(await dialog.evaluate((element) => element.contains(element.ownerDocument.activeElement))).toBe(true);
    await dialog.getByLabel('Name').focus();
    await page.keyboard.type('Typed');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement && document.activeElement.name')).toBe('description');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('changes the password from the profile: the new one logs in, the old one no longer does', async () => {
    const { page, problems } = await openPage(browser);
    await logIn(page);
    await page.getByRole('link', { name: 'Profile' }).click();
    const next = `${org.password}-changed`;
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password').fill(next);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByRole('alert').count()).toBeGreaterThan(0);
    await page.getByLabel('Current password').fill(org.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByRole('status').first().innerText()).toContain('Password changed');
    expect((await t.http.post('/api/v1/auth/session').auth(org.email, org.password)).status).toBe(401);
    org.password = next;
    admin = (await login(t, org.email, org.password)).auth;
    expect(problems).toEqual([]);
    await page.close();
  });
});
