import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, posix, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignments, dockerignore, execForm, Instruction, readStages, Stage, substitute } from '../support/dockerfile';
import { olderNode, refusal } from '../support/old-node';
import { startProcess } from '../support/server-process';
import { testDatabaseKind } from '../support/test-app';

/**
 * The Dockerfile, replayed without Docker (these machines have no engine): its build stage's
 * COPY set from the build context (.dockerignore applied) into an empty folder, its RUN lines
 * there (apt lines aside: the toolchain is on this machine) with this test's Node.js first on
 * PATH; then the runtime stage's COPY set into another folder, started with its ENV and CMD.
 * The replay takes a few minutes (npm ci, the build): it runs once, in the SQLite e2e run
 * (it is the same image whatever the database; the server it starts uses SQLite).
 */

const context = join(__dirname, '..', '..');
const stages = readStages(join(context, 'Dockerfile'));
const ignored = dockerignore(readFileSync(join(context, '.dockerignore'), 'utf8'));

/** A stage's file system: container paths live under `rootfs`. */
interface Replayed {
  stage: Stage;
  rootfs: string;
  workdir: string;
  env: Record<string, string>;
}

const onHost = (replayed: Replayed, containerPath: string) => join(replayed.rootfs, posix.isAbsolute(containerPath) ? containerPath : posix.join(replayed.workdir, containerPath));

/** COPY: sources from the context (or `--from` a replayed stage); a folder's content goes into the destination. */
function copy(instruction: Instruction, into: Replayed, from: Replayed | undefined): void {
  const parts = substitute(instruction.args, into.env).split(/\s+/);
  const destination = parts.pop()!;
  const target = onHost(into, destination);
  for (const source of parts) {
    const path = from ? onHost(from, source) : join(context, source);
    if (!from) expect(ignored(source), `${source} is in .dockerignore: the build would not see it`).toBe(false);
    expect(existsSync(path), `COPY source ${source}`).toBe(true);
    const into = destination.endsWith('/') || parts.length > 1 ? join(target, posix.basename(source)) : target;
    if (statSync(path).isDirectory()) {
      mkdirSync(into, { recursive: true });
      if (from) {
        // What an earlier stage made: hard links (node_modules is large), as `COPY --from` copies it.
        expect(spawnSync('cp', ['-al', `${path}/.`, into]).status).toBe(0);
      } else {
        cpSync(path, into, { recursive: true, filter: (file) => !ignored(relative(context, file)) });
      }
    } else {
      mkdirSync(dirname(into), { recursive: true });
      copyFileSync(path, into);
    }
  }
}

/** The environment a RUN or the CMD sees: the stage's ENV and ARGs over this machine's basics, this Node.js first. */
function processEnv(env: Record<string, string>): Record<string, string> {
  const basics: Record<string, string> = { PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter), HOME: process.env.HOME ?? tmpdir() };
  // The machine's way to the registry (proxy, certificate authorities), Node 24's headers for
  // native modules (the machine's npm config points at Node 20's), and the npm cache.
  const machine =
    /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|https?_proxy|no_proxy|TMPDIR|LANG|npm_config_(nodedir|cache|cafile|registry|proxy|https_proxy|noproxy|strict_ssl))$/i;
  for (const [name, value] of Object.entries(process.env)) if (machine.test(name) && value) basics[name] = value;
  return { ...basics, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false', ...env };
}

function replayStage(stage: Stage, replayedStages: Map<string, Replayed>, { run }: { run: boolean }): Replayed {
  const replayed: Replayed = { stage, rootfs: mkdtempSync(join(tmpdir(), `cartograph-image-${stage.name}-`)), workdir: '/', env: {} };
  // Known before its first instruction, so that a failing replay's folder is removed too.
  replayedStages.set(stage.name, replayed);
  for (const instruction of stage.instructions) {
    switch (instruction.keyword) {
      case 'WORKDIR':
        replayed.workdir = posix.resolve(replayed.workdir, substitute(instruction.args, replayed.env));
        mkdirSync(onHost(replayed, '.'), { recursive: true });
        break;
      case 'ENV':
      case 'ARG':
        for (const [name, value] of Object.entries(assignments(instruction.args))) replayed.env[name] = substitute(value, replayed.env);
        break;
      case 'COPY': {
        const from = instruction.flags.from;
        if (from !== undefined) expect(replayedStages.has(from), `COPY --from=${from}: a stage of this Dockerfile`).toBe(true);
        copy(instruction, replayed, from === undefined ? undefined : replayedStages.get(from));
        break;
      }
      case 'RUN': {
        if (/^apt-get\b/.test(instruction.args)) break; // the toolchain (python3, make, g++) is on this machine
        if (!run) break;
        // RUN lines run on this machine: a path outside the stage's folder would be this machine's.
        expect(instruction.args, 'a replayed RUN line uses relative paths only').not.toMatch(/(^|[\s=])\/\w/);
        const result = spawnSync('sh', ['-c', instruction.args], { cwd: onHost(replayed, '.'), env: processEnv(replayed.env), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
        expect(result.status, `RUN ${instruction.args}\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`).toBe(0);
        break;
      }
      default:
        break;
    }
  }
  return replayed;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(testDatabaseKind() === 'postgres')('the Dockerfile, replayed without Docker', () => {
  const replayedStages = new Map<string, Replayed>();
  let build: Replayed;
  let runtime: Replayed;
  const runtimeStage = stages.at(-1)!;

  beforeAll(() => {
    for (const stage of stages.slice(0, -1)) build = replayStage(stage, replayedStages, { run: true });
    runtime = replayStage(runtimeStage, replayedStages, { run: false });
  }, 900_000);
  afterAll(() => {
    for (const replayed of replayedStages.values()) rmSync(replayed.rootfs, { recursive: true, force: true });
  });

  it('the build stage makes the server (dist/src/main.js) and the dashboard (dist/web), and prunes the dev dependencies', () => {
    const app = onHost(build, '.');
    expect(existsSync(join(app, 'dist/src/main.js'))).toBe(true);
    expect(existsSync(join(app, 'dist/scripts/check-node.cjs'))).toBe(true);
    expect(readFileSync(join(app, 'dist/web/index.html'), 'utf8')).toMatch(/<script type="module"/);
    expect(readdirSync(join(app, 'dist/web/assets')).some((file) => file.endsWith('.js.br'))).toBe(true);
    for (const dev of ['@nestjs/cli', 'vitest', 'vite', 'supertest', 'playwright-core']) expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false);
    // npm ci installs exactly the lockfile and leaves it as it is.
    expect(readFileSync(join(app, 'package-lock.json'), 'utf8')).toBe(readFileSync(join(context, 'package-lock.json'), 'utf8'));
  });

  it('the runtime stage holds the compiled server and its production dependencies only; its RUN lines only prepare the data volume', () => {
    expect(readdirSync(onHost(runtime, '.')).sort()).toEqual(['dist', 'node_modules', 'package.json']);
    const volume = JSON.parse(runtimeStage.instructions.find((instruction) => instruction.keyword === 'VOLUME')!.args) as string[];
    for (const line of runtimeStage.instructions.filter((instruction) => instruction.keyword === 'RUN')) {
      for (const command of line.args.split('&&').map((part) => part.trim())) expect(command).toMatch(new RegExp(`^(mkdir -p|chown [\\w:]+) ${volume[0]}$`));
    }
    expect(runtime.env.DATA_DIR).toBe(volume[0]);
  });

  it("the runtime stage's CMD serves /health/ready on SQLite, passes the image's HEALTHCHECK, and stops on SIGTERM with exit 0", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-image-data-'));
    const port = await freePort();
    const env = processEnv({ ...runtime.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, JWT_SECRET: 'image-replay-secret-that-is-long-enough-0123456789' });
    const [command, ...args] = execForm(runtimeStage.instructions.find((instruction) => instruction.keyword === 'CMD')!.args);
    const server = startProcess(command, args, { cwd: onHost(runtime, '.'), env });
    try {
      await server.waitForLine((line) => line.msg === 'Cartograph listening (API docs at /api/docs)', 120_000);
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
      expect(ready.status).toBe(200);
      const dashboard = await fetch(`http://127.0.0.1:${port}/`);
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toMatch(/<script type="module"/);

      const health = runtimeStage.instructions.find((instruction) => instruction.keyword === 'HEALTHCHECK')!;
      const [probe, ...probeArgs] = execForm(health.args.replace(/^CMD\s+/, ''));
      const probed = spawnSync(probe, probeArgs, { cwd: onHost(runtime, '.'), env, encoding: 'utf8' });
      expect(probed.status, probed.stderr).toBe(0);
      expect(existsSync(join(dataDir, 'cartograph.sqlite'))).toBe(true);

      server.child.kill('SIGTERM');
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(server.json().at(-1)).toMatchObject({ msg: 'Cartograph stopped' });
      const stopped = spawnSync(probe, probeArgs, { cwd: onHost(runtime, '.'), env, encoding: 'utf8' });
      expect(stopped.status).toBe(1);
    } finally {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it.skipIf('missing' in olderNode())("the runtime stage's CMD under an older Node.js prints one line and exits 69", () => {
    const old = olderNode() as { binary: string; version: string };
    const [, ...args] = execForm(runtimeStage.instructions.find((instruction) => instruction.keyword === 'CMD')!.args);
    const result = spawnSync(old.binary, args, { cwd: onHost(runtime, '.'), env: { PATH: '/usr/bin:/bin' }, encoding: 'utf8' });
    expect([result.status, result.stderr, result.stdout]).toEqual([69, `${refusal(old.version)}\n`, '']);
  });

  it("the README's first command in a fresh clone (npm install, no node_modules) leaves package-lock.json as committed", async () => {
    const clone = mkdtempSync(join(tmpdir(), 'cartograph-fresh-install-'));
    try {
      for (const file of ['package.json', 'package-lock.json', '.npmrc']) copyFileSync(join(context, file), join(clone, file));
      // --ignore-scripts: the lockfile does not depend on them (the build is the replay's above).
      const install = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: clone, env: processEnv({}) });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.on('close', (code) => resolve({ code, output }));
      });
      expect(install.code, install.output).toBe(0);
      expect(readFileSync(join(clone, 'package-lock.json'), 'utf8')).toBe(readFileSync(join(context, 'package-lock.json'), 'utf8'));
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  }, 300_000);
});

// The replay's paths come from the Dockerfile: make sure they are what the replay can map.
describe('the Dockerfile, as the replay reads it', () => {
  it('has a build stage and a runtime stage, whose COPY sources are relative (context) or --from the build stage', () => {
    expect(stages.map((stage) => stage.name)).toEqual(['build', 'runtime']);
    for (const stage of stages) {
      for (const copy of stage.instructions.filter((instruction) => instruction.keyword === 'COPY')) {
        const sources = copy.args.split(/\s+/).slice(0, -1);
        for (const source of sources) expect(copy.flags.from !== undefined || !isAbsolute(source), source).toBe(true);
      }
    }
  });
});
