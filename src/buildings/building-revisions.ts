import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PreparedQueries, PreparedQuery } from '../database/prepared-queries';
import { TransactionRunner } from '../database/transactions';

/**
 * Revisions of building documents. Every write that changes what GET /buildings/{id} shows
 * bumps the building's revision in its own transaction, so a cached document is reused
 * only while its revision is still the one in the database, on every instance.
 */
@Injectable()
export class BuildingRevisions {
  private readonly read: PreparedQuery<{ revision: number }>;

  constructor(
    private readonly transactions: TransactionRunner,
    queries: PreparedQueries,
  ) {
    this.read = queries.prepare('SELECT "revision" FROM "building_revisions" WHERE "building_id" = :buildingId');
  }

  async current(buildingId: number): Promise<number> {
    const [row] = await this.read({ buildingId });
    return row ? Number(row.revision) : 0;
  }

  async bump(manager: EntityManager, buildingIds: Iterable<number>): Promise<void> {
    for (const buildingId of new Set(buildingIds)) {
      const [sql, parameters] = this.transactions.escape(
        `INSERT INTO "building_revisions" ("building_id", "revision") VALUES (:buildingId, 1)
         ON CONFLICT ("building_id") DO UPDATE SET "revision" = "building_revisions"."revision" + 1`,
        { buildingId },
      );
      await manager.query(sql, parameters);
    }
  }

  /** Buildings whose POIs use a category: their documents show its name. */
  async bumpForCategory(manager: EntityManager, categoryId: number): Promise<void> {
    const [sql, parameters] = this.transactions.escape('SELECT DISTINCT "building_id" FROM "pois" WHERE "category_id" = :categoryId', { categoryId });
    const rows: Array<{ building_id: number }> = await manager.query(sql, parameters);
    await this.bump(manager, rows.map((row) => Number(row.building_id)));
  }

  /** Every building of an organization: for organization-wide settings that change how their fences behave. */
  async bumpForOrganization(manager: EntityManager, organizationId: string): Promise<void> {
    // The WHERE also settles SQLite's parsing of INSERT ... SELECT ... ON CONFLICT.
    const [sql, parameters] = this.transactions.escape(
      `INSERT INTO "building_revisions" ("building_id", "revision")
       SELECT "id", 1 FROM "buildings" WHERE "organization_id" = :organizationId
       ON CONFLICT ("building_id") DO UPDATE SET "revision" = "building_revisions"."revision" + 1`,
      { organizationId },
    );
    await manager.query(sql, parameters);
  }
}
