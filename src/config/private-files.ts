import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/** Owner-only permissions for what holds secrets: password and key hashes, the JWT secret. */
export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the directory owner-only, and narrows an existing one that others could read. */
export function ensurePrivateDirectory(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  try {
    chmodSync(path, PRIVATE_DIRECTORY_MODE);
  } catch (error) {
    // A mounted volume owned by another user (the operator's choice) cannot be narrowed;
    // the files inside still are.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}

/**
 * Makes the SQLite database and its `-wal`/`-shm` companions owner-only before the driver
 * opens them. SQLite creates the companions with the main file's permissions, so creating
 * the main file 0600 first covers files made later; existing ones are narrowed here.
 */
export function ensurePrivateSqliteFiles(databasePath: string): void {
  if (!existsSync(databasePath)) closeSync(openSync(databasePath, 'a', PRIVATE_FILE_MODE));
  for (const path of [databasePath, `${databasePath}-wal`, `${databasePath}-shm`, `${databasePath}-journal`]) {
    if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
  }
}
