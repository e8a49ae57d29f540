import { Client } from 'pg';
import type { Logger } from '../common/logging/logger';
import { DatabaseConfig } from '../config/database.config';

export class DatabaseUnreachableError extends Error {}

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 5000;

/**
 * PostgreSQL may come up after Cartograph (compose, a reboot): tries to connect with
 * backoff (0.5 s doubling to 5 s) until `timeoutSeconds` have passed, logging one line per
 * failed attempt, then gives up with a one-line error. SQLite needs no wait.
 */
export async function waitForDatabase(
  config: DatabaseConfig,
  timeoutSeconds: number,
  logger: Logger,
  connect: (config: Extract<DatabaseConfig, { kind: 'postgres' }>) => Promise<void> = tryConnect,
): Promise<void> {
  if (config.kind !== 'postgres') return;
  const deadline = Date.now() + timeoutSeconds * 1000;
  let delay = FIRST_DELAY_MS;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await connect(config);
      if (attempt > 1) logger.info({ context: 'Database', attempt }, 'Database reachable');
      return;
    } catch (error) {
      const reason = (error as Error).message || String(error);
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new DatabaseUnreachableError(`The database cannot be reached after ${timeoutSeconds} s (${attempt} attempts): ${reason}`);
      }
      const wait = Math.min(delay, remaining);
      logger.warn({ context: 'Database', attempt, retry_in_ms: wait, error: reason }, 'Database not reachable yet; retrying');
      await new Promise((resolve) => setTimeout(resolve, wait));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}

async function tryConnect(config: Extract<DatabaseConfig, { kind: 'postgres' }>): Promise<void> {
  const client = new Client({ connectionString: config.url, connectionTimeoutMillis: config.connectTimeoutMs });
  // A failed connect may still emit 'error' later; without a listener that would crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}
