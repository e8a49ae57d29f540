import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * One counter per building, bumped by every change to what its document shows (floors,
 * geofences, POIs, paths, category names). Kept apart from the buildings row, which
 * concurrent writers share-lock, so that bumping it never deadlocks with them.
 */
export class BuildingRevisions1763820000000 implements MigrationInterface {
  name = 'BuildingRevisions1763820000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'building_revisions',
        columns: [
          { name: 'building_id', type: 'integer', isPrimary: true },
          { name: 'revision', type: 'integer', default: 1 },
        ],
        foreignKeys: [{ columnNames: ['building_id'], referencedTableName: 'buildings', referencedColumnNames: ['id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('building_revisions');
  }
}
