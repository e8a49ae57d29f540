import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';
import { columnBuilders } from './column-types';

export class Cartography1763790000000 implements MigrationInterface {
  name = 'Cartography1763790000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    const { uuid, timestamp, double } = t;
    const serialId = t.serialKey();
    const versioned: TableColumnOptions[] = [{ name: 'version', type: 'integer', default: 1 }, timestamp('created_at'), timestamp('updated_at')];
    const organizationFk = { columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] };

    await queryRunner.createTable(
      new Table({
        name: 'buildings',
        columns: [
          serialId,
          uuid('organization_id'),
          uuid('created_by', true),
          { name: 'name', type: 'varchar', length: '255' },
          { name: 'description', type: 'text', default: "''" },
          { name: 'info', type: 'text', default: "''" },
          double('latitude'),
          double('longitude'),
          double('width'),
          double('length'),
          double('rotation', false, 0),
          { name: 'custom_fields', type: t.json },
          ...versioned,
          timestamp('deleted_at', true),
        ],
        foreignKeys: [organizationFk],
        indices: [{ name: 'IDX_buildings_organization', columnNames: ['organization_id', 'deleted_at'] }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'floors',
        columns: [
          serialId,
          uuid('organization_id'),
          { name: 'building_id', type: 'integer' },
          { name: 'level', type: 'integer' },
          double('level_height', true),
          { name: 'name', type: 'varchar', length: '255', default: "''" },
          { name: 'map_id', type: 'varchar', length: '64', default: "''" },
          double('scale', true),
          { name: 'custom_fields', type: t.json },
          ...versioned,
          timestamp('deleted_at', true),
        ],
        foreignKeys: [organizationFk, { columnNames: ['building_id'], referencedTableName: 'buildings', referencedColumnNames: ['id'] }],
        indices: [
          { name: 'IDX_floors_building', columnNames: ['organization_id', 'building_id', 'deleted_at'] },
          // One live floor per level of a building.
          { name: 'UQ_floors_building_level', columnNames: ['building_id', 'level'], isUnique: true, where: 'deleted_at IS NULL' },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'geofences',
        columns: [
          t.uuidKey(),
          uuid('organization_id'),
          { name: 'building_id', type: 'integer' },
          { name: 'floor_id', type: 'integer' },
          { name: 'name', type: 'varchar', length: '255' },
          // text: lower-casing can lengthen a string (İ becomes i̇).
          { name: 'name_lower', type: 'text' },
          { name: 'code', type: 'varchar', length: '255', default: "''" },
          { name: 'info', type: 'text', default: "''" },
          { name: 'type', type: 'varchar', length: '16', default: "'POLYGON'" },
          { name: 'geometric', type: t.json },
          { name: 'custom_fields', type: t.json },
          { name: 'deleted', type: 'boolean', default: false },
          ...versioned,
        ],
        foreignKeys: [
          organizationFk,
          { columnNames: ['building_id'], referencedTableName: 'buildings', referencedColumnNames: ['id'] },
          { columnNames: ['floor_id'], referencedTableName: 'floors', referencedColumnNames: ['id'] },
        ],
        indices: [
          // Filters first, then the default order (created_at, id): a page is read in index order, never sorted.
          { name: 'IDX_geofences_building', columnNames: ['organization_id', 'deleted', 'building_id', 'created_at', 'id'] },
          // building_id last: a search by floor and building is answered from the index alone.
          { name: 'IDX_geofences_floor', columnNames: ['organization_id', 'deleted', 'floor_id', 'created_at', 'id', 'building_id'] },
          { name: 'IDX_geofences_code', columnNames: ['organization_id', 'deleted', 'code'] },
          { name: 'IDX_geofences_name', columnNames: ['organization_id', 'deleted', 'name_lower'] },
          { name: 'IDX_geofences_created', columnNames: ['organization_id', 'deleted', 'created_at', 'id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['geofences', 'floors', 'buildings']) await queryRunner.dropTable(table);
  }
}
