import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { inList, namedList } from '../database/sql-dialect';
import { SqlRunner } from '../database/sql-runner';
import { statement, statementFamily } from '../database/statements';

export interface SiteRow {
  id: number | string;
  latitude: number | string;
  longitude: number | string;
  width: number | string;
  length: number | string;
  rotation: number | string;
  building_revision: number | string;
  infrastructure_revision: number | string;
  model_revision: number | string;
  reference_revision: number | string;
  tracking_scans: boolean | number | null;
  tracking_positions: boolean | number | null;
  tracking_reset_after_seconds: number | string | null;
}

const SITES = statementFamily<number>(
  'transmitter-sites.sites',
  [2],
  (size) => `SELECT b."id", b."latitude", b."longitude", b."width", b."length", b."rotation",
              COALESCE(v."revision", 0) AS "building_revision", COALESCE(i."revision", 0) AS "infrastructure_revision",
              COALESCE(r."model_revision", 0) AS "model_revision", COALESCE(r."reference_revision", 0) AS "reference_revision",
              t."scans" AS "tracking_scans", t."positions" AS "tracking_positions", t."reset_after_seconds" AS "tracking_reset_after_seconds"
       FROM "buildings" b
       LEFT JOIN "building_revisions" v ON v."building_id" = b."id"
       LEFT JOIN "infrastructure_revisions" i ON i."building_id" = b."id"
       LEFT JOIN "radio_revisions" r ON r."building_id" = b."id"
       LEFT JOIN "building_tracking" t ON t."building_id" = b."id"
       WHERE b."organization_id" = :organizationId AND b."deleted_at" IS NULL AND b."id" IN (${inList('b', size)})`,
);
const BUMP = statement(
  'transmitter-sites.bump',
  `INSERT INTO "infrastructure_revisions" ("building_id", "revision") VALUES (:buildingId, 1)
       ON CONFLICT ("building_id") DO UPDATE SET "revision" = "infrastructure_revisions"."revision" + 1`,
);

/** The one read a batch of scans makes for its buildings (frames, revisions, tracking settings), and the infrastructure revision. */
@Injectable()
export class TransmitterSitesRepository {
  constructor(private readonly sql: SqlRunner) {}

  /** Prepared once per list size; in the ambient transaction where there is one. */
  sites(organizationId: string, buildingIds: readonly number[]): Promise<SiteRow[]> {
    const list = namedList('b', buildingIds);
    return this.sql.prepared<SiteRow>(SITES.of(Object.keys(list.parameters).length))({ organizationId, ...list.parameters });
  }

  async bump(manager: EntityManager, buildingId: number): Promise<void> {
    await this.sql.query(manager, BUMP, { buildingId });
  }
}
