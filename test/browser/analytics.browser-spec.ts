import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, createGeofence, createSite, expectStatus, LatLng, signUp, Site } from '../support/cartography';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { launchChromium, logIn, SCREENSHOTS } from '../support/dashboard-browser';
import { report } from '../support/positions';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * The analytics page in Debian's chromium against the real server: visits made by fixes posted
 * with a positioning key (the evaluator writes them), read back through the page's charts'
 * tables, in two time zones, and downloaded as CSV.
 */
const METRE_LAT = 1 / 111_195.08;
const ORIGIN_LAT = 42.8723597;
const ORIGIN_LNG = -8.5633224;
const METRE_LNG = METRE_LAT / Math.cos((ORIGIN_LAT * Math.PI) / 180);
const at = (east: number, north: number) => ({ lat: ORIGIN_LAT + north * METRE_LAT, lng: ORIGIN_LNG + east * METRE_LNG });
const SW = at(0, 0);
const NE = at(10, 10);
/** A 10 m square at the building's location. */
const LOBBY: LatLng[] = [
  [SW.lat, SW.lng],
  [NE.lat, SW.lng],
  [NE.lat, NE.lng],
  [SW.lat, NE.lng],
  [SW.lat, SW.lng],
];
const IN = at(5, 5);
const OUT = at(30, 5);
const RULES = { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0, cooldown_seconds: 0, stale_after_seconds: 86_400 };

// Day D is three days ago (UTC): inside the page's default range (the last seven days) in UTC
// and in Tokyo (UTC+9, no daylight saving), where the evening visit falls on the next day.
const D = DateTime.utc().startOf('day').minus({ days: 3 });
const day = (offset: number) => D.plus({ days: offset }).toISODate()!;
const utc = (hours: number, minutes = 0) => D.plus({ hours, minutes }).toISO()!;

/** Polls what the page shows; generous, since the machine is shared and the three reads run at once. */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000, interval: 100 });

describe('analytics page in a browser', () => {
  let t: TestApp;
  let domain: string;
  let a: Cartographer;
  let site: Site;
  let fenceId: string;
  let browser: Browser;

  beforeAll(async () => {
    process.env.DASHBOARD_DIR = ensureDashboardBuilt();
    t = await createTestApp({ env: { GEOFENCE_SWEEPER: 'false', POSITIONS_MAX_AGE_SECONDS: String(30 * 86_400) } });
    domain = await listenOnLoopback(t);
    a = await signUp(t, 'Analytics page');
    site = await createSite(t, a.auth, { name: 'Museum' });
    const fence = await createGeofence(t, a.auth, site.place, { name: 'Lobby', code: 'lobby', geometric: LOBBY });
    fenceId = fence.id;
    expectStatus(await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).send(RULES), 200);

    // dev-2 10:00–10:30Z and dev-3 10:10–10:20Z (two at once), dev-1 22:00–23:00Z (07:00 next day in Tokyo).
    const fix = (device: string, time: string, point: { lat: number; lng: number }) => ({
      device_id: device,
      time,
      lat: point.lat,
      lng: point.lng,
      accuracy: 1,
      floor_id: site.floor.id,
    });
    const positioning = asApiKey((await createApiKey(t, a.token, ApiPermission.Positioning)).apikey);
    const answer = (await report(t, positioning, {
      positions: [
        fix('dev-1', utc(22), IN),
        fix('dev-1', utc(23), OUT),
        fix('dev-2', utc(10), IN),
        fix('dev-2', utc(10, 30), OUT),
        fix('dev-3', utc(10, 10), IN),
        fix('dev-3', utc(10, 20), OUT),
      ],
    })) as { accepted: number; events: Array<{ type: string }> };
    expect(answer.accepted).toBe(6);
    expect(answer.events.filter((e) => e.type === 'geofence.exit')).toHaveLength(3);

    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    delete process.env.DASHBOARD_DIR;
  });

  async function newPage(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    // The browser's own zone is the page's default: UTC here.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC', acceptDownloads: true });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      // A 401 before logging in is the session check; a CSP refusal is logged as an error too.
      if ((m.type() === 'error' && !/status of 4\d\d/.test(m.text())) || /Content.Security.Policy/i.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    return { context, page, problems };
  }

  /** The rows of a chart's table (opened as a user opens it), cells trimmed, only the buckets named. */
  async function tableRows(section: Locator, buckets: string[]): Promise<string[][]> {
    const details = section.locator('details');
    if (!(await details.getAttribute('open').then((v) => v !== null))) await section.locator('summary').click();
    const rows = await section.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())));
    return rows.filter((r) => buckets.includes(r[0]));
  }

  async function download(page: Page, section: Locator): Promise<{ name: string; text: string }> {
    const [file] = await Promise.all([page.waitForEvent('download'), section.getByRole('link', { name: /Download CSV/ }).click()]);
    const path = await file.path();
    return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8') };
  }

  it('charts visitors, stay time and occupancy from real visits, in two zones, with CSV downloads and no CSP violation', async () => {
    const { context, page, problems } = await newPage();
    await logIn(page, domain, a.org.email, a.org.password);
    await page.getByRole('link', { name: 'Museum' }).click();
    await page.getByRole('link', { name: 'Analytics of this building' }).click();
    await page.getByRole('heading', { name: 'Analytics: Museum' }).waitFor();
    expect(await page.getByLabel('Time zone').inputValue()).toBe('UTC');
    expect(await page.getByLabel('Grouping').inputValue()).toBe('day');

    const visitors = page.getByTestId('visitors-section');
    const stay = page.getByTestId('stay-section');
    const occupancy = page.getByTestId('occupancy-section');
    for (const section of [visitors, stay, occupancy]) await section.locator('canvas').first().waitFor();
    // The page's URL keeps what it shows.
    expect(new URL(page.url()).searchParams.get('building_id')).toBe(String(site.building.id));

    const window = [day(-1), day(0), day(1)];
    await poll(() => tableRows(visitors, window)).toEqual([
      [day(-1), '0'],
      [day(0), '3'],
      [day(1), '0'],
    ]);
    // Bucket, fence, entries, total, average: 60 + 30 + 10 minutes over three visits.
    await poll(() => tableRows(stay, [day(0), day(1)])).toEqual([
      [day(0), 'Lobby', '3', '01:40:00', '00:33:20'],
      [day(1), 'Lobby', '0', '00:00:00', '—'],
    ]);
    await poll(async () => (await tableRows(occupancy, [day(0), day(1)])).map((r) => [r[0], r[1], r[2]])).toEqual([
      [day(0), 'Lobby', '2'],
      [day(1), 'Lobby', '0'],
    ]);
    await page.screenshot({ path: join(SCREENSHOTS, 'analytics.png'), fullPage: true });

    // The CSV downloads: the server's reports with the page's parameters, the occupancy written in the page.
    const visitorsCsv = await download(page, visitors);
    expect(visitorsCsv.name).toBe('visitors.csv');
    const visitorLines = visitorsCsv.text.trim().split(/\r?\n/);
    expect(visitorLines[0]).toBe('date,visitors');
    expect(visitorLines).toContain(`${day(0)}T00:00:00.000Z,3`);
    const stayCsv = await download(page, stay);
    expect(stayCsv.name).toBe('geofencing_stay_time.csv');
    expect(stayCsv.text.split(/\r?\n/)[0]).toContain('seconds_in_fence');
    expect(stayCsv.text.split(/\r?\n/).filter((l) => l.includes('dev-'))).toHaveLength(3);
    const occupancyCsv = await download(page, occupancy);
    expect(occupancyCsv.name).toBe('occupancy.csv');
    // 100 minutes of visits over a 24-hour day: a mean of 0.069 people, two at the peak, none at midnight.
    expect(occupancyCsv.text.split('\r\n')).toContain(`${day(0)}T00:00:00.000Z,${fenceId},Lobby,2,0.069,0`);

    // In Tokyo the evening visit is the next morning: the buckets change.
    await page.getByLabel('Time zone').selectOption('Asia/Tokyo');
    await poll(() => tableRows(visitors, window)).toEqual([
      [day(-1), '0'],
      [day(0), '2'],
      [day(1), '1'],
    ]);
    await poll(() => tableRows(stay, [day(0), day(1)])).toEqual([
      [day(0), 'Lobby', '2', '00:40:00', '00:20:00'],
      [day(1), 'Lobby', '1', '01:00:00', '01:00:00'],
    ]);
    await poll(async () => (await tableRows(occupancy, [day(0), day(1)])).map((r) => [r[0], r[2]])).toEqual([
      [day(0), '2'],
      [day(1), '1'],
    ]);
    expect(new URL(page.url()).searchParams.get('time_zone')).toBe('Asia/Tokyo');
    const tokyoCsv = await download(page, visitors);
    expect(tokyoCsv.text.trim().split(/\r?\n/)).toEqual(expect.arrayContaining([`${day(0)}T00:00:00.000,2`, `${day(1)}T00:00:00.000,1`]));

    // A reload shows the same parameters; a range that ends before it starts is said next to its field.
    await page.reload();
    expect(await page.getByLabel('Time zone').inputValue()).toBe('Asia/Tokyo');
    await page.getByLabel('To (inclusive)').fill(day(-3));
    await page.getByLabel('From').fill(day(-2));
    await poll(() => page.getByRole('alert').first().innerText()).toContain('on or after the start date');

    // A range with nobody in it: the empty states, in words.
    await page.getByLabel('From').fill(day(-6));
    await page.getByLabel('To (inclusive)').fill(day(-5));
    await poll(() => visitors.innerText()).toContain('No device was positioned');
    await poll(() => stay.innerText()).toContain('Nobody stayed');
    await poll(() => occupancy.innerText()).toContain('No geofence had anyone inside');

    // What the server refuses is said in words where its chart would be, and offers no download.
    await page.getByLabel('From').fill(day(-400));
    await poll(() => visitors.getByRole('alert').innerText()).toContain('must be at most 366 days');
    await poll(() => stay.getByRole('alert').innerText()).toContain('must be at most 366 days');
    expect(await visitors.getByRole('link', { name: /Download CSV/ }).count()).toBe(0);

    // Charts follow their box: narrower window, narrower canvas.
    await page.getByLabel('From').fill(day(-1));
    await page.getByLabel('To (inclusive)').fill(day(1));
    await visitors.locator('canvas').first().waitFor();
    const wide = await visitors
      .locator('canvas')
      .first()
      .evaluate((c) => c.getBoundingClientRect().width);
    await page.setViewportSize({ width: 420, height: 800 });
    await poll(() =>
      visitors
        .locator('canvas')
        .first()
        .evaluate((c) => c.getBoundingClientRect().width),
    ).toBeLessThan(wide - 300);

    expect(problems).toEqual([]);
    await context.close();
  });
});
