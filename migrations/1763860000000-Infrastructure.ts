import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';
import { columnBuilders } from './column-types';

export class Infrastructure1763860000000 implements MigrationInterface {
  name = 'Infrastructure1763860000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    const placed: TableColumnOptions[] = [
      t.serialKey(),
      t.uuid('organization_id'),
      { name: 'building_id', type: 'integer' },
      { name: 'floor_id', type: 'integer' },
      t.double('latitude'),
      t.double('longitude'),
      t.double('x'),
      t.double('y'),
    ];
    const versioned: TableColumnOptions[] = [{ name: 'version', type: 'integer', default: 1 }, t.timestamp('created_at'), t.timestamp('updated_at')];
    const foreignKeys = [
      { columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] },
      { columnNames: ['building_id'], referencedTableName: 'buildings', referencedColumnNames: ['id'] },
      { columnNames: ['floor_id'], referencedTableName: 'floors', referencedColumnNames: ['id'] },
    ];

    await queryRunner.createTable(
      new Table({
        name: 'wifi_access_points',
        columns: [
          ...placed,
          { name: 'bssid', type: 'varchar', length: '17' },
          { name: 'ssid', type: 'varchar', length: '255', default: "''" },
          { name: 'frequency', type: 'integer', isNullable: true },
          ...versioned,
        ],
        foreignKeys,
        indices: [
          { name: 'UQ_wifi_access_points_bssid', columnNames: ['building_id', 'bssid'], isUnique: true },
          { name: 'IDX_wifi_access_points_building', columnNames: ['organization_id', 'building_id'] },
          { name: 'IDX_wifi_access_points_floor', columnNames: ['floor_id'] },
          // Scans without a building are matched by BSSID across the organization.
          { name: 'IDX_wifi_access_points_organization_bssid', columnNames: ['organization_id', 'bssid'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'ble_beacons',
        columns: [
          ...placed,
          { name: 'uuid', type: 'varchar', length: '36' },
          { name: 'major', type: 'integer' },
          { name: 'minor', type: 'integer' },
          { name: 'tx_power', type: 'integer', isNullable: true },
          { name: 'battery', type: 'integer', isNullable: true },
          ...versioned,
        ],
        foreignKeys,
        indices: [
          { name: 'UQ_ble_beacons_identity', columnNames: ['building_id', 'uuid', 'major', 'minor'], isUnique: true },
          { name: 'IDX_ble_beacons_building', columnNames: ['organization_id', 'building_id'] },
          { name: 'IDX_ble_beacons_floor', columnNames: ['floor_id'] },
          { name: 'IDX_ble_beacons_organization_identity', columnNames: ['organization_id', 'uuid', 'major', 'minor'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['ble_beacons', 'wifi_access_points']) await queryRunner.dropTable(table);
  }
}
