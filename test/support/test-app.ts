import 'reflect-metadata';
import { ModuleMetadata } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { configureApp, createFastifyAdapter, NEST_APP_OPTIONS } from '../../src/app.setup';
import { appConfig, readAppConfig } from '../../src/config/app.config';
import { authConfig, readAuthConfig } from '../../src/config/auth.config';
import { databaseConfig, readDatabaseConfig } from '../../src/config/database.config';
import { readSetupConfig, setupConfig } from '../../src/config/setup.config';
import { readStorageConfig, storageConfig } from '../../src/config/storage.config';
import { readWebhooksConfig, webhooksConfig } from '../../src/config/webhooks.config';

export type TestDatabaseKind = 'sqlite' | 'postgres';

export const testDatabaseKind = (): TestDatabaseKind => (process.env.CARTOGRAPH_TEST_DB === 'postgres' ? 'postgres' : 'sqlite');

export interface TestAppOptions {
  /** Extra environment for the app's configuration (e.g. LOGIN_FAILURE_LIMIT). */
  env?: Record<string, string>;
  /** Extra controllers or providers, e.g. a route that throws. */
  metadata?: Pick<ModuleMetadata, 'controllers' | 'providers'>;
  /** Rewrites the database URL the app uses (PostgreSQL only), e.g. to go through a proxy. */
  rewriteDatabaseUrl?: (url: string) => string;
  /** Use this database instead of a new one (the app drops it on close). */
  database?: FreshDatabase;
}

export interface TestApp {
  app: NestFastifyApplication;
  http: ReturnType<typeof request>;
  dataSource: DataSource;
  /** The request log lines the app wrote, parsed. */
  requestLogs: Array<Record<string, unknown>>;
  env: Record<string, string>;
  databaseUrl?: string;
  close(): Promise<void>;
}

export interface FreshDatabase {
  env: Record<string, string>;
  url?: string;
  drop(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('CARTOGRAPH_TEST_DB=postgres needs TEST_DATABASE_URL (npm test starts a throwaway cluster)');
  return url;
}

/** Every test app gets an empty database of its own. */
export async function freshDatabase(): Promise<FreshDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-test-'));
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (testDatabaseKind() === 'sqlite') {
    return { env: { DATA_DIR: dataDir }, drop: async () => removeDataDir() };
  }
  const name = `cartograph_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: adminUrl() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
      removeDataDir();
    },
  };
}

/** Two instances of the application on one fresh database, sharing the JWT secret as instances behind a balancer do. */
export interface TwoInstances {
  a: TestApp;
  b: TestApp;
  /** Closes both, then drops the database (once). */
  close(): Promise<void>;
}

export async function twoInstances(env: Record<string, string> = {}): Promise<TwoInstances> {
  const database = await freshDatabase();
  const shared: FreshDatabase = { ...database, drop: async () => undefined };
  const sharedEnv = { JWT_SECRET: randomBytes(32).toString('hex'), ...env };
  const a = await createTestApp({ database: shared, env: sharedEnv });
  let b: TestApp;
  try {
    b = await createTestApp({ database: shared, env: sharedEnv });
  } catch (error) {
    await a.close();
    await database.drop();
    throw error;
  }
  return {
    a,
    b,
    close: async () => {
      await b.close();
      await a.close();
      await database.drop();
    },
  };
}
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await freshDatabase());
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_REQUESTS: 'true',
    // The geofence timer queries every second: on only where a test asks (query counts stay exact).
    GEOFENCE_SWEEPER: 'false',
    ...database.env,
    ...options.env,
  };
  if (options.rewriteDatabaseUrl && env.DATABASE_URL) env.DATABASE_URL = options.rewriteDatabaseUrl(env.DATABASE_URL);
  const config = readAppConfig(env);
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule],
    controllers: options.metadata?.controllers ?? [],
    providers: options.metadata?.providers ?? [],
  })
    .overrideProvider(appConfig.KEY)
    .useValue(config)
    .overrideProvider(databaseConfig.KEY)
    .useValue(readDatabaseConfig(env))
    .overrideProvider(authConfig.KEY)
    .useValue(readAuthConfig(env))
    .overrideProvider(setupConfig.KEY)
    .useValue(readSetupConfig(env))
    .overrideProvider(storageConfig.KEY)
    .useValue(readStorageConfig(env))
    .overrideProvider(webhooksConfig.KEY)
    .useValue(readWebhooksConfig(env))
    .compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createFastifyAdapter(config), { ...NEST_APP_OPTIONS, logger: false });
  const requestLogs: Array<Record<string, unknown>> = [];
  await configureApp(app, config, { requestLogSink: (line) => requestLogs.push(JSON.parse(line) as Record<string, unknown>) });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  let closed = false;
  return {
    app,
    http: request(app.getHttpServer()),
    dataSource: app.get<DataSource>(getDataSourceToken()),
    requestLogs,
    env,
    databaseUrl: database.url,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await database.drop();
    },
  };
}
