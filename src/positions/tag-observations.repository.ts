import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlRunner } from '../database/sql-runner';
import { statement } from '../database/statements';

/** One advertisement of a tag heard by a gateway (issue 39), as it is stored. */
export interface TagObservation {
  organizationId: string;
  deviceId: string;
  gatewayId: number;
  /** Epoch ms: when the gateway heard it, and when its message arrived. */
  time: number;
  receivedMs: number;
  rssi: number;
  txPower: number | null;
  raw: string | null;
  /** Set when a redelivery of the same message must store nothing twice (Ruuvi's nonce and the tag). */
  dedupKey: string | null;
}

export interface TagObservationRow {
  device_id: string;
  gateway_id: number;
  time: number | string;
  rssi: number;
  tx_power: number | null;
}

// A duplicate (same gateway and dedup key) is skipped; RETURNING tells which were new, on either database.
const INSERT = statement(
  'tag-observations.insert',
  `INSERT INTO "gateway_observations" ("organization_id", "device_id", "gateway_id", "time", "received_ms", "rssi", "tx_power", "raw", "dedup_key")
   VALUES (:organizationId, :deviceId, :gatewayId, :time, :receivedMs, :rssi, :txPower, :raw, :dedupKey)
   ON CONFLICT DO NOTHING RETURNING "id"`,
);

/** A tag's observations from every gateway within [from, to), by time: what the locating step reads. */
const WINDOW = statement(
  'tag-observations.window',
  `SELECT "device_id", "gateway_id", "time", "rssi", "tx_power" FROM "gateway_observations"
   WHERE "organization_id" = :organizationId AND "device_id" = :deviceId AND "time" >= :from AND "time" < :to ORDER BY "time", "id"`,
);

const REMOVE_DEVICE = statement('tag-observations.remove-device', `DELETE FROM "gateway_observations" WHERE "organization_id" = :organizationId AND "device_id" = :deviceId`);
const REMOVE_GATEWAY = statement('tag-observations.remove-gateway', `DELETE FROM "gateway_observations" WHERE "gateway_id" = :gatewayId`);

/** The observations of tags heard by gateways (`gateway_observations`), stored in the transaction that acknowledges their message. */
@Injectable()
export class TagObservationsRepository {
  constructor(private readonly sql: SqlRunner) {}

  /** Stores each observation not already stored; answers how many were new. */
  async insert(manager: EntityManager, observations: readonly TagObservation[]): Promise<number> {
    let stored = 0;
    for (const observation of observations) {
      const rows = await this.sql.query(manager, INSERT, { ...observation });
      stored += rows.length;
    }
    return stored;
  }

  async window(manager: EntityManager, organizationId: string, deviceId: string, from: number, to: number): Promise<TagObservationRow[]> {
    return this.sql.query<TagObservationRow>(manager, WINDOW, { organizationId, deviceId, from, to });
  }

  async removeDevice(manager: EntityManager, organizationId: string, deviceId: string): Promise<void> {
    await this.sql.query(manager, REMOVE_DEVICE, { organizationId, deviceId });
  }

  async removeGateway(manager: EntityManager, gatewayId: number): Promise<void> {
    await this.sql.query(manager, REMOVE_GATEWAY, { gatewayId });
  }
}
