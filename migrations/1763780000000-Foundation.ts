import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnBuilders } from './column-types';

export class Foundation1763780000000 implements MigrationInterface {
  name = 'Foundation1763780000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { uuid, uuidKey, timestamp } = columnBuilders(queryRunner);
    const id = uuidKey();

    await queryRunner.createTable(
      new Table({
        name: 'organizations',
        columns: [id, { name: 'name', type: 'varchar', length: '255' }, timestamp('created_at'), timestamp('updated_at')],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'users',
        columns: [
          id,
          uuid('organization_id'),
          { name: 'email', type: 'varchar', length: '320', isUnique: true },
          { name: 'password_hash', type: 'varchar', length: '255' },
          { name: 'role', type: 'varchar', length: '16' },
          { name: 'full_name', type: 'varchar', length: '255', default: "''" },
          timestamp('created_at'),
          timestamp('updated_at'),
        ],
        foreignKeys: [{ columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] }],
        indices: [{ name: 'IDX_users_organization_id', columnNames: ['organization_id'] }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          id,
          uuid('organization_id'),
          uuid('user_id'),
          { name: 'key_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'masked_key', type: 'varchar', length: '64' },
          { name: 'permission', type: 'varchar', length: '32' },
          { name: 'description', type: 'varchar', length: '255', default: "''" },
          timestamp('created_at'),
          timestamp('last_used_at', true),
        ],
        foreignKeys: [
          { columnNames: ['organization_id'], referencedTableName: 'organizations', referencedColumnNames: ['id'] },
          { columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
        indices: [
          { name: 'IDX_api_keys_organization_id', columnNames: ['organization_id'] },
          { name: 'IDX_api_keys_user_id', columnNames: ['user_id'] },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'auth_sessions',
        columns: [
          id,
          uuid('user_id'),
          uuid('organization_id'),
          uuid('api_key_id', true),
          { name: 'permission', type: 'varchar', length: '32' },
          timestamp('created_at'),
          timestamp('expires_at'),
          timestamp('revoked_at', true),
        ],
        foreignKeys: [
          { columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
          { columnNames: ['api_key_id'], referencedTableName: 'api_keys', referencedColumnNames: ['id'], onDelete: 'CASCADE' },
        ],
        indices: [
          { name: 'IDX_auth_sessions_user_id', columnNames: ['user_id'] },
          { name: 'IDX_auth_sessions_api_key_id', columnNames: ['api_key_id'] },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'refresh_tokens',
        columns: [
          id,
          uuid('session_id'),
          { name: 'token_hash', type: 'varchar', length: '64', isUnique: true },
          timestamp('created_at'),
          timestamp('expires_at'),
          timestamp('used_at', true),
        ],
        foreignKeys: [{ columnNames: ['session_id'], referencedTableName: 'auth_sessions', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
        indices: [{ name: 'IDX_refresh_tokens_session_id', columnNames: ['session_id'] }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'login_failures',
        columns: [{ name: 'key', type: 'varchar', length: '400', isPrimary: true }, timestamp('window_started_at'), { name: 'failures', type: 'integer' }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['login_failures', 'refresh_tokens', 'auth_sessions', 'api_keys', 'users', 'organizations']) {
      await queryRunner.dropTable(table);
    }
  }
}
