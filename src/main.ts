import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { configureApp, createFastifyAdapter, NEST_APP_OPTIONS } from './app.setup';
import { createJsonLogger } from './common/logging/json-logger';
import { readAppConfig } from './config/app.config';
import { FirstAdminService } from './setup/first-admin.service';

async function bootstrap(): Promise<void> {
  const config = readAppConfig(process.env);
  const logger = createJsonLogger();
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, createFastifyAdapter(config), {
    ...NEST_APP_OPTIONS,
    logger,
  });
  // SIGTERM/SIGINT: stop accepting, finish in-flight requests, then close the database.
  app.enableShutdownHooks();
  await configureApp(app, config);
  await app.init();
  await app.get(FirstAdminService).ensureFirstAdmin();
  await app.listen({ port: config.port, host: config.host });
  logger.log(`Cartograph listening on ${await app.getUrl()} (API docs at /api/docs)`, 'Bootstrap');
}

bootstrap().catch((error: unknown) => {
  createJsonLogger().fatal(error instanceof Error ? error.message : String(error), 'Bootstrap');
  process.exit(1);
});
