import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { readAppConfig } from '../config/app.config';
import { DatabaseConfig, readDatabaseConfig } from '../config/database.config';
import { ConfigurationError, Env } from '../config/env';
import { DataDirectoryInUse, lockDataDirectory } from '../database/data-dir-lock';
import { excludeLiveInstances, InstancesLive } from '../database/live-instances';
import { ensurePrivateDirectory } from '../config/private-files';

export interface CliOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Standard input, whole; only read by --password-stdin. */
  stdin?: () => Promise<string>;
}

export class UsageError extends Error {}

export async function readPassword(output: CliOutput): Promise<string> {
  if (!output.stdin) throw new UsageError('--password-stdin needs standard input');
  // One trailing newline is the terminator of `echo` or a file, not part of the password.
  const password = (await output.stdin()).replace(/\r?\n$/, '');
  if (!password) throw new UsageError('--password-stdin read an empty password');
  return password;
}

export function refusePasswordArgument(args: string[]): void {
  if (args.some((arg) => /^--(admin-)?password(=|$)/.test(arg))) {
    throw new UsageError('Passwords are not taken from the command line (ps and shell history show it): use --password-stdin');
  }
}

/** The database the command works on must exist: a mistyped DATA_DIR must not quietly start a new one. */
export function existingDatabase(env: Env): DatabaseConfig {
  const database = readDatabaseConfig(env);
  if (database.kind === 'sqlite' && !existsSync(database.path)) {
    throw new ConfigurationError(
      `No database at ${database.path}: check DATA_DIR (now ${resolve(readAppConfig(env).dataDir)}); the server creates it on its first start`,
      'DATA_DIR',
    );
  }
  return database;
}

/** A command that must not run beside a server found one. */
export class ServersLive extends Error {}

/**
 * Runs `work` with no server on the data: SQLite: holding the DATA_DIR lock every server
 * holds while it runs; PostgreSQL: holding the locks every live instance holds shared. A
 * server that starts meanwhile waits (PostgreSQL) or is refused (SQLite) until `work` ends.
 */
export async function withoutLiveServers<T>(command: string, database: DatabaseConfig, dataDir: string, work: () => Promise<T>): Promise<T> {
  const stopFirst = `${command} is refused while Cartograph runs: stop every server first`;
  if (database.kind === 'sqlite') {
    ensurePrivateDirectory(dataDir);
    let lock;
    try {
      lock = lockDataDirectory(dataDir);
    } catch (error) {
      if (error instanceof DataDirectoryInUse) throw new ServersLive(`${stopFirst} (${error.message})`);
      throw error;
    }
    try {
      return await work();
    } finally {
      lock.release();
    }
  }
  let exclusive;
  try {
    exclusive = await excludeLiveInstances(database.url);
  } catch (error) {
    if (error instanceof InstancesLive) throw new ServersLive(`${stopFirst} (${error.message})`);
    throw error;
  }
  try {
    return await work();
  } finally {
    await exclusive.release();
  }
}
