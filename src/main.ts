// First: refuses an unsupported Node.js in one line (exit 69) before any native module loads.
import '../scripts/check-node.cjs';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { configureApp, createFastifyAdapter, NEST_APP_OPTIONS } from './app.setup';
import { flushThenExit, NestPinoLogger, rootLogger } from './common/logging/logger';
import { startMetricsServer } from './common/metrics/metrics.http';
import { Closable, exitCleanlyOnSignals, logFatalErrors } from './common/process/shutdown';
import { readAppConfig } from './config/app.config';
import { readDatabaseConfig } from './config/database.config';
import { ConfigurationError } from './config/env';
import { configurationErrors, loadEnvFile, readDatabaseStartupTimeoutSeconds } from './config/validation';
import { waitForDatabase } from './database/wait-for-database';
import { StartupGate } from './health/startup-gate';
import { FirstAdminService } from './setup/first-admin.service';

async function bootstrap(): Promise<void> {
  loadEnvFile(process.argv.slice(2));
  const logger = rootLogger();
  logFatalErrors(logger);
  const problems = configurationErrors(process.env);
  if (problems.length > 0) {
    for (const problem of problems) logger.fatal({ context: 'Configuration' }, problem);
    throw new ConfigurationError(`${problems.length} setting(s) are wrong; nothing was started`);
  }
  const config = readAppConfig(process.env);
  // Installed first: a stop requested while waiting for the database is a clean stop too.
  const closables: Closable[] = [];
  exitCleanlyOnSignals(() => closables, logger);
  await waitForDatabase(readDatabaseConfig(process.env), readDatabaseStartupTimeoutSeconds(process.env), logger);

  const app = await NestFactory.create<NestFastifyApplication>(AppModule, createFastifyAdapter(config), {
    ...NEST_APP_OPTIONS,
    logger: new NestPinoLogger(logger),
    // Errors reach the catch below (one line, exit 1) instead of aborting the process.
    abortOnError: false,
  });
  closables.push(app);
  await configureApp(app, config);
  await app.init();
  const startup = app.get(StartupGate);
  startup.hold('first administrator');
  await app.listen({ port: config.port, host: config.host });
  const metricsServer = await startMetricsServer(config.metrics, config.host);
  if (metricsServer) closables.push({ close: () => new Promise((resolve) => metricsServer.close(resolve)) });
  // Only now, with the port ours, may a first administrator and its password appear.
  await app.get(FirstAdminService).ensureFirstAdmin(logger);
  startup.release();
  logger.info(
    { context: 'Bootstrap', url: await app.getUrl(), ...(metricsServer ? { metrics_port: config.metrics.port } : {}) },
    'Cartograph listening (API docs at /api/docs)',
  );
}

bootstrap().catch((error: unknown) => {
  rootLogger().fatal({ context: 'Bootstrap' }, error instanceof Error ? error.message : String(error));
  flushThenExit(rootLogger(), 1);
});
