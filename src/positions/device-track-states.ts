import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { chunks, namedList } from '../database/sql-dialect';
import { TransactionRunner } from '../database/transactions';

/** A device's tracker state: the scan time it follows, its building and the tracker's own encoding. */
export interface DeviceTrackState {
  time: number;
  buildingId: number;
  state: string;
}

/**
 * Where each device's tracker state is kept (`device_tracks`): read and written under the
 * devices' lock in the transaction of the fixes it produced, so the next batch of a device,
 * on any instance, continues from exactly what the last one stored, and a crash loses nothing
 * acknowledged (on SQLite too: unlike the newest fix, this row is written with its batch).
 */
@Injectable()
export class DeviceTrackStates {
  constructor(private readonly transactions: TransactionRunner) {}

  async read(manager: EntityManager, organizationId: string, deviceIds: readonly string[]): Promise<Map<string, DeviceTrackState>> {
    const states = new Map<string, DeviceTrackState>();
    for (const chunk of chunks(deviceIds)) {
      const list = namedList('d', chunk);
      const [sql, parameters] = this.transactions.escape(
        `SELECT "device_id", "time", "building_id", "state" FROM "device_tracks" WHERE "organization_id" = :organizationId AND "device_id" IN (${list.sql})`,
        { organizationId, ...list.parameters },
      );
      const rows = (await manager.query(sql, parameters)) as Array<{ device_id: string; time: number | string; building_id: number | string; state: string }>;
      for (const row of rows) states.set(row.device_id, { time: Number(row.time), buildingId: Number(row.building_id), state: row.state });
    }
    return states;
  }

  /** Writes each device's new state (one row per device), in the caller's transaction. */
  async write(manager: EntityManager, organizationId: string, states: ReadonlyMap<string, DeviceTrackState>): Promise<void> {
    const entries = [...states];
    for (const chunk of chunks(entries, 200)) {
      const values: string[] = [];
      const parameters: Record<string, unknown> = { organizationId };
      chunk.forEach(([deviceId, state], i) => {
        values.push(`(:organizationId, :d${i}, :t${i}, :b${i}, :s${i})`);
        Object.assign(parameters, { [`d${i}`]: deviceId, [`t${i}`]: state.time, [`b${i}`]: state.buildingId, [`s${i}`]: state.state });
      });
      const [sql, list] = this.transactions.escape(
        `INSERT INTO "device_tracks" ("organization_id", "device_id", "time", "building_id", "state") VALUES ${values.join(', ')}
         ON CONFLICT ("organization_id", "device_id") DO UPDATE SET "time" = excluded."time", "building_id" = excluded."building_id", "state" = excluded."state"`,
        parameters,
      );
      await manager.query(sql, list);
    }
  }

  /** A device deleted: its track goes with it. */
  async remove(manager: EntityManager, organizationId: string, deviceId: string): Promise<void> {
    const [sql, parameters] = this.transactions.escape(`DELETE FROM "device_tracks" WHERE "organization_id" = :organizationId AND "device_id" = :deviceId`, { organizationId, deviceId });
    await manager.query(sql, parameters);
  }
}
