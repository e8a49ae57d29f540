import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * One row per running webhook worker, renewed every few seconds (`heartbeat_at`, epoch
 * milliseconds). The leases of a worker whose heartbeat stopped (a crash, a SIGKILL) are given
 * back by the others within seconds, instead of blocking its deliveries until they lapse.
 */
export class WorkerHeartbeats1763985000000 implements MigrationInterface {
  name = 'WorkerHeartbeats1763985000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const bigint = queryRunner.connection.driver.options.type === 'postgres' ? 'bigint' : 'integer';
    await queryRunner.createTable(
      new Table({
        name: 'worker_heartbeats',
        columns: [
          { name: 'instance', type: 'varchar', length: '200', isPrimary: true },
          { name: 'heartbeat_at', type: bigint },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('worker_heartbeats');
  }
}
