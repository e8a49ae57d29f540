#!/usr/bin/env node
// npm's `prepare` step (after `npm install` / `npm ci` in a clone): builds dist/ once, so that
// `npm start` and `npm run cli` run the built server directly and never rebuild.
// Without the dev tools (`npm ci --omit=dev`) there is nothing to build with: a tree built
// beforehand (`npm ci && npm run build && npm prune --omit=dev`, or a release) is used as is.
// CARTOGRAPH_SKIP_PREPARE_BUILD=1: install only (the Dockerfile installs before it copies the sources).
import './check-node.cjs';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = existsSync(join(root, 'dist/src/main.js'));

if (process.env.CARTOGRAPH_SKIP_PREPARE_BUILD === '1') process.exit(0);
if (!existsSync(join(root, 'node_modules/@nestjs/cli'))) {
  if (!built) {
    console.warn(
      'cartograph: dist/ is missing and the build tools (dev dependencies) are not installed: ' + 'build with `npm ci && npm run build` first, then `npm prune --omit=dev`.',
    );
  }
  process.exit(0);
}
const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
