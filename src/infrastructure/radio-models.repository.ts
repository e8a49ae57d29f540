import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlRunner } from '../database/sql-runner';
import { statement, statementFamily } from '../database/statements';
import { RadioModelRecord } from './radio-model.entity';

export type RadioRevision = 'model_revision' | 'reference_revision';

const INSERT_IF_ABSENT = statement(
  'radio-models.insert-if-absent',
  `INSERT INTO "radio_models" ("floor_id", "organization_id", "building_id", "version", "scans", "statistics", "created_at", "updated_at")
       VALUES (:floorId, :organizationId, :buildingId, 1, :scans, :statistics, :createdAt, :updatedAt)
       ON CONFLICT ("floor_id") DO NOTHING RETURNING "floor_id"`,
);
const BUMP = statementFamily<RadioRevision>(
  'radio-models.bump',
  ['model_revision', 'reference_revision'],
  (revision) => `INSERT INTO "radio_revisions" ("building_id", "${revision}") VALUES (:buildingId, 1)
       ON CONFLICT ("building_id") DO UPDATE SET "${revision}" = "radio_revisions"."${revision}" + 1`,
);

/** Every query on the stored radio models and their revisions: one method each. */
@Injectable()
export class RadioModelsRepository {
  constructor(private readonly sql: SqlRunner) {}

  listForBuilding(manager: EntityManager, buildingId: number): Promise<RadioModelRecord[]> {
    return manager.find(RadioModelRecord, { where: { buildingId } });
  }

  find(manager: EntityManager, floorId: number): Promise<RadioModelRecord | null> {
    return manager.findOne(RadioModelRecord, { where: { floorId } });
  }

  /** The first statistics of a floor; false when another instance inserted them first. */
  async insertIfAbsent(manager: EntityManager, row: Omit<RadioModelRecord, 'version'>): Promise<boolean> {
    const inserted = await this.sql.query(manager, INSERT_IF_ABSENT, {
      floorId: row.floorId,
      organizationId: row.organizationId,
      buildingId: row.buildingId,
      scans: row.scans,
      statistics: row.statistics,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
    return Array.isArray(inserted) && inserted.length > 0;
  }

  /** `UPDATE … WHERE floor AND version`: false when another instance merged first. */
  async updateIfVersion(manager: EntityManager, floorId: number, version: number, changes: Pick<RadioModelRecord, 'scans' | 'statistics' | 'updatedAt'>): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(RadioModelRecord)
      .set({ ...changes, version: () => '"version" + 1' })
      .where({ floorId, version })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Call in the transaction of every write the cached models of the building depend on. */
  async bump(manager: EntityManager, buildingId: number, revision: RadioRevision): Promise<void> {
    await this.sql.query(manager, BUMP.of(revision), { buildingId });
  }
}
