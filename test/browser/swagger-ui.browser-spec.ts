import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../support/admin';
import { createOrganization, TestOrganization } from '../support/auth';
import { createBuilding } from '../support/cartography';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Swagger UI driven by a real browser (Debian's chromium through playwright-core): log in
 * with Authorize, get a token, authorize with it, and execute a PUT (issue 10: the UI refused
 * to send any PUT while the document declared a required lowercase `if-match` header).
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// SWAGGER_SCREENSHOT=docs/screenshots/swagger-ui-put.png refreshes the documentation's picture.
const SCREENSHOT = process.env.SWAGGER_SCREENSHOT ?? join(tmpdir(), `cartograph-swagger-put-${process.pid}.png`);

async function authorize(page: Page, fill: (modal: ReturnType<Page['locator']>) => Promise<void>): Promise<void> {
  await page.locator('.auth-wrapper .btn.authorize').click();
  const modal = page.locator('.dialog-ux .modal-ux');
  await modal.waitFor();
  await fill(modal);
  await page.locator('.dialog-ux .btn-done').first().click();
  await modal.waitFor({ state: 'detached' });
}

/** Expands an operation, presses "Try it out", lets `prepare` fill it, executes it and returns the status Swagger UI shows. */
async function execute(
  page: Page,
  tag: string,
  operationId: string,
  prepare: (operation: ReturnType<Page['locator']>) => Promise<void>,
): Promise<{ status: string; body: string }> {
  // Tags start folded (docExpansion 'none'): unfold the operation's tag first.
  await page.locator(`[id="operations-tag-${tag}"]`).click();
  const operation = page.locator(`[id="operations-${tag}-${operationId}"]`);
  await operation.locator('.opblock-summary').first().click();
  await operation.locator('.try-out__btn').click();
  await prepare(operation);
  await operation.locator('.btn.execute').click();
  const live = operation.locator('.live-responses-table .response').first();
  await live.waitFor({ timeout: 15_000 });
  const status = (await live.locator('.response-col_status').innerText()).trim();
  const body = (await operation.locator('.live-responses-table .response-col_description pre').first().innerText()).trim();
  return { status, body };
}

describe('Swagger UI in a browser', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run installs it)`);
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'Swagger UI');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('logs in with Authorize, gets a token, and executes PUT /api/v1/buildings/{id}', async () => {
    const admin = (await login(t, org.email, org.password)).auth;
    const building = await createBuilding(t, admin, { name: 'Before Swagger' });
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${domain}/api/docs`);
    await page.locator('.swagger-ui .information-container').waitFor();

    // 1. Basic credentials, then POST /auth/access_tokens from the UI.
    await authorize(page, async (modal) => {
      const basic = modal.locator('.auth-container').filter({ hasText: 'basic' }).first();
      await basic.locator('input[type="text"]').fill(org.email);
      await basic.locator('input[type="password"]').fill(org.password);
      await basic.locator('button.authorize').click();
    });
    const tokens = await execute(page, 'Authentication', 'AuthController_issueTokens', async () => {});
    expect(tokens.status).toBe('201');
    const accessToken = (JSON.parse(tokens.body) as { access_token: string }).access_token;
    expect(accessToken).toMatch(/^ey/);

    // 2. The token as bearer, then the PUT: no If-Match needed (it is optional), and none refused.
    await authorize(page, async (modal) => {
      const bearer = modal.locator('.auth-container').filter({ hasText: 'bearer' }).first();
      await bearer.locator('input').first().fill(accessToken);
      await bearer.locator('button.authorize').click();
    });
    const put = await execute(page, 'Buildings', 'BuildingsController_update', async (operation) => {
      await operation.locator('tr[data-param-name="id"] input').fill(String(building.id));
      await operation.locator('textarea.body-param__text').fill(JSON.stringify({ name: 'Renamed in Swagger UI' }));
    });
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    // The operation from its title to the live answer (the documented responses below are left out).
    const top = await page
      .locator('[id$="-BuildingsController_update"]')
      .evaluate((element) => element.getBoundingClientRect().top + (globalThis as unknown as { scrollY: number }).scrollY);
    const answerBottom = await page
      .locator('[id$="-BuildingsController_update"] .live-responses-table')
      .first()
      .evaluate((element) => element.getBoundingClientRect().bottom + (globalThis as unknown as { scrollY: number }).scrollY);
    await page.screenshot({ path: SCREENSHOT, fullPage: true, clip: { x: 0, y: top, width: 1280, height: Math.min(answerBottom - top, 1600) } });
    expect(put.status, put.body).toBe('200');
    expect(JSON.parse(put.body)).toMatchObject({ id: building.id, name: 'Renamed in Swagger UI' });

    // What the server stored, read outside the browser.
    const stored = await t.http.get(`/api/v1/buildings/${building.id}`).set(admin).expect(200);
    expect(stored.body.name).toBe('Renamed in Swagger UI');
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
