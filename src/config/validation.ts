import { readAppConfig } from './app.config';
import { readAuthConfig } from './auth.config';
import { readBasemap } from './dashboard.config';
import { readDatabaseConfig } from './database.config';
import { ConfigurationError, Env, readInteger } from './env';
import { readLoggingConfig } from './logging.config';
import { readSetupConfig } from './setup.config';
import { readStorageConfig } from './storage.config';
import { checkDataDirectory } from './data-directory';
import { readWebhooksConfig } from './webhooks.config';

/** How long the server waits for PostgreSQL at start-up (it may start after us, e.g. in compose). */
export function readDatabaseStartupTimeoutSeconds(env: Env): number {
  return readInteger(env, 'DATABASE_STARTUP_TIMEOUT_SECONDS', 60, { min: 0, max: 3600 });
}

const READERS: Array<(env: Env) => unknown> = [
  readAppConfig,
  readLoggingConfig,
  readDatabaseConfig,
  readDatabaseStartupTimeoutSeconds,
  readSetupConfig,
  readStorageConfig,
  readWebhooksConfig,
  readBasemap,
  // Before anything writes there: an unusable DATA_DIR is reported as such, by name.
  checkDataDirectory,
  // Last: it may write the generated JWT secret into DATA_DIR.
  readAuthConfig,
];

/**
 * Every wrong setting, one message each: each reader stops at its first error, so the
 * faulty variable is set aside and the reader run again until it passes. An error about a
 * variable already set aside is only the consequence of setting it aside (a too-short
 * JWT_SECRET, unset, is a missing one): it is not reported again.
 */
export function configurationErrors(env: Env, readers = READERS): string[] {
  const messages = new Set<string>();
  for (const read of readers) {
    const remaining: Env = { ...env };
    const setAside = new Set<string>();
    for (;;) {
      try {
        read(remaining);
        break;
      } catch (error) {
        if (!(error instanceof ConfigurationError)) throw error;
        if (error.variable && setAside.has(error.variable)) break;
        messages.add(error.message);
        if (!error.variable || remaining[error.variable] === undefined) break;
        setAside.add(error.variable);
        delete remaining[error.variable];
      }
    }
  }
  return [...messages];
}

/**
 * Loads the env file named by `--env-file <path>` (or `--env-file=<path>`) among the
 * arguments, else by CARTOGRAPH_ENV_FILE. Variables already in the environment win, as
 * with `node --env-file`. Returns the file loaded.
 */
export function loadEnvFile(argv: string[], env: Env = process.env): string | undefined {
  let path = env.CARTOGRAPH_ENV_FILE?.trim() || undefined;
  const index = argv.findIndex((arg) => arg === '--env-file' || arg.startsWith('--env-file='));
  if (index !== -1) {
    path = argv[index].includes('=') ? argv[index].slice('--env-file='.length) : argv[index + 1];
    if (!path) throw new ConfigurationError('--env-file needs a path');
  }
  if (path === undefined) return undefined;
  try {
    process.loadEnvFile(path);
  } catch (error) {
    throw new ConfigurationError(`Cannot read the env file ${path}: ${(error as Error).message}`, 'CARTOGRAPH_ENV_FILE');
  }
  return path;
}

/** The arguments without `--env-file <path>`. */
export function withoutEnvFileArgument(argv: string[]): string[] {
  const index = argv.findIndex((arg) => arg === '--env-file' || arg.startsWith('--env-file='));
  if (index === -1) return argv;
  return [...argv.slice(0, index), ...argv.slice(index + (argv[index].includes('=') ? 1 : 2))];
}
