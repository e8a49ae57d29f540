import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { chunks, memoized, SqlDialect } from '../database/sql-dialect';

/** A device's tracker state: the scan time it follows and the tracker's own encoding (which knows its building). */
export interface DeviceTrackState {
  time: number;
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
  constructor(private readonly dialect: SqlDialect) {}

  async read(manager: EntityManager, organizationId: string, deviceIds: readonly string[]): Promise<Map<string, DeviceTrackState>> {
    const states = new Map<string, DeviceTrackState>();
    for (const chunk of chunks(deviceIds)) {
      // Positional parameters, the statement's text built once per size: this runs for every batch of scans.
      const sql = memoized(`device-tracks-read:${this.dialect.kind}:${chunk.length}`, () => {
        const list = Array.from({ length: chunk.length }, (_, i) => this.dialect.placeholder(i + 2)).join(', ');
        return `SELECT "device_id", "time", "state" FROM "device_tracks" WHERE "organization_id" = ${this.dialect.placeholder(1)} AND "device_id" IN (${list})`;
      });
      const rows = (await manager.query(sql, [organizationId, ...chunk])) as Array<{ device_id: string; time: number | string; state: string }>;
      for (const row of rows) states.set(row.device_id, { time: Number(row.time), state: row.state });
    }
    return states;
  }

  /** Writes each device's new state (one row per device), in the caller's transaction. */
  async write(manager: EntityManager, organizationId: string, states: ReadonlyMap<string, DeviceTrackState>): Promise<void> {
    const entries = [...states];
    for (const chunk of chunks(entries, 200)) {
      const values: unknown[] = [];
      for (const [deviceId, state] of chunk) values.push(organizationId, deviceId, state.time, state.state);
      const sql = memoized(
        `device-tracks-write:${this.dialect.kind}:${chunk.length}`,
        () => `INSERT INTO "device_tracks" ("organization_id", "device_id", "time", "state") VALUES ${this.dialect.valuesList(chunk.length, 4)}
         ON CONFLICT ("organization_id", "device_id") DO UPDATE SET "time" = excluded."time", "state" = excluded."state"`,
      );
      await manager.query(sql, values);
    }
  }

  /** A device deleted: its track goes with it. */
  async remove(manager: EntityManager, organizationId: string, deviceId: string): Promise<void> {
    await manager.query(`DELETE FROM "device_tracks" WHERE "organization_id" = ${this.dialect.placeholder(1)} AND "device_id" = ${this.dialect.placeholder(2)}`, [
      organizationId,
      deviceId,
    ]);
  }
}
