import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asBasic, asBearer } from '../support/auth';
import { ensureServerBuilt, RunningProcess, startProcess } from '../support/server-process';
import { SseClient } from '../support/sse-client';
import { FreshDatabase, freshDatabase, testDatabaseKind } from '../support/test-app';
import { MIGRATIONS } from '../../migrations';
import { packageVersion } from '../../src/version/package-version';

/**
 * The server and the CLI as processes, from dist/ (`node dist/src/main.js`, `node
 * dist/src/cli.js`), on the database of the run: how they start, report their settings,
 * stop, refuse to share what must not be shared, and back up and restore (issue 26 part B).
 */
let root: string;
beforeAll(async () => {
  root = await ensureServerBuilt();
}, 240_000);

const JWT_SECRET = 'operations-test-secret-that-is-long-enough-0123456789';
const ADMIN_EMAIL = 'admin@cartograph.local';
const ADMIN_PASSWORD = 'operations-admin-password-42';
const LISTENING = 'Cartograph listening (API docs at /api/docs)';
const postgres = testDatabaseKind() === 'postgres';

function serverEnv(database: FreshDatabase, extra: Record<string, string> = {}): Record<string, string> {
  return { ...database.env, NODE_ENV: 'production', JWT_SECRET, ADMIN_PASSWORD, HOST: '127.0.0.1', PORT: '0', ...extra };
}

const server = (env: Record<string, string>, options: { uid?: number; args?: string[] } = {}) =>
  startProcess('node', [...(options.args ?? []), 'dist/src/main.js'], { cwd: root, env, uid: options.uid });
const cli = (args: string[], env: Record<string, string>) => startProcess('node', ['dist/src/cli.js', ...args], { cwd: root, env });

async function listening(process: RunningProcess): Promise<{ url: string; port: number }> {
  const line = await process.waitForLine((entry) => entry.msg === LISTENING, 90_000);
  return { url: `http://127.0.0.1:${line.port as number}`, port: line.port as number };
}

async function adminToken(url: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/auth/access_tokens`, { method: 'POST', headers: asBasic(ADMIN_EMAIL, ADMIN_PASSWORD) });
  expect(response.status).toBe(201);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Lines logged from the one whose message is `from` on. */
const linesFrom = (process: RunningProcess, from: string) => {
  const lines = process.json();
  return lines.slice(lines.findIndex((line) => line.msg === from));
};

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function streamLeaseRows(database: FreshDatabase): Promise<number> {
  if (database.url) {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      return Number((await client.query('SELECT COUNT(*) AS n FROM stream_leases')).rows[0].n);
    } finally {
      await client.end();
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require('better-sqlite3') as new (path: string, options: { readonly: boolean }) => { prepare(sql: string): { get(): { n: number } }; close(): void };
  const db = new Database(join(database.env.DATA_DIR, 'cartograph.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT COUNT(*) AS n FROM stream_leases').get().n;
  } finally {
    db.close();
  }
}

const STREAM = '/api/v1/realtime/stream';

describe('start-up', () => {
  it('logs a start-up line (version, database kind without credentials, data folder) and the address really bound; probes are not logged at info', async () => {
    const database = await freshDatabase();
    const env = serverEnv(database, { HOST: '0.0.0.0' });
    let secret: string | undefined;
    if (database.url) {
      // The throwaway cluster trusts local connections: a password in the URL must never be logged all the same.
      const url = new URL(database.url);
      url.password = secret = 'url-secret-4711';
      env.DATABASE_URL = url.toString();
    }
    const run = server(env);
    try {
      const { url, port } = await listening(run);
      const start = run.json().find((line) => line.msg === 'Cartograph starting')!;
      expect(start).toMatchObject({
        level: 'info',
        version: packageVersion(),
        node_version: process.version,
        environment: 'production',
        database: testDatabaseKind(),
        data_dir: database.env.DATA_DIR,
      });
      if (postgres) expect(start.database_server).toBe(`127.0.0.1:${new URL(database.url!).port}${new URL(database.url!).pathname}`);
      else expect(start.database_file).toBe(join(database.env.DATA_DIR, 'cartograph.sqlite'));
      expect(run.json().find((line) => line.msg === LISTENING)).toMatchObject({ address: '0.0.0.0', port, url: `http://0.0.0.0:${port}` });
      for (const probe of ['/health/live', '/health/ready']) expect((await fetch(`${url}${probe}`)).status).toBe(200);
      expect((await fetch(`${url}/api/v1/version`)).status).toBe(401);
      await run.waitForLine((line) => line.route === '/api/v1/version');
      expect(run.json().filter((line) => String(line.route ?? '').startsWith('/health/'))).toEqual([]);
      if (secret) for (const line of run.lines) expect(line).not.toContain(secret);
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
      await database.drop();
    }
  }, 120_000);

  it('with LOG_LEVEL=error writes a generated first-admin password once to a 0600 file in DATA_DIR, and says so', async () => {
    const database = await freshDatabase();
    const port = await freePort();
    const env = serverEnv(database, { LOG_LEVEL: 'error', PORT: String(port) });
    delete env.ADMIN_PASSWORD;
    const run = server(env);
    try {
      const line = await run.waitForLine((entry) => entry.context === 'FirstAdmin', 90_000);
      const file = join(database.env.DATA_DIR, 'first-admin-password');
      expect(line).toMatchObject({ level: 'error', admin_email: ADMIN_EMAIL, admin_password_file: file });
      expect(line.msg).toContain(`written to ${file} (mode 0600)`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const [email, password] = readFileSync(file, 'utf8').trim().split('\n');
      expect(email).toBe(ADMIN_EMAIL);
      for (const logged of run.lines) expect(logged).not.toContain(password);
      const url = `http://127.0.0.1:${port}`;
      const token = await fetch(`${url}/api/v1/auth/access_tokens`, { method: 'POST', headers: asBasic(email, password) });
      expect(token.status).toBe(201);
      // Only error lines at LOG_LEVEL=error: no start-up chatter.
      expect(new Set(run.json().map((entry) => entry.level))).toEqual(new Set(['error']));
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
      await database.drop();
    }
  }, 120_000);
});

describe('configuration errors', () => {
  // A preload that tells, as the process exits, whether the application itself was loaded.
  const probe = join(tmpdir(), `cartograph-loaded-probe-${process.pid}.cjs`);
  beforeAll(() =>
    writeFileSync(
      probe,
      [
        // Node's module hooks see require() and import() alike.
        'const seen = new Set();',
        "require('node:module').registerHooks({ load(url, context, next) {",
        "  if (url.endsWith('/dist/src/app.module.js') || url.includes('/node_modules/typeorm/')) seen.add(url.includes('typeorm') ? 'typeorm' : 'app.module');",
        '  return next(url, context);',
        '} });',
        "process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify([...seen].sort()) + String.fromCharCode(10)));",
        '',
      ].join('\n'),
    ),
  );
  afterAll(() => rmSync(probe, { force: true }));
  // Every thread of the process reports (worker threads run the preload too): what any of them loaded.
  const loaded = (run: RunningProcess) => {
    const reports = [...run.stderr().matchAll(/^LOADED (.*)$/gm)].map((match) => JSON.parse(match[1]) as string[]);
    return reports.length === 0 ? null : [...new Set(reports.flat())].sort();
  };

  it('are reported before the application is loaded, with exit 78 (EX_CONFIG); a too-short JWT_SECRET is too short, not missing; near misses are named', async () => {
    const database = await freshDatabase();
    try {
      const run = server(serverEnv(database, { JWT_SECRET: 'short', JWT_SECRT: 'x'.repeat(40), CARTOGRAPH_PORT_NUMBER: '1' }), { args: ['--require', probe] });
      expect((await run.exited).code).toBe(78);
      const lines = run.json();
      expect(lines.map((line) => [line.level, line.msg])).toEqual([
        ['warn', 'CARTOGRAPH_PORT_NUMBER is not a Cartograph setting and is ignored (settings have no CARTOGRAPH_ prefix, except CARTOGRAPH_ENV_FILE)'],
        ['warn', 'JWT_SECRT is not a Cartograph setting and is ignored; did you mean JWT_SECRET?'],
        ['fatal', 'JWT_SECRET is too short (5 characters): it must be at least 32 characters long (generate one with: openssl rand -base64 48)'],
        ['fatal', '1 setting(s) are wrong; nothing was started'],
      ]);
      expect(loaded(run)).toEqual([]);
    } finally {
      await database.drop();
    }
  }, 60_000);

  it('name DATA_DIR when the server may not write it (no raw EACCES), exit 78', async () => {
    const database = await freshDatabase();
    const parent = mkdtempSync(join(tmpdir(), 'cartograph-unwritable-'));
    try {
      const dataDir = join(parent, 'data');
      mkdirSync(dataDir, { mode: 0o700 });
      chmodSync(parent, 0o755);
      // As root (CI) permissions do not stop us: the server runs as nobody, for whom the folder is closed.
      const asRoot = process.getuid?.() === 0;
      if (!asRoot) chmodSync(dataDir, 0o500);
      // SQLite, and a JWT secret to generate: everything the folder is for.
      const { DATABASE_URL: _postgres, JWT_SECRET: _secret, ...env } = serverEnv(database, { DATA_DIR: dataDir, NODE_ENV: 'development' });
      const run = server(env, asRoot ? { uid: 65534 } : {});
      expect((await run.exited).code).toBe(78);
      const messages = run.json().map((line) => line.msg as string);
      expect(messages[0]).toMatch(
        new RegExp(
          `^DATA_DIR ${dataDir} cannot be written: permission denied\\. The server keeps its SQLite database, uploaded images, the generated JWT secret there: make the folder writable by this user \\(uid \\d+\\), or set DATA_DIR to one it can write$`,
        ),
      );
      expect(messages).toHaveLength(2);
      expect(run.lines.join('\n') + run.stderr()).not.toMatch(/EACCES/);
    } finally {
      chmodSync(join(parent, 'data'), 0o700);
      rmSync(parent, { recursive: true, force: true });
      await database.drop();
    }
  }, 60_000);

  it('the probe sees the application when it does load (so its empty answer above means something)', async () => {
    const database = await freshDatabase();
    const run = server(serverEnv(database), { args: ['--require', probe] });
    try {
      await listening(run);
    } finally {
      run.child.kill('SIGTERM');
      expect((await run.exited).code).toBe(0);
      await database.drop();
    }
    expect(loaded(run)).toEqual(['app.module', 'typeorm']);
  }, 120_000);
});

describe('stopping', () => {
  it('SIGHUP drains and exits 0 with its log line: open streams are told `shutdown`, their places are given back', async () => {
    const database = await freshDatabase();
    const run = server(serverEnv(database));
    try {
      const { url, port } = await listening(run);
      const token = await adminToken(url);
      const streams = await Promise.all([1, 2].map(() => SseClient.openOnPort(port, STREAM, asBearer(token))));
      for (const stream of streams) expect(stream.status).toBe(200);
      expect(await streamLeaseRows(database)).toBe(2);
      run.child.kill('SIGHUP');
      expect(await run.exited).toEqual({ code: 0, signal: null });
      for (const stream of streams) {
        await stream.until((client) => client.ended, 10_000, 'the end of the stream');
        expect(stream.events('close')).toEqual([{ reason: 'shutdown' }]);
      }
      const stop = linesFrom(run, 'Shutting down: finishing in-flight requests');
      expect(stop[0]).toMatchObject({ level: 'info', signal: 'SIGHUP', context: 'Shutdown' });
      expect(stop.at(-1)).toMatchObject({ level: 'info', msg: 'Cartograph stopped' });
      expect(stop.filter((line) => ['warn', 'error', 'fatal'].includes(line.level as string))).toEqual([]);
      expect(await streamLeaseRows(database)).toBe(0);
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
      await database.drop();
    }
  }, 120_000);

  it('SIGTERM with streams open logs no error or warning, and another instance (PostgreSQL) or the restarted one (SQLite) opens the full number of streams at once', async () => {
    const database = await freshDatabase();
    const env = serverEnv(database, { STREAMS_PER_ORGANIZATION: '3' });
    const first = server(env);
    let second: RunningProcess | undefined;
    try {
      const a = await listening(first);
      const token = await adminToken(a.url);
      const held = await Promise.all([1, 2, 3].map(() => SseClient.openOnPort(a.port, STREAM, asBearer(token))));
      for (const stream of held) expect(stream.status).toBe(200);
      if (postgres) {
        // A second instance on the same database counts the first one's streams.
        second = server(env);
        const b = await listening(second);
        const refused = await SseClient.openOnPort(b.port, STREAM, asBearer(token));
        expect(refused.status).toBe(429);
      }
      first.child.kill('SIGTERM');
      expect(await first.exited).toEqual({ code: 0, signal: null });
      const stop = linesFrom(first, 'Shutting down: finishing in-flight requests');
      expect(stop.at(-1)?.msg).toBe('Cartograph stopped');
      expect(stop.filter((line) => ['warn', 'error', 'fatal'].includes(line.level as string))).toEqual([]);
      expect(await streamLeaseRows(database)).toBe(0);

      second ??= server(env);
      const b = await listening(second);
      const reopened = await Promise.all([1, 2, 3].map(() => SseClient.openOnPort(b.port, STREAM, asBearer(token))));
      expect(reopened.map((stream) => stream.status)).toEqual([200, 200, 200]);
      for (const stream of [...held, ...reopened]) stream.close();
    } finally {
      for (const run of [first, second]) if (run && run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGTERM');
      await Promise.all([first.exited, second?.exited]);
      await database.drop();
    }
  }, 180_000);
});

describe.runIf(!postgres)('interlocks (SQLite)', () => {
  it('a second server on the same DATA_DIR is refused with exit 78; so are migrate down and restore; reset-password and backup run beside it; nothing is left locked after a SIGKILL', async () => {
    const database = await freshDatabase();
    const env = serverEnv(database);
    const first = server(env);
    const backupDir = join(tmpdir(), `cartograph-interlock-backup-${process.pid}-${Date.now()}`);
    try {
      await listening(first);
      const second = server(env);
      expect((await second.exited).code).toBe(78);
      expect(second.json().at(-1)).toMatchObject({
        level: 'fatal',
        msg: `DATA_DIR ${database.env.DATA_DIR} is in use by another Cartograph process (it holds ${join(database.env.DATA_DIR, 'cartograph.lock')}): one SQLite DATA_DIR serves one server. Stop the other process first (\`fuser -v ${database.env.DATA_DIR}/cartograph.lock\` names it), or use PostgreSQL (DATABASE_URL) to run several instances`,
      });

      const down = cli(['migrate', 'down'], env);
      expect((await down.exited).code).toBe(1);
      expect(down.stderr()).toBe(
        `migrate down is refused while Cartograph runs: stop every server first (DATA_DIR ${database.env.DATA_DIR} is in use by another Cartograph process (it holds ${join(database.env.DATA_DIR, 'cartograph.lock')}))\n`,
      );
      const status = cli(['migrate', 'status'], env);
      expect((await status.exited).code).toBe(0);
      expect((JSON.parse(status.lines.join('\n')) as { pending: string[] }).pending).toEqual([]);

      const backup = cli(['backup', '--to', backupDir], env);
      expect((await backup.exited).code, backup.stderr()).toBe(0);
      const restore = cli(['restore', '--from', backupDir], env);
      expect((await restore.exited).code).toBe(1);
      expect(restore.stderr()).toMatch(/^restore is refused while Cartograph runs: stop every server first/);

      const reset = cli(['reset-password', '--email', ADMIN_EMAIL], env);
      expect((await reset.exited).code, reset.stderr()).toBe(0);

      first.child.kill('SIGKILL');
      await first.exited;
      const third = server(env);
      await listening(third);
      third.child.kill('SIGTERM');
      expect((await third.exited).code).toBe(0);
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
      await first.exited;
      rmSync(backupDir, { recursive: true, force: true });
      await database.drop();
    }
  }, 180_000);
});

describe.runIf(postgres)('interlocks (PostgreSQL)', () => {
  it('migrate down and restore are refused while an instance runs on the database, naming it; once it stopped, migrate down runs', async () => {
    const database = await freshDatabase();
    const env = serverEnv(database);
    const run = server(env);
    try {
      await listening(run);
      const down = cli(['migrate', 'down'], env);
      expect((await down.exited).code).toBe(1);
      expect(down.stderr()).toBe(
        'migrate down is refused while Cartograph runs: stop every server first (1 Cartograph instance is running on this database (connected from 127.0.0.1))\n',
      );
      const backupDir = join(tmpdir(), `cartograph-interlock-backup-${process.pid}-${Date.now()}`);
      try {
        const backup = cli(['backup', '--to', backupDir], env);
        expect((await backup.exited).code, backup.stderr()).toBe(0);
        const restore = cli(['restore', '--from', backupDir], { ...env, DATA_DIR: join(backupDir, 'elsewhere') });
        expect((await restore.exited).code).toBe(1);
        expect(restore.stderr()).toMatch(/^restore is refused while Cartograph runs: stop every server first \(1 Cartograph instance is running/);
      } finally {
        rmSync(backupDir, { recursive: true, force: true });
      }

      run.child.kill('SIGTERM');
      expect((await run.exited).code).toBe(0);
      const after = cli(['migrate', 'down'], env);
      expect((await after.exited).code, after.stderr()).toBe(0);
      expect(JSON.parse(after.lines.join('\n'))).toEqual({ reverted: expect.stringMatching(/^\w+\d{13}$/) });
    } finally {
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
      await run.exited;
      await database.drop();
    }
  }, 180_000);
});

describe('backup and restore', () => {
  interface Manifest {
    format: number;
    application: { name: string; version: string };
    database: { kind: string; migration: string | null; migrations_applied: number; file: string | null };
    files: Array<{ path: string; bytes: number; sha256: string }>;
  }
  const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
  /** Every file and folder under `dir`, relative, with its permission bits. */
  const modes = (dir: string): Array<[string, number]> =>
    readdirSync(dir, { recursive: true, withFileTypes: false })
      .map((path) => String(path))
      .sort()
      .map((path) => [path, statSync(join(dir, path)).mode & 0o777]);

  async function populatedServer(database: FreshDatabase): Promise<Record<string, string>> {
    const env = serverEnv(database, { IMAGE_STORAGE: 'local', IMAGE_STORAGE_LOCAL_SHARED: 'true' });
    const run = server(env);
    try {
      const { url } = await listening(run);
      const token = await adminToken(url);
      const building = await fetch(`${url}/api/v1/buildings`, {
        method: 'POST',
        headers: { ...asBearer(token), 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Backed up', location: { lat: 42.87, lng: -8.56 }, dimensions: { width: 50, length: 30 }, rotation: 0 }),
      });
      expect(building.status).toBe(201);
    } finally {
      run.child.kill('SIGTERM');
      expect((await run.exited).code).toBe(0);
    }
    // What an operator's own tools may leave readable by others: the backup makes it private.
    mkdirSync(join(database.env.DATA_DIR, 'images'), { recursive: true, mode: 0o755 });
    chmodSync(join(database.env.DATA_DIR, 'images'), 0o755);
    writeFileSync(join(database.env.DATA_DIR, 'images', 'plan.png'), 'not really a png', { mode: 0o644 });
    chmodSync(join(database.env.DATA_DIR, 'images', 'plan.png'), 0o644);
    return env;
  }

  it('writes owner-only files in owner-only folders, and a manifest with the version, the migration level and each file checksum', async () => {
    const database = await freshDatabase();
    const target = join(tmpdir(), `cartograph-backup-modes-${process.pid}-${Date.now()}`, 'nested');
    try {
      const env = await populatedServer(database);
      const run = cli(['backup', '--to', target], env);
      expect((await run.exited).code, run.stderr()).toBe(0);
      expect(statSync(target).mode & 0o777).toBe(0o700);
      const entries = modes(target);
      expect(entries.length).toBeGreaterThanOrEqual(postgres ? 3 : 4);
      for (const [path, mode] of entries) expect([path, mode]).toEqual([path, statSync(join(target, path)).isDirectory() ? 0o700 : 0o600]);

      const manifest = JSON.parse(readFileSync(join(target, 'BACKUP.json'), 'utf8')) as Manifest;
      expect(manifest).toMatchObject({
        format: 1,
        application: { name: 'cartograph', version: packageVersion() },
        database: { kind: testDatabaseKind(), migration: MIGRATIONS.at(-1)!.name, migrations_applied: MIGRATIONS.length, file: postgres ? null : 'cartograph.sqlite' },
      });
      const files = entries.filter(([path]) => path !== 'BACKUP.json' && !statSync(join(target, path)).isDirectory()).map(([path]) => path);
      expect(manifest.files.map((file) => file.path)).toEqual(files);
      expect(files).toEqual(expect.arrayContaining(['images/plan.png', ...(postgres ? [] : ['cartograph.sqlite'])]));
      for (const file of manifest.files) expect(file).toEqual({ path: file.path, bytes: statSync(join(target, file.path)).size, sha256: sha256(join(target, file.path)) });
      // The lock of a running server is never copied, and the database copy is whole (no WAL beside it).
      expect(files.filter((path) => path.startsWith('cartograph.lock') || path.endsWith('-wal') || path.endsWith('-shm'))).toEqual([]);
    } finally {
      rmSync(join(target, '..'), { recursive: true, force: true });
      await database.drop();
    }
  }, 180_000);

  it('restore checks the backup first (checksums, migration level) and copies it, owner-only, into an empty DATA_DIR only', async () => {
    const database = await freshDatabase();
    const work = mkdtempSync(join(tmpdir(), 'cartograph-restore-'));
    try {
      const env = await populatedServer(database);
      const backup = join(work, 'backup');
      expect((await cli(['backup', '--to', backup], env).exited).code).toBe(0);

      // Not empty: refused, nothing copied.
      const busy = cli(['restore', '--from', backup], env);
      expect((await busy.exited).code).toBe(1);
      expect(busy.stderr()).toMatch(new RegExp(`^DATA_DIR ${database.env.DATA_DIR} is not empty \\(.*\\): restore never overwrites; move its contents aside first\\n$`));

      // Damaged: refused with the file named.
      const damaged = join(work, 'damaged');
      cpSync(backup, damaged, { recursive: true });
      writeFileSync(join(damaged, 'images', 'plan.png'), 'changed after the backup');
      const fresh = join(work, 'fresh');
      const refused = cli(['restore', '--from', damaged], { ...env, DATA_DIR: fresh });
      expect((await refused.exited).code).toBe(1);
      expect(refused.stderr()).toMatch(
        /^This backup \(made by Cartograph .* on .*\) is damaged or was changed since it was made, and is not restored: images\/plan\.png has 24 bytes, not 16\n$/,
      );
      expect(existsSync(join(fresh, 'images'))).toBe(false);

      // Good: restored, private, identical.
      const restored = cli(['restore', '--from', backup], { ...env, DATA_DIR: fresh });
      expect((await restored.exited).code, restored.stderr()).toBe(0);
      const manifest = JSON.parse(readFileSync(join(backup, 'BACKUP.json'), 'utf8')) as Manifest;
      expect(JSON.parse(restored.lines.join('\n'))).toEqual({
        data_dir: fresh,
        files: manifest.files.length,
        backup: { created_at: expect.any(String), version: packageVersion(), migration: MIGRATIONS.at(-1)!.name },
      });
      for (const file of manifest.files) {
        expect(sha256(join(fresh, file.path))).toBe(file.sha256);
        expect(statSync(join(fresh, file.path)).mode & 0o777).toBe(0o600);
      }
      expect(statSync(join(fresh, 'images')).mode & 0o777).toBe(0o700);
      if (postgres) expect(restored.stderr()).toContain('pg_restore');
      else {
        // The restored SQLite database serves its data.
        const run = server({ ...env, DATA_DIR: fresh });
        try {
          const { url } = await listening(run);
          const buildings = await fetch(`${url}/api/v1/buildings`, { headers: asBearer(await adminToken(url)) });
          expect(((await buildings.json()) as Array<{ name: string }>).map((building) => building.name)).toEqual(['Backed up']);
        } finally {
          run.child.kill('SIGTERM');
          await run.exited;
        }
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
      await database.drop();
    }
  }, 180_000);

  it('restore refuses a backup from a newer migration level than this release knows', async () => {
    const database = await freshDatabase();
    const work = mkdtempSync(join(tmpdir(), 'cartograph-restore-newer-'));
    try {
      const env = await populatedServer(database);
      // As if a later release had migrated the database once more.
      const future = 'FromALaterRelease9999999999999';
      if (database.url) {
        const client = new Client({ connectionString: database.url });
        await client.connect();
        await client.query('INSERT INTO migrations ("timestamp", "name") VALUES ($1, $2)', [9_999_999_999_999, future]);
        await client.end();
      } else {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const Database = require('better-sqlite3') as new (path: string) => { prepare(sql: string): { run(...values: unknown[]): unknown }; close(): void };
        const db = new Database(join(database.env.DATA_DIR, 'cartograph.sqlite'));
        db.prepare('INSERT INTO migrations ("timestamp", "name") VALUES (?, ?)').run(9_999_999_999_999, future);
        db.close();
      }
      const backup = join(work, 'backup');
      expect((await cli(['backup', '--to', backup], env).exited).code).toBe(0);
      expect((JSON.parse(readFileSync(join(backup, 'BACKUP.json'), 'utf8')) as Manifest).database.migration).toBe(future);
      const refused = cli(['restore', '--from', backup], { ...env, DATA_DIR: join(work, 'fresh') });
      expect((await refused.exited).code).toBe(1);
      expect(refused.stderr()).toBe(
        `This backup (made by Cartograph ${packageVersion()} on ${(JSON.parse(readFileSync(join(backup, 'BACKUP.json'), 'utf8')) as { created_at: string }).created_at}) is at migration ${future}, newer than this release knows (its latest is ${MIGRATIONS.at(-1)!.name}): restore it with Cartograph ${packageVersion()} or later\n`,
      );
      expect(existsSync(join(work, 'fresh', 'images'))).toBe(false);
    } finally {
      rmSync(work, { recursive: true, force: true });
      await database.drop();
    }
  }, 180_000);
});
