import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asBasic, asBearer } from '../support/auth';
import { buildingInput, signUp } from '../support/cartography';
import { binaryParser, PNG_2X2 } from '../support/images';
import { productionTree, startProcess } from '../support/server-process';
import { createTestApp, FreshDatabase, freshDatabase, testDatabaseKind } from '../support/test-app';

/**
 * The server and the CLI as an operator runs them: a copy of the repository, built, with the
 * dev dependencies pruned, started with the production command.
 */
let tree: { root: string; remove(): void };

beforeAll(() => {
  tree = productionTree();
}, 240_000);
afterAll(() => tree?.remove());

const JWT_SECRET = 'production-test-secret-that-is-long-enough-0123456789';

function serverEnv(database: FreshDatabase, extra: Record<string, string> = {}): Record<string, string> {
  return { ...database.env, NODE_ENV: 'production', JWT_SECRET, HOST: '127.0.0.1', PORT: '0', ...extra };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const isGone = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

function expectOneSchema(lines: string[]): void {
  for (const line of lines) {
    const entry = JSON.parse(line) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: expect.any(String), msg: expect.any(String), pid: expect.any(Number) });
    expect(new Date(entry.time as string).toISOString()).toBe(entry.time);
  }
}

describe('the production path', () => {
  it('has no dev dependency after the prune: nest, vitest and supertest are gone, the built server is there', () => {
    for (const dev of ['@nestjs/cli', 'vitest', 'supertest']) expect(existsSync(join(tree.root, 'node_modules', dev)), dev).toBe(false);
    expect(existsSync(join(tree.root, 'dist/src/main.js'))).toBe(true);
  });

  it('npm start serves a token and a request, logs one JSON schema, and SIGTERM to npm stops the server with exit 0 and a shutdown line', async () => {
    const database = await freshDatabase();
    try {
      const npm = startProcess('npm', ['start', '--silent'], { cwd: tree.root, env: serverEnv(database) });
      const listening = await npm.waitForLine((line) => line.msg === 'Cartograph listening (API docs at /api/docs)', 60_000);
      const admin = npm.json().find((line) => typeof line.admin_password === 'string')!;
      expect(admin).toMatchObject({ level: 'warn', admin_email: 'admin@cartograph.local' });
      const url = listening.url as string;

      const tokenResponse = await fetch(`${url}/api/v1/auth/access_tokens`, { method: 'POST', headers: asBasic('admin@cartograph.local', admin.admin_password as string) });
      expect(tokenResponse.status).toBe(201);
      const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
      const organization = await fetch(`${url}/api/v1/organizations/current_organization`, { headers: asBearer(token) });
      expect(organization.status).toBe(200);
      expect(await organization.json()).toMatchObject({ id: admin.organization_id, name: 'My organization' });
      await npm.waitForLine((line) => line.route === '/api/v1/organizations/current_organization');

      npm.child.kill('SIGTERM');
      const exit = await npm.exited;
      expect(exit, npm.stderr()).toEqual({ code: 0, signal: null });
      const lines = npm.json();
      expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['Shutting down: finishing in-flight requests', 'Cartograph stopped']));
      expect(isGone(listening.pid as number)).toBe(true);
      // Every stdout line is one JSON object of the one schema; Nest's start-up chatter is gone.
      expectOneSchema(npm.lines);
      expect(npm.lines.length).toBeLessThan(15);
      // Credentials never reach the logs: neither the Authorization header nor the token.
      expect(npm.lines.join('\n')).not.toContain(token);
      expect(npm.lines.join('\n')).not.toMatch(/authorization|x-api-key/i);
      const request = lines.find((line) => line.route === '/api/v1/organizations/current_organization')!;
      expect(request).toMatchObject({
        method: 'GET',
        status: 200,
        client: '127.0.0.1',
        user_id: expect.any(String),
        organization_id: admin.organization_id,
        request_id: expect.any(String),
        duration_ms: expect.any(Number),
      });
    } finally {
      await database.drop();
    }
  }, 120_000);

  it('a start on a taken port fails in one line with exit 1 and creates no administrator; the next start creates it, and SIGTERM to the server exits 0', async () => {
    const database = await freshDatabase();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((blocker.address() as { port: number }).port);
      const failed = startProcess('node', ['dist/src/main.js'], { cwd: tree.root, env: serverEnv(database, { PORT: port }) });
      expect((await failed.exited).code).toBe(1);
      expectOneSchema(failed.lines);
      expect(failed.lines.join('\n')).not.toContain('admin_password');
      expect(failed.json().at(-1)).toMatchObject({ level: 'fatal', msg: expect.stringContaining('EADDRINUSE') });
      expect(failed.stderr()).not.toMatch(/^\s+at /m);

      const started = startProcess('node', ['dist/src/main.js'], { cwd: tree.root, env: serverEnv(database) });
      await started.waitForLine((line) => line.msg === 'Cartograph listening (API docs at /api/docs)', 60_000);
      expect(started.json().filter((line) => typeof line.admin_password === 'string')).toHaveLength(1);
      started.child.kill('SIGTERM');
      expect(await started.exited).toEqual({ code: 0, signal: null });
      expect(started.json().at(-1)).toMatchObject({ msg: 'Cartograph stopped' });
    } finally {
      blocker.close();
      await database.drop();
    }
  }, 120_000);

  it('reports every wrong setting at once, one line each, from the environment and an env file, and starts nothing', async () => {
    const database = await freshDatabase();
    const envFile = join(database.env.DATA_DIR, 'cartograph.env');
    writeFileSync(envFile, 'LOG_LEVEL=loud\nMETRICS_TOKEN=short\n# a comment\nORGANIZATION_NAME="From the file"\n');
    try {
      const run = startProcess('node', ['dist/src/main.js', '--env-file', envFile], {
        cwd: tree.root,
        env: serverEnv(database, { PORT: 'eighty', ADMIN_PASSWORD: 'short' }),
      });
      expect((await run.exited).code).toBe(78);
      expectOneSchema(run.lines);
      const messages = run.json().map((line) => line.msg as string);
      expect(messages.at(-1)).toBe('4 setting(s) are wrong; nothing was started');
      expect(messages.sort()).toEqual([
        '4 setting(s) are wrong; nothing was started',
        'ADMIN_PASSWORD does not meet the password policy: the password must be at least 12 characters long (or leave it unset to have one generated)',
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
        'METRICS_TOKEN must be at least 16 characters long',
        'PORT must be an integer between 0 and 65535, got "eighty"',
      ]);
      expect(run.lines.join('\n')).not.toContain('"short"');

      const missing = startProcess('node', ['dist/src/main.js'], {
        cwd: tree.root,
        env: serverEnv(database, { CARTOGRAPH_ENV_FILE: join(database.env.DATA_DIR, 'nope.env') }),
      });
      expect((await missing.exited).code).toBe(78);
      expect(missing.json().at(-1)?.msg).toMatch(/^Cannot read the env file .*nope\.env: ENOENT/);
    } finally {
      await database.drop();
    }
  }, 60_000);

  it('waits for an unreachable PostgreSQL with backoff, one line per attempt, then exits 1 with a one-line error', async () => {
    const database = await freshDatabase();
    try {
      const port = await freePort();
      const started = Date.now();
      const run = startProcess('node', ['dist/src/main.js'], {
        cwd: tree.root,
        env: serverEnv(database, { DATABASE_URL: `postgres://cartograph@127.0.0.1:${port}/cartograph`, DATABASE_STARTUP_TIMEOUT_SECONDS: '2' }),
      });
      expect((await run.exited).code).toBe(1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
      expectOneSchema(run.lines);
      const attempts = run.json().filter((line) => line.msg === 'Database not reachable yet; retrying');
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      expect(attempts[0]).toMatchObject({ level: 'warn', attempt: 1, retry_in_ms: 500, error: expect.stringContaining('ECONNREFUSED') });
      expect(attempts[1]).toMatchObject({ attempt: 2, retry_in_ms: expect.any(Number) });
      const last = run.json().at(-1)!;
      expect(last).toMatchObject({ level: 'fatal', msg: expect.stringMatching(/^The database cannot be reached after 2 s \(\d+ attempts\): .*ECONNREFUSED/) });
      expect(last).not.toHaveProperty('stack');
      expect(run.stderr()).toBe('');

      // A stop requested while waiting is a clean stop.
      const waiting = startProcess('node', ['dist/src/main.js'], {
        cwd: tree.root,
        env: serverEnv(database, { DATABASE_URL: `postgres://cartograph@127.0.0.1:${port}/cartograph`, DATABASE_STARTUP_TIMEOUT_SECONDS: '60' }),
      });
      await waiting.waitForLine((line) => line.msg === 'Database not reachable yet; retrying');
      waiting.child.kill('SIGTERM');
      expect(await waiting.exited).toEqual({ code: 0, signal: null });
      expect(waiting.json().at(-1)).toMatchObject({ msg: 'Cartograph stopped' });
    } finally {
      await database.drop();
    }
  }, 60_000);
});

describe('the operator CLI', () => {
  const cli = (args: string[], env: Record<string, string>, stdin?: string) => startProcess('node', ['dist/src/cli.js', ...args], { cwd: tree.root, env, stdin });

  it('--help prints the commands; an unknown command lists them with exit 2', async () => {
    const run = cli(['--help'], {});
    expect((await run.exited).code).toBe(0);
    const text = run.lines.join('\n');
    for (const command of ['organizations:create', 'reset-password', 'backup', 'restore', 'migrate status | up | down']) expect(text).toContain(command);
    const unknown = cli(['reset-pasword'], {});
    expect((await unknown.exited).code).toBe(2);
    expect(unknown.stderr()).toContain('Unknown command: reset-pasword. Commands: organizations:create, reset-password, backup, restore, migrate, help');
  }, 60_000);

  it('refuses a DATA_DIR without a database and creates nothing there', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cartograph-cli-'));
    try {
      const mistyped = join(root, 'dtaa');
      const run = cli(['reset-password', '--email', 'a@b.test'], { DATA_DIR: mistyped, JWT_SECRET });
      expect((await run.exited).code).toBe(78);
      expect(run.stderr()).toBe(`No database at ${join(mistyped, 'cartograph.sqlite')}: check DATA_DIR (now ${mistyped}); the server creates it on its first start\n`);
      expect(existsSync(mistyped)).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('reset-password takes the password from standard input or generates one, and revokes the sessions', async () => {
    const database = await freshDatabase();
    const t = await createTestApp({ database: { ...database, drop: async () => undefined } });
    try {
      const { org, token } = await signUp(t, 'Locked out');
      const env = { ...database.env, JWT_SECRET };
      const weak = cli(['reset-password', '--email', org.email, '--password-stdin'], env, 'short\n');
      expect((await weak.exited).code).toBe(1);
      expect(JSON.parse(weak.stderr())).toMatchObject({ status: 422, errors: [{ message: 'the password must be at least 12 characters long' }] });

      const reset = cli(['reset-password', '--email', org.email.toUpperCase(), '--password-stdin'], env, 'a-new-password-from-stdin\n');
      expect((await reset.exited).code, reset.stderr()).toBe(0);
      expect(JSON.parse(reset.lines.join('\n'))).toEqual({ user_id: org.adminId, email: org.email, sessions_revoked: true });
      await t.http.post('/api/v1/auth/access_tokens').set(asBasic(org.email, org.password)).expect(401);
      await t.http.post('/api/v1/auth/access_tokens').set(asBasic(org.email, 'a-new-password-from-stdin')).expect(201);
      await t.http.get('/api/v1/organizations/current_organization').set(asBearer(token)).expect(401);

      const generated = cli(['reset-password', '--email', org.email], env);
      expect((await generated.exited).code).toBe(0);
      const { password } = JSON.parse(generated.lines.join('\n')) as { password: string };
      expect(password).toMatch(/^\S{20,}$/);
      await t.http.post('/api/v1/auth/access_tokens').set(asBasic(org.email, password)).expect(201);

      const unknown = cli(['reset-password', '--email', 'nobody@example.test'], env);
      expect((await unknown.exited).code).toBe(1);
      expect(JSON.parse(unknown.stderr())).toMatchObject({ status: 404 });
    } finally {
      await t.close();
      await database.drop();
    }
  }, 90_000);

  it('migrate down reverts the last migrations and migrate up re-applies them on a populated database, which keeps its data', async () => {
    const database = await freshDatabase();
    const keep = { ...database, drop: async () => undefined };
    const env = { ...database.env, JWT_SECRET };
    let t = await createTestApp({ database: keep });
    let buildingId: number;
    let auth: Record<string, string>;
    let credentials: { email: string; password: string };
    try {
      const cartographer = await signUp(t, 'Upgrade');
      auth = cartographer.auth;
      credentials = cartographer.org;
      buildingId = (
        await t.http
          .post('/api/v1/buildings')
          .set(auth)
          .send(buildingInput({ name: 'Before the rollback' }))
          .expect(201)
      ).body.id;
    } finally {
      await t.close();
    }
    try {
      const status = cli(['migrate', 'status'], env);
      expect((await status.exited).code).toBe(0);
      const before = JSON.parse(status.lines.join('\n')) as { applied: string[]; pending: string[] };
      expect(before.pending).toEqual([]);

      const reverted: string[] = [];
      for (let step = 0; step < 2; step += 1) {
        const down = cli(['migrate', 'down'], env);
        expect((await down.exited).code, down.stderr()).toBe(0);
        reverted.push((JSON.parse(down.lines.join('\n')) as { reverted: string }).reverted);
      }
      expect(reverted).toEqual(before.applied.slice(-2).reverse());
      const after = cli(['migrate', 'status'], env);
      await after.exited;
      expect(JSON.parse(after.lines.join('\n'))).toEqual({ applied: before.applied.slice(0, -2), pending: before.applied.slice(-2) });

      const up = cli(['migrate', 'up'], env);
      expect((await up.exited).code, up.stderr()).toBe(0);
      expect(JSON.parse(up.lines.join('\n'))).toEqual({ applied: before.applied.slice(-2) });

      t = await createTestApp({ database });
      const token = (await t.http.post('/api/v1/auth/access_tokens').set(asBasic(credentials.email, credentials.password)).expect(201)).body.access_token;
      const building = await t.http.get(`/api/v1/buildings/${buildingId}`).set(asBearer(token)).expect(200);
      expect(building.body.name).toBe('Before the rollback');
    } finally {
      await t.close();
    }
  }, 120_000);

  it('backup copies the database online and the data directory; the copy serves the same data', async () => {
    const database = await freshDatabase();
    const t = await createTestApp({ database: { ...database, drop: async () => undefined }, env: { IMAGE_STORAGE: 'local', IMAGE_STORAGE_LOCAL_SHARED: 'true' } });
    const target = join(tmpdir(), `cartograph-backup-${process.pid}-${Date.now()}`);
    try {
      const { auth, org } = await signUp(t, 'Backed up');
      const buildingId = (
        await t.http
          .post('/api/v1/buildings')
          .set(auth)
          .send(buildingInput({ name: 'In the backup' }))
          .expect(201)
      ).body.id;
      const image = (await t.http.post('/api/v1/images').set(auth).attach('image', PNG_2X2, 'map.png').expect(201)).body as { id: string };
      writeFileSync(join(database.env.DATA_DIR, 'jwt-secret'), `${'k'.repeat(64)}\n`, { mode: 0o600 });

      const run = cli(['backup', '--to', target], { ...database.env, JWT_SECRET });
      expect((await run.exited).code, run.stderr()).toBe(0);
      const result = JSON.parse(run.lines.join('\n')) as { files: string[]; database: string | null };
      expect(result.files).toEqual(expect.arrayContaining(['jwt-secret', 'images']));
      expect(readFileSync(join(target, 'jwt-secret'), 'utf8')).toBe(`${'k'.repeat(64)}\n`);
      expect(JSON.parse(readFileSync(join(target, 'BACKUP.json'), 'utf8'))).toMatchObject({ database: { kind: testDatabaseKind() } });
      const again = cli(['backup', '--to', target], { ...database.env, JWT_SECRET });
      expect((await again.exited).code).toBe(1);
      expect(again.stderr()).toContain('exists and is not an empty directory');

      if (testDatabaseKind() === 'postgres') {
        expect(result.database).toBeUndefined();
        expect(run.stderr()).toContain('pg_dump --format=custom');
        return;
      }
      expect(readdirSync(target)).toEqual(expect.arrayContaining(['cartograph.sqlite', 'images', 'jwt-secret', 'BACKUP.json']));
      expect(readdirSync(target).some((name) => name.endsWith('-wal') || name.endsWith('-shm'))).toBe(false);
      const restored = await createTestApp({
        database: { env: { DATA_DIR: target }, drop: async () => rmSync(target, { recursive: true, force: true }) },
        env: { IMAGE_STORAGE: 'local' },
      });
      try {
        const token = (await restored.http.post('/api/v1/auth/access_tokens').set(asBasic(org.email, org.password)).expect(201)).body.access_token;
        expect((await restored.http.get(`/api/v1/buildings/${buildingId}`).set(asBearer(token)).expect(200)).body.name).toBe('In the backup');
        const bytes = await restored.http.get(`/api/v1/images/${image.id}`).set(asBearer(token)).buffer(true).parse(binaryParser).expect(200);
        expect(Buffer.compare(bytes.body as Buffer, PNG_2X2)).toBe(0);
      } finally {
        await restored.close();
      }
    } finally {
      await t.close();
      await database.drop();
      rmSync(target, { recursive: true, force: true });
    }
  }, 90_000);
});
