import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnBuilders } from './column-types';

/**
 * Per (organization, building, 15-minute UTC slot, device): fixes, first and last fix and
 * positioned milliseconds, upserted by the ingest in the batch's transaction. The visitors
 * and positioning_time reports aggregate these rows instead of the raw history. Times are
 * epoch milliseconds (integers read alike on both databases).
 */
export class PositionRollups1763960000000 implements MigrationInterface {
  name = 'PositionRollups1763960000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    const bigint = queryRunner.connection.driver.options.type === 'postgres' ? 'bigint' : 'integer';
    await queryRunner.createTable(
      new Table({
        name: 'position_rollups',
        columns: [
          { ...t.uuid('organization_id'), isPrimary: true },
          { name: 'building_id', type: 'integer', isPrimary: true },
          { name: 'slot', type: bigint, isPrimary: true },
          { name: 'device_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'fixes', type: 'integer' },
          { name: 'first_ms', type: bigint, isNullable: true },
          { name: 'last_ms', type: bigint, isNullable: true },
          { name: 'positioned_ms', type: bigint },
        ],
        indices: [
          // Retention deletes by slot across organizations; deleting a device deletes its rollups.
          { name: 'IDX_position_rollups_slot', columnNames: ['slot'] },
          { name: 'IDX_position_rollups_device', columnNames: ['organization_id', 'device_id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('position_rollups');
  }
}
