import { accessSync, constants, mkdirSync } from 'node:fs';
import { ensurePrivateDirectory } from './private-files';
import { readAppConfig } from './app.config';
import { ConfigurationError, Env, readOptionalString } from './env';

/**
 * What the server keeps in DATA_DIR with these settings, or nothing: on PostgreSQL with
 * JWT_SECRET set and images in the database it needs no folder at all.
 */
export function dataDirectoryUses(env: Env): string[] {
  const uses: string[] = [];
  if (readOptionalString(env, 'DATABASE_URL') === undefined) uses.push('its SQLite database');
  if ((readOptionalString(env, 'IMAGE_STORAGE') ?? (uses.length > 0 ? 'local' : 'database')) === 'local') uses.push('uploaded images');
  if (readOptionalString(env, 'JWT_SECRET') === undefined && env.NODE_ENV !== 'production') uses.push('the generated JWT secret');
  return uses;
}

/** Creates DATA_DIR owner-only if it is missing and checks that this process may write there; the error names the setting. */
export function usableDataDirectory(dataDir: string, uses: string[]): void {
  try {
    if (uses.length === 0) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    else ensurePrivateDirectory(dataDir);
    accessSync(dataDir, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw dataDirectoryError(dataDir, uses, error as NodeJS.ErrnoException);
  }
}

export function dataDirectoryError(dataDir: string, uses: string[], error: NodeJS.ErrnoException): ConfigurationError {
  const why =
    error.code === 'EACCES' || error.code === 'EPERM'
      ? 'permission denied'
      : error.code === 'EROFS'
        ? 'the file system is read-only'
        : error.code === 'ENOTDIR' || error.code === 'EEXIST'
          ? 'a file is in the way of the folder'
          : (error.code ?? error.message);
  const user = typeof process.getuid === 'function' ? ` (uid ${process.getuid()})` : '';
  // No variable named: set aside, DATA_DIR would fall back to ./data, and validation must not create that.
  return new ConfigurationError(
    `DATA_DIR ${dataDir} cannot be written: ${why}. The server keeps ${uses.length > 0 ? uses.join(', ') : 'its files'} there: make the folder writable by this user${user}, or set DATA_DIR to one it can write`,
  );
}

/** Start-up check: DATA_DIR exists (created 0700 if not) and is writable, when these settings need it. */
export function checkDataDirectory(env: Env): void {
  const uses = dataDirectoryUses(env);
  if (uses.length === 0) return;
  usableDataDirectory(readAppConfig(env).dataDir, uses);
}
