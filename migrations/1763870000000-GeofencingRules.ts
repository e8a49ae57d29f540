import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';
import { columnBuilders } from './column-types';

/**
 * Geofence rules (contract 7.2): a fence's own overrides and its organization's defaults.
 * Each row holds only the fields set; everything else is inherited (fence → organization →
 * the contract's defaults), so changing a default reaches every fence that did not override it.
 */
export class GeofencingRules1763870000000 implements MigrationInterface {
  name = 'GeofencingRules1763870000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    const versioned: TableColumnOptions[] = [{ name: 'version', type: 'integer', default: 1 }, t.timestamp('created_at'), t.timestamp('updated_at')];
    const organizationFk = { columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] };

    await queryRunner.createTable(
      new Table({
        name: 'geofence_rules',
        columns: [t.uuidKey('geofence_id'), t.uuid('organization_id'), { name: 'rules', type: t.json }, ...versioned],
        foreignKeys: [organizationFk, { columnNames: ['geofence_id'], referencedTableName: 'geofences', referencedColumnNames: ['id'] }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'geofencing_settings',
        columns: [t.uuidKey('organization_id'), { name: 'rules', type: t.json }, ...versioned],
        foreignKeys: [organizationFk],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('geofencing_settings');
    await queryRunner.dropTable('geofence_rules');
  }
}
