import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';
import { columnBuilders } from './column-types';

export class PoisPathsImages1763800000000 implements MigrationInterface {
  name = 'PoisPathsImages1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    const { uuid, timestamp, double } = t;
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    const serialId = t.serialKey();
    const versioned: TableColumnOptions[] = [{ name: 'version', type: 'integer', default: 1 }, timestamp('created_at'), timestamp('updated_at')];
    const organizationFk = { columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] };

    await queryRunner.createTable(
      new Table({
        name: 'images',
        columns: [
          t.uuidKey(),
          uuid('organization_id'),
          { name: 'content_type', type: 'varchar', length: '32' },
          { name: 'byte_size', type: 'integer' },
          { name: 'sha256', type: 'varchar', length: '64' },
          { name: 'storage', type: 'varchar', length: '16' },
          uuid('created_by', true),
          timestamp('created_at'),
        ],
        foreignKeys: [organizationFk],
        indices: [{ name: 'IDX_images_organization', columnNames: ['organization_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'image_blobs',
        columns: [t.uuidKey('image_id'), { name: 'bytes', type: postgres ? 'bytea' : 'blob' }],
        foreignKeys: [{ columnNames: ['image_id'], referencedTableName: 'images', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'poi_categories',
        columns: [
          serialId,
          uuid('organization_id'),
          { name: 'code', type: 'varchar', length: '255' },
          { name: 'name_en', type: 'varchar', length: '255' },
          { name: 'name_es', type: 'varchar', length: '255', default: "''" },
          { name: 'is_public', type: 'boolean', default: false },
          uuid('icon_image_id', true),
          uuid('selected_icon_image_id', true),
          ...versioned,
        ],
        foreignKeys: [
          organizationFk,
          { columnNames: ['icon_image_id'], referencedTableName: 'images', referencedColumnNames: ['id'] },
          { columnNames: ['selected_icon_image_id'], referencedTableName: 'images', referencedColumnNames: ['id'] },
        ],
        indices: [{ name: 'UQ_poi_categories_code', columnNames: ['organization_id', 'code'], isUnique: true }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'pois',
        columns: [
          serialId,
          uuid('organization_id'),
          { name: 'building_id', type: 'integer' },
          { name: 'floor_id', type: 'integer', isNullable: true },
          { name: 'category_id', type: 'integer', isNullable: true },
          { name: 'name', type: 'varchar', length: '255' },
          { name: 'info', type: 'text', default: "''" },
          { name: 'info_unsafe', type: 'text', default: "''" },
          double('latitude'),
          double('longitude'),
          double('x'),
          double('y'),
          double('radius', true),
          { name: 'custom_fields', type: t.json },
          ...versioned,
        ],
        foreignKeys: [
          organizationFk,
          { columnNames: ['building_id'], referencedTableName: 'buildings', referencedColumnNames: ['id'] },
          { columnNames: ['floor_id'], referencedTableName: 'floors', referencedColumnNames: ['id'] },
          { columnNames: ['category_id'], referencedTableName: 'poi_categories', referencedColumnNames: ['id'] },
        ],
        indices: [
          { name: 'IDX_pois_building', columnNames: ['organization_id', 'building_id'] },
          { name: 'IDX_pois_floor', columnNames: ['floor_id'] },
          { name: 'IDX_pois_category', columnNames: ['category_id'] },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'paths',
        columns: [
          { name: 'building_id', type: 'integer', isPrimary: true },
          uuid('organization_id'),
          { name: 'nodes', type: t.json },
          { name: 'links', type: t.json },
          ...versioned,
        ],
        foreignKeys: [organizationFk, { columnNames: ['building_id'], referencedTableName: 'buildings', referencedColumnNames: ['id'] }],
        indices: [{ name: 'IDX_paths_organization', columnNames: ['organization_id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['paths', 'pois', 'poi_categories', 'image_blobs', 'images']) await queryRunner.dropTable(table);
  }
}
