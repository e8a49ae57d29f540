import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { appConfig, AppConfig } from '../config/app.config';
import { RollupStore } from './position-rollup-store';
import { rollupDelta, SlotTotals, TrackPoint } from './position-rollup-math';
import { DAY_MS } from '../common/time/durations';
import { SESSION_GAP_MS } from './session-mark';

/**
 * A device's newest stored fix, read under the devices' lock before a batch stores its own:
 * its time and building.
 */
export interface LatestStoredFix {
  time: number;
  buildingId: number | null | undefined;
}

/** The part of an accepted fix the rollups need (the ingest's AcceptedFix has it). */
export interface RollupFix {
  deviceId: string;
  time: number;
  buildingId: number | null;
}

/** A deleted device's rollups go with its history (same transaction), so no report counts it afterwards. */
export async function deleteDeviceRollups(manager: EntityManager, organizationId: string, deviceId: string): Promise<void> {
  await manager.createQueryBuilder().delete().from('position_rollups').where('organization_id = :organizationId AND device_id = :deviceId', { organizationId, deviceId }).execute();
}

/**
 * Keeps `position_rollups` (see position-rollup-math.ts) in step with the history: the
 * ingest calls {@link record} inside its transaction, before the history rows are written,
 * under the devices' lock, so the stored neighbours it reads are the ones the batch lands
 * between. One upsert per batch, and a read only for a batch that lands among stored fixes.
 * Rollups are kept as long as the day they summarize (the history's retention), deleted with
 * it by the history's hourly maintenance (PositionsRetention).
 */
@Injectable()
export class PositionRollups {
  constructor(
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly store: RollupStore,
  ) {}

  /**
   * `fixes` ordered by device, then time (as the ingest orders them); `latest` holds the newest
   * stored fix of every device that has one (a device absent from it has no history yet).
   */
  async record(manager: EntityManager, organizationId: string, fixes: ReadonlyArray<RollupFix>, latest: ReadonlyMap<string, LatestStoredFix>): Promise<void> {
    // Per device, its first and last new fix (the batch is ordered by device, then time).
    const windows: Array<{ deviceId: string; lo: number; hi: number; added: TrackPoint[] }> = [];
    for (const fix of fixes) {
      const current = windows[windows.length - 1];
      if (current && current.deviceId === fix.deviceId) {
        current.hi = fix.time;
        current.added.push({ time: fix.time, buildingId: fix.buildingId });
      } else {
        windows.push({ deviceId: fix.deviceId, lo: fix.time, hi: fix.time, added: [{ time: fix.time, buildingId: fix.buildingId }] });
      }
    }
    if (!windows.some((window) => window.added.some((point) => point.buildingId !== null))) return;
    // No stored fix is newer than a device's latest, so a device reporting forward in time (the
    // usual case) pairs with that one fix at most: no history read. Only a batch that lands among
    // or before stored fixes reads its neighbours.
    const stored = new Map<string, TrackPoint[]>();
    const amongStored: typeof windows = [];
    for (const window of windows) {
      const head = latest.get(window.deviceId);
      if (!head || head.time < window.lo - SESSION_GAP_MS) continue;
      if (head.time < window.lo && head.buildingId !== undefined) stored.set(window.deviceId, [{ time: head.time, buildingId: head.buildingId }]);
      else amongStored.push(window);
    }
    if (amongStored.length > 0) for (const [deviceId, track] of await this.store.neighbours(manager, organizationId, amongStored, SESSION_GAP_MS)) stored.set(deviceId, track);
    const rows: Array<SlotTotals & { deviceId: string }> = [];
    for (const window of windows) {
      for (const totals of rollupDelta(stored.get(window.deviceId) ?? [], window.added)) rows.push({ ...totals, deviceId: window.deviceId });
    }
    if (rows.length > 0) await this.store.upsert(manager, organizationId, rows);
  }

  /** Deletes the rollups of days the history no longer keeps (the day holding the cutoff stays, as its partition does). */
  applyRetention(now = Date.now()): Promise<number> {
    return this.store.deleteBefore(Math.floor((now - this.config.positions.retentionDays * DAY_MS) / DAY_MS) * DAY_MS);
  }
}
