import { load, YAML11_SCHEMA } from 'js-yaml';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The deployment files, checked with what this machine has (no Docker engine here): the
 * compose file parses and wires what docs/operations.md promises, the Dockerfile's paths
 * and commands exist, and the systemd unit starts what the image starts.
 */

const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions, with line continuations joined and comments dropped. */
function dockerInstructions(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

/** `Key=Value` lines of an INI-like systemd unit, by key (repeated keys keep every value). */
function unitSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) settings.set(match[1], [...(settings.get(match[1]) ?? []), match[2]]);
  }
  return settings;
}

const exec = (args: string): string[] => (args.startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/));

type Service = {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  networks?: Record<string, { ipv4_address?: string } | null>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
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
      for (const copy of runtimeCopies) expect(copy.args).toMatch(/--from=build\b/);
      // Production dependencies only: the build stage prunes the dev ones before the copy.
      expect(instructions.slice(0, runtimeStart).some((instruction) => instruction.keyword === 'RUN' && /npm prune --omit=dev/.test(instruction.args))).toBe(true);
    });

    it('copies only files that exist and that .dockerignore lets into the context', () => {
      const ignored = read('.dockerignore')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#') && !line.startsWith('!'));
      const sources = instructions
        .filter((instruction) => instruction.keyword === 'COPY' && !/--from=/.test(instruction.args))
        .flatMap((instruction) => instruction.args.split(/\s+/).filter((part) => !part.startsWith('--')).slice(0, -1));
      expect(sources.length).toBeGreaterThan(0);
      for (const source of sources) {
        expect(existsSync(join(root, source)), source).toBe(true);
        expect(ignored.some((pattern) => source === pattern || source.startsWith(`${pattern}/`)), `${source} is in .dockerignore`).toBe(false);
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
  });

  describe('compose.yaml', () => {
    // Compose reads YAML 1.1 merge keys (`<<: *cartograph`).
    const compose = load(read('compose.yaml'), { schema: YAML11_SCHEMA }) as { services: Record<string, Service>; networks: Record<string, { ipam: { config: Array<{ subnet: string }> } }> };
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
  });

  describe('systemd unit and TLS example', () => {
    const unit = unitSettings(read('deploy/cartograph.service'));

    it('starts what the image starts, as its own user, stopped by SIGTERM', () => {
      const dockerCmd = exec(dockerInstructions(read('Dockerfile')).filter((instruction) => instruction.keyword === 'CMD').pop()!.args);
      const execStart = unit.get('ExecStart')![0].split(/\s+/);
      expect(execStart[0]).toMatch(/\/node$/);
      expect(execStart.slice(1)).toEqual(dockerCmd.slice(1));
      expect(unit.get('User')?.[0]).toBe('cartograph');
      expect(unit.get('KillSignal')?.[0]).toBe('SIGTERM');
      expect(unit.get('Environment')).toEqual(expect.arrayContaining(['NODE_ENV=production', 'DATA_DIR=/var/lib/cartograph']));
      expect(unit.get('StateDirectory')?.[0]).toBe('cartograph');
      expect(unit.get('WantedBy')?.[0]).toBe('multi-user.target');
    });

    it('the TLS example forwards the scheme and the client, and says what TRUSTED_PROXIES must be', () => {
      const tls = read('deploy/nginx/cartograph-tls.conf');
      expect(tls).toMatch(/listen 443 ssl;/);
      expect(tls).toMatch(/proxy_set_header X-Forwarded-Proto https;/);
      expect(tls).toMatch(/TRUSTED_PROXIES=loopback/);
      expect(read('docs/operations.md')).toMatch(/TRUSTED_PROXIES/);
    });
  });
});
