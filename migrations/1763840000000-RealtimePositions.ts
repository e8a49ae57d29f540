import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnBuilders } from './column-types';

/**
 * Devices (each with its latest fix, which every instance reads) and the position history.
 * On PostgreSQL the history is partitioned by day on `time`: the server creates the daily
 * partitions ahead and retention drops whole ones. SQLite keeps one table and deletes old
 * rows in batches through the (organization_id, time) index.
 */
export class RealtimePositions1763840000000 implements MigrationInterface {
  name = 'RealtimePositions1763840000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    const postgres = queryRunner.connection.driver.options.type === 'postgres';

    await queryRunner.createTable(
      new Table({
        name: 'devices',
        columns: [
          t.uuidKey('organization_id'),
          { name: 'id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'code', type: 'varchar', length: '255', default: "''" },
          { name: 'name', type: 'varchar', length: '255', default: "''" },
          t.uuid('user_id', true),
          // The latest fix: one row per device, upserted with every accepted batch.
          t.timestamp('last_time', true),
          { name: 'building_id', type: 'integer', isNullable: true },
          { name: 'floor_id', type: 'integer', isNullable: true },
          t.double('lat', true),
          t.double('lng', true),
          t.double('x', true),
          t.double('y', true),
          t.double('accuracy', true),
          t.double('yaw', true),
          t.timestamp('created_at'),
          t.timestamp('updated_at'),
        ],
        foreignKeys: [{ columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] }],
        indices: [
          { name: 'IDX_devices_last_time', columnNames: ['organization_id', 'last_time'] },
          { name: 'IDX_devices_building_last_time', columnNames: ['organization_id', 'building_id', 'last_time'] },
          { name: 'IDX_devices_user_last_time', columnNames: ['organization_id', 'user_id', 'last_time'] },
        ],
      }),
    );

    if (postgres) {
      // Declarative partitioning: TypeORM's Table cannot say PARTITION BY, so this one is SQL.
      await queryRunner.query(`
        CREATE TABLE position_history (
          organization_id uuid NOT NULL,
          device_id varchar(64) NOT NULL,
          time timestamptz NOT NULL,
          user_id uuid,
          building_id integer,
          floor_id integer,
          lat double precision NOT NULL,
          lng double precision NOT NULL,
          x double precision,
          y double precision,
          accuracy double precision NOT NULL,
          yaw double precision,
          PRIMARY KEY (organization_id, device_id, time)
        ) PARTITION BY RANGE (time)`);
    } else {
      await queryRunner.createTable(
        new Table({
          name: 'position_history',
          columns: [
            t.uuidKey('organization_id'),
            { name: 'device_id', type: 'varchar', length: '64', isPrimary: true },
            { ...t.timestamp('time'), isPrimary: true },
            t.uuid('user_id', true),
            { name: 'building_id', type: 'integer', isNullable: true },
            { name: 'floor_id', type: 'integer', isNullable: true },
            t.double('lat'),
            t.double('lng'),
            t.double('x', true),
            t.double('y', true),
            t.double('accuracy'),
            t.double('yaw', true),
          ],
        }),
      );
      await queryRunner.query('CREATE INDEX "IDX_position_history_time" ON "position_history" ("organization_id", "time")');
    }
    // On a partitioned table this index is created on every partition, present and future.
    await queryRunner.query('CREATE INDEX "IDX_position_history_building_time" ON "position_history" ("organization_id", "building_id", "time")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "position_history"');
    await queryRunner.dropTable('devices');
  }
}
