// Refuses a Node.js that Cartograph cannot run on, in one line and with exit status 69
// (EX_UNAVAILABLE), before anything else loads: on Node 20 the SQLite module segfaults
// silently. Required first by dist/src/main.js and dist/src/cli.js, preloaded by the npm
// scripts, run by `prepare`. Plain ES5 and no require(), so that any old Node can read it.
'use strict';

var EX_UNAVAILABLE = 69;

// The same versions as package.json's engines.node (a test compares the two): what the
// dependencies' own engines allow, build tools included.
function isSupported(version) {
  var parts = String(version).replace(/^v/, '').split('.');
  var major = Number(parts[0]);
  var minor = Number(parts[1]) || 0;
  var patch = Number(parts[2]) || 0;
  function atLeast(m, p) {
    return minor > m || (minor === m && patch >= p);
  }
  if (major === 22) return atLeast(22, 3);
  if (major === 24) return atLeast(15, 0);
  return major >= 26;
}

function refusal(version) {
  return (
    'cartograph: Node.js ' +
    version +
    ' is not supported: Cartograph needs Node.js 24 LTS (24.15 or newer; ' +
    "22.22.3+ and 26+ also work). Get it with `nvm install` (reads .nvmrc), NodeSource's nodejs 24 package, " +
    'or `npm install --prefix /opt/node24 node@24` and PATH=/opt/node24/node_modules/.bin:$PATH ' +
    '(docs/operations.md, "Node.js").'
  );
}

if (!isSupported(process.versions.node)) {
  process.stderr.write(refusal(process.version) + '\n');
  process.exit(EX_UNAVAILABLE);
}

module.exports = { isSupported: isSupported, refusal: refusal, EX_UNAVAILABLE: EX_UNAVAILABLE };
