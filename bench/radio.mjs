#!/usr/bin/env node
// Issue 31's radio model accuracy benchmark, on its own: compiles bench/radio-accuracy.ts (with the
// estimator it imports from src/ and the synthetic building from test/support/) into a scratch
// directory and runs it. Arguments go through: --seeds=1,2 --scans=1000 --worlds=iid,static --conditions=1.8/4,2.5/6
// --calibration-scans=2000 --reference-scans=3. `node bench/run.mjs --only=radio` runs this.
// `node bench/radio.mjs --tracking` (or bench/tracking.mjs) runs issue 37's tracking sweep instead.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = mkdtempSync(join(tmpdir(), 'cartograph-radio-bench-'));
try {
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'bench/tsconfig.radio.json'), '--outDir', out], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  // `--sweep`: issue 36's sweep of worlds against the maximum-likelihood oracle (bench/radio-sweep.ts) instead.
  // `--tracking`: issue 37's tracking sweep (bench/tracking-sweep.ts: walkers, the tracker and two oracles).
  const sweep = process.argv.includes('--sweep');
  const tracking = process.argv.includes('--tracking');
  const script = join(out, tracking ? 'bench/tracking-sweep.js' : sweep ? 'bench/radio-sweep.js' : 'bench/radio-accuracy.js');
  const run = spawnSync(process.execPath, [script, ...process.argv.slice(2).filter((argument) => argument !== '--sweep' && argument !== '--tracking')], { stdio: 'inherit' });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
