// Preload (`node -r`) of bench/sqlite-ceiling.mjs: records the SQL and the parameters of every
// statement the server's main thread runs on SQLite, from the first transaction after
// CG_CAPTURE_SKIP history inserts until CG_CAPTURE_COMMITS commits, one JSON line each in
// CG_CAPTURE_FILE. Only the process and thread that load better-sqlite3 write the file.
'use strict';
const Module = require('node:module');
const fs = require('node:fs');
const { isMainThread } = require('node:worker_threads');

const file = process.env.CG_CAPTURE_FILE;
const skip = Number(process.env.CG_CAPTURE_SKIP ?? 300);
const maxCommits = Number(process.env.CG_CAPTURE_COMMITS ?? 250);
const load = Module._load;
let patched = false;

Module._load = function (request) {
  const loaded = load.apply(this, arguments);
  if (patched || !file || !isMainThread || request !== 'better-sqlite3') return loaded;
  patched = true;
  const probe = new loaded(':memory:');
  const Statement = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  probe.close();
  let fd = null;
  let inserts = 0;
  let capturing = false;
  let commits = 0;
  for (const method of ['run', 'all', 'get', 'iterate']) {
    const original = Statement[method];
    Statement[method] = function () {
      const sql = this.source;
      if (commits < maxCommits) {
        if (!capturing) {
          if (sql.startsWith('INSERT INTO position_history')) inserts += 1;
          if (inserts > skip && sql.startsWith('BEGIN')) capturing = true;
        }
        if (capturing && !/^PRAGMA/i.test(sql)) {
          // The recording must never fail the server's own statement.
          try {
            fd ??= fs.openSync(file, 'w');
            const parameters = [...arguments].map((value) => (Buffer.isBuffer(value) ? { buffer: value.toString('base64') } : value));
            fs.writeSync(fd, `${JSON.stringify([method, sql, parameters])}\n`);
          } catch (error) {
            process.emitWarning(`sqlite-capture: a statement was not recorded: ${error}`);
          }
          if (sql === 'COMMIT' && ++commits === maxCommits && fd !== null) fs.closeSync(fd);
        }
      }
      return original.apply(this, arguments);
    };
  }
  return loaded;
};
