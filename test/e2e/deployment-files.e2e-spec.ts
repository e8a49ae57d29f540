import { load, YAML11_SCHEMA } from 'js-yaml';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assignments, dockerInstructions, execForm as exec, readStages } from '../support/dockerfile';

/**
 * The deployment files, checked with what this machine has (no Docker engine here; the image
 * build itself is replayed by deployment-image.e2e-spec.ts): the compose file parses and wires
 * what docs/operations.md promises, the Dockerfile's paths and commands exist, the systemd unit
 * starts what the image starts and passes `systemd-analyze verify`, the nginx examples pass
 * `nginx -t` on Debian's nginx.
 */

const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** `Key=Value` lines of an INI-like systemd unit, by key (repeated keys keep every value). */
function unitSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) settings.set(match[1], [...(settings.get(match[1]) ?? []), match[2]]);
  }
  return settings;
}

/** The server's drain deadline: a stop must wait longer than this before it kills. */
const drainDeadlineSeconds = Number(/SHUTDOWN_DEADLINE_MS = ([\d_]+)/.exec(read('src/common/process/shutdown.ts'))![1].replace(/_/g, '')) / 1000;

/** A duration of compose (`35s`, `1m30s`) or systemd (`30`, `30s`, `1min`) in seconds. */
function seconds(duration: string): number {
  let total = 0;
  for (const [, amount, unit] of duration.matchAll(/(\d+(?:\.\d+)?)\s*(ms|s|sec|m|min|h)?/g)) {
    total += Number(amount) * ({ ms: 0.001, s: 1, sec: 1, m: 60, min: 60, h: 3600 }[unit ?? 's'] ?? NaN);
  }
  return total;
}

/** Debian's nginx (1.22 on Debian 12) tests `site` inside a throwaway prefix: no root-owned path is read or written. */
function nginxTest(site: string): { status: number | null; output: string } {
  const prefix = mkdtempSync(join(tmpdir(), 'cartograph-nginx-'));
  try {
    // A throwaway self-signed certificate stands for the real one.
    const cert = spawnSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=maps.example.com', '-keyout', join(prefix, 'key.pem'), '-out', join(prefix, 'cert.pem')],
      { encoding: 'utf8' },
    );
    expect(cert.status, cert.stderr).toBe(0);
    mkdirSync(join(prefix, 'temp'));
    writeFileSync(
      join(prefix, 'site.conf'),
      site
        .replace(/ssl_certificate(\s+)\S+;/, `ssl_certificate$1${join(prefix, 'cert.pem')};`)
        .replace(/ssl_certificate_key(\s+)\S+;/, `ssl_certificate_key$1${join(prefix, 'key.pem')};`),
    );
    const temp = join(prefix, 'temp');
    writeFileSync(
      join(prefix, 'nginx.conf'),
      [
        `pid ${join(prefix, 'nginx.pid')};`,
        `error_log ${join(prefix, 'error.log')};`,
        'events {}',
        'http {',
        '  access_log off;',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${temp};`),
        `  include ${join(prefix, 'site.conf')};`,
        '}',
        '',
      ].join('\n'),
    );
    const result = spawnSync(NGINX, ['-t', '-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log')], { encoding: 'utf8' });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(prefix, { recursive: true, force: true });
  }
}

const NGINX = '/usr/sbin/nginx';
// Outside CI a machine without Debian's nginx, openssl or systemd-analyze skips those checks; CI
// (.ci/run installs them) runs them and fails on what is missing.
const inCI = !!process.env.CI && !/^(0|false|no)$/i.test(process.env.CI);
const nginxMissing = !inCI && (!existsSync(NGINX) || spawnSync('openssl', ['version']).status !== 0);
const systemdAnalyze = spawnSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' }).stdout.trim() || (inCI ? 'systemd-analyze' : '');

type Service = {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  networks?: Record<string, { ipv4_address?: string } | null>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
  stop_grace_period?: string;
};

describe('deployment files', () => {
  describe('Dockerfile', () => {
    const instructions = dockerInstructions(read('Dockerfile'));
    const stages = instructions.filter((instruction) => instruction.keyword === 'FROM');
    const runtimeStart = instructions.lastIndexOf(stages[stages.length - 1]);
    const runtime = instructions.slice(runtimeStart);

    it('is multi-stage on Node 24, and the runtime stage takes only what the build stage produced', () => {
      expect(stages.length).toBeGreaterThanOrEqual(2);
      for (const stage of stages) expect(stage.args).toMatch(/^node:24[-.\w]*( AS \w+)?$/i);
      const runtimeCopies = runtime.filter((instruction) => instruction.keyword === 'COPY');
      expect(runtimeCopies.length).toBeGreaterThan(0);
      for (const copy of runtimeCopies) expect(copy.flags.from).toBe('build');
      // Production dependencies only: the build stage prunes the dev ones before the copy.
      expect(instructions.slice(0, runtimeStart).some((instruction) => instruction.keyword === 'RUN' && /npm prune --omit=dev/.test(instruction.args))).toBe(true);
    });

    it('copies only files that exist and that .dockerignore lets into the context', () => {
      const ignored = read('.dockerignore')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#') && !line.startsWith('!'));
      const sources = instructions
        .filter((instruction) => instruction.keyword === 'COPY' && instruction.flags.from === undefined)
        .flatMap((instruction) => instruction.args.split(/\s+/).slice(0, -1));
      expect(sources.length).toBeGreaterThan(0);
      for (const source of sources) {
        expect(existsSync(join(root, source)), source).toBe(true);
        expect(
          ignored.some((pattern) => source === pattern || source.startsWith(`${pattern}/`)),
          `${source} is in .dockerignore`,
        ).toBe(false);
      }
      expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', 'data', '.git']));
    });

    it('runs the compiled entry point as an unprivileged user, with a health check on a public probe', () => {
      const user = runtime.filter((instruction) => instruction.keyword === 'USER').pop();
      expect(user?.args).toBeDefined();
      expect(['root', '0', '0:0']).not.toContain(user!.args);
      const cmd = exec(runtime.find((instruction) => instruction.keyword === 'CMD')!.args);
      expect(cmd[0]).toBe('node');
      // dist/src/main.js is what `nest build` makes of src/main.ts (nest-cli.json's entryFile).
      const entry = cmd.find((part) => part.endsWith('.js'))!;
      expect(entry).toBe(`dist/${JSON.parse(read('nest-cli.json')).entryFile}.js`);
      expect(existsSync(join(root, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
      const health = runtime.find((instruction) => instruction.keyword === 'HEALTHCHECK');
      expect(health?.args).toMatch(/\/health\/live/);
      expect(read('src/health/health.controller.ts')).toMatch(/live/);
      const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
      expect(instructions.some((instruction) => instruction.keyword === 'RUN' && /npm run build/.test(instruction.args))).toBe(true);
      expect(scripts.build).toBeDefined();
    });

    it('pins its base image to an exact Node.js release (the same in every stage) and carries OCI labels', () => {
      const images = readStages(join(root, 'Dockerfile')).map((stage) => stage.image);
      // A digest (@sha256:) or an exact version: docs/decisions.md says why a version here.
      for (const image of images) expect(image).toMatch(/^node:\d+\.\d+\.\d+-[a-z]+(-slim)?(@sha256:[0-9a-f]{64})?$/);
      expect(new Set(images).size).toBe(1);
      expect(read('docs/decisions.md')).toMatch(/digest/i);
      const runtimeStage = readStages(join(root, 'Dockerfile')).at(-1)!;
      const labels = Object.assign(
        {},
        ...runtimeStage.instructions.filter((instruction) => instruction.keyword === 'LABEL').map((instruction) => assignments(instruction.args)),
      ) as Record<string, string>;
      const args = Object.assign(
        {},
        ...runtimeStage.instructions.filter((instruction) => instruction.keyword === 'ARG').map((instruction) => assignments(instruction.args)),
      ) as Record<string, string>;
      expect(labels['org.opencontainers.image.title']).toBe('Cartograph');
      expect(labels['org.opencontainers.image.description']).toBe(JSON.parse(read('package.json')).description);
      expect(labels['org.opencontainers.image.version']).toBe('${VERSION}');
      expect(args.VERSION).toBe(JSON.parse(read('package.json')).version);
      expect(labels['org.opencontainers.image.base.name']).toBe(`docker.io/library/${images[0]}`);
      expect(Object.keys(labels)).toEqual(expect.arrayContaining(['org.opencontainers.image.revision', 'org.opencontainers.image.licenses']));
    });
  });

  describe('compose.yaml', () => {
    // Compose reads YAML 1.1 merge keys (`<<: *cartograph`).
    const compose = load(read('compose.yaml'), { schema: YAML11_SCHEMA }) as {
      services: Record<string, Service>;
      networks: Record<string, { ipam: { config: Array<{ subnet: string }> } }>;
    };
    const services = compose.services;
    const instances = Object.entries(services).filter(([, service]) => service.build === '.');

    it('runs PostgreSQL, two Cartograph instances built from this repository and a proxy', () => {
      expect(Object.keys(services).sort()).toEqual(['cartograph-1', 'cartograph-2', 'postgres', 'proxy']);
      expect(instances.map(([name]) => name).sort()).toEqual(['cartograph-1', 'cartograph-2']);
      expect(services.postgres.image).toMatch(/^postgres:/);
      expect(services.postgres.healthcheck?.test).toContain('pg_isready');
    });

    it('gives both instances the same database, JWT secret and shared image storage, and trusts exactly the proxy', () => {
      const [first, second] = instances.map(([, service]) => service.environment!);
      expect(first).toEqual(second);
      expect(first.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
      expect(first.JWT_SECRET).toMatch(/\$\{JWT_SECRET:\?/);
      expect(first.IMAGE_STORAGE).toBe('database');
      expect(first.NODE_ENV).toBe('production');
      const proxyAddress = services.proxy.networks!.backend!.ipv4_address;
      expect(first.TRUSTED_PROXIES).toBe(proxyAddress);
      const subnet = compose.networks.backend.ipam.config[0].subnet;
      expect(proxyAddress!.split('.').slice(0, 3).join('.')).toBe(subnet.split('.').slice(0, 3).join('.'));
      for (const [, service] of instances) expect(service.depends_on?.postgres?.condition).toBe('service_healthy');
    });

    it("mounts a proxy configuration that exists and sends to both instances on the server's port", () => {
      const mount = services.proxy.volumes!.find((volume) => volume.includes('nginx'))!;
      const file = mount.split(':')[0].replace(/^\.\//, '');
      expect(existsSync(join(root, file))).toBe(true);
      const conf = read(file);
      for (const [name] of instances) expect(conf).toMatch(new RegExp(`server ${name}:3000\\b`));
      expect(conf).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
      expect(conf).toMatch(/proxy_set_header X-Forwarded-Proto/);
      // Image uploads (20 MiB) must pass the proxy.
      expect(Number(/client_max_body_size (\d+)m;/.exec(conf)?.[1])).toBeGreaterThanOrEqual(20);
    });

    it("gives each instance longer to stop than the server's drain deadline", () => {
      expect(drainDeadlineSeconds).toBeGreaterThan(0);
      for (const [name, service] of instances) expect(seconds(service.stop_grace_period ?? '10s'), name).toBeGreaterThan(drainDeadlineSeconds);
    });

    it('publishes only the proxy, on the loopback address unless PROXY_ADDRESS says otherwise', () => {
      for (const [name, service] of Object.entries(services)) if (name !== 'proxy') expect(service.ports, name).toBeUndefined();
      expect(services.proxy.ports).toHaveLength(1);
      const published = services.proxy.ports![0];
      // What compose makes of ${NAME:-default} with nothing set.
      const resolved = published.replace(/\$\{\w+:-([^}]*)\}/g, '$1');
      expect(resolved).toBe('127.0.0.1:8080:80');
      expect(published).toContain('${PROXY_ADDRESS:-127.0.0.1}');
      expect(read('docs/operations.md')).toContain('PROXY_ADDRESS=0.0.0.0');
    });

    it('names a version for every image it pulls (never latest)', () => {
      for (const [name, service] of Object.entries(services)) {
        if (service.build) continue;
        expect(service.image, name).toMatch(/^[\w./-]+:(\d+[\w.-]*)(@sha256:[0-9a-f]{64})?$/);
      }
    });

    it("the proxy's nginx configuration passes nginx -t (Debian's nginx; the instances' names given loopback ports)", { skip: nginxMissing }, () => {
      const conf = read('deploy/nginx/compose.conf').replace(/server cartograph-(\d+):3000/g, 'server 127.0.0.1:300$1');
      const result = nginxTest(conf);
      expect(result.status, result.output).toBe(0);
      expect(result.output).toMatch(/test is successful/);
    });
  });

  describe('systemd unit and TLS example', () => {
    const unit = unitSettings(read('deploy/cartograph.service'));

    it('starts what the image starts, as its own user, stopped by SIGTERM', () => {
      const dockerCmd = exec(
        dockerInstructions(read('Dockerfile'))
          .filter((instruction) => instruction.keyword === 'CMD')
          .pop()!.args,
      );
      const execStart = unit.get('ExecStart')![0].split(/\s+/);
      expect(execStart[0]).toMatch(/\/node$/);
      expect(execStart.slice(1)).toEqual(dockerCmd.slice(1));
      expect(unit.get('User')?.[0]).toBe('cartograph');
      expect(unit.get('KillSignal')?.[0]).toBe('SIGTERM');
      expect(unit.get('Environment')).toEqual(expect.arrayContaining(['NODE_ENV=production', 'DATA_DIR=/var/lib/cartograph']));
      expect(unit.get('StateDirectory')?.[0]).toBe('cartograph');
      expect(unit.get('WantedBy')?.[0]).toBe('multi-user.target');
    });

    it('does not restart on an unsupported Node.js (69) or a configuration error (78), and waits out the drain', () => {
      expect(unit.get('Restart')?.[0]).toBe('on-failure');
      expect(unit.get('RestartPreventExitStatus')?.[0].split(/\s+/).sort()).toEqual(['69', '78']);
      expect(seconds(unit.get('TimeoutStopSec')![0])).toBeGreaterThan(drainDeadlineSeconds);
    });

    it('is hardened: the settings `systemd-analyze security` asks for, besides the file system ones', () => {
      const expected: Record<string, string> = {
        NoNewPrivileges: 'yes',
        ProtectSystem: 'strict',
        ProtectHome: 'yes',
        PrivateTmp: 'yes',
        PrivateDevices: 'yes',
        ProtectKernelTunables: 'yes',
        ProtectKernelModules: 'yes',
        ProtectControlGroups: 'yes',
        RestrictSUIDSGID: 'yes',
        LockPersonality: 'yes',
        CapabilityBoundingSet: '',
        SystemCallFilter: '@system-service',
        SystemCallArchitectures: 'native',
        ProtectClock: 'yes',
        ProtectKernelLogs: 'yes',
        ProtectHostname: 'yes',
        RestrictNamespaces: 'yes',
        RestrictRealtime: 'yes',
        ProtectProc: 'invisible',
        RemoveIPC: 'yes',
      };
      for (const [key, value] of Object.entries(expected)) expect(unit.get(key), key).toEqual([value]);
    });

    it('passes systemd-analyze verify, and systemd-analyze security finds those settings in force', { skip: systemdAnalyze === '' }, () => {
      const dir = mkdtempSync(join(tmpdir(), 'cartograph-unit-'));
      try {
        let text = read('deploy/cartograph.service');
        const node = unit.get('ExecStart')![0].split(/\s+/)[0];
        // verify checks that the command exists: where docs/operations.md's Node is not installed, this test's Node stands in.
        if (!existsSync(node)) text = text.replace(`ExecStart=${node} `, `ExecStart=${process.execPath} `);
        writeFileSync(join(dir, 'cartograph.service'), text);
        const verify = spawnSync(systemdAnalyze, ['verify', join(dir, 'cartograph.service')], { encoding: 'utf8' });
        const problems = `${verify.stdout}${verify.stderr}`
          .split('\n')
          // A machine without systemd running (a container) has no unit for these dependencies and no user database.
          .filter(
            (line) =>
              line.trim() !== '' &&
              !/network-online\.target|postgresql\.service|multi-user\.target|Failed to (connect|create bus)|user cartograph|No such process|Unit \S+ not found/i.test(line),
          );
        expect(verify.status, `${verify.stdout}${verify.stderr}`).toBe(0);
        expect(problems).toEqual([]);
        const security = spawnSync(systemdAnalyze, ['security', '--offline=yes', '--json=short', join(dir, 'cartograph.service')], { encoding: 'utf8' });
        expect(security.status, security.stderr).toBe(0);
        const checks = JSON.parse(security.stdout) as Array<{ name: string; set: boolean }>;
        const flagged = new Set(checks.filter((check) => !check.set).map((check) => check.name.split(/[=~]/)[0]));
        for (const setting of [
          'SystemCallArchitectures',
          'ProtectClock',
          'ProtectKernelLogs',
          'ProtectHostname',
          'RestrictNamespaces',
          'RestrictRealtime',
          'ProtectProc',
          'RemoveIPC',
          'NoNewPrivileges',
          'ProtectSystem',
          'PrivateDevices',
        ]) {
          expect(flagged.has(setting), setting).toBe(false);
        }
        expect(checks.find((check) => check.name === 'SystemCallFilter=~@swap')?.set).toBe(true);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('the TLS example forwards the scheme and the client, and says what TRUSTED_PROXIES must be', () => {
      const tls = read('deploy/nginx/cartograph-tls.conf');
      expect(tls).toMatch(/listen 443 ssl http2;/);
      // `http2 on;` exists from nginx 1.25.1 only: Debian 12's 1.22 refuses it.
      expect(tls).not.toMatch(/^\s*http2 on;/m);
      expect(tls).toMatch(/nginx 1\.22/);
      expect(tls).toMatch(/proxy_set_header X-Forwarded-Proto https;/);
      expect(tls).toMatch(/TRUSTED_PROXIES=loopback/);
      expect(read('docs/operations.md')).toMatch(/TRUSTED_PROXIES/);
    });

    it("the TLS example passes nginx -t on Debian's nginx, with a throwaway certificate", { skip: nginxMissing }, () => {
      const result = nginxTest(read('deploy/nginx/cartograph-tls.conf'));
      expect(result.status, result.output).toBe(0);
      expect(result.output).toMatch(/syntax is ok/);
      expect(result.output).toMatch(/test is successful/);
      expect(result.output).not.toMatch(/\[warn\]|\[emerg\]/);
    });

    it('nginx -t fails on what Debian 12 cannot read (the test can fail)', { skip: nginxMissing }, () => {
      const result = nginxTest(read('deploy/nginx/cartograph-tls.conf').replace('listen 443 ssl http2;', 'listen 443 ssl;\n    http2 on;'));
      const version = spawnSync(NGINX, ['-v'], { encoding: 'utf8' }).stderr;
      const [major, minor, patch] = /nginx\/(\d+)\.(\d+)\.(\d+)/.exec(version)!.slice(1).map(Number);
      const knowsHttp2On = major > 1 || minor > 25 || (minor === 25 && patch >= 1);
      expect(result.status, result.output).toBe(knowsHttp2On ? 0 : 1);
      if (!knowsHttp2On) expect(result.output).toMatch(/unknown directive "http2"/);
    });
  });

  describe('packages', () => {
    const manifest = JSON.parse(read('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string> };
    const sources = spawnSync('git', ['ls-files', 'src', 'migrations'], { cwd: root, encoding: 'utf8' })
      .stdout.split('\n')
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && existsSync(join(root, file)));

    it('the server imports every production dependency it declares, and no dev dependency', () => {
      const imported = new Set<string>();
      for (const file of sources) {
        for (const [, specifier] of read(file).matchAll(/(?:from|import|import\(|require\()\s*'([^'.][^']*)'/g)) {
          imported.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);
        }
      }
      expect(sources.length).toBeGreaterThan(50);
      for (const dev of Object.keys(manifest.devDependencies)) expect(imported.has(dev), `${dev} is a dev dependency imported by the server`).toBe(false);
      // Loaded by name by another package: Nest's Fastify adapter (static files for Swagger UI,
      // CORS), TypeORM (the database drivers), @nestjs/passport (its peer).
      const loadedByName = new Set(['@fastify/static', '@fastify/cors', 'better-sqlite3', 'pg', 'passport']);
      for (const dependency of Object.keys(manifest.dependencies)) {
        if (!loadedByName.has(dependency)) expect(imported.has(dependency), `${dependency} is declared but not imported by the server`).toBe(true);
      }
      for (const unused of ['@nestjs/throttler', 'nestjs-pino', 'pino-http']) expect(manifest.dependencies).not.toHaveProperty(unused);
      expect(manifest.devDependencies).toHaveProperty('standardwebhooks');
    });

    it('npm start and the CLI refuse an unsupported Node.js before anything loads, and npm start stops the server with npm', () => {
      for (const script of ['start', 'cli', 'migration:run', 'test'])
        expect(manifest.scripts[script], script).toMatch(/^(\S+=\S+ )?(exec )?node --require=\.\/scripts\/check-node\.cjs /);
      expect(manifest.scripts.start).toContain('--require=./scripts/stop-with-parent.cjs');
      for (const entry of ['src/main.ts', 'src/cli.ts'])
        expect(
          read(entry)
            .split('\n')
            .find((line) => line.startsWith('import ')),
        ).toBe("import '../scripts/check-node.cjs';");
      expect(
        read('scripts/prepare.mjs')
          .split('\n')
          .find((line) => line.startsWith('import ')),
      ).toBe("import './check-node.cjs';");
    });
  });
});
