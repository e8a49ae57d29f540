import { QueryRunner, TableColumnOptions } from 'typeorm';

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
    /** A generated 64-bit key: bigint on PostgreSQL (bigserial), integer on SQLite (the rowid, 64-bit already). */
    bigKey: postgres ? 'bigint' : 'integer',
  } as const;
}

/** Builders for the columns the migrations use again and again. */
export function columnBuilders(queryRunner: QueryRunner) {
  const t = columnTypes(queryRunner);
  const uuid = (name: string, isNullable = false): TableColumnOptions => ({
    name,
    type: t.uuid,
    length: t.uuid === 'varchar' ? '36' : undefined,
    isNullable,
  });
  return {
    ...t,
    uuid,
    uuidKey: (name = 'id'): TableColumnOptions => ({ ...uuid(name), isPrimary: true }),
    serialKey: (): TableColumnOptions => ({ name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' }),
    /** A key for tables of millions of rows. */
    bigSerialKey: (): TableColumnOptions => ({ name: 'id', type: t.bigKey, isPrimary: true, isGenerated: true, generationStrategy: 'increment' }),
    timestamp: (name: string, isNullable = false): TableColumnOptions => ({ name, type: t.timestamp, isNullable }),
    double: (name: string, isNullable = false, defaultValue?: number): TableColumnOptions => ({ name, type: 'double precision', isNullable, default: defaultValue }),
  };
}
