import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnBuilders } from './column-types';

/**
 * Issue 39, part 1: BLE gateways as infrastructure (placed like beacons, unique by hardware id in
 * their organization), their health shared by every instance, the tags (a device's advertised
 * identity as canonical keys, unique per organization) and the observations of tags heard by the
 * gateways, kept durably before a message is acknowledged and read by tag and time.
 */
export class Gateways1764400000000 implements MigrationInterface {
  name = 'Gateways1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    const organization = { columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] };
    await queryRunner.createTable(
      new Table({
        name: 'gateways',
        columns: [
          t.serialKey(),
          t.uuid('organization_id'),
          { name: 'building_id', type: 'integer' },
          { name: 'floor_id', type: 'integer' },
          t.double('latitude'),
          t.double('longitude'),
          t.double('x'),
          t.double('y'),
          t.double('height_m', true),
          { name: 'hardware_id', type: 'varchar', length: '128' },
          { name: 'name', type: 'varchar', length: '255', default: "''" },
          { name: 'format', type: 'varchar', length: '16' },
          { name: 'version', type: 'integer', default: 1 },
          t.timestamp('created_at'),
          t.timestamp('updated_at'),
        ],
        foreignKeys: [
          organization,
          { columnNames: ['building_id'], referencedTableName: 'buildings', referencedColumnNames: ['id'] },
          { columnNames: ['floor_id'], referencedTableName: 'floors', referencedColumnNames: ['id'] },
        ],
        indices: [
          { name: 'UQ_gateways_hardware_id', columnNames: ['organization_id', 'hardware_id'], isUnique: true },
          { name: 'IDX_gateways_building', columnNames: ['organization_id', 'building_id'] },
          { name: 'IDX_gateways_floor', columnNames: ['floor_id'] },
        ],
      }),
    );
    // Counters and the recent rate, one row per gateway heard, written by whichever instance took the message.
    await queryRunner.createTable(
      new Table({
        name: 'gateway_health',
        columns: [
          { name: 'gateway_id', type: 'integer', isPrimary: true },
          t.uuid('organization_id'),
          { name: 'last_seen_ms', type: 'bigint' },
          { name: 'messages', type: 'bigint', default: 0 },
          { name: 'messages_not_understood', type: 'bigint', default: 0 },
          { name: 'records_not_understood', type: 'bigint', default: 0 },
          { name: 'observations_stored', type: 'bigint', default: 0 },
          { name: 'observations_duplicate', type: 'bigint', default: 0 },
          { name: 'unknown_advertisers', type: 'bigint', default: 0 },
          { name: 'last_reason', type: 'varchar', length: '500', isNullable: true },
          { name: 'last_reason_ms', type: 'bigint', isNullable: true },
          { name: 'last_limit', type: 'varchar', length: '32', isNullable: true },
          { name: 'last_limit_ms', type: 'bigint', isNullable: true },
          // The rate: messages of the current minute (from window_start_ms) and of the minute before.
          { name: 'window_start_ms', type: 'bigint' },
          { name: 'window_messages', type: 'integer', default: 0 },
          { name: 'previous_window_messages', type: 'integer', default: 0 },
        ],
        foreignKeys: [organization, { columnNames: ['gateway_id'], referencedTableName: 'gateways', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'device_tag_keys',
        columns: [
          { ...t.uuid('organization_id'), isPrimary: true },
          { name: 'key', type: 'varchar', length: '255', isPrimary: true },
          { name: 'device_id', type: 'varchar', length: '64' },
          // The identity as the API shows it (JSON), the same on each of the device's keys.
          { name: 'identity', type: 'text' },
          t.timestamp('created_at'),
        ],
        foreignKeys: [organization],
        indices: [{ name: 'IDX_device_tag_keys_device', columnNames: ['organization_id', 'device_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'gateway_observations',
        columns: [
          t.bigSerialKey(),
          t.uuid('organization_id'),
          { name: 'device_id', type: 'varchar', length: '64' },
          { name: 'gateway_id', type: 'integer' },
          // Epoch ms: when the gateway heard the advertisement, and when the message arrived.
          { name: 'time', type: 'bigint' },
          { name: 'received_ms', type: 'bigint' },
          t.double('rssi'),
          t.double('tx_power', true),
          { name: 'raw', type: 'text', isNullable: true },
          { name: 'dedup_key', type: 'varchar', length: '255', isNullable: true },
        ],
        foreignKeys: [organization, { columnNames: ['gateway_id'], referencedTableName: 'gateways', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
        indices: [
          // A tag's window of observations (the locating step).
          { name: 'IDX_gateway_observations_tag_time', columnNames: ['organization_id', 'device_id', 'time'] },
          // The tags a gateway heard lately (its health).
          { name: 'IDX_gateway_observations_gateway_time', columnNames: ['gateway_id', 'time'] },
          // A redelivered message (Ruuvi's nonce) stores nothing twice.
          { name: 'UQ_gateway_observations_dedup', columnNames: ['gateway_id', 'dedup_key'], isUnique: true, where: 'dedup_key IS NOT NULL' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['gateway_observations', 'device_tag_keys', 'gateway_health', 'gateways']) await queryRunner.dropTable(table);
  }
}
