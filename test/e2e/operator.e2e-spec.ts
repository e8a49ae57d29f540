import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/cli';
import { migrateUp } from '../../src/cli/migrate';
import { readDatabaseConfig } from '../../src/config/database.config';
import { loggerToSink } from '../../src/common/logging/request-logging';
import { readSetupConfig } from '../../src/config/setup.config';
import { FirstAdminService } from '../../src/setup/first-admin.service';
import { asBasic, asBearer, passwordTokens } from '../support/auth';
import { createTestApp, freshDatabase, FreshDatabase, TestApp } from '../support/test-app';

function captureOutput(stdin?: string) {
  const output = { stdout: '', stderr: '' };
  return {
    output,
    io: {
      stdout: (text: string) => (output.stdout += text),
      stderr: (text: string) => (output.stderr += text),
      stdin: async () => stdin ?? '',
    },
  };
}

/** A database as the server's first start leaves it (the CLI never creates one). */
async function serverDatabase(): Promise<FreshDatabase> {
  const database = await freshDatabase();
  await migrateUp(readDatabaseConfig(database.env));
  return database;
}

/** A logger whose lines land, parsed, in `lines`. */
function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  return { lines, logger: loggerToSink((line) => lines.push(JSON.parse(line) as Record<string, unknown>)) };
}

describe('first administrator', () => {
  let t: TestApp | undefined;
  afterEach(async () => t?.close());

  it('generates a password when ADMIN_PASSWORD is unset, logs it once in one JSON line, and does nothing on a second start', async () => {
    t = await createTestApp({ env: { ADMIN_EMAIL: 'Boss@Example.test', ORGANIZATION_NAME: 'Boss Inc' } });
    const { lines: printed, logger } = capturedLogger();
    const created = await t.app.get(FirstAdminService).ensureFirstAdmin(logger);
    expect(created).toMatchObject({ admin_email: 'boss@example.test' });
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatchObject({ level: 'warn', admin_email: 'boss@example.test', organization_id: created!.organization_id });
    expect(printed[0].msg).toContain('shown this once');
    const password = printed[0].admin_password as string;
    expect(password).toBeDefined();
    expect(password!.length).toBeGreaterThanOrEqual(20);
    const tokens = await passwordTokens(t, 'boss@example.test', password!);
    const organization = await t.http.get('/api/v1/organizations/current_organization').set(asBearer(tokens.access_token)).expect(200);
    expect(organization.body.name).toBe('Boss Inc');

    expect(await t.app.get(FirstAdminService).ensureFirstAdmin(logger)).toBeNull();
    expect(printed).toHaveLength(1);
  });

  it('uses ADMIN_PASSWORD when it is set and never logs it; on a later start says in one line that it is ignored', async () => {
    const database = await freshDatabase();
    t = await createTestApp({ database, env: { ADMIN_EMAIL: 'chief@example.test', ADMIN_PASSWORD: 'a-chosen-password-42' } });
    const first = capturedLogger();
    await t.app.get(FirstAdminService).ensureFirstAdmin(first.logger);
    expect(first.lines).toHaveLength(1);
    expect(first.lines[0]).not.toHaveProperty('admin_password');
    expect(JSON.stringify(first.lines)).not.toContain('a-chosen-password-42');
    await t.http.post('/api/v1/auth/access_tokens').set(asBasic('chief@example.test', 'a-chosen-password-42')).expect(201);

    const later = capturedLogger();
    expect(await t.app.get(FirstAdminService).ensureFirstAdmin(later.logger)).toBeNull();
    expect(later.lines).toHaveLength(1);
    expect(later.lines[0].msg).toMatch(/^ADMIN_PASSWORD is ignored: the database has users already .*reset-password/);
  });

  it('refuses a weak ADMIN_PASSWORD before anything starts, naming the password policy', () => {
    expect(() => readSetupConfig({ ADMIN_PASSWORD: 'short' })).toThrow('ADMIN_PASSWORD does not meet the password policy: the password must be at least 12 characters long');
    expect(() => readSetupConfig({ ADMIN_PASSWORD: 'admin@cartograph.local' })).toThrow('the password must not be the e-mail address');
    expect(readSetupConfig({ ADMIN_PASSWORD: 'twelve-chars' }).adminPassword).toBe('twelve-chars');
  });
});

describe('npm run cli -- organizations:create', () => {
  let database: FreshDatabase | undefined;
  let t: TestApp | undefined;
  const saved = { ...process.env };
  afterEach(async () => {
    process.env = { ...saved };
    if (t) await t.close();
    else await database?.drop();
    t = undefined;
  });

  it('creates an organization with its ADMIN_ORG and prints the ids as JSON', async () => {
    database = await serverDatabase();
    Object.assign(process.env, database.env, { JWT_SECRET: 'x'.repeat(40) });
    const { output, io } = captureOutput('warehouse-seven-pw\n');
    const code = await runCli(['organizations:create', '--name', 'Warehouse 7', '--admin-email', 'ops@w7.example.test', '--password-stdin'], io);
    expect(output.stderr).toBe('');
    expect(code).toBe(0);
    const printed = JSON.parse(output.stdout);
    expect(printed).toEqual({ organization_id: expect.any(String), admin_user_id: expect.any(String), admin_email: 'ops@w7.example.test' });

    t = await createTestApp({ database });
    const tokens = await passwordTokens(t, 'ops@w7.example.test', 'warehouse-seven-pw');
    const organization = await t.http.get('/api/v1/organizations/current_organization').set(asBearer(tokens.access_token)).expect(200);
    expect(organization.body).toMatchObject({ id: printed.organization_id, name: 'Warehouse 7' });
  });

  it('refuses a taken e-mail with a conflict and creates nothing', async () => {
    database = await serverDatabase();
    Object.assign(process.env, database.env, { JWT_SECRET: 'x'.repeat(40) });
    const first = captureOutput();
    expect(await runCli(['organizations:create', '--name', 'A', '--admin-email', 'dup@example.test'], first.io)).toBe(0);
    expect(JSON.parse(first.output.stdout).admin_password).toMatch(/^\S{20,}$/);
    const second = captureOutput('another-password-1');
    expect(await runCli(['organizations:create', '--name', 'B', '--admin-email', 'DUP@example.test', '--password-stdin'], second.io)).toBe(1);
    expect(JSON.parse(second.output.stderr)).toMatchObject({ status: 409, code: 'conflict' });
    t = await createTestApp({ database });
    const [{ count }] = await t.dataSource.query('SELECT COUNT(*) AS "count" FROM "organizations"');
    expect(Number(count)).toBe(1);
  });

  it('refuses, for every command, a DATA_DIR that holds no database, and creates nothing there', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cartograph-cli-'));
    try {
      const mistyped = join(root, 'dtaa');
      const commands = [
        ['organizations:create', '--name', 'X', '--admin-email', 'x@y.test'],
        ['reset-password', '--email', 'a@b.test'],
        ['migrate', 'status'],
        ['migrate', 'up'],
        ['migrate', 'down'],
        ['backup', '--to', join(root, 'out')],
      ];
      for (const args of commands) {
        const { output, io } = captureOutput();
        expect(await runCli(args, io, { DATA_DIR: mistyped }), args.join(' ')).toBe(78);
        expect(output.stderr).toMatch(/^(No database at .*dtaa\/cartograph\.sqlite: check DATA_DIR|DATA_DIR .*dtaa does not exist)/);
      }
      expect(existsSync(mistyped)).toBe(false);
      expect(existsSync(join(root, 'out'))).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('answers help and --help with the commands, and an unknown command with the list', async () => {
    for (const help of ['help', '--help', '-h']) {
      const { output, io } = captureOutput();
      expect(await runCli([help], io)).toBe(0);
      expect(output.stdout).toContain('reset-password --email <email> [--password-stdin]');
    }
    const { output, io } = captureOutput();
    expect(await runCli(['--version'], io)).toBe(2);
    expect(output.stderr).toContain('Unknown command: --version. Commands: organizations:create, reset-password, backup, restore, migrate, help');
  });

  it('refuses a password on the command line', async () => {
    const { output, io } = captureOutput();
    expect(await runCli(['organizations:create', '--name', 'A', '--admin-email', 'a@b.test', '--admin-password', 'visible-in-ps'], io)).toBe(2);
    expect(output.stderr).toContain('Passwords are not taken from the command line');
  });

  it('explains its usage on bad arguments', async () => {
    const { output, io } = captureOutput();
    expect(await runCli(['organizations:create', '--name', 'No admin'], io)).toBe(2);
    expect(output.stderr).toContain('--admin-email');
    expect(await runCli(['nonsense'], io)).toBe(2);
  });
});
