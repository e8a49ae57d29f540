import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { columnBuilders } from './column-types';

export class UsersGroupsAudit1763810000000 implements MigrationInterface {
  name = 'UsersGroupsAudit1763810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    const { uuid, timestamp } = t;

    await queryRunner.addColumns('users', [
      new TableColumn({ name: 'code', type: 'varchar', length: '255', default: "''" }),
      // Lower-cased in the application (Unicode-aware, unlike SQLite's LOWER) for the name filter.
      // text: lower-casing can lengthen a string (İ becomes i̇).
      new TableColumn({ name: 'full_name_lower', type: 'text', default: "''" }),
      new TableColumn({ name: 'locale', type: 'varchar', length: '16', default: "'en'" }),
      new TableColumn({ name: 'info', type: 'text', default: "''" }),
      new TableColumn({ name: 'icon_colour', type: 'varchar', length: '16', default: "''" }),
      new TableColumn({ name: 'is_verified', type: 'boolean', default: false }),
      new TableColumn(timestamp('last_activity', true)),
      new TableColumn({ name: 'version', type: 'integer', default: 1 }),
      // The user's building restriction as a JSON array, read by the authentication lookup
      // in the same query; user_buildings holds the same ids for filtering.
      new TableColumn({ name: 'building_scope', type: t.json, isNullable: true }),
    ]);
    await queryRunner.createIndices('users', [
      new TableIndex({ name: 'IDX_users_organization_full_name', columnNames: ['organization_id', 'full_name_lower'] }),
      new TableIndex({ name: 'IDX_users_organization_code', columnNames: ['organization_id', 'code'] }),
      new TableIndex({ name: 'IDX_users_organization_role', columnNames: ['organization_id', 'role'] }),
    ]);

    await queryRunner.createTable(
      new Table({
        name: 'user_buildings',
        columns: [t.uuidKey('user_id'), { name: 'building_id', type: 'integer', isPrimary: true }],
        foreignKeys: [
          { columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
          { columnNames: ['building_id'], referencedTableName: 'buildings', referencedColumnNames: ['id'] },
        ],
        indices: [{ name: 'IDX_user_buildings_building', columnNames: ['building_id'] }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'groups',
        columns: [
          t.uuidKey(),
          uuid('organization_id'),
          { name: 'name', type: 'varchar', length: '255' },
          { name: 'description', type: 'text', default: "''" },
          uuid('parent_group_id', true),
          { name: 'version', type: 'integer', default: 1 },
          timestamp('created_at'),
          timestamp('updated_at'),
        ],
        foreignKeys: [
          { columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] },
          { columnNames: ['parent_group_id'], referencedTableName: 'groups', referencedColumnNames: ['id'] },
        ],
        indices: [
          { name: 'IDX_groups_organization', columnNames: ['organization_id', 'name'] },
          { name: 'IDX_groups_parent', columnNames: ['parent_group_id'] },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'group_members',
        columns: [t.uuidKey('group_id'), t.uuidKey('user_id')],
        foreignKeys: [
          { columnNames: ['group_id'], referencedTableName: 'groups', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
          { columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
        indices: [{ name: 'IDX_group_members_user', columnNames: ['user_id'] }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'audit_events',
        columns: [
          t.uuidKey(),
          uuid('organization_id'),
          uuid('actor_id', true),
          { name: 'action', type: 'varchar', length: '64' },
          { name: 'target_type', type: 'varchar', length: '32' },
          { name: 'target_id', type: 'varchar', length: '64' },
          { name: 'ip', type: 'varchar', length: '64', isNullable: true },
          timestamp('created_at'),
        ],
        foreignKeys: [{ columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] }],
        indices: [
          { name: 'IDX_audit_events_time', columnNames: ['organization_id', 'created_at'] },
          { name: 'IDX_audit_events_actor', columnNames: ['organization_id', 'actor_id', 'created_at'] },
          { name: 'IDX_audit_events_action', columnNames: ['organization_id', 'action', 'created_at'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['audit_events', 'group_members', 'groups', 'user_buildings']) await queryRunner.dropTable(table);
    for (const index of ['IDX_users_organization_full_name', 'IDX_users_organization_code', 'IDX_users_organization_role']) {
      await queryRunner.dropIndex('users', index);
    }
    for (const column of ['building_scope', 'version', 'last_activity', 'is_verified', 'icon_colour', 'info', 'locale', 'full_name_lower', 'code']) {
      await queryRunner.dropColumn('users', column);
    }
  }
}
