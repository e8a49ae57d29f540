import { Logger as NestLogger } from '@nestjs/common';
import { Logger as TypeOrmLogger } from 'typeorm';

/**
 * Routes TypeORM's messages into the structured logs. Query parameters are never logged:
 * they may hold password hashes, key hashes or personal data.
 */
export class DatabaseLogger implements TypeOrmLogger {
  private readonly logger = new NestLogger('Database');

  constructor(private readonly logQueries: boolean) {}

  logQuery(query: string): void {
    if (this.logQueries) this.logger.debug(query);
  }

  logQueryError(error: string | Error, query: string): void {
    this.logger.error(`Query failed: ${error instanceof Error ? error.message : error} (${query.slice(0, 200)})`);
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`Slow query (${time} ms): ${query.slice(0, 200)}`);
  }

  logSchemaBuild(message: string): void {
    if (this.logQueries) this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else if (this.logQueries) this.logger.log(String(message));
  }
}
