#!/usr/bin/env node
// How fast SQLite alone can take scenario 11's ingest on this machine (issues 11 and 12).
//
//   npm run build && node bench/sqlite-ceiling.mjs [--duration=20] [--rounds=3] [--checkpoint-every=2]
//                    [--drop-indexes=IDX_a,IDX_b]   also replay on a copy without these indexes
//
// 1. Runs benchmark scenario 11 (`bench/run.mjs`, SQLite) with bench/sqlite-capture.cjs
//    preloaded in the server, which records the SQL and parameters of every statement its
//    main thread runs over about 250 commits (some 1,000 batches of 100 fixes), and keeps
//    the database.
// 2. Replays those statements, in order and with the same transactions, on a copy of that
//    database: no HTTP, no validation, no geofence engine, no TypeORM, only the statements
//    through better-sqlite3. Each round moves every timestamp parameter a day on, so the
//    history rows are new rows and the devices' latest fixes move forward as in the run.
//    Checkpoints run every few commits, as the server's checkpoint thread does, and are
//    timed apart: in the server they run on another thread, but on the same two cores.
//
// What it prints is SQLite's own cost per batch of 100 fixes, as a floor: in the replay
// SQLite shares the machine with nothing, while in the server it shares both cores with the
// JavaScript, the checkpoint thread and the load generator.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');

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

const work = mkdtempSync(join(tmpdir(), 'cartograph-sqlite-ceiling-'));
const captureFile = join(work, 'statements.jsonl');

/** Scenario 11 with the capture preloaded in the server; resolves with the kept database's directory and the run's fixes/s. */
function runScenario() {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(root, 'bench/run.mjs'), '--scenarios=11', `--duration=${duration}`, '--keep-database=true'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} -r ${join(root, 'bench/sqlite-capture.cjs')}`.trim(),
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
      const kept = /Database kept: (\S+)/.exec(output);
      const rate = /: (\d+) fixes\/s accepted/.exec(output);
      if (code !== 0 || !kept) reject(new Error(`bench/run.mjs exited with ${code}`));
      else resolvePromise({ directory: kept[1], fixesPerSecond: rate ? Number(rate[1]) : null });
    });
  });
}

const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/;
/** SQLite's UTC text for a time, moved on by `ms`; other values unchanged. */
function shifted(value, ms) {
  if (typeof value !== 'string' || !TIMESTAMP.test(value)) return value;
  return new Date(Date.parse(`${value.replace(' ', 'T')}Z`) + ms).toISOString().replace('T', ' ').slice(0, 23);
}
function shiftedParameters(parameters, ms) {
  return parameters.map((value) => {
    if (value && typeof value === 'object' && 'buffer' in value) return Buffer.from(value.buffer, 'base64');
    if (value && typeof value === 'object' && !Array.isArray(value)) return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, shifted(v, ms)]));
    return shifted(value, ms);
  });
}

/** The captured statements run `rounds` times on a copy of the database; times per kind of statement and for checkpoints. */
function replay(statements, databaseFile, drop) {
  const copy = join(work, `replay-${drop ? 'dropped' : 'as-is'}.sqlite`);
  copyFileSync(databaseFile, copy);
  const db = new Database(copy);
  // As the server opens it (src/database/typeorm-options.ts, src/database/sqlite-checkpointer.ts).
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
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
  let statementNs = 0n;
  let checkpointNs = 0n;
  let commits = 0;
  let refused = 0;
  for (let round = 1; round <= rounds; round++) {
    const work = statements.map(([method, sql, parameters]) => [method, statementOf(sql), sql, shiftedParameters(parameters, round * 86_400_000)]);
    for (const [method, statement, sql, parameters] of work) {
      const started = process.hrtime.bigint();
      try {
        if (method === 'run' || !statement.reader) statement.run(...parameters);
        else statement.all(...parameters);
      } catch {
        // A geofence event or visit of the capture inserted again (its id is taken): a handful per round.
        refused += 1;
      }
      const elapsed = process.hrtime.bigint() - started;
      statementNs += elapsed;
      const kind = sql.replace(/\s+/g, ' ').slice(0, 60);
      byKind.set(kind, (byKind.get(kind) ?? 0n) + elapsed);
      if (sql === 'COMMIT' && ++commits % checkpointEvery === 0) {
        const checkpointStarted = process.hrtime.bigint();
        db.pragma('wal_checkpoint(PASSIVE)');
        checkpointNs += process.hrtime.bigint() - checkpointStarted;
      }
    }
  }
  db.close();
  return { byKind, statementNs, checkpointNs, refused };
}

function report(title, fixes, { byKind, statementNs, checkpointNs, refused }) {
  const batches = (fixes * rounds) / 100;
  const perBatch = (ns) => Number(ns) / 1e6 / batches;
  const statements = perBatch(statementNs);
  const checkpoints = perBatch(checkpointNs);
  console.log(`\n${title}: ${rounds} rounds of ${fixes} fixes (${refused} statements refused)`);
  for (const [kind, ns] of [...byKind].sort((a, b) => Number(b[1] - a[1])).slice(0, 10)) console.log(`  ${perBatch(ns).toFixed(3).padStart(6)} ms  ${kind}`);
  console.log(`  statements  ${statements.toFixed(2)} ms a batch of 100: one thread doing nothing else takes at most ${Math.round(100_000 / statements)} fixes/s`);
  console.log(`  checkpoints ${checkpoints.toFixed(2)} ms a batch (on the checkpoint thread)`);
  console.log(`  SQLite in all ${(statements + checkpoints).toFixed(2)} ms of CPU a batch; ${cpus().length} cores give ${((cpus().length * 1000) / 200).toFixed(1)} ms a batch at 20,000 fixes/s`);
}

const { directory, fixesPerSecond } = await runScenario();
try {
  const statements = readFileSync(captureFile, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('['))
    .map((line) => JSON.parse(line));
  const fixes = statements.filter(([, sql]) => sql.startsWith('INSERT INTO position_history')).reduce((sum, [, , parameters]) => sum + parameters.length / 12, 0);
  const commits = statements.filter(([, sql]) => sql === 'COMMIT').length;
  console.log(`\nCaptured ${statements.length} statements: ${fixes / 100} batches of 100 fixes in ${commits} commits (the server took ${fixesPerSecond} fixes/s)`);
  const databaseFile = join(directory, 'data', 'cartograph.sqlite');
  report('Replayed as captured', fixes, replay(statements, databaseFile, null));
  if (dropIndexes) report(`Replayed without ${dropIndexes.join(', ')}`, fixes, replay(statements, databaseFile, dropIndexes));
} finally {
  rmSync(work, { recursive: true, force: true });
  rmSync(directory, { recursive: true, force: true });
}
