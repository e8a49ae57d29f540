#!/usr/bin/env node
// Issue 37's tracking sweep on its own (bench/tracking-sweep.ts, compiled with the estimator and the
// tracker it imports): `node bench/tracking.mjs`, `--full`, `--worlds=base,n1.8 --walkers=10 --seconds=360`.
// `node bench/run.mjs --only=tracking` runs this as scenario 20.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const run = spawnSync(process.execPath, [join(dirname(fileURLToPath(import.meta.url)), 'radio.mjs'), '--tracking', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exitCode = run.status ?? 1;
