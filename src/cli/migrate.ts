import { DataSource } from 'typeorm';
import { DatabaseConfig } from '../config/database.config';
import { appliedMigrations } from '../database/applied-migrations';
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
