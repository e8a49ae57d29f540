import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollupDelta, SLOT_MS, TrackPoint } from '../../src/positions/position-rollup-math';
import { Cartographer, createSite, signUp, Site } from '../support/cartography';
import { fix, historyOf, report } from '../support/positions';
import { createTestApp, TestApp } from '../support/test-app';

interface RollupRow {
  building_id: number | string;
  device_id: string;
  slot: number | string;
  fixes: number | string;
  positioned_ms: number | string;
  first_ms: number | string | null;
  last_ms: number | string | null;
}

const key = (buildingId: number, deviceId: string, slot: number) => `${buildingId}/${deviceId}/${slot}`;
const nullable = (value: number | string | null) => (value === null ? null : Number(value));

/**
 * The ingest keeps `position_rollups` by deltas: a batch reporting forward in time pairs with the
 * device's latest stored fix (read with the device's row), any other reads the stored fixes it
 * lands among. Whatever order the batches come in, the rollups must equal the totals of the
 * whole stored history computed at once.
 */
describe('position rollups kept by the ingest', () => {
  let t: TestApp;
  let a: Cartographer;
  let site: Site;
  let other: Site;

  beforeAll(async () => {
    t = await createTestApp();
    a = await signUp(t, 'Rollups A');
    site = await createSite(t, a.auth);
    other = await createSite(t, a.auth);
  });
  afterAll(async () => t?.close());

  it('equal the totals of the stored history after forward, late, replayed and interleaved batches', async () => {
    // A slot edge 20 minutes ago, so sessions straddle it.
    const edge = Math.floor((Date.now() - 20 * 60_000) / SLOT_MS) * SLOT_MS;
    const at = (device: string, seconds: number, place: Site | null = site) =>
      fix(device, { time: new Date(edge + seconds * 1000).toISOString(), ...(place && { floor_id: place.floor.id }) });
    const batches: Array<Array<Record<string, unknown>>> = [
      [at('r-1', -50), at('r-1', -20), at('r-2', -30)],
      // Forward, within the session gap of the stored latest fix, across the slot edge.
      [at('r-1', 10), at('r-1', 40), at('r-2', 20)],
      // Forward after a gap of more than 60 s: a new session.
      [at('r-1', 200), at('r-2', 50)],
      // Forward into another building, then outdoors, then back.
      [at('r-1', 230, other), at('r-2', 80, null)],
      [at('r-1', 250, other), at('r-2', 100)],
      // Late: lands between stored fixes and splits their pair.
      [at('r-1', 25), at('r-2', 60)],
      // Replayed: nothing counted twice.
      [at('r-1', 10), at('r-1', 40), at('r-2', 20)],
      // Before every stored fix, within the gap of the first.
      [at('r-1', -90), at('r-3', 5)],
      // One batch that both precedes and follows stored fixes of one device.
      [at('r-3', -10), at('r-3', 30), at('r-1', 260, other), at('r-1', 275, other)],
      // Forward exactly one session gap later (still one session), and just past it.
      [at('r-3', 90)],
      [at('r-3', 150.001)],
    ];
    for (const batch of batches) await report(t, a.auth, batch);

    const history = await historyOf(t, a.org.organizationId);
    const tracks = new Map<string, TrackPoint[]>();
    for (const row of history) {
      let track = tracks.get(row.deviceId);
      if (!track) tracks.set(row.deviceId, (track = []));
      track.push({ time: row.time.getTime(), buildingId: row.buildingId });
    }
    const expected = new Map<string, { fixes: number; positionedMs: number; firstMs: number | null; lastMs: number | null }>();
    for (const [deviceId, track] of tracks) {
      for (const totals of rollupDelta([], track)) {
        expected.set(key(totals.buildingId, deviceId, totals.slot), { fixes: totals.fixes, positionedMs: totals.positionedMs, firstMs: totals.firstMs, lastMs: totals.lastMs });
      }
    }
    const rows: RollupRow[] = await t.dataSource.query('SELECT building_id, device_id, slot, fixes, positioned_ms, first_ms, last_ms FROM position_rollups');
    const stored = new Map(
      rows.map((row) => [
        key(Number(row.building_id), row.device_id, Number(row.slot)),
        { fixes: Number(row.fixes), positionedMs: Number(row.positioned_ms), firstMs: nullable(row.first_ms), lastMs: nullable(row.last_ms) },
      ]),
    );
    expect(stored).toEqual(expected);
    // The sequence exercised what it means to: sessions in two buildings on both sides of the edge.
    expect(expected.size).toBeGreaterThanOrEqual(6);
  });
});
