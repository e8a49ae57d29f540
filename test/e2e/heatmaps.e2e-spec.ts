import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, createFloor, createSite, expectError, expectStatus, signUp, Site, TIMESTAMP } from '../support/cartography';
import { report } from '../support/positions';
import { createTestApp, TestApp, testDatabaseKind, TwoInstances, twoInstances } from '../support/test-app';

const DAY = 86_400_000;

interface Heatmap {
  floor_id: number;
  building_id: number;
  from: string;
  to: string;
  cell_size: number;
  total: number;
  max: number;
  cells: Array<{ x: number; y: number; lat: number; lng: number; count: number }>;
}

describe('floor heatmap', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let site: Site;
  // Noon UTC two and three days ago: whole days that have ended (kept once counted).
  const today = Math.floor(Date.now() / DAY) * DAY;
  const threeDaysAgo = today - 3 * DAY + 12 * 3600_000;
  const twoDaysAgo = today - 2 * DAY + 12 * 3600_000;
  const from = new Date(today - 4 * DAY).toISOString();
  const to = new Date(Date.now() + 60_000).toISOString();

  /** A fix in floor metres: (x, y) from the plan's corner. */
  const at = (device: string, time: number, x: number, y: number) => ({ device_id: device, time, building_id: site.building.id, floor_id: site.floor.id, x, y, accuracy: 2 });

  const heatmap = async (query: string, auth = a.auth): Promise<Heatmap> => {
    const response = await t.http.get(`/api/v1/floors/${site.floor.id}/heatmap${query}`).set(auth);
    expectStatus(response, 200);
    return response.body as Heatmap;
  };
  const countAt = (body: Heatmap, x: number, y: number) => body.cells.find((cell) => cell.x === x && cell.y === y)?.count ?? 0;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Heatmap A');
    b = await signUp(t, 'Heatmap B');
    site = await createSite(t, a.auth, { location: { lat: 42.8805, lng: -8.5457 }, dimensions: { width: 40, length: 20 }, rotation: 0 });
    await report(t, a.auth, [
      // Cell (0, 0) of 2 m: three fixes two days apart; cell (5, 2): two fixes today.
      at('walker', threeDaysAgo, 0.5, 0.5),
      at('walker', threeDaysAgo + 1000, 1.5, 1.9),
      at('walker', twoDaysAgo, 1.0, 1.0),
      at('sitter', Date.now() - 5000, 10.2, 4.1),
      at('sitter', Date.now() - 4000, 11.9, 5.9),
    ]);
  });
  afterAll(async () => t?.close());

  it('counts the fixes of a floor per grid cell, with each cell centre in floor metres and degrees', async () => {
    const body = await heatmap(`?from=${from}&to=${to}`);
    expect(body).toMatchObject({ floor_id: site.floor.id, building_id: site.building.id, cell_size: 2, total: 5, max: 3 });
    expect(body.from).toMatch(TIMESTAMP);
    expect(body.cells.map((cell) => [cell.x, cell.y, cell.count])).toEqual([
      [1, 1, 3],
      [11, 5, 2],
    ]);
    // Rotation 0: x runs east, y north, from the south-west corner; the centre (20, 10) is the building's location.
    const [first] = body.cells;
    expect(first.lat).toBeLessThan(42.8805);
    expect(first.lng).toBeLessThan(-8.5457);

    const fine = await heatmap(`?from=${from}&to=${to}&cell_size=1`);
    expect(fine.cells.map((cell) => [cell.x, cell.y, cell.count])).toEqual([
      [0.5, 0.5, 1],
      [1.5, 1.5, 2],
      [10.5, 4.5, 1],
      [11.5, 5.5, 1],
    ]);
    // Only the range: the day before yesterday alone.
    const oneDay = await heatmap(`?from=${new Date(today - 2 * DAY).toISOString()}&to=${new Date(today - DAY).toISOString()}`);
    expect(oneDay.cells.map((cell) => [cell.x, cell.y, cell.count])).toEqual([[1, 1, 1]]);
  });

  it('keeps whole past days, and counts a day again when a late fix or a deleted device changes it', async () => {
    await heatmap(`?from=${from}&to=${to}`);
    const kept = (await t.dataSource.query('SELECT day, building_fixes FROM heatmap_days WHERE floor_id = ' + site.floor.id + ' AND cell_cm = 200 ORDER BY day')) as Array<{
      day: number | string;
      building_fixes: number | string;
    }>;
    expect(kept.map((row) => [Number(row.day), Number(row.building_fixes)])).toEqual([
      [today - 3 * DAY, 2],
      [today - 2 * DAY, 1],
    ]);

    // A late fix lands in a kept day: the next answer has it.
    await report(t, a.auth, [at('late', twoDaysAgo + 60_000, 1.2, 0.2)]);
    let body = await heatmap(`?from=${from}&to=${to}`);
    expect(countAt(body, 1, 1)).toBe(4);
    expect(body.total).toBe(6);

    // Deleting a device deletes its history: it leaves the heatmap too.
    await t.http.delete('/api/v1/devices/walker').set(a.auth).expect(204);
    body = await heatmap(`?from=${from}&to=${to}`);
    expect(countAt(body, 1, 1)).toBe(1);
    expect(body.total).toBe(3);
  });

  it('is empty for a floor nobody was on', async () => {
    const other = await createFloor(t, a.auth, site.building.id, { level: 1 });
    const response = await t.http.get(`/api/v1/floors/${other.id}/heatmap?from=${from}&to=${to}`).set(a.auth);
    expectStatus(response, 200);
    expect(response.body).toMatchObject({ total: 0, max: 0, cells: [] });
  });

  it('refuses bad ranges and cell sizes in the error shape, and hides other organizations and unknown floors', async () => {
    const url = `/api/v1/floors/${site.floor.id}/heatmap`;
    expectError(await t.http.get(`${url}?from=${to}&to=${from}`).set(a.auth), 400, 'bad_request');
    expectError(await t.http.get(`${url}?from=2025-01-01T00:00:00Z&to=2026-06-01T00:00:00Z`).set(a.auth), 400, 'bad_request');
    expectError(await t.http.get(`${url}?from=yesterday&to=${to}`).set(a.auth), 400, 'bad_request');
    expectError(await t.http.get(`${url}?to=${to}`).set(a.auth), 400, 'bad_request');
    expectError(await t.http.get(`${url}?from=${from}&to=${to}&cell_size=3`).set(a.auth), 400, 'bad_request');
    expectError(await t.http.get(`${url}?from=${from}&to=${to}`).set(b.auth), 404, 'entity_not_found');
    expectError(await t.http.get(`/api/v1/floors/2147483000/heatmap?from=${from}&to=${to}`).set(a.auth), 404, 'entity_not_found');
    expectError(await t.http.get(`/api/v1/floors/abc/heatmap?from=${from}&to=${to}`).set(a.auth), 400, 'bad_request');
    expectError(await t.http.get(`${url}?from=${from}&to=${to}`), 401, 'unauthorized');
  });

  it('needs read access: a positioning key is refused, a read-only key reads', async () => {
    const positioning = await createApiKey(t, a.token, ApiPermission.Positioning);
    const readOnly = await createApiKey(t, a.token, ApiPermission.ReadOnly);
    const url = `/api/v1/floors/${site.floor.id}/heatmap?from=${from}&to=${to}`;
    expectError(await t.http.get(url).set(asApiKey(positioning.apikey)), 403, 'forbidden');
    expectStatus(await t.http.get(url).set(asApiKey(readOnly.apikey)), 200);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('floor heatmap on two instances (PostgreSQL)', () => {
  let instances: TwoInstances | undefined;
  let owner: Cartographer;
  let site: Site;
  const today = Math.floor(Date.now() / DAY) * DAY;
  const threeDaysAgo = today - 3 * DAY + 12 * 3600_000;
  const twoDaysAgo = today - 2 * DAY + 12 * 3600_000;
  const from = new Date(today - 4 * DAY).toISOString();
  const to = new Date(today).toISOString();
  const at = (device: string, time: number, x: number, y: number) => ({ device_id: device, time, building_id: site.building.id, floor_id: site.floor.id, x, y, accuracy: 2 });
  const heatmapOn = async (app: TestApp): Promise<Heatmap> => {
    const response = await app.http.get(`/api/v1/floors/${site.floor.id}/heatmap?from=${from}&to=${to}`).set(owner.auth);
    expectStatus(response, 200);
    return response.body as Heatmap;
  };
  const cellsOf = (body: Heatmap) => body.cells.map((cell) => [cell.x, cell.y, cell.count]);

  beforeAll(async () => {
    instances = await twoInstances();
    owner = await signUp(instances.a, 'Heatmap instances');
    site = await createSite(instances.a, owner.auth, { location: { lat: 42.8805, lng: -8.5457 }, dimensions: { width: 40, length: 20 }, rotation: 0 });
    await report(instances.a, owner.auth, [at('walker', threeDaysAgo, 0.5, 0.5), at('walker', twoDaysAgo, 1.0, 1.0), at('walker', twoDaysAgo + 1000, 11.0, 5.0)]);
  }, 60_000);
  afterAll(async () => instances?.close());

  it("both instances counting the same days at once answer the same and keep one row per day; a late fix posted to one is in the other's next answer", async () => {
    const { a, b } = instances!;
    const [onA, onB] = await Promise.all([heatmapOn(a), heatmapOn(b)]);
    expect(cellsOf(onA)).toEqual([
      [1, 1, 2],
      [11, 5, 1],
    ]);
    expect(cellsOf(onB)).toEqual(cellsOf(onA));
    const kept = (await a.dataSource.query('SELECT day, building_fixes FROM heatmap_days WHERE floor_id = $1 AND cell_cm = 200 ORDER BY day', [site.floor.id])) as Array<{
      day: string;
      building_fixes: string;
    }>;
    expect(kept.map((row) => [Number(row.day), Number(row.building_fixes)])).toEqual([
      [today - 3 * DAY, 1],
      [today - 2 * DAY, 2],
    ]);

    await report(b, owner.auth, [at('late', twoDaysAgo + 60_000, 1.2, 0.2)]);
    const after = await heatmapOn(a);
    expect(cellsOf(after)).toEqual([
      [1, 1, 3],
      [11, 5, 1],
    ]);
    expect(cellsOf(await heatmapOn(b))).toEqual(cellsOf(after));
  });
});
