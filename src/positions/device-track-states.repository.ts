import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { chunks, inList, namedList } from '../database/sql-dialect';
import { SqlRunner } from '../database/sql-runner';
import { statement, statementFamily } from '../database/statements';

/** A device's tracker state: the scan time it follows and the tracker's own encoding (which knows its building). */
export interface DeviceTrackState {
  time: number;
  state: string;
}

const READ = statementFamily<number>(
  'device-tracks.read',
  [2],
  (size: number) => `SELECT "device_id", "time", "state" FROM "device_tracks" WHERE "organization_id" = :organization AND "device_id" IN (${inList('d', size)})`,
);
const WRITE = statementFamily<number>(
  'device-tracks.write',
  [2],
  (rows: number) =>
    `INSERT INTO "device_tracks" ("organization_id", "device_id", "time", "state") VALUES ${Array.from({ length: rows }, (_, row) => `(:organization, :d${row}, :t${row}, :s${row})`).join(', ')}
         ON CONFLICT ("organization_id", "device_id") DO UPDATE SET "time" = excluded."time", "state" = excluded."state"`,
);
const REMOVE = statement('device-tracks.remove', `DELETE FROM "device_tracks" WHERE "organization_id" = :organization AND "device_id" = :device`);

/**
 * Where each device's tracker state is kept (`device_tracks`): read and written under the
 * devices' lock in the transaction of the fixes it produced, so the next batch of a device,
 * on any instance, continues from exactly what the last one stored, and a crash loses nothing
 * acknowledged (on SQLite too: unlike the newest fix, this row is written with its batch).
 */
@Injectable()
export class DeviceTrackStates {
  constructor(private readonly sql: SqlRunner) {}

  async read(manager: EntityManager, organizationId: string, deviceIds: readonly string[]): Promise<Map<string, DeviceTrackState>> {
    const states = new Map<string, DeviceTrackState>();
    for (const chunk of chunks(deviceIds)) {
      const list = namedList('d', chunk);
      const rows = await this.sql.query<{ device_id: string; time: number | string; state: string }>(manager, READ.of(Object.keys(list.parameters).length), {
        organization: organizationId,
        ...list.parameters,
      });
      for (const row of rows) states.set(row.device_id, { time: Number(row.time), state: row.state });
    }
    return states;
  }

  /** Writes each device's new state (one row per device), in the caller's transaction. */
  async write(manager: EntityManager, organizationId: string, states: ReadonlyMap<string, DeviceTrackState>): Promise<void> {
    for (const chunk of chunks([...states], 200)) {
      const parameters: Record<string, string | number> = { organization: organizationId };
      chunk.forEach(([deviceId, state], row) => {
        parameters[`d${row}`] = deviceId;
        parameters[`t${row}`] = state.time;
        parameters[`s${row}`] = state.state;
      });
      await this.sql.query(manager, WRITE.of(chunk.length), parameters);
    }
  }

  /** A device deleted: its track goes with it. */
  async remove(manager: EntityManager, organizationId: string, deviceId: string): Promise<void> {
    await this.sql.query(manager, REMOVE, { organization: organizationId, device: deviceId });
  }
}
