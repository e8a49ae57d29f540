// Preloaded by `npm start` (node --require). npm hands SIGINT and SIGTERM on to the server, but
// dies of SIGHUP (or SIGKILL) without a word, which left the server running with no parent.
// When the process that started the server is gone, the server gets SIGTERM: it drains and exits.
'use strict';

// Worker threads load the preloads too: only the main thread watches.
if (require('node:worker_threads').isMainThread) {
  var parent = process.ppid;
  var watch = setInterval(function () {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.stderr.write('cartograph: the process that started the server (pid ' + parent + ') is gone; stopping the server\n');
    process.kill(process.pid, 'SIGTERM');
  }, 500);
  watch.unref();
}
