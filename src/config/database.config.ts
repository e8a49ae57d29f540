import { join } from 'node:path';
import { registerAs } from '@nestjs/config';
import { readAppConfig } from './app.config';
import { ConfigurationError, Env, readBoolean, readInteger, readOptionalString } from './env';

export type DatabaseConfig =
  | { kind: 'sqlite'; path: string; busyTimeoutMs: number; logQueries: boolean }
  | {
      kind: 'postgres';
      url: string;
      poolSize: number;
      connectTimeoutMs: number;
      queryTimeoutMs: number;
      logQueries: boolean;
    };

export function readDatabaseConfig(env: Env): DatabaseConfig {
  const url = readOptionalString(env, 'DATABASE_URL');
  const logQueries = readBoolean(env, 'LOG_QUERIES', false);
  if (!url) {
    return {
      kind: 'sqlite',
      path: join(readAppConfig(env).dataDir, 'cartograph.sqlite'),
      busyTimeoutMs: readInteger(env, 'SQLITE_BUSY_TIMEOUT_MS', 2000, { max: 60_000 }),
      logQueries,
    };
  }
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigurationError('DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite database)', 'DATABASE_URL');
  }
  return {
    kind: 'postgres',
    url,
    poolSize: readInteger(env, 'DATABASE_POOL_SIZE', 10, { min: 1, max: 500 }),
    // Both bounded so that a hung or unreachable database answers 503 within 3 seconds.
    connectTimeoutMs: readInteger(env, 'DATABASE_CONNECT_TIMEOUT_MS', 2000, { min: 100 }),
    queryTimeoutMs: readInteger(env, 'DATABASE_QUERY_TIMEOUT_MS', 2500, { min: 100 }),
    logQueries,
  };
}

export const databaseConfig = registerAs('database', (): DatabaseConfig => readDatabaseConfig(process.env));
