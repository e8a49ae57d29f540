import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlRunner } from '../../database/sql-runner';
import { statement } from '../../database/statements';

const CURRENT = statement('building-revisions.current', 'SELECT "revision" FROM "building_revisions" WHERE "building_id" = :buildingId');
const BUMP = statement(
  'building-revisions.bump',
  `INSERT INTO "building_revisions" ("building_id", "revision") VALUES (:buildingId, 1)
         ON CONFLICT ("building_id") DO UPDATE SET "revision" = "building_revisions"."revision" + 1`,
);
// A live building of the organization: its version and its content revision, in one read.
const OWNED = statement(
  'building-revisions.owned',
  `SELECT "b"."version" AS "version", COALESCE("r"."revision", 0) AS "revision" FROM "buildings" "b"
       LEFT JOIN "building_revisions" "r" ON "r"."building_id" = "b"."id"
       WHERE "b"."id" = :buildingId AND "b"."organization_id" = :organizationId AND "b"."deleted_at" IS NULL`,
);
const CATEGORY_BUILDINGS = statement('building-revisions.category-buildings', 'SELECT DISTINCT "building_id" FROM "pois" WHERE "category_id" = :categoryId');
// The WHERE also settles SQLite's parsing of INSERT ... SELECT ... ON CONFLICT.
const BUMP_ORGANIZATION = statement(
  'building-revisions.bump-organization',
  `INSERT INTO "building_revisions" ("building_id", "revision")
       SELECT "id", 1 FROM "buildings" WHERE "organization_id" = :organizationId
       ON CONFLICT ("building_id") DO UPDATE SET "revision" = "building_revisions"."revision" + 1`,
);

/** The revisions of building documents (`building_revisions`): read per request, bumped in the writes' transactions. */
@Injectable()
export class BuildingRevisionsRepository {
  constructor(private readonly sql: SqlRunner) {}

  /** The building's revision (0 before its first bump), prepared once on the driver. */
  async current(buildingId: number): Promise<number> {
    const [row] = await this.sql.prepared<{ revision: number }>(CURRENT)({ buildingId });
    return row ? Number(row.revision) : 0;
  }

  /**
   * A live building of the organization: its version and revision (0 before its first bump), or null.
   * Prepared once on the driver: the read of routes whose answer is cached per building (directions).
   */
  async owned(buildingId: number, organizationId: string): Promise<{ version: number; revision: number } | null> {
    const [row] = await this.sql.prepared<{ version: number; revision: number }>(OWNED)({ buildingId, organizationId });
    return row ? { version: Number(row.version), revision: Number(row.revision) } : null;
  }

  async bump(manager: EntityManager, buildingId: number): Promise<void> {
    await this.sql.query(manager, BUMP, { buildingId });
  }

  /** The buildings whose POIs use the category. */
  async buildingsUsingCategory(manager: EntityManager, categoryId: number): Promise<number[]> {
    const rows = await this.sql.query<{ building_id: number }>(manager, CATEGORY_BUILDINGS, { categoryId });
    return rows.map((row) => Number(row.building_id));
  }

  /** Bumps every building of the organization. */
  async bumpOrganization(manager: EntityManager, organizationId: string): Promise<void> {
    await this.sql.query(manager, BUMP_ORGANIZATION, { organizationId });
  }
}
