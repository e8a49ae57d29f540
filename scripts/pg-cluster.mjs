#!/usr/bin/env node
// Throwaway PostgreSQL cluster for tests: a fresh data directory in a temp folder, a server on
// 127.0.0.1 at a free port, tuned for speed (no durability), removed again by stop().
//
//   import { startThrowawayCluster } from './pg-cluster.mjs';
//   const { url, stop } = await startThrowawayCluster();   // url: postgres://postgres@127.0.0.1:<port>/postgres
//   ...; await stop();
//
// CLI:  node scripts/pg-cluster.mjs start        -> prints TEST_DATABASE_URL=... and PG_CLUSTER_DIR=..., leaves it running
//       node scripts/pg-cluster.mjs stop <dir>   -> stops the cluster in <dir> and deletes <dir>
//
// Binaries: only $PG_BIN_DIR if set, else initdb on PATH (resolved to its real directory), else the highest
// /usr/lib/postgresql/<version>/bin. initdb, pg_ctl and postgres refuse to run as root, so as root they
// run as the `postgres` OS user (or `nobody` if there is none), via runuser (or su).
// Node built-ins only.

import { execFile, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const READY_TIMEOUT_MS = 30_000;
const SERVER_SETTINGS = {
  listen_addresses: "'127.0.0.1'",
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  max_connections: '200',
  // keep a many-connection server light on a small machine
  shared_buffers: "'64MB'",
  logging_collector: 'off',
  log_min_messages: 'warning',
};

function isExecutable(p) {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function whichSync(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, name);
    if (isExecutable(p)) return p;
  }
  return null;
}

function hasServerBinaries(dir) {
  return ['initdb', 'pg_ctl', 'postgres'].every((b) => isExecutable(path.join(dir, b)));
}

function compareVersionsDesc(a, b) {
  const pa = a
    .split(/[^0-9]+/)
    .filter(Boolean)
    .map(Number);
  const pb = b
    .split(/[^0-9]+/)
    .filter(Boolean)
    .map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pb[i] ?? -1) - (pa[i] ?? -1);
    if (d) return d;
  }
  return 0;
}

/** Directory holding initdb, pg_ctl and postgres, or null if PostgreSQL's server binaries are not installed. */
export function findPgBinDir() {
  // An explicit PG_BIN_DIR is the only place looked at (PG_BIN_DIR=none: act as if PostgreSQL were not installed).
  if (process.env.PG_BIN_DIR) return hasServerBinaries(process.env.PG_BIN_DIR) ? process.env.PG_BIN_DIR : null;
  const candidates = [];
  const onPath = whichSync('initdb');
  if (onPath) {
    try {
      candidates.push(path.dirname(fs.realpathSync(onPath)));
    } catch {
      /* dangling link */
    }
    candidates.push(path.dirname(onPath));
  }
  try {
    const versions = fs.readdirSync('/usr/lib/postgresql').sort(compareVersionsDesc);
    for (const v of versions) candidates.push(path.join('/usr/lib/postgresql', v, 'bin'));
  } catch {
    /* not installed there */
  }
  return candidates.find(hasServerBinaries) ?? null;
}

/** How to run the server binaries: directly, or (as root) as an unprivileged OS user. */
function resolveRunAs() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  for (const user of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
      const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
      if (Number.isInteger(uid) && uid > 0) return { user, uid, gid, runuser: whichSync('runuser') ?? (isExecutable('/usr/sbin/runuser') ? '/usr/sbin/runuser' : null) };
    } catch {
      /* no such user */
    }
  }
  throw new Error('pg-cluster: running as root, but there is neither a `postgres` nor a `nobody` OS user to run PostgreSQL as');
}

const shQuote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

/** [file, args] that runs `bin args` as the right user. */
function command(runAs, bin, args) {
  if (!runAs) return [bin, args];
  if (runAs.runuser) return [runAs.runuser, ['-u', runAs.user, '--', bin, ...args]];
  return ['su', ['-s', '/bin/sh', runAs.user, '-c', [bin, ...args].map(shQuote).join(' ')]];
}

function run(runAs, bin, args, { cwd, timeout = 120_000 } = {}) {
  const [file, argv] = command(runAs, bin, args);
  return new Promise((resolve, reject) => {
    execFile(file, argv, { cwd, timeout, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, env: { ...process.env, LC_ALL: 'C' } }, (err, stdout, stderr) => {
      if (err) {
        const how = err.killed ? `timed out after ${timeout / 1000}s` : `exit code ${err.code}`;
        reject(Object.assign(new Error(`${[file, ...argv].join(' ')} failed (${how})\n${stdout}${stderr}`.trimEnd()), { cause: err }));
      } else resolve({ stdout, stderr });
    });
  });
}

function runSync(runAs, bin, args, { cwd, timeout = 30_000 } = {}) {
  const [file, argv] = command(runAs, bin, args);
  return spawnSync(file, argv, { cwd, timeout, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function readLog(logFile) {
  try {
    return fs.readFileSync(logFile, 'utf8');
  } catch {
    return '(no server log)';
  }
}

function postmasterPid(dataDir) {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return e.code === 'EPERM';
  }
  // A stopped postmaster whose parent (pg_ctl) is gone may linger as a zombie until init reaps it.
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\S+ \(.*\) [ZX] /s.test(stat);
  } catch {
    return process.platform !== 'linux';
  }
}

/** Real readiness check: pg_isready if we have it, else a TCP connect. */
async function isReady(binDir, port) {
  const pgIsReady = path.join(binDir, 'pg_isready');
  if (isExecutable(pgIsReady)) {
    const r = spawnSync(pgIsReady, ['-q', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-t', '2'], { stdio: 'ignore', timeout: 5_000 });
    return r.status === 0;
  }
  return new Promise((resolve) => {
    const sock = net.connect({ host: '127.0.0.1', port }, () => {
      sock.destroy();
      resolve(true);
    });
    sock.on('error', () => resolve(false));
    sock.setTimeout(2_000, () => {
      sock.destroy();
      resolve(false);
    });
  });
}

/** Stop the cluster living in baseDir (data in baseDir/data) and delete baseDir. Synchronous, safe to call twice. */
export function stopClusterSync(baseDir, binDir = findPgBinDir()) {
  if (!baseDir || !fs.existsSync(baseDir)) return;
  const dataDir = path.join(baseDir, 'data');
  const pid = postmasterPid(dataDir);
  let stoppedByPgCtl = false;
  if (pid && binDir) {
    const runAs = resolveRunAs();
    const r = runSync(runAs, path.join(binDir, 'pg_ctl'), ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '20'], { cwd: baseDir });
    stoppedByPgCtl = r.status === 0;
  }
  if (pid && !stoppedByPgCtl && alive(pid)) {
    // pg_ctl failed or is missing: the postmaster is ours, end it (SIGQUIT = immediate shutdown).
    try {
      process.kill(pid, 'SIGQUIT');
    } catch {
      /* gone */
    }
    const deadline = Date.now() + 5_000;
    while (alive(pid) && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    if (alive(pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
  fs.rmSync(baseDir, { recursive: true, force: true });
}

/**
 * Start a fresh PostgreSQL cluster. Resolves to { url, stop, stopSync, port, baseDir, dataDir, binDir, logFile }.
 * Throws (with the server log in the message) if the binaries are missing or the server does not come up.
 */
export async function startThrowawayCluster({ log = () => {} } = {}) {
  const binDir = findPgBinDir();
  if (!binDir) {
    const err = new Error('PostgreSQL server binaries (initdb, pg_ctl, postgres) not found on PATH or under /usr/lib/postgresql/*/bin');
    err.code = 'PG_NOT_FOUND';
    throw err;
  }
  const runAs = resolveRunAs();
  let baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-cluster-'));
  if (runAs) {
    fs.chownSync(baseDir, runAs.uid, runAs.gid);
    // $TMPDIR may sit below a folder the unprivileged user cannot enter; /tmp never does.
    if (runSync(runAs, 'test', ['-w', baseDir]).status !== 0 && os.tmpdir() !== '/tmp') {
      fs.rmSync(baseDir, { recursive: true, force: true });
      baseDir = fs.mkdtempSync('/tmp/pg-cluster-');
      fs.chownSync(baseDir, runAs.uid, runAs.gid);
    }
  }
  const dataDir = path.join(baseDir, 'data');
  const logFile = path.join(baseDir, 'server.log');
  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    stopClusterSync(baseDir, binDir);
  };

  try {
    const initdbArgs = ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'];
    try {
      await run(runAs, path.join(binDir, 'initdb'), initdbArgs, { cwd: baseDir });
    } catch (e) {
      // --no-instructions is PostgreSQL 14+
      if (!/no-instructions/.test(e.message)) throw e;
      await run(
        runAs,
        path.join(binDir, 'initdb'),
        initdbArgs.filter((a) => a !== '--no-instructions'),
        { cwd: baseDir },
      );
    }

    const confFile = path.join(dataDir, 'postgresql.conf');
    const settings = { ...SERVER_SETTINGS, unix_socket_directories: `'${baseDir.replace(/'/g, "''")}'` };
    fs.appendFileSync(
      confFile,
      `\n# throwaway test cluster (scripts/pg-cluster.mjs)\n${Object.entries(settings)
        .map(([k, v]) => `${k} = ${v}`)
        .join('\n')}\n`,
    );

    // The port is found by binding port 0; someone may grab it before postgres does, so retry a few times.
    let port;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        fs.rmSync(logFile, { force: true });
        await run(runAs, path.join(binDir, 'pg_ctl'), ['start', '-D', dataDir, '-l', logFile, '-o', `-p ${port}`, '-w', '-t', String(READY_TIMEOUT_MS / 1000)], {
          cwd: baseDir,
          timeout: READY_TIMEOUT_MS + 10_000,
        });
        break;
      } catch (e) {
        const serverLog = readLog(logFile);
        if (attempt < 3 && /already in use|could not bind|could not create any TCP\/IP sockets/i.test(serverLog)) {
          log(`pg-cluster: port ${port} taken, retrying`);
          continue;
        }
        e.message += `\n--- server log (${logFile}) ---\n${serverLog}`;
        throw e;
      }
    }

    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!(await isReady(binDir, port))) {
      if (Date.now() > deadline) {
        throw new Error(`PostgreSQL on 127.0.0.1:${port} did not accept connections within ${READY_TIMEOUT_MS / 1000}s\n--- server log (${logFile}) ---\n${readLog(logFile)}`);
      }
      await sleep(100);
    }

    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      baseDir,
      dataDir,
      binDir,
      logFile,
      stopSync,
      stop: async () => stopSync(),
    };
  } catch (e) {
    try {
      stopSync();
    } catch {
      /* keep the original error */
    }
    throw e;
  }
}

async function cli(argv) {
  const [cmd, dir] = argv;
  if (cmd === 'start') {
    const c = await startThrowawayCluster({ log: (m) => console.error(m) });
    console.log(`TEST_DATABASE_URL=${c.url}`);
    console.log(`PG_CLUSTER_DIR=${c.baseDir}`);
  } else if (cmd === 'stop' && dir) {
    if (!fs.existsSync(path.join(dir, 'data', 'PG_VERSION'))) throw new Error(`${dir} does not look like a pg-cluster.mjs directory`);
    stopClusterSync(dir);
  } else if (cmd === 'bindir') {
    const d = findPgBinDir();
    if (!d) process.exit(1);
    console.log(d);
  } else {
    console.error('usage: node scripts/pg-cluster.mjs start | stop <dir> | bindir');
    process.exit(2);
  }
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli(process.argv.slice(2)).catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}
