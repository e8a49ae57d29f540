import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';

/**
 * Debian's chromium driven by playwright-core for the dashboard's browser tests. The maps draw
 * with canvas and SVG; WebGL, should a page use it, runs on SwiftShader.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// DASHBOARD_SCREENSHOTS=docs/screenshots refreshes the README's pictures.
export const SCREENSHOTS = process.env.DASHBOARD_SCREENSHOTS ?? join(tmpdir(), `cartograph-dashboard-${process.pid}`);

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run installs it)`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/** A new page that records what the browser complains about (script errors, CSP refusals). */
export async function newPage(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  return { page, problems };
}

export async function logIn(page: Page, domain: string, email: string, password: string): Promise<void> {
  await page.goto(`${domain}/`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Buildings' }).waitFor();
}

export const screenshot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
