import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlRunner } from '../database/sql-runner';
import { statement } from '../database/statements';

/** A tag whose first unclaimed observation is older than the window: its window is due. */
export interface DueTag {
  organizationId: string;
  deviceId: string;
  /** Epoch ms of its first unclaimed observation. */
  first: number;
}

/** An unclaimed observation of a window, with its gateway's place. */
export interface WindowObservation {
  id: number;
  gatewayId: number;
  hardwareId: string;
  buildingId: number;
  floorId: number;
  level: number;
  levelHeight: number | null;
  x: number;
  y: number;
  rssi: number;
  txPower: number | null;
  time: number;
}

const DUE = statement(
  'tag-windows.due',
  `SELECT "organization_id", "device_id", MIN("time") AS "first" FROM "gateway_observations"
   WHERE "window_id" IS NULL GROUP BY "organization_id", "device_id" HAVING MIN("time") < :before ORDER BY MIN("time") LIMIT :limit`,
);

const WINDOW = statement(
  'tag-windows.unclaimed',
  `SELECT o."id", o."gateway_id", g."hardware_id", g."building_id", g."floor_id", f."level", f."level_height", g."x", g."y", o."rssi", o."tx_power", o."time"
   FROM "gateway_observations" o JOIN "gateways" g ON g."id" = o."gateway_id" JOIN "floors" f ON f."id" = g."floor_id"
   WHERE o."organization_id" = :organizationId AND o."device_id" = :deviceId AND o."window_id" IS NULL AND o."time" >= :from AND o."time" < :to
   ORDER BY o."time", o."id"`,
);

// Only observations no other window took: the count it returns tells whether the whole window is this one's.
const CLAIM = statement(
  'tag-windows.claim',
  `UPDATE "gateway_observations" SET "window_id" = :windowId
   WHERE "organization_id" = :organizationId AND "device_id" = :deviceId AND "window_id" IS NULL AND "time" >= :from AND "time" < :to AND "id" <= :lastId
   RETURNING "id"`,
);

// The organization's first administrator: a tag has no user of its own (its fixes are the organization's).
const TAG_USER = statement(
  'tag-windows.tag-user',
  `SELECT "id" FROM "users" WHERE "organization_id" = :organizationId ORDER BY CASE WHEN "role" = 'ADMIN_ORG' THEN 0 ELSE 1 END, "created_at", "id" LIMIT 1`,
);

const RECORD_FIX = statement(
  'tag-windows.record-fix',
  `INSERT INTO "device_gateway_fixes" ("organization_id", "device_id", "time_ms", "window_id", "gateways_used") VALUES (:organizationId, :deviceId, :timeMs, :windowId, :gatewaysUsed)
   ON CONFLICT ("organization_id", "device_id") DO UPDATE SET "time_ms" = excluded."time_ms", "window_id" = excluded."window_id", "gateways_used" = excluded."gateways_used"
   WHERE excluded."time_ms" >= "device_gateway_fixes"."time_ms"`,
);

const REMOVE_OLD = statement('tag-windows.remove-old', `DELETE FROM "gateway_observations" WHERE "received_ms" < :before`);

const toNumber = (value: number | string | null): number | null => (value === null ? null : Number(value));

/** The windows of tags' observations (issue 39, part 3): what is due, what a window holds, its claim, and each tag's latest fix from gateways. */
@Injectable()
export class TagWindowsRepository {
  constructor(private readonly sql: SqlRunner) {}

  async due(manager: EntityManager, before: number, limit: number): Promise<DueTag[]> {
    const rows = await this.sql.query<{ organization_id: string; device_id: string; first: number | string }>(manager, DUE, { before, limit });
    return rows.map((row) => ({ organizationId: row.organization_id, deviceId: row.device_id, first: Number(row.first) }));
  }

  async unclaimed(manager: EntityManager, organizationId: string, deviceId: string, from: number, to: number): Promise<WindowObservation[]> {
    const rows = await this.sql.query<Record<string, number | string | null>>(manager, WINDOW, { organizationId, deviceId, from, to });
    return rows.map((row) => ({
      id: Number(row.id),
      gatewayId: Number(row.gateway_id),
      hardwareId: String(row.hardware_id),
      buildingId: Number(row.building_id),
      floorId: Number(row.floor_id),
      level: Number(row.level),
      levelHeight: toNumber(row.level_height),
      x: Number(row.x),
      y: Number(row.y),
      rssi: Number(row.rssi),
      txPower: toNumber(row.tx_power),
      time: Number(row.time),
    }));
  }

  /** Marks the window's observations (up to `lastId`) as used by `windowId`; answers how many it took (fewer than read: another instance took some). */
  async claim(manager: EntityManager, window: { organizationId: string; deviceId: string; from: number; to: number; lastId: number; windowId: string }): Promise<number> {
    const rows = await this.sql.returning(manager, CLAIM, { ...window });
    return rows.length;
  }

  /** Who the tags' fixes are stored under: the organization's first administrator. */
  async tagUser(manager: EntityManager, organizationId: string): Promise<string | null> {
    const [row] = await this.sql.query<{ id: string }>(manager, TAG_USER, { organizationId });
    return row?.id ?? null;
  }

  async recordFix(manager: EntityManager, fix: { organizationId: string; deviceId: string; timeMs: number; windowId: string; gatewaysUsed: readonly string[] }): Promise<void> {
    await this.sql.query(manager, RECORD_FIX, { ...fix, gatewaysUsed: JSON.stringify(fix.gatewaysUsed) });
  }

  /** Deletes the observations received before `before` (epoch ms). */
  async removeReceivedBefore(manager: EntityManager, before: number): Promise<void> {
    await this.sql.query(manager, REMOVE_OLD, { before });
  }
}
