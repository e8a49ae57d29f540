import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * A device's row is rewritten with its newest fix: the indexes that held `last_time` moved with
 * every batch (and on PostgreSQL kept every update from being HOT). The live read filters a
 * building's or a user's devices by `last_time` after finding them by these, which do not move
 * while a device stays in its building. On PostgreSQL the rows leave room on their page for
 * their next version (fillfactor), which a HOT update needs; the pairs' states likewise.
 */
export class DeviceIndexesThatStay1764000000000 implements MigrationInterface {
  name = 'DeviceIndexesThatStay1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['IDX_devices_last_time', 'IDX_devices_building_last_time', 'IDX_devices_user_last_time']) await queryRunner.dropIndex('devices', name);
    await queryRunner.createIndex('devices', new TableIndex({ name: 'IDX_devices_building', columnNames: ['organization_id', 'building_id'] }));
    await queryRunner.createIndex('devices', new TableIndex({ name: 'IDX_devices_user', columnNames: ['organization_id', 'user_id'] }));
    if (queryRunner.connection.driver.options.type === 'postgres') {
      await queryRunner.query('ALTER TABLE devices SET (fillfactor = 70)');
      await queryRunner.query('ALTER TABLE geofence_states SET (fillfactor = 70)');
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') {
      await queryRunner.query('ALTER TABLE geofence_states RESET (fillfactor)');
      await queryRunner.query('ALTER TABLE devices RESET (fillfactor)');
    }
    await queryRunner.dropIndex('devices', 'IDX_devices_user');
    await queryRunner.dropIndex('devices', 'IDX_devices_building');
    await queryRunner.createIndex('devices', new TableIndex({ name: 'IDX_devices_last_time', columnNames: ['organization_id', 'last_time'] }));
    await queryRunner.createIndex('devices', new TableIndex({ name: 'IDX_devices_building_last_time', columnNames: ['organization_id', 'building_id', 'last_time'] }));
    await queryRunner.createIndex('devices', new TableIndex({ name: 'IDX_devices_user_last_time', columnNames: ['organization_id', 'user_id', 'last_time'] }));
  }
}
