import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
export const DASHBOARD_BUILD = join(ROOT, 'dist', 'web');

function newestSource(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    newest = Math.max(newest, stat.isDirectory() ? newestSource(path) : stat.mtimeMs);
  }
  return newest;
}

/**
 * Builds the dashboard (as `npm run build:web` does) when dist/web is missing or older than
 * web/: the browser tests drive what a user gets from `npm run build`, not a dev server.
 */
export function ensureDashboardBuilt(): string {
  const index = join(DASHBOARD_BUILD, 'index.html');
  const stale = !existsSync(index) || statSync(index).mtimeMs < newestSource(join(ROOT, 'web'));
  if (stale)
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.mts', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  if (stale) execFileSync(process.execPath, [join(ROOT, 'scripts', 'compress-web.mjs')], { cwd: ROOT, stdio: 'inherit' });
  return DASHBOARD_BUILD;
}
