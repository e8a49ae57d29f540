import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnBuilders } from './column-types';

export class WebhookDeliveries1763890000000 implements MigrationInterface {
  name = 'WebhookDeliveries1763890000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    // The outbox: a row per (event, endpoint), written in the transaction that produced the event.
    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          t.uuidKey(),
          t.uuid('organization_id'),
          t.uuid('endpoint_id'),
          // The webhook-id header: the event's id, the same on every attempt (receivers deduplicate on it).
          { name: 'message_id', type: 'varchar', length: '64' },
          { name: 'event_type', type: 'varchar', length: '64' },
          t.timestamp('event_time'),
          // The exact bytes sent on every attempt.
          { name: 'payload', type: 'text' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'attempts', type: 'integer', default: 0 },
          t.timestamp('next_attempt_at', true),
          // One instance at a time: whoever holds an unexpired lease is attempting it.
          { name: 'lease_owner', type: 'varchar', length: '64', isNullable: true },
          t.timestamp('lease_expires_at', true),
          { name: 'last_status_code', type: 'integer', isNullable: true },
          { name: 'last_error', type: 'text', isNullable: true },
          t.timestamp('last_attempt_at', true),
          t.timestamp('created_at'),
          t.timestamp('updated_at'),
        ],
        foreignKeys: [{ columnNames: ['endpoint_id'], referencedTableName: 'webhook_endpoints', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
        uniques: [{ name: 'UQ_webhook_deliveries_endpoint_message', columnNames: ['endpoint_id', 'message_id'] }],
        indices: [
          // The worker's claim: due deliveries in time order.
          { name: 'IDX_webhook_deliveries_due', columnNames: ['status', 'next_attempt_at'] },
          // The deliveries log of an endpoint, newest first, by status.
          { name: 'IDX_webhook_deliveries_endpoint_created', columnNames: ['endpoint_id', 'created_at', 'id'] },
          { name: 'IDX_webhook_deliveries_endpoint_status', columnNames: ['endpoint_id', 'status', 'created_at'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_delivery_attempts',
        columns: [
          t.uuidKey(),
          t.uuid('delivery_id'),
          { name: 'attempt', type: 'integer' },
          t.timestamp('started_at'),
          { name: 'duration_ms', type: 'integer' },
          { name: 'status_code', type: 'integer', isNullable: true },
          { name: 'error', type: 'text', isNullable: true },
          { name: 'instance', type: 'varchar', length: '64' },
        ],
        foreignKeys: [{ columnNames: ['delivery_id'], referencedTableName: 'webhook_deliveries', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
        indices: [{ name: 'IDX_webhook_delivery_attempts_delivery', columnNames: ['delivery_id', 'attempt'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_delivery_attempts');
    await queryRunner.dropTable('webhook_deliveries');
  }
}
