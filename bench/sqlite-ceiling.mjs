#!/usr/bin/env node
// How fast SQLite alone can take scenario 11's ingest on this machine (issues 11 and 12).
//
//   npm run build && node bench/sqlite-ceiling.mjs [--duration=20] [--rounds=3] [--checkpoint-every=2]
//                    [--drop-indexes=IDX_a,IDX_b]   also replay on a copy without these indexes
//
// 1. Runs benchmark scenario 11 (`bench/run.mjs`, SQLite) with bench/sqlite-capture.cjs
//    preloaded in the server, which records the SQL and parameters of every statement its
//    main thread runs over 250 commits (about 900 batches of 100 fixes), and keeps the
//    database. (Like any partial run, it writes bench/results/<date>-sqlite-custom.json, which
//    git ignores; the recording slows that run.)
// 2. Replays those statements, in order and with the same transactions, on a copy of that
//    database: no HTTP, no validation, no geofence engine, no TypeORM, only the statements
//    through better-sqlite3. Each round moves every timestamp parameter a day on, so the
//    history rows are new rows and the devices' latest fixes move forward as in the run.
//    Checkpoints run every few commits, as the server's checkpoint thread does, and are
//    timed apart: in the server they run on another thread, but on the same two cores.
//
// What it prints is SQLite's own cost per batch of 100 fixes, as a floor, both as CPU time
// (process.cpuUsage: user and system, the replay being the process's only busy thread) and as
// elapsed time (which also holds the checkpoints' waits for the disk): in the replay SQLite
// shares the machine with nothing, while in the server it shares both cores with the
// JavaScript, the checkpoint thread and the load generator.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
// The server's own build (the script runs after `npm run build`): its SQLite settings, the history's columns, its timestamp text.
const { buildDataSourceOptions } = require('../dist/src/database/typeorm-options.js');
const { HISTORY_COLUMNS } = require('../dist/src/positions/position-store.js');
const { dialectFor } = require('../dist/src/database/sql-dialect.js');
const timestampParameter = (kind, ms) => dialectFor(kind).timestamp(ms);
const { parseDatabaseTimestamp } = require('../dist/src/common/database/raw-values.js');

const options = Object.fromEntries(
  process.argv.slice(2).map((argument) => {
    const match = /^--([a-z-]+)=(.*)$/.exec(argument);
    if (!match) throw new Error(`Unknown argument ${argument}`);
    return [match[1], match[2]];
  }),
);
const duration = Number(options.duration ?? 20);
const rounds = Number(options.rounds ?? 3);
const checkpointEvery = Number(options['checkpoint-every'] ?? 2);
const dropIndexes = options['drop-indexes'] ? options['drop-indexes'].split(',') : null;
if (process.env.DATABASE_URL) throw new Error('This measures SQLite: unset DATABASE_URL');

/** Scenario 11 with the capture preloaded in the server; resolves with the kept database's directory and the run's fixes/s. */
function runScenario(captureFile) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(root, 'bench/run.mjs'), '--scenarios=11', `--duration=${duration}`, '--keep-database=true'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} -r ${JSON.stringify(join(root, 'bench/sqlite-capture.cjs'))}`.trim(),
        CG_CAPTURE_FILE: captureFile,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const kept = /Database kept: (.+)$/m.exec(output);
      const rate = /: (\d+) fixes\/s accepted/.exec(output);
      if (code === 0 && kept) return resolvePromise({ directory: kept[1].trim(), fixesPerSecond: rate ? Number(rate[1]) : null });
      if (kept) rmSync(kept[1].trim(), { recursive: true, force: true });
      reject(new Error(`bench/run.mjs exited with ${code}`));
    });
  });
}

const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/;
/** SQLite's UTC text for a time, moved on by `ms`; other values unchanged. */
function shifted(value, ms) {
  if (typeof value !== 'string' || !TIMESTAMP.test(value)) return value;
  return timestampParameter('sqlite', parseDatabaseTimestamp(value).getTime() + ms);
}
function shiftedParameters(parameters, ms) {
  return parameters.map((value) => {
    if (value && typeof value === 'object' && 'buffer' in value) return Buffer.from(value.buffer, 'base64');
    if (value && typeof value === 'object' && !Array.isArray(value)) return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, shifted(v, ms)]));
    return shifted(value, ms);
  });
}

/** Microseconds of CPU (user and system) this process has used. */
function cpuMicros() {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** The captured statements run `rounds` times on a copy of the database; times per kind of statement and for checkpoints. */
function replay(work, statements, databaseFile, drop) {
  const copy = join(work, `replay-${drop ? 'dropped' : 'as-is'}.sqlite`);
  copyFileSync(databaseFile, copy);
  // The server checkpoints and removes its WAL when it closes; one left behind holds the last commits.
  if (existsSync(`${databaseFile}-wal`)) copyFileSync(`${databaseFile}-wal`, `${copy}-wal`);
  const db = new Database(copy);
  // As the server opens it: its own settings, WAL, and checkpoints left to the checkpoint thread (here, timed below).
  buildDataSourceOptions({ kind: 'sqlite', path: copy, busyTimeoutMs: 2000, logQueries: false }).prepareDatabase(db);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  for (const index of drop ?? []) db.exec(`DROP INDEX "${index}"`);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const prepared = new Map();
  const statementOf = (sql) => {
    let statement = prepared.get(sql);
    if (!statement) prepared.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  const byKind = new Map();
  /** The first error of each kind of statement refused. */
  const refusals = new Map();
  let statementNs = 0n;
  let checkpointNs = 0n;
  let statementCpu = 0;
  let checkpointCpu = 0;
  let commits = 0;
  let refused = 0;
  for (let round = 1; round <= rounds; round++) {
    const steps = statements.map(([method, sql, parameters]) => [method, statementOf(sql), sql, shiftedParameters(parameters, round * 86_400_000)]);
    for (const [method, statement, sql, parameters] of steps) {
      const kind = sql.replace(/\s+/g, ' ').slice(0, 60);
      const cpuStarted = cpuMicros();
      const started = process.hrtime.bigint();
      try {
        if (method === 'run' || !statement.reader) statement.run(...parameters);
        else statement.all(...parameters);
      } catch (error) {
        // Expected: a geofence event or visit of the capture inserted again (its id is taken), a handful per round.
        refused += 1;
        if (!refusals.has(kind)) refusals.set(kind, String(error?.message ?? error));
      }
      const elapsed = process.hrtime.bigint() - started;
      statementCpu += cpuMicros() - cpuStarted;
      statementNs += elapsed;
      byKind.set(kind, (byKind.get(kind) ?? 0n) + elapsed);
      if (sql === 'COMMIT' && ++commits % checkpointEvery === 0) {
        const checkpointCpuStarted = cpuMicros();
        const checkpointStarted = process.hrtime.bigint();
        db.pragma('wal_checkpoint(PASSIVE)');
        checkpointNs += process.hrtime.bigint() - checkpointStarted;
        checkpointCpu += cpuMicros() - checkpointCpuStarted;
      }
    }
  }
  db.close();
  // More than the odd re-inserted event would mean statements that did not run: the timings would be wrong.
  if (refused > statements.length * rounds * 0.01) throw new Error(`${refused} statements refused: ${JSON.stringify([...refusals])}`);
  return { byKind, statementNs, checkpointNs, statementCpu, checkpointCpu, refused, refusals };
}

function report(title, fixes, { byKind, statementNs, checkpointNs, statementCpu, checkpointCpu, refused, refusals }) {
  const batches = (fixes * rounds) / 100;
  const perBatch = (ns) => Number(ns) / 1e6 / batches;
  const cpuPerBatch = (micros) => micros / 1000 / batches;
  const statements = cpuPerBatch(statementCpu);
  const checkpoints = cpuPerBatch(checkpointCpu);
  console.log(`\n${title}: ${rounds} rounds of ${fixes} fixes (${refused} statements refused${refused ? `: ${[...refusals.values()].join('; ')}` : ''})`);
  console.log('  elapsed per batch of 100, by statement:');
  for (const [kind, ns] of [...byKind].sort((a, b) => Number(b[1] - a[1])).slice(0, 10)) console.log(`  ${perBatch(ns).toFixed(3).padStart(6)} ms  ${kind}`);
  console.log(
    `  statements  ${statements.toFixed(2)} ms of CPU a batch of 100 (${perBatch(statementNs).toFixed(2)} ms elapsed): one thread doing nothing else takes at most ${Math.round(100_000 / statements)} fixes/s`,
  );
  console.log(`  checkpoints ${checkpoints.toFixed(2)} ms of CPU a batch (${perBatch(checkpointNs).toFixed(2)} ms elapsed; on the checkpoint thread)`);
  console.log(
    `  SQLite in all ${(statements + checkpoints).toFixed(2)} ms of CPU a batch; ${cpus().length} cores give ${((cpus().length * 1000) / 200).toFixed(1)} ms a batch at 20,000 fixes/s`,
  );
}

const work = mkdtempSync(join(tmpdir(), 'cartograph-sqlite-ceiling-'));
let directory = null;
try {
  const captureFile = join(work, 'statements.jsonl');
  const run = await runScenario(captureFile);
  directory = run.directory;
  const fixesPerSecond = run.fixesPerSecond;
  const statements = readFileSync(captureFile, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('['))
    .map((line) => JSON.parse(line));
  const fixes = statements
    .filter(([, sql]) => sql.startsWith('INSERT INTO position_history'))
    .reduce((sum, [, , parameters]) => sum + parameters.length / HISTORY_COLUMNS.length, 0);
  const commits = statements.filter(([, sql]) => sql === 'COMMIT').length;
  console.log(`\nCaptured ${statements.length} statements: ${fixes / 100} batches of 100 fixes in ${commits} commits (the server took ${fixesPerSecond} fixes/s)`);
  const databaseFile = join(directory, 'data', 'cartograph.sqlite');
  report('Replayed as captured', fixes, replay(work, statements, databaseFile, null));
  if (dropIndexes) report(`Replayed without ${dropIndexes.join(', ')}`, fixes, replay(work, statements, databaseFile, dropIndexes));
} finally {
  rmSync(work, { recursive: true, force: true });
  if (directory) rmSync(directory, { recursive: true, force: true });
}
