import { DateTime } from 'luxon';
import { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, createGeofence, createSite, expectStatus, LatLng, signUp, Site } from '../support/cartography';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { launchChromium, logIn } from '../support/dashboard-browser';
import { report } from '../support/positions';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Two fences with the same shape, so every visit is in both and their stay-time and occupancy
 * lines are identical: a person must still see both lines, and each fence in one colour on the
 * whole analytics page. Their names sort the other way round from their ids, so the stay chart
 * (busiest first, then by name) and the occupancy chart (the history's order) list them in
 * different orders: a colour given by a series' place in its chart would differ between them.
 */
const METRE_LAT = 1 / 111_195.08;
const ORIGIN_LAT = 42.8723597;
const ORIGIN_LNG = -8.5633224;
const METRE_LNG = METRE_LAT / Math.cos((ORIGIN_LAT * Math.PI) / 180);
const at = (east: number, north: number) => ({ lat: ORIGIN_LAT + north * METRE_LAT, lng: ORIGIN_LNG + east * METRE_LNG });
const SW = at(0, 0);
const NE = at(10, 10);
const SQUARE: LatLng[] = [
  [SW.lat, SW.lng],
  [NE.lat, SW.lng],
  [NE.lat, NE.lng],
  [SW.lat, NE.lng],
  [SW.lat, SW.lng],
];
const IN = at(5, 5);
const OUT = at(30, 5);
const RULES = { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0, cooldown_seconds: 0, stale_after_seconds: 86_400 };
const D = DateTime.utc().startOf('day').minus({ days: 3 });
const utc = (hours: number, minutes = 0) => D.plus({ hours, minutes }).toISO()!;

interface LegendEntry {
  label: string;
  colour: string;
  style: string;
}

describe('analytics page: one colour per fence, overlapping lines both visible', () => {
  let t: TestApp;
  let domain: string;
  let a: Cartographer;
  let site: Site;
  let browser: Browser;
  /** The fence whose id sorts first is "Zeta", the other "Alpha". */
  const names = ['Zeta', 'Alpha'];

  beforeAll(async () => {
    process.env.DASHBOARD_DIR = ensureDashboardBuilt();
    t = await createTestApp({ env: { GEOFENCE_SWEEPER: 'false', POSITIONS_MAX_AGE_SECONDS: String(30 * 86_400) } });
    domain = await listenOnLoopback(t);
    a = await signUp(t, 'Analytics colours');
    site = await createSite(t, a.auth, { name: 'Twin halls' });
    const fences = [
      await createGeofence(t, a.auth, site.place, { name: 'One', geometric: SQUARE }),
      await createGeofence(t, a.auth, site.place, { name: 'Two', geometric: SQUARE }),
    ];
    fences.sort((x, y) => (x.id < y.id ? -1 : 1));
    for (const [i, fence] of fences.entries()) {
      expectStatus(await t.http.put(`/api/v1/geofences/${fence.id}`).set(a.auth).send({ name: names[i] }), 200);
      expectStatus(await t.http.put(`/api/v1/geofences/${fence.id}/rules`).set(a.auth).send(RULES), 200);
    }
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
      positions: [fix('dev-1', utc(10), IN), fix('dev-1', utc(10, 30), OUT), fix('dev-2', utc(11), IN), fix('dev-2', utc(12), OUT)],
    })) as {
      events: Array<{ type: string }>;
    };
    // Every visit is in both fences.
    expect(answer.events.filter((e) => e.type === 'geofence.exit')).toHaveLength(4);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    delete process.env.DASHBOARD_DIR;
  });

  /** The chart's legend as shown: each series' name, its marker's colour and its line style. */
  const legend = (section: Locator): Promise<LegendEntry[]> =>
    section.locator('.u-legend .u-series').evaluateAll((rows) =>
      rows.map((row) => {
        const view = globalThis as unknown as { getComputedStyle(el: unknown): { borderTopColor: string; borderTopStyle: string } };
        const marker = view.getComputedStyle(row.querySelector('.u-marker'));
        return { label: row.querySelector('.u-label')!.textContent!.trim(), colour: marker.borderTopColor, style: marker.borderTopStyle };
      }),
    );

  /** How many pixels of the chart's canvas are (nearly) each of `colours` (`rgb(r, g, b)`). */
  const pixelsOf = (section: Locator, colours: string[]): Promise<number[]> =>
    section.locator('canvas').evaluate((canvas: unknown, wanted: string[]) => {
      const c = canvas as { width: number; height: number; getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      const targets = wanted.map((w) => w.match(/\d+/g)!.map(Number));
      const counts = targets.map(() => 0);
      for (let p = 0; p < data.length; p += 4) {
        if (data[p + 3] < 250) continue;
        targets.forEach(([r, g, b], i) => {
          if (Math.abs(data[p] - r) + Math.abs(data[p + 1] - g) + Math.abs(data[p + 2] - b) < 24) counts[i]++;
        });
      }
      return counts;
    }, colours);

  it('draws each fence in the same colour in the stay-time and occupancy charts, both lines visible where they coincide', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'UTC' });
    const page = await context.newPage();
    await logIn(page, domain, a.org.email, a.org.password);
    await page.goto(`${domain}/analytics?building_id=${site.building.id}`);
    const stay = page.getByTestId('stay-section');
    const occupancy = page.getByTestId('occupancy-section');
    for (const section of [stay, occupancy]) await section.locator('canvas').waitFor({ timeout: 30_000 });

    const legends = { stay: await legend(stay), occupancy: await legend(occupancy) };
    console.info(`legends: ${JSON.stringify(legends)}`);
    expect(legends.stay.map((e) => e.label).sort()).toEqual(['Alpha', 'Zeta']);
    expect(legends.occupancy.map((e) => e.label).sort()).toEqual(['Alpha', 'Zeta']);
    // The two charts list the fences in different orders (so the colours below follow the fence).
    expect(legends.stay.map((e) => e.label)).not.toEqual(legends.occupancy.map((e) => e.label));
    const colourOf = (entries: LegendEntry[], label: string) => entries.find((e) => e.label === label)!.colour;
    for (const name of names) expect({ name, colour: colourOf(legends.occupancy, name) }).toEqual({ name, colour: colourOf(legends.stay, name) });
    expect(colourOf(legends.stay, 'Alpha')).not.toEqual(colourOf(legends.stay, 'Zeta'));

    for (const [chart, section] of [
      ['stay', stay],
      ['occupancy', occupancy],
    ] as const) {
      // Both colours are on the canvas, although the two lines lie on each other…
      const counts = await pixelsOf(section, [colourOf(legends.stay, 'Alpha'), colourOf(legends.stay, 'Zeta')]);
      console.info(`${chart}: pixels of Alpha's and Zeta's colours ${counts.join(', ')}`);
      expect({ chart, alpha: counts[0] > 20, zeta: counts[1] > 20 }).toEqual({ chart, alpha: true, zeta: true });
      // …and the legend tells the two lines apart by their pattern too (one solid, one with gaps).
      expect(new Set(legends[chart].map((e) => e.style)).size).toBe(2);
    }
    await context.close();
  });
});
