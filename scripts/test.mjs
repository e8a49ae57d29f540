#!/usr/bin/env node
// `npm test`: the unit project once, then the e2e, ops and browser projects on SQLite and on PostgreSQL, with one summary.
//
//   npm test                               everything
//   npm test -- --only=unit                only the unit project        (--only=e2e: only the e2e runs, the developer's loop; --only=ops: only the
//                                          deployment and operations files (vitest.config.mts); --only=browser: only the browser runs)
//   npm test -- --db=sqlite                e2e on SQLite only           (--db=postgres, --db=sqlite,postgres)
//   npm test -- test/e2e/auth              any other argument goes to every vitest run (file filters, -t NAME, ...)
//
// PostgreSQL: $TEST_DATABASE_URL (an admin URL) if set; otherwise a throwaway cluster from
// scripts/pg-cluster.mjs, started while the unit tests run and removed at the end. With no PostgreSQL
// binaries the PostgreSQL run is skipped with a warning, or fails when $CI is set (or --db=postgres was asked).
//
// The last line printed is `N passed, N failed` (`, N skipped` when some were), over all runs; exit code 0
// only if nothing failed. A file that failed to load or whose hooks threw counts as one failure; a vitest
// run that exits non-zero without any counted failure (unhandled error, crash, no JSON report) counts as one.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPgBinDir, startThrowawayCluster } from './pg-cluster.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const isCI = !!process.env.CI && !/^(0|false|no)$/i.test(process.env.CI);
const t0 = Date.now();

// ---------------------------------------------------------------- arguments
function parseArgs(argv) {
  const opts = { dbs: ['sqlite', 'postgres'], dbExplicit: false, only: null, passthrough: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    let m = /^--(db|only)(?:=(.*))?$/.exec(a);
    if (!m) {
      opts.passthrough.push(a);
      continue;
    }
    const value = m[2] ?? argv[++i];
    if (value === undefined) usage(`${a} needs a value`);
    if (m[1] === 'db') {
      const dbs = value.split(',').flatMap((v) => (v === 'all' || v === 'both' ? ['sqlite', 'postgres'] : [v]));
      for (const d of dbs) if (d !== 'sqlite' && d !== 'postgres') usage(`unknown --db value "${d}"`);
      opts.dbs = [...new Set(dbs)];
      opts.dbExplicit = true;
    } else {
      if (!['unit', 'e2e', 'ops', 'browser'].includes(value)) usage(`unknown --only value "${value}"`);
      opts.only = value;
    }
  }
  return opts;
}

function usage(msg) {
  console.error(`scripts/test.mjs: ${msg}\nusage: npm test -- [--only=unit|e2e|ops|browser] [--db=sqlite|postgres|sqlite,postgres] [vitest args...]`);
  process.exit(2);
}

const opts = parseArgs(process.argv.slice(2));
const runUnit = opts.only === null || opts.only === 'unit';
const runE2e = opts.only === null || opts.only === 'e2e';
// The deployment and operations files (whole servers built, installed and started): their own project, run by `npm test` and CI.
const runOps = opts.only === null || opts.only === 'ops';
// The browser project (test/browser: Swagger UI in Debian's chromium) runs beside the e2e runs, on each database.
const runBrowser = opts.only === null || opts.only === 'browser';
const wantSqlite = (runE2e || runOps || runBrowser) && opts.dbs.includes('sqlite');
const wantPostgres = (runE2e || runOps || runBrowser) && opts.dbs.includes('postgres');

// ---------------------------------------------------------------- output helpers
const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, s) => (useColor ? `\x1b[${code}m${s}\x1b[0m` : s);
const bold = (s) => paint('1', s);
const red = (s) => paint('1;31', s);
const yellow = (s) => paint('1;33', s);
const green = (s) => paint('1;32', s);
const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;

function banner(title) {
  console.log(`\n${bold(`━━━━ ${title} ${'━'.repeat(Math.max(4, 60 - title.length))}`)}`);
}

function loud(colorFn, lines) {
  const bar = '!'.repeat(72);
  console.log(`\n${colorFn(bar)}\n${lines.map((l) => colorFn(`!!! ${l}`)).join('\n')}\n${colorFn(bar)}\n`);
}

// ---------------------------------------------------------------- cleanup (cluster) on every way out
let cluster = null; // { url, stop, stopSync }, once started
let clusterPromise = null; // while starting
let child = null;
let interrupted = false;
function stopClusterSync() {
  if (!cluster) return;
  const c = cluster;
  cluster = null;
  try {
    c.stopSync();
  } catch (e) {
    console.error(`scripts/test.mjs: stopping the PostgreSQL cluster failed: ${e.message}`);
  }
}
process.on('exit', stopClusterSync);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, async () => {
    const code = sig === 'SIGINT' ? 130 : 143;
    if (interrupted) process.exit(code); // second signal: go now (the 'exit' hook still stops a started cluster)
    interrupted = true;
    console.error(`\nscripts/test.mjs: interrupted by ${sig}, cleaning up`);
    const c = child;
    if (c && c.exitCode === null && c.signalCode === null) {
      // let vitest end its workers (bounded), so nothing still talks to the cluster we are about to remove
      const exited = new Promise((r) => c.once('exit', r));
      try {
        c.kill(sig === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
      } catch {
        /* already gone */
      }
      const timer = new Promise((r) => setTimeout(r, 5_000).unref());
      if ((await Promise.race([exited.then(() => 'exited'), timer])) !== 'exited') c.kill('SIGKILL');
    }
    if (clusterPromise) await clusterPromise; // a cluster still starting is stopped too (startup is bounded)
    stopClusterSync();
    process.exit(code);
  });
}

// ---------------------------------------------------------------- vitest
function vitestCommand() {
  const local = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  if (fs.existsSync(local)) return [process.execPath, [local]];
  return ['npx', ['--no-install', 'vitest']];
}

/** Runs one vitest invocation; resolves to { passed, failed, skipped, files, note }. Never rejects. */
async function runVitest(label, project, env) {
  if (interrupted) return new Promise(() => {}); // the signal handler is cleaning up and will exit
  banner(label);
  const jsonFile = path.join(os.tmpdir(), `vitest-${process.pid}-${project}-${Date.now()}.json`);
  const [cmd, pre] = vitestCommand();
  const args = [
    ...pre,
    'run',
    '--project',
    project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${jsonFile}`,
    // zero matching files (e.g. a file filter meant for the other project) is 0 tests, not an error;
    // vitest still prints "No test files found".
    ...(opts.passthrough.some((a) => a.startsWith('--passWithNoTests')) ? [] : ['--passWithNoTests']),
    ...opts.passthrough,
  ];
  const started = Date.now();
  const code = await new Promise((resolve) => {
    child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', (e) => {
      console.error(`scripts/test.mjs: could not start vitest: ${e.message}`);
      resolve(127);
    });
    child.on('exit', (c, sig) => resolve(c ?? (sig ? 128 : 1)));
  });
  child = null;
  if (interrupted) await new Promise(() => {}); // the signal handler finishes the cleanup and exits
  const result = { label, passed: 0, failed: 0, skipped: 0, files: 0, ms: Date.now() - started, note: '', exitCode: code };

  let report = null;
  try {
    report = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
  } catch {
    /* missing or unreadable */
  }
  fs.rmSync(jsonFile, { force: true });

  if (report) {
    result.passed = report.numPassedTests ?? 0;
    result.failed = report.numFailedTests ?? 0;
    result.skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    const files = report.testResults ?? [];
    result.files = files.length;
    // A file that failed without a failed test (import error, throwing beforeAll: its tests show as skipped).
    const brokenFiles = files.filter((f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'));
    result.failed += brokenFiles.length;
    if (brokenFiles.length) {
      // their tests were skipped by vitest because the file broke, not skipped on purpose
      const notRun = brokenFiles.reduce((n, f) => n + (f.assertionResults ?? []).filter((a) => a.status === 'skipped' || a.status === 'pending').length, 0);
      result.skipped = Math.max(0, result.skipped - notRun);
      result.note = `${brokenFiles.length} file(s) failed outside tests${notRun ? `, ${notRun} test(s) in them did not run` : ''}`;
    }
    if (files.length === 0) result.note = 'no test files found';
  } else {
    result.note = 'no JSON report';
  }
  if (code !== 0 && result.failed === 0) {
    result.failed = 1;
    result.note = [result.note, `vitest exited with code ${code}${report ? ' (unhandled error?)' : ''}`].filter(Boolean).join('; ');
  }
  return result;
}

// ---------------------------------------------------------------- main
async function main() {
  const results = [];

  // PostgreSQL: decide up front, start the cluster in the background while the other runs go.
  let pgProblem = null; // { fatal: boolean, message }
  if (wantPostgres && !process.env.TEST_DATABASE_URL) {
    if (!findPgBinDir()) {
      const fatal = isCI || (opts.dbExplicit && !opts.dbs.includes('sqlite'));
      pgProblem = {
        fatal,
        message: 'PostgreSQL server binaries (initdb, pg_ctl, postgres) not found on PATH or in /usr/lib/postgresql/*/bin, and TEST_DATABASE_URL is not set',
      };
      const lines = [
        pgProblem.message,
        fatal ? 'The e2e run on PostgreSQL FAILS (CI is set or --db=postgres was asked).' : 'The e2e run on PostgreSQL is SKIPPED.',
        'Install PostgreSQL (apt-get install -y postgresql) or set TEST_DATABASE_URL to an admin URL.',
      ];
      loud(fatal ? red : yellow, lines);
    } else {
      clusterPromise = startThrowawayCluster({ log: (m) => console.error(m) }).then(
        (c) => {
          cluster = c;
          return c;
        },
        (e) => {
          pgProblem = { fatal: true, message: `could not start a throwaway PostgreSQL cluster:\n${e.message}` };
          return null;
        },
      );
    }
  }

  if (runUnit) results.push(await runVitest('unit', 'unit', {}));
  if (wantSqlite && runE2e) results.push(await runVitest('e2e · sqlite', 'e2e', { CARTOGRAPH_TEST_DB: 'sqlite' }));
  if (wantSqlite && runOps) results.push(await runVitest('ops · sqlite', 'ops', { CARTOGRAPH_TEST_DB: 'sqlite' }));
  if (wantSqlite && runBrowser) results.push(await runVitest('browser · sqlite', 'browser', { CARTOGRAPH_TEST_DB: 'sqlite' }));
  if (wantPostgres) {
    let url = process.env.TEST_DATABASE_URL;
    if (!url && clusterPromise) {
      const c = await clusterPromise;
      url = c?.url;
      if (c) console.log(`\nthrowaway PostgreSQL cluster: ${c.url} (${c.binDir})`);
    }
    if (url) {
      if (runE2e) results.push(await runVitest('e2e · postgres', 'e2e', { CARTOGRAPH_TEST_DB: 'postgres', TEST_DATABASE_URL: url }));
      if (runOps) results.push(await runVitest('ops · postgres', 'ops', { CARTOGRAPH_TEST_DB: 'postgres', TEST_DATABASE_URL: url }));
      if (runBrowser) results.push(await runVitest('browser · postgres', 'browser', { CARTOGRAPH_TEST_DB: 'postgres', TEST_DATABASE_URL: url }));
    } else {
      if (pgProblem.fatal) console.error(red(`\nscripts/test.mjs: e2e on PostgreSQL: ${pgProblem.message}`));
      results.push({
        label: 'e2e · postgres',
        passed: 0,
        failed: pgProblem.fatal ? 1 : 0,
        skipped: 0,
        ms: 0,
        note: pgProblem.fatal ? `FAILED: ${pgProblem.message.split('\n')[0].replace(/:$/, ' (see above)')}` : 'SKIPPED: no PostgreSQL binaries and no TEST_DATABASE_URL',
        notRun: true,
      });
    }
  }
  stopClusterSync();

  // ---------------------------------------------------------------- summary
  const total = results.reduce((t, r) => ({ passed: t.passed + r.passed, failed: t.failed + r.failed, skipped: t.skipped + r.skipped }), { passed: 0, failed: 0, skipped: 0 });
  banner(`summary (${secs(Date.now() - t0)})`);
  const width = Math.max(...results.map((r) => r.label.length), 5);
  for (const r of results) {
    const counts = r.notRun ? '-' : `${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`;
    const mark = r.failed ? red('✗') : r.notRun ? yellow('!') : green('✓');
    const note = r.note ? (r.failed ? red(`  [${r.note}]`) : yellow(`  [${r.note}]`)) : '';
    console.log(`  ${mark} ${r.label.padEnd(width)}  ${counts.padEnd(36)} ${r.notRun ? '' : secs(r.ms).padStart(7)}${note}`);
  }
  const skippedPg = results.find((r) => r.notRun && !r.failed);
  if (skippedPg) console.log(yellow('  !!! the e2e run on PostgreSQL was SKIPPED (no PostgreSQL found)'));
  if (results.length === 0) console.log('  (nothing selected)');

  const finalLine = `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`;
  process.stdout.write(`${finalLine}\n`, () => process.exit(total.failed ? 1 : 0));
}

main().catch((e) => {
  stopClusterSync();
  console.error(e?.stack ?? e);
  process.stdout.write('0 passed, 1 failed\n', () => process.exit(1));
});
