import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnBuilders } from './column-types';

/**
 * Issue 31: what positions from scans learn.
 * - `reference_points`: scans an installer took at known positions of a floor (the readings as JSON).
 * - `radio_models`: per floor, the running self-calibration's sufficient statistics (JSON), merged
 *   by every instance with a conditional update on `version`.
 * - `radio_revisions`: per building, counters bumped by every write to either, so each instance's
 *   cached models are reused only while current (read in the scan batch's one query of its buildings).
 */
export class RadioModels1763991000000 implements MigrationInterface {
  name = 'RadioModels1763991000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    const owners = [
      { columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] },
      { columnNames: ['building_id'], referencedTableName: 'buildings', referencedColumnNames: ['id'] },
      { columnNames: ['floor_id'], referencedTableName: 'floors', referencedColumnNames: ['id'] },
    ];
    await queryRunner.createTable(
      new Table({
        name: 'reference_points',
        columns: [
          t.serialKey(),
          t.uuid('organization_id'),
          { name: 'building_id', type: 'integer' },
          { name: 'floor_id', type: 'integer' },
          t.double('latitude'),
          t.double('longitude'),
          t.double('x'),
          t.double('y'),
          { name: 'readings', type: 'text' },
          { name: 'version', type: 'integer', default: 1 },
          t.timestamp('created_at'),
          t.timestamp('updated_at'),
        ],
        foreignKeys: owners,
        indices: [
          { name: 'IDX_reference_points_building', columnNames: ['organization_id', 'building_id', 'floor_id'] },
          { name: 'IDX_reference_points_floor', columnNames: ['floor_id'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'radio_models',
        columns: [
          { name: 'floor_id', type: 'integer', isPrimary: true },
          t.uuid('organization_id'),
          { name: 'building_id', type: 'integer' },
          { name: 'version', type: 'integer', default: 1 },
          t.double('scans', false, 0),
          { name: 'statistics', type: 'text' },
          t.timestamp('created_at'),
          t.timestamp('updated_at'),
        ],
        foreignKeys: owners,
        indices: [{ name: 'IDX_radio_models_building', columnNames: ['building_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'radio_revisions',
        columns: [
          { name: 'building_id', type: 'integer', isPrimary: true },
          { name: 'model_revision', type: 'integer', default: 0 },
          { name: 'reference_revision', type: 'integer', default: 0 },
        ],
        foreignKeys: [{ columnNames: ['building_id'], referencedTableName: 'buildings', referencedColumnNames: ['id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['radio_revisions', 'radio_models', 'reference_points']) await queryRunner.dropTable(table);
  }
}
