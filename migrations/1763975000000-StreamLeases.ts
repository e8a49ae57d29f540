import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnBuilders } from './column-types';

/**
 * One row per open live stream, on whichever instance holds it: the per-organization bound of
 * contract 7.4 counts these rows, so it holds across instances. The holder renews its rows
 * while it runs (`expires_at`, epoch milliseconds); a crashed instance's rows lapse.
 */
export class StreamLeases1763975000000 implements MigrationInterface {
  name = 'StreamLeases1763975000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    const bigint = queryRunner.connection.driver.options.type === 'postgres' ? 'bigint' : 'integer';
    await queryRunner.createTable(
      new Table({
        name: 'stream_leases',
        columns: [t.uuidKey(), t.uuid('organization_id'), { name: 'kind', type: 'varchar', length: '16' }, t.uuid('instance_id'), { name: 'expires_at', type: bigint }],
        indices: [
          // Counting an organization's live streams; renewing and releasing an instance's.
          { name: 'IDX_stream_leases_organization', columnNames: ['organization_id', 'expires_at'] },
          { name: 'IDX_stream_leases_instance', columnNames: ['instance_id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('stream_leases');
  }
}
