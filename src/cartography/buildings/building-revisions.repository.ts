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
