import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/cli';
import { FirstAdminService } from '../../src/setup/first-admin.service';
import { asBasic, asBearer, passwordTokens } from '../support/auth';
import { createTestApp, freshDatabase, FreshDatabase, TestApp } from '../support/test-app';

function captureOutput() {
  const output = { stdout: '', stderr: '' };
  return { output, io: { stdout: (text: string) => (output.stdout += text), stderr: (text: string) => (output.stderr += text) } };
}

describe('first administrator', () => {
  let t: TestApp | undefined;
  afterEach(async () => t?.close());

  it('generates a password when ADMIN_PASSWORD is unset, prints it once, and does nothing on a second start', async () => {
    t = await createTestApp({ env: { ADMIN_EMAIL: 'Boss@Example.test', ORGANIZATION_NAME: 'Boss Inc' } });
    const printed: string[] = [];
    const created = await t.app.get(FirstAdminService).ensureFirstAdmin((text) => printed.push(text));
    expect(created).toMatchObject({ admin_email: 'boss@example.test' });
    expect(printed).toHaveLength(1);
    const password = /password: (\S+)/.exec(printed[0])?.[1];
    expect(password).toBeDefined();
    expect(password!.length).toBeGreaterThanOrEqual(20);
    const tokens = await passwordTokens(t, 'boss@example.test', password!);
    const organization = await t.http.get('/api/v1/organizations/current_organization').set(asBearer(tokens.access_token)).expect(200);
    expect(organization.body.name).toBe('Boss Inc');

    expect(await t.app.get(FirstAdminService).ensureFirstAdmin((text) => printed.push(text))).toBeNull();
    expect(printed).toHaveLength(1);
  });

  it('uses ADMIN_PASSWORD when it is set and prints nothing', async () => {
    t = await createTestApp({ env: { ADMIN_EMAIL: 'chief@example.test', ADMIN_PASSWORD: 'a-chosen-password-42' } });
    const printed: string[] = [];
    await t.app.get(FirstAdminService).ensureFirstAdmin((text) => printed.push(text));
    expect(printed).toEqual([]);
    await t.http.post('/api/v1/auth/access_tokens').set(asBasic('chief@example.test', 'a-chosen-password-42')).expect(201);
  });

  it('refuses a weak ADMIN_PASSWORD', async () => {
    t = await createTestApp({ env: { ADMIN_PASSWORD: 'short' } });
    await expect(t.app.get(FirstAdminService).ensureFirstAdmin(() => undefined)).rejects.toMatchObject({ status: 422 });
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
    database = await freshDatabase();
    Object.assign(process.env, database.env, { JWT_SECRET: 'x'.repeat(40) });
    const { output, io } = captureOutput();
    const code = await runCli(['organizations:create', '--name', 'Warehouse 7', '--admin-email', 'ops@w7.example.test', '--admin-password', 'warehouse-seven-pw'], io);
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
    database = await freshDatabase();
    Object.assign(process.env, database.env, { JWT_SECRET: 'x'.repeat(40) });
    const first = captureOutput();
    expect(await runCli(['organizations:create', '--name', 'A', '--admin-email', 'dup@example.test'], first.io)).toBe(0);
    expect(JSON.parse(first.output.stdout).admin_password).toMatch(/^\S{20,}$/);
    const second = captureOutput();
    expect(await runCli(['organizations:create', '--name', 'B', '--admin-email', 'DUP@example.test', '--admin-password', 'another-password-1'], second.io)).toBe(1);
    expect(JSON.parse(second.output.stderr)).toMatchObject({ status: 409, code: 'conflict' });
    t = await createTestApp({ database });
    const [{ count }] = await t.dataSource.query('SELECT COUNT(*) AS "count" FROM "organizations"');
    expect(Number(count)).toBe(1);
  });

  it('explains its usage on bad arguments', async () => {
    const { output, io } = captureOutput();
    expect(await runCli(['organizations:create', '--name', 'No admin'], io)).toBe(2);
    expect(output.stderr).toContain('--admin-email');
    expect(await runCli(['nonsense'], io)).toBe(2);
  });
});
