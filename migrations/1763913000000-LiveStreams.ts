import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { columnBuilders } from './column-types';

export class LiveStreams1763913000000 implements MigrationInterface {
  name = 'LiveStreams1763913000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    // Single-use tickets for EventSource (which cannot send headers): only the SHA-256 of the ticket is kept.
    await queryRunner.createTable(
      new Table({
        name: 'stream_tickets',
        columns: [
          { name: 'ticket_hash', type: 'varchar', length: '64', isPrimary: true },
          t.uuid('organization_id'),
          t.uuid('user_id'),
          // The principal of whoever asked, as the authentication guard built it (permission, building restrictions).
          { name: 'principal', type: 'text' },
          t.timestamp('expires_at'),
        ],
        indices: [{ name: 'IDX_stream_tickets_expires_at', columnNames: ['expires_at'] }],
      }),
    );
    // The position stream reads "what changed since this watermark" per organization, in watermark order.
    await queryRunner.createIndex('devices', new TableIndex({ name: 'IDX_devices_updated_at', columnNames: ['organization_id', 'updated_at', 'id'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('devices', 'IDX_devices_updated_at');
    await queryRunner.dropTable('stream_tickets');
  }
}
