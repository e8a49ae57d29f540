import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlRunner } from '../database/sql-runner';
import { statement } from '../database/statements';
import type { TrackingSettings } from './transmitter-sites';

export interface TrackingRow {
  scans: boolean | number;
  positions: boolean | number;
  reset_after_seconds: number | string;
}

const READ = statement('building-tracking.read', `SELECT "scans", "positions", "reset_after_seconds" FROM "building_tracking" WHERE "building_id" = :buildingId`);
const WRITE = statement(
  'building-tracking.write',
  `INSERT INTO "building_tracking" ("building_id", "organization_id", "scans", "positions", "reset_after_seconds", "version", "updated_at")
         VALUES (:buildingId, :organizationId, :scans, :positions, :resetAfterSeconds, 1, :now)
         ON CONFLICT ("building_id") DO UPDATE SET "scans" = excluded."scans", "positions" = excluded."positions", "reset_after_seconds" = excluded."reset_after_seconds",
           "version" = "building_tracking"."version" + 1, "updated_at" = excluded."updated_at"`,
);

/** A building's tracking settings (`building_tracking`; no row: the defaults). */
@Injectable()
export class TrackingSettingsRepository {
  constructor(private readonly sql: SqlRunner) {}

  async read(manager: EntityManager, buildingId: number): Promise<TrackingRow | null> {
    return (await this.sql.query<TrackingRow>(manager, READ, { buildingId }))[0] ?? null;
  }

  async write(manager: EntityManager, buildingId: number, organizationId: string, settings: TrackingSettings, now: Date): Promise<void> {
    await this.sql.query(manager, WRITE, { buildingId, organizationId, scans: settings.scans, positions: settings.positions, resetAfterSeconds: settings.resetAfterSeconds, now });
  }
}
