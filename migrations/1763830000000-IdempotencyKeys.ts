import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnBuilders } from './column-types';

/**
 * The answers to create requests sent with an `Idempotency-Key`, kept 24 hours so that a
 * client may retry a write safely (issue 9). One row per key and scope; see
 * src/common/idempotency/.
 */
export class IdempotencyKeys1763830000000 implements MigrationInterface {
  name = 'IdempotencyKeys1763830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          // SHA-256 of organization, credential owner, method, path and the key.
          { name: 'scope_hash', type: 'varchar', length: '64', isPrimary: true },
          t.uuid('organization_id'),
          // SHA-256 of the request (query and body): the same key with another request is refused.
          { name: 'request_hash', type: 'varchar', length: '64' },
          // The lease of the attempt executing the request.
          t.timestamp('locked_until'),
          // Set in the transaction of the write itself, so a lost answer is known to have been executed.
          t.timestamp('wrote_at', true),
          { name: 'status', type: 'integer', isNullable: true },
          // The answer (body and headers), encrypted: some answers carry secrets shown once.
          { name: 'response', type: 'text', isNullable: true },
          t.timestamp('created_at'),
          t.timestamp('expires_at'),
        ],
        indices: [{ name: 'IDX_idempotency_keys_expires_at', columnNames: ['expires_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_keys');
  }
}
