import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnBuilders } from './column-types';

/**
 * Issue 40, "Following a route": one row per guided device (its organization and device id, the
 * key the fix pipeline looks a batch's devices up by), with the building, the request, the current
 * route and the progress along it.
 */
export class DeviceNavigations1764300200000 implements MigrationInterface {
  name = 'DeviceNavigations1764300200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'device_navigations',
        columns: [
          { ...t.uuid('organization_id'), isPrimary: true },
          { name: 'device_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'building_id', type: 'integer' },
          { name: 'request', type: t.json },
          { name: 'plan', type: t.json },
          { name: 'route', type: t.json },
          { name: 'progress', type: t.json },
          t.double('fix_time_ms'),
          t.timestamp('started_at'),
          t.timestamp('updated_at'),
          t.timestamp('arrived_at', true),
        ],
        foreignKeys: [
          { columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] },
          { columnNames: ['building_id'], referencedTableName: 'buildings', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
        indices: [{ name: 'IDX_device_navigations_building', columnNames: ['building_id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('device_navigations');
  }
}
