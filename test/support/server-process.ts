import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const REPO = resolve(__dirname, '../..');

/**
 * A copy of the repository installed as a production server would be: the sources, the
 * installed packages (hard links: fast, and npm replaces rather than rewrites files), then
 * `npm run build` and `npm prune --omit=dev`. No registry is contacted.
 */
export function productionTree(): { root: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'cartograph-production-'));
  for (const entry of ['src', 'migrations', 'scripts', 'web', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json']) {
    cpSync(join(REPO, entry), join(root, entry), { recursive: true });
  }
  // The dependencies and lockfile that describe the installed tree (a worktree may share
  // another checkout's node_modules, and pruning offline needs them), with this checkout's scripts.
  const installed = realpathSync(join(REPO, 'node_modules'));
  const manifest = JSON.parse(readFileSync(join(dirname(installed), 'package.json'), 'utf8')) as Record<string, unknown>;
  manifest.scripts = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Record<string, unknown>).scripts;
  writeFileSync(join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(join(dirname(installed), 'package-lock.json'), join(root, 'package-lock.json'));
  run('cp', ['-al', installed, join(root, 'node_modules')], REPO);
  // npm rewrites its hidden lockfile: give the copy a file of its own, never a link to the original.
  rmSync(join(root, 'node_modules/.package-lock.json'), { force: true });
  cpSync(join(installed, '.package-lock.json'), join(root, 'node_modules/.package-lock.json'));
  run('npm', ['run', '--silent', 'build'], root);
  run('npm', ['prune', '--omit=dev', '--offline', '--no-audit', '--no-fund'], root);
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * The server alone, built from this checkout's sources into a folder of its own (no dashboard,
 * no prune): for tests that run it as a process and kill it.
 */
export function serverBuild(): { root: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'cartograph-server-'));
  for (const entry of ['src', 'migrations', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'package.json']) cpSync(join(REPO, entry), join(root, entry), { recursive: true });
  run('ln', ['-s', realpathSync(join(REPO, 'node_modules')), join(root, 'node_modules')], REPO);
  run(join(REPO, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], root);
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr}${result.stdout}`);
}

/** A running process whose stdout lines are kept, parsed when they are JSON. */
export interface RunningProcess {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  /** The first JSON line that satisfies `match`, waiting up to `timeoutMs`. */
  waitForLine(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  json(): Array<Record<string, unknown>>;
}

export function startProcess(command: string, args: string[], options: { cwd: string; env: Record<string, string>; stdin?: string }): RunningProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin!.end(options.stdin ?? '');
  const lines: string[] = [];
  let stderr = '';
  let partial = '';
  const waiters: Array<() => void> = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts.filter((line) => line.length > 0));
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    // 'close', not 'exit': only then has all of stdout been read.
    child.on('close', (code, signal) => {
      if (partial) lines.push(partial);
      for (const wake of waiters.splice(0)) wake();
      done({ code, signal });
    }),
  );
  const parsed = () => lines.flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as Record<string, unknown>] : []));
  return {
    child,
    lines,
    stderr: () => stderr,
    json: parsed,
    exited,
    async waitForLine(match, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = parsed().find(match);
        if (found) return found;
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`the process exited (${child.exitCode ?? child.signalCode}) before the line; stdout:\n${lines.join('\n')}\nstderr:\n${stderr}`);
        }
        if (Date.now() > deadline) throw new Error(`no such line within ${timeoutMs} ms; stdout:\n${lines.join('\n')}\nstderr:\n${stderr}`);
        await new Promise<void>((wake) => {
          waiters.push(wake);
          setTimeout(wake, 200);
        });
      }
    },
  };
}
