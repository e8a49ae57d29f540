import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { generatePassword } from '../users/passwords';
import { ApiError } from '../common/errors/api-error';
import { readAppConfig } from '../config/app.config';
import { readDatabaseConfig } from '../config/database.config';
import { ConfigurationError, Env, EX_CONFIG } from '../config/env';
import { buildDataSourceOptions } from '../database/typeorm-options';
import { ENTITIES } from './entities';
import { resetPassword } from './password-reset';
import { backupDataDirectory, BackupRefused, checkBackup, PG_DUMP_HINT, restoreBackup } from './backup';
import { CliOutput, existingDatabase, readPassword, refusePasswordArgument, ServersLive, UsageError, withoutLiveServers } from './cli-support';
import { migrateDown, migrateUp, migrationState } from './migrate';

const USAGE = `Usage: npm run cli -- <command> [options]      (or: node dist/src/cli.js <command> [options])

Commands:
  organizations:create --name <name> --admin-email <email> [--password-stdin]
        Creates an organization and its ADMIN_ORG; prints the ids as JSON. The password is
        read from standard input with --password-stdin, otherwise generated and printed.
  reset-password --email <email> [--password-stdin]
        Sets a user's password (the policy applies) and revokes its sessions. The password is
        read from standard input with --password-stdin, otherwise generated and printed.
  backup --to <directory>
        Consistent online backup of the SQLite database and of DATA_DIR (JWT secret, images)
        into a new directory (owner-only), with BACKUP.json: the version, the migration level
        and each file's SHA-256; the server may keep running. On PostgreSQL it copies DATA_DIR
        and tells the pg_dump command for the database.
  restore --from <directory>
        Checks a backup (manifest, checksums, a migration level this release knows) and copies
        it into DATA_DIR, which must be empty. Refused while a server runs on DATA_DIR (SQLite)
        or on the database (PostgreSQL).
  migrate status | up | down
        Lists applied and pending migrations, applies the pending ones, or reverts the last one
        (down is refused while a server runs; run the previous release's CLI after down).
  help  Shows this text (also --help, -h).

Beside a running server: organizations:create, reset-password, backup, migrate status and
migrate up (what each server does at start). Not beside one: restore, migrate down.

Passwords are never taken from the command line: arguments show in ps and shell history.
Commands use the server's environment (DATA_DIR, DATABASE_URL, JWT_SECRET, ...), optionally
from an env file (--env-file <path> before the command, or CARTOGRAPH_ENV_FILE); they never
create a database: DATA_DIR must hold one (start the server once to create it).`;

async function resetUserPassword(args: string[], env: Env, output: CliOutput): Promise<void> {
  refusePasswordArgument(args);
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, 'password-stdin': { type: 'boolean' } }, strict: true });
  if (!values.email) throw new UsageError('--email is required');
  const database = existingDatabase(env);
  const generated = values['password-stdin'] ? undefined : generatePassword();
  const password = generated ?? (await readPassword(output));
  const dataSource = new DataSource(buildDataSourceOptions(database, ENTITIES));
  await dataSource.initialize();
  try {
    const user = await resetPassword(dataSource, values.email, password);
    output.stdout(`${JSON.stringify({ user_id: user.id, email: user.email, sessions_revoked: true, ...(generated ? { password: generated } : {}) }, null, 2)}\n`);
  } finally {
    await dataSource.destroy();
  }
}

async function backup(args: string[], env: Env, output: CliOutput): Promise<void> {
  const { values } = parseArgs({ args, options: { to: { type: 'string' } }, strict: true });
  if (!values.to) throw new UsageError('--to <directory> is required');
  const { dataDir } = readAppConfig(env);
  if (!existsSync(dataDir)) throw new ConfigurationError(`DATA_DIR ${dataDir} does not exist`, 'DATA_DIR');
  const result = await backupDataDirectory(dataDir, existingDatabase(env), resolve(values.to));
  output.stdout(`${JSON.stringify(result, null, 2)}\n`);
  if (result.database === undefined) output.stderr(`${PG_DUMP_HINT}\n`);
}

async function restore(args: string[], env: Env, output: CliOutput): Promise<void> {
  const { values } = parseArgs({ args, options: { from: { type: 'string' } }, strict: true });
  if (!values.from) throw new UsageError('--from <directory> is required');
  const source = resolve(values.from);
  const database = readDatabaseConfig(env);
  const { dataDir } = readAppConfig(env);
  const manifest = await checkBackup(source, database);
  const result = await withoutLiveServers('restore', database, dataDir, () => restoreBackup(source, manifest, dataDir));
  output.stdout(`${JSON.stringify(result, null, 2)}\n`);
  if (database.kind === 'postgres') output.stderr(`DATA_DIR is restored; the database is not: ${PG_DUMP_HINT}\n`);
}

async function migrate(args: string[], env: Env, output: CliOutput): Promise<void> {
  const [action, ...rest] = args;
  if (rest.length > 0) throw new UsageError(`Unexpected arguments: ${rest.join(' ')}`);
  const database = existingDatabase(env);
  switch (action) {
    case 'status':
      output.stdout(`${JSON.stringify(await migrationState(database), null, 2)}\n`);
      return;
    case 'up':
      output.stdout(`${JSON.stringify({ applied: await migrateUp(database) }, null, 2)}\n`);
      return;
    case 'down': {
      const reverted = await withoutLiveServers('migrate down', database, readAppConfig(env).dataDir, () => migrateDown(database));
      output.stdout(`${JSON.stringify({ reverted: reverted ?? null }, null, 2)}\n`);
      return;
    }
    default:
      throw new UsageError(action ? `Unknown migrate action: ${action} (status, up or down)` : 'migrate needs an action: status, up or down');
  }
}

const COMMANDS: Record<string, (args: string[], env: Env, output: CliOutput) => Promise<void>> = {
  // Required when used: it loads the whole application, which the other commands do without.
  'organizations:create': async (args, env, output) => (await import('./create-organization.js')).createOrganization(args, env, output),
  'reset-password': resetUserPassword,
  backup,
  restore,
  migrate,
};

/** Runs one operator command; returns the process exit code (0 done, 1 failed, 2 usage, 78 configuration). */
export async function runCli(argv: string[], output: CliOutput, env: Env = process.env): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || ['help', '--help', '-h'].includes(command)) {
    (command === undefined ? output.stderr : output.stdout)(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  try {
    const run = COMMANDS[command];
    if (!run) throw new UsageError(`Unknown command: ${command}. Commands: ${Object.keys(COMMANDS).join(', ')}, help`);
    if (rest.includes('--help') || rest.includes('-h')) {
      output.stdout(`${USAGE}\n`);
      return 0;
    }
    await run(rest, env, output);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      output.stderr(`${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof ApiError) {
      output.stderr(`${JSON.stringify(error.toBody(), null, 2)}\n`);
      return 1;
    }
    if (error instanceof ConfigurationError) {
      output.stderr(`${error.message}\n`);
      return EX_CONFIG;
    }
    if (error instanceof ServersLive || error instanceof BackupRefused) {
      output.stderr(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

export type { CliOutput } from './cli-support';
