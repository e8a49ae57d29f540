import { DataSource } from 'typeorm';
import { DatabaseConfig } from '../config/database.config';
import { buildDataSourceOptions } from '../database/typeorm-options';

export interface MigrationState {
  applied: string[];
  pending: string[];
}

async function withDataSource<T>(config: DatabaseConfig, work: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const dataSource = new DataSource(buildDataSourceOptions(config));
  await dataSource.initialize();
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

export async function migrationState(config: DatabaseConfig): Promise<MigrationState> {
  return withDataSource(config, async (dataSource) => {
    const applied = await appliedMigrations(dataSource);
    const known = dataSource.migrations.map((migration) => migration.name!);
    return { applied, pending: known.filter((name) => !applied.includes(name)) };
  });
}

async function appliedMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    if (!(await runner.hasTable('migrations'))) return [];
    const rows: Array<{ name: string }> = await runner.query('SELECT "name" FROM "migrations" ORDER BY "timestamp"');
    return rows.map((row) => row.name);
  } finally {
    await runner.release();
  }
}

/** Applies every pending migration, each in its own transaction; returns their names. */
export async function migrateUp(config: DatabaseConfig): Promise<string[]> {
  return withDataSource(config, async (dataSource) => {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  });
}

/** Reverts the last applied migration (in a transaction); returns its name, undefined when none is applied. */
export async function migrateDown(config: DatabaseConfig): Promise<string | undefined> {
  return withDataSource(config, async (dataSource) => {
    const before = await appliedMigrations(dataSource);
    if (before.length === 0) return undefined;
    await dataSource.undoLastMigration({ transaction: 'each' });
    return before.at(-1);
  });
}
