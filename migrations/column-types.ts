import { QueryRunner } from 'typeorm';

/**
 * The column types that differ between the two databases. Migrations are shared by SQLite
 * and PostgreSQL; only these names change.
 */
export function columnTypes(queryRunner: QueryRunner) {
  const postgres = queryRunner.connection.driver.options.type === 'postgres';
  return {
    uuid: postgres ? 'uuid' : 'varchar',
    timestamp: postgres ? 'timestamptz' : 'datetime',
    json: postgres ? 'jsonb' : 'json',
  } as const;
}
