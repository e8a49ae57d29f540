import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnBuilders } from './column-types';

/**
 * Tracking (issue 37): each device's tracker state, written in the transaction of the fix it
 * produced, so any instance continues any track and a restart loses nothing acknowledged; and
 * each building's tracking settings (a building without a row tracks scans, with the defaults).
 */
export class DeviceTracks1764100000000 implements MigrationInterface {
  name = 'DeviceTracks1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'device_tracks',
        columns: [
          { ...t.uuid('organization_id'), isPrimary: true },
          { name: 'device_id', type: 'varchar', length: '64', isPrimary: true },
          // The time of the scan the state follows (epoch ms): a later scan only moves it on.
          { name: 'time', type: 'bigint' },
          { name: 'state', type: 'text' },
        ],
        foreignKeys: [{ columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'building_tracking',
        columns: [
          { name: 'building_id', type: 'integer', isPrimary: true },
          t.uuid('organization_id'),
          { name: 'scans', type: 'boolean', default: true },
          { name: 'reset_after_seconds', type: 'integer', default: 30 },
          { name: 'version', type: 'integer', default: 1 },
          t.timestamp('updated_at'),
        ],
        foreignKeys: [
          { columnNames: ['building_id'], referencedTableName: 'buildings', referencedColumnNames: ['id'] },
          { columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('building_tracking');
    await queryRunner.dropTable('device_tracks');
  }
}
