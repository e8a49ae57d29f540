import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

function newestSource(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestSource(join(path, name))));
}

/**
 * The repository's own dist/ (what `npm ci` and `npm run build` make), compiled again with
 * tsc when a source is newer: tests that start `node dist/src/main.js` or the CLI then run
 * the code under test. One build at a time (a lock directory); the dashboard build is kept.
 */
export async function ensureServerBuilt(): Promise<string> {
  const main = join(REPO, 'dist/src/main.js');
  const stale = () => !existsSync(main) || statSync(main).mtimeMs < Math.max(newestSource(join(REPO, 'src')), newestSource(join(REPO, 'migrations')));
  if (!stale()) return REPO;
  const lock = join(REPO, 'dist', '.tests-build-lock');
  mkdirSync(join(REPO, 'dist'), { recursive: true });
  for (let waited = 0; ; waited += 250) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another test file is building; an abandoned lock is taken over after two minutes.
      if (waited > 120_000) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (stale()) run(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], REPO);
  } finally {
    rmdirSync(lock);
  }
  return REPO;
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

export function startProcess(command: string, args: string[], options: { cwd: string; env: Record<string, string>; stdin?: string; uid?: number }): RunningProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
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
