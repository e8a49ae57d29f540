// First: refuses an unsupported Node.js in one line (exit 69) before any native module loads.
import '../scripts/check-node.cjs';
import 'reflect-metadata';
// Only plain modules above the configuration check: the application (Nest, TypeORM, every
// feature) is loaded after it, so a wrong setting is reported at once, not after seconds of loading.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { flushThenExit, NestPinoLogger, rootLogger } from './common/logging/logger';
import { Closable, exitCleanlyOnSignals, logFatalErrors } from './common/process/shutdown';
import { readAppConfig } from './config/app.config';
import { DatabaseConfig, readDatabaseConfig } from './config/database.config';
import { ConfigurationError, EX_CONFIG } from './config/env';
import { unknownVariableWarnings } from './config/known-variables';
import { configurationErrors, loadEnvFile, readDatabaseStartupTimeoutSeconds } from './config/validation';
import { DataDirectoryInUse, lockDataDirectory } from './database/data-dir-lock';
import { waitForDatabase } from './database/wait-for-database';
import { packageVersion } from './version/package-version';

async function bootstrap(): Promise<void> {
  loadEnvFile(process.argv.slice(2));
  const logger = rootLogger();
  logFatalErrors(logger);
  for (const warning of unknownVariableWarnings(process.env)) logger.warn({ context: 'Configuration' }, warning);
  const problems = configurationErrors(process.env);
  if (problems.length > 0) {
    for (const problem of problems) logger.fatal({ context: 'Configuration' }, problem);
    throw new ConfigurationError(`${problems.length} setting(s) are wrong; nothing was started`);
  }
  const config = readAppConfig(process.env);
  const database = readDatabaseConfig(process.env);
  logger.info(
    { context: 'Bootstrap', version: packageVersion(), node_version: process.version, environment: config.nodeEnv, ...databaseFields(database), data_dir: config.dataDir },
    'Cartograph starting',
  );
  // One server per SQLite DATA_DIR, before the database is opened (PostgreSQL takes any number).
  if (database.kind === 'sqlite') lockDataDirectory(config.dataDir);
  // Installed first: a stop requested while waiting for the database is a clean stop too.
  const closables: Closable[] = [];
  exitCleanlyOnSignals(() => closables, logger);
  await waitForDatabase(database, readDatabaseStartupTimeoutSeconds(process.env), logger);

  // One after the other: modules that require() an ES module still loading by a parallel import() fail.
  const { AppModule } = await import('./app.module.js');
  const { NestFactory } = await import('@nestjs/core');
  const setup = await import('./app.setup.js');
  const { startMetricsServer } = await import('./common/metrics/metrics.http.js');
  const { StartupGate } = await import('./health/startup-gate.js');
  const { FirstAdminService } = await import('./setup/first-admin.service.js');
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, setup.createFastifyAdapter(config), {
    ...setup.NEST_APP_OPTIONS,
    logger: new NestPinoLogger(logger),
    // Errors reach the catch below (one line, exit 1) instead of aborting the process.
    abortOnError: false,
  });
  closables.push({ close: () => setup.closeApp(app) });
  await setup.configureApp(app, config);
  await app.init();
  const startup = app.get(StartupGate);
  startup.hold('first administrator');
  await app.listen({ port: config.port, host: config.host });
  const metricsServer = await startMetricsServer(config.metrics, config.host);
  if (metricsServer) closables.push({ close: () => new Promise((resolve) => metricsServer.close(resolve)) });
  // Only now, with the port ours, may a first administrator and its password appear.
  await app.get(FirstAdminService).ensureFirstAdmin(logger);
  startup.release();
  // The address really bound (0.0.0.0 is every interface), not the loopback URL Nest would show for it.
  const bound = app.getHttpServer().address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  logger.info(
    { context: 'Bootstrap', url: `http://${host}:${bound.port}`, address: bound.address, port: bound.port, ...(metricsServer ? { metrics_port: config.metrics.port } : {}) },
    'Cartograph listening (API docs at /api/docs)',
  );
}

/** The database as the start-up line shows it: its kind, and for PostgreSQL where it is, never who logs in or with what. */
function databaseFields(database: DatabaseConfig): Record<string, string> {
  if (database.kind === 'sqlite') return { database: 'sqlite', database_file: database.path };
  try {
    const url = new URL(database.url);
    return { database: 'postgres', database_server: `${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname}` };
  } catch {
    return { database: 'postgres' };
  }
}

bootstrap().catch((error: unknown) => {
  const message =
    error instanceof DataDirectoryInUse
      ? `${error.message}: one SQLite DATA_DIR serves one server. Stop the other process first (\`fuser -v ${error.lockPath}\` names it), or use PostgreSQL (DATABASE_URL) to run several instances`
      : error instanceof Error
        ? error.message
        : String(error);
  rootLogger().fatal({ context: 'Bootstrap' }, message);
  // 78 (EX_CONFIG) for what only a change of configuration fixes: a supervisor should not restart in a loop.
  flushThenExit(rootLogger(), error instanceof ConfigurationError || error instanceof DataDirectoryInUse ? EX_CONFIG : 1);
});
