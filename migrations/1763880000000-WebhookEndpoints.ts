import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnBuilders } from './column-types';

export class WebhookEndpoints1763880000000 implements MigrationInterface {
  name = 'WebhookEndpoints1763880000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'webhook_endpoints',
        columns: [
          t.uuidKey(),
          t.uuid('organization_id'),
          { name: 'url', type: 'text' },
          { name: 'description', type: 'text', default: "''" },
          { name: 'event_types', type: t.json },
          { name: 'filter_building_ids', type: t.json },
          { name: 'filter_geofence_ids', type: t.json },
          { name: 'enabled', type: 'boolean', default: true },
          { name: 'disabled_reason', type: 'varchar', length: '32', isNullable: true },
          { name: 'secret_sealed', type: 'text' },
          { name: 'previous_secret_sealed', type: 'text', isNullable: true },
          t.timestamp('previous_secret_expires_at', true),
          { name: 'version', type: 'integer', default: 1 },
          t.timestamp('created_at'),
          t.timestamp('updated_at'),
        ],
        foreignKeys: [{ columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
        // Lists are per organization in creation order; the delivery worker reads the enabled ones.
        indices: [
          { name: 'IDX_webhook_endpoints_organization_created', columnNames: ['organization_id', 'created_at', 'id'] },
          { name: 'IDX_webhook_endpoints_organization_enabled', columnNames: ['organization_id', 'enabled'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_endpoints');
  }
}
