import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { readAppConfig } from '../config/app.config';
import { DatabaseConfig, readDatabaseConfig } from '../config/database.config';
import { ConfigurationError, Env } from '../config/env';

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

