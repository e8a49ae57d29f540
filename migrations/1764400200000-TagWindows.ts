import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { columnBuilders } from './column-types';

/**
 * Issue 39, part 3: each observation of a tag is used by one window (`window_id`, set by the claim that commits with
 * the window's fix), the unclaimed ones found fast by a partial index, and each tag's latest fix from gateways with
 * the gateways that placed it (what the live picture shows as `method: "gateways"` and `gateways_used`).
 */
export class TagWindows1764400200000 implements MigrationInterface {
  name = 'TagWindows1764400200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    await queryRunner.addColumn('gateway_observations', new TableColumn({ name: 'window_id', type: 'varchar', length: '36', isNullable: true }));
    await queryRunner.createIndex(
      'gateway_observations',
      new TableIndex({ name: 'IDX_gateway_observations_unclaimed', columnNames: ['organization_id', 'device_id', 'time'], where: 'window_id IS NULL' }),
    );
    // Retention deletes by the time received.
    await queryRunner.createIndex('gateway_observations', new TableIndex({ name: 'IDX_gateway_observations_received', columnNames: ['received_ms'] }));
    await queryRunner.createTable(
      new Table({
        name: 'device_gateway_fixes',
        columns: [
          { ...t.uuid('organization_id'), isPrimary: true },
          { name: 'device_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'time_ms', type: 'bigint' },
          { name: 'window_id', type: 'varchar', length: '36' },
          // The hardware ids of the gateways used, as a JSON array.
          { name: 'gateways_used', type: 'text' },
        ],
        foreignKeys: [{ columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('device_gateway_fixes');
    await queryRunner.dropIndex('gateway_observations', 'IDX_gateway_observations_received');
    await queryRunner.dropIndex('gateway_observations', 'IDX_gateway_observations_unclaimed');
    await queryRunner.dropColumn('gateway_observations', 'window_id');
  }
}
