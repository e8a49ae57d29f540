import { dirname } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../migrations';
import { DatabaseConfig } from '../config/database.config';
import { QueryMetricsSubscriber } from '../common/metrics/query-metrics.subscriber';
import { ensurePrivateDirectory, ensurePrivateSqliteFiles } from '../config/private-files';
import { DatabaseLogger } from './typeorm-logger';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/**
 * The one source of TypeORM options: the app, the migration CLI and the tests all call it. The
 * app's entities come from its feature modules; a data source outside the app (the operator CLI)
 * names the ones it uses.
 */
export function buildDataSourceOptions(config: DatabaseConfig, entities: NonNullable<DataSourceOptions['entities']> = []): DataSourceOptions {
  const common = {
    entities,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    logger: new DatabaseLogger(config.logQueries),
    maxQueryExecutionTime: 1000,
    subscribers: [QueryMetricsSubscriber],
  };
  if (config.kind === 'sqlite') {
    // The file holds password and API key hashes: owner-only, like the JWT secret.
    ensurePrivateDirectory(dirname(config.path));
    ensurePrivateSqliteFiles(config.path);
    return {
      ...common,
      type: 'better-sqlite3',
      database: config.path,
      // WAL lets readers run while one writer commits; busy_timeout waits for the lock instead of failing.
      enableWAL: true,
      timeout: config.busyTimeoutMs,
      prepareDatabase: (db: { pragma: (statement: string) => unknown }) => {
        db.pragma(`busy_timeout = ${config.busyTimeoutMs}`);
        db.pragma('synchronous = NORMAL');
        // Multi-row upserts (ingest) and savepoints keep a statement journal of the pages they
        // change; past 64 KB SQLite spills it to a temporary file, one pwrite per page: under
        // ingest, as many writes as the WAL itself took.
        db.pragma('temp_store = MEMORY');
      },
    };
  }
  return {
    ...common,
    type: 'postgres',
    url: config.url,
    // `pg` without these waits forever on a hung database.
    connectTimeoutMS: config.connectTimeoutMs,
    extra: {
      max: config.poolSize,
      connectionTimeoutMillis: config.connectTimeoutMs,
      query_timeout: config.queryTimeoutMs,
      statement_timeout: config.queryTimeoutMs,
      idleTimeoutMillis: 30_000,
    },
  };
}
