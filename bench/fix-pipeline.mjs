#!/usr/bin/env node
// The fix pipeline's benchmark (issue 28): accepted fixes per second against the public
// `/health/live` route in the same run, the server's CPU per fix (all its threads) and its
// peak RSS, for 1,000 devices walking about 1 m per fix over a floor of 400 fences (batches
// of 100), and for random jumps (a fence change on nearly every fix), then the live read.
// Load from wrk (C), so the generator takes little of the two cores the server shares.
//
//   npm run build && node bench/fix-pipeline.mjs                    this checkout, SQLite
//   node bench/fix-pipeline.mjs --compare=/path/to/old/checkout     the old build first, then this one, back to back
//   DATABASE_URL=postgres://… node bench/fix-pipeline.mjs           PostgreSQL (a scratch database per run)
//   --duration=10 --connections=50 --devices=1000 --fences=400 --modes=walk,jump --live=true
//
// Ratios compare within one run only: this machine's speed varies by two or three times from
// hour to hour.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuSecondsOf, freePort, rssOf, scratchDatabase } from './server-process.mjs';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const options = Object.fromEntries(
  process.argv.slice(2).map((argument) => {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argument);
    if (!match) throw new Error(`Unknown argument ${argument}`);
    return [match[1], match[2] ?? 'true'];
  }),
);
const duration = Number(options.duration ?? 10);
const warmup = Number(options.warmup ?? 3);
const connections = Number(options.connections ?? 50);
const devices = Number(options.devices ?? 1000);
const fenceCount = Number(options.fences ?? 400);
const batch = 100;
const modes = (options.modes ?? 'walk,jump').split(',');
const live = options.live !== 'false';
const roots = [...(options.compare ? [resolve(options.compare)] : []), here];
const work = mkdtempSync(join(tmpdir(), 'cartograph-fix-bench-'));
const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  if (options['keep-database'] !== 'true') rmSync(work, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const LOCATION = { lat: 42.8723597, lng: -8.5633224 };
/** The walking area: a square of fences 6 m apart, each 4 m wide, over the floor's first metres. */
const side = Math.ceil(Math.sqrt(fenceCount));
const AREA_M = side * 6;
const metresPerDegreeLat = 111_320;
const metresPerDegreeLng = 111_320 * Math.cos((LOCATION.lat * Math.PI) / 180);

if (spawnSync('wrk', ['--version']).error) {
  console.error('bench/fix-pipeline.mjs needs wrk (apt-get install wrk)');
  process.exit(2);
}

async function api(base, method, path, { token, apiKey, basic, body } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (apiKey) headers['x-api-key'] = apiKey;
  if (basic) headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** What `npm start` of that checkout runs: its environment assignments and node flags. */
function startCommand(root) {
  const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  const env = Object.fromEntries([...start.split(/\bexec\b|\bnode\b/)[0].matchAll(/([A-Z_]+)=(\S+)/g)].map((match) => [match[1], match[2]]));
  const flags = start.split(/\s+/).filter((argument) => argument.startsWith('--'));
  if (!options.profile) return { env, args: [...flags, join(root, 'dist/src/main.js')] };
  // The profile is written on a clean exit; Nest re-raises SIGTERM after closing, which would lose it.
  const entry = `process.once('SIGTERM', () => process.exit(0)); require(${JSON.stringify(join(root, 'dist/src/main.js'))});`;
  return { env, args: [...flags, '--cpu-prof', `--cpu-prof-dir=${resolve(options.profile)}`, '-e', entry] };
}

async function startServer(root, database, dataDir) {
  const port = await freePort();
  const log = openSync(join(work, `server-${children.size}.log`), 'a');
  const { env, args } = startCommand(root);
  const server = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      ...database.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: 'bench@example.test',
      ADMIN_PASSWORD: 'bench-password-123',
      ORGANIZATION_NAME: 'Benchmark',
      LOG_REQUESTS: 'false',
      LOGIN_FAILURE_LIMIT: '1000000',
      LOGIN_ADDRESS_FAILURE_LIMIT: '1000000',
      MAX_CONNECTIONS_PER_CLIENT: '100000',
    },
    stdio: ['ignore', log, log],
  });
  children.add(server);
  server.once('exit', () => children.delete(server));
  closeSync(log);
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (server.exitCode !== null) throw new Error(`The server of ${root} exited (${server.exitCode})`);
    try {
      if ((await fetch(`${base}/health/ready`)).ok) return { server, base };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error('The server did not become ready');
}

async function stopServer(server) {
  if (server.exitCode !== null) return;
  server.kill('SIGTERM');
  await Promise.race([new Promise((done) => server.once('exit', done)), sleep(30_000)]);
  if (server.exitCode === null) server.kill('SIGKILL');
}

/** A square ring of `half` metres around (x, y) metres from the building's origin, as [lat, lng] pairs. */
function squareRing(x, y, half) {
  const corners = [
    [x - half, y - half],
    [x + half, y - half],
    [x + half, y + half],
    [x - half, y + half],
  ].map(([cx, cy]) => [Number((LOCATION.lat + cy / metresPerDegreeLat).toFixed(7)), Number((LOCATION.lng + cx / metresPerDegreeLng).toFixed(7))]);
  return [...corners, corners[0]];
}

async function seed(base) {
  let tokens;
  for (let attempt = 0; !tokens; attempt += 1) {
    try {
      tokens = await api(base, 'POST', '/api/v1/auth/access_tokens', { basic: 'bench@example.test:bench-password-123' });
    } catch (error) {
      if (attempt >= 20) throw error;
      await sleep(500);
    }
  }
  const token = tokens.access_token;
  const building = await api(base, 'POST', '/api/v1/buildings', {
    token,
    body: { name: 'Fix bench', location: LOCATION, dimensions: { width: AREA_M + 20, length: AREA_M + 20 }, rotation: 0 },
  });
  const floor = await api(base, 'POST', '/api/v1/floors', { token, body: { building_id: building.id, level: 0, name: 'Ground' } });
  const indexes = Array.from({ length: fenceCount }, (_, index) => index);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < indexes.length) {
        const index = next++;
        const x = 3 + (index % side) * 6;
        const y = 3 + Math.floor(index / side) * 6;
        await api(base, 'POST', '/api/v1/geofences', {
          token,
          body: { name: `Zone ${index}`, code: `Z${index}`, building_id: String(building.id), floor_id: floor.id, geometric: squareRing(x, y, 2) },
        });
      }
    }),
  );
  const key = await api(base, 'POST', '/api/v1/auth/apikeys', { token, body: { permission: 'positioning', description: 'fix bench' } });
  return { token, building, floor, positioningKey: key.apikey };
}

/**
 * The wrk script of a positions run: each request is a batch of 100 fixes of the next 100
 * devices. `walk`: each device keeps a heading and moves 1 m per fix, turning now and then and
 * turning back at the area's edges; `jump`: each fix anywhere in the area. Times follow the
 * wall clock (in seconds) and grow by at least 1 ms per fix of a device.
 */
function positionsScript(mode, prefix, floorId, apiKey, lagMs) {
  return `
local devices, batch, floor, mode, prefix = ${devices}, ${batch}, ${floorId}, "${mode}", "${prefix}"
local lat0, lng0, mLat, mLng, area = ${LOCATION.lat}, ${LOCATION.lng}, ${metresPerDegreeLat}, ${metresPerDegreeLng}, ${AREA_M}
wrk.method = "POST"
wrk.path = "/api/v1/realtime/positions"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-API-KEY"] = "${apiKey}"
local px, py, heading, last = {}, {}, {}, {}
math.randomseed(${Math.floor(Math.random() * 1e9)})
for d = 0, devices - 1 do
  px[d] = math.random() * area; py[d] = math.random() * area; heading[d] = math.random() * 2 * math.pi; last[d] = 0
end
local cursor = 0
request = function()
  local parts = {}
  local now = os.time() * 1000 - ${lagMs}
  for i = 1, batch do
    local d = cursor
    cursor = (cursor + 1) % devices
    if mode == "walk" then
      if math.random() < 0.05 then heading[d] = heading[d] + (math.random() - 0.5) * 2 end
      local nx, ny = px[d] + math.cos(heading[d]), py[d] + math.sin(heading[d])
      if nx < 0 or nx > area or ny < 0 or ny > area then
        heading[d] = heading[d] + math.pi
        nx, ny = px[d] + math.cos(heading[d]), py[d] + math.sin(heading[d])
      end
      px[d], py[d] = nx, ny
    else
      px[d], py[d] = math.random() * area, math.random() * area
    end
    local t = last[d] + 1
    if t < now then t = now end
    last[d] = t
    parts[i] = string.format('{"device_id":"%s%d","time":%.0f,"floor_id":%d,"lat":%.7f,"lng":%.7f,"accuracy":3}', prefix, d, t, floor, lat0 + py[d] / mLat, lng0 + px[d] / mLng)
  end
  return wrk.format(nil, nil, nil, '{"positions":[' .. table.concat(parts, ",") .. ']}')
end
local bad = 0
response = function(status, headers, body)
  if status ~= 200 or not string.find(body, '"rejected":[]', 1, true) then
    bad = bad + 1
    if bad <= 3 then io.stderr:write("bad answer " .. status .. ": " .. string.sub(body, 1, 300) .. "\\n") end
  end
end
${WRK_SUMMARY}`;
}

/** Threads' counters and wrk's summary as one JSON line (`bad` from the positions script's response check). */
const WRK_SUMMARY = `
local threads = {}
setup = function(thread) table.insert(threads, thread) end
done = function(summary, latency, requests)
  local bad = 0
  for _, thread in ipairs(threads) do bad = bad + (thread:get("bad") or 0) end
  local e = summary.errors
  io.write(string.format('\\n{"requests":%d,"seconds":%f,"p50":%f,"p99":%f,"errors":%d,"non2xx":%d,"bad":%d}\\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3,
    e.connect + e.read + e.write + e.timeout, e.status, bad))
end`;

function plainScript(path, headers = {}) {
  return `
wrk.path = "${path}"
${Object.entries(headers)
  .map(([name, value]) => `wrk.headers["${name}"] = "${value}"`)
  .join('\n')}
${WRK_SUMMARY}`;
}

/** One wrk run; answers its summary with the server's CPU seconds and peak RSS over the run. */
async function wrk(base, script, seconds, pid, connectionCount = connections) {
  const file = join(work, `wrk-${randomBytes(4).toString('hex')}.lua`);
  writeFileSync(file, script);
  const cpuBefore = cpuSecondsOf(pid);
  let peak = rssOf(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 100);
  const child = spawn('wrk', ['-t1', `-c${connectionCount}`, `-d${seconds}s`, '--timeout', '10s', '-s', file, base], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const code = await new Promise((done) => child.once('exit', done));
  children.delete(child);
  clearInterval(sampler);
  const line = output.trim().split('\n').pop();
  let result;
  try {
    result = JSON.parse(line);
  } catch {
    throw new Error(`wrk exited ${code}: ${output.slice(-500)}`);
  }
  return { ...result, rps: result.requests / result.seconds, cpuSeconds: cpuSecondsOf(pid) - cpuBefore, peakRss: peak };
}

async function measure(root) {
  const database = await scratchDatabase('cartograph_fixbench');
  const dataDir = join(work, `data-${randomBytes(4).toString('hex')}`);
  const { server, base } = await startServer(root, database, dataDir);
  try {
    const seeded = await seed(base);
    const row = { root, database: database.kind };
    if (warmup > 0) await wrk(base, plainScript('/health/live'), warmup, server.pid);
    const health = await wrk(base, plainScript('/health/live'), duration, server.pid);
    row.healthRps = health.rps;
    row.healthCpuUs = (health.cpuSeconds / health.requests) * 1e6;
    row.peakRss = health.peakRss;
    for (const mode of modes) {
      // The measured run goes on with the warm-up's devices, its times a second later than the warm-up's could reach.
      if (warmup > 0) await wrk(base, positionsScript(mode, `${mode}-`, seeded.floor.id, seeded.positioningKey, 6000), warmup, server.pid);
      const run = await wrk(base, positionsScript(mode, `${mode}-`, seeded.floor.id, seeded.positioningKey, 5000), duration, server.pid);
      const fixes = (run.requests - run.bad) * batch;
      row[mode] = {
        fixesPerSecond: fixes / run.seconds,
        ratio: fixes / run.seconds / health.rps,
        cpuUsPerFix: (run.cpuSeconds / Math.max(1, fixes)) * 1e6,
        p50: run.p50,
        p99: run.p99,
        failed: run.bad + run.errors,
      };
      row.peakRss = Math.max(row.peakRss, run.peakRss);
      await sleep(1000);
    }
    if (live) {
      const path = `/api/v1/realtime/positions?building_ids=${seeded.building.id}&max_sec_threshold=3600`;
      const read = await wrk(base, plainScript(path, { Authorization: `Bearer ${seeded.token}` }), duration, server.pid, 4);
      row.live = { rps: read.rps, p99: read.p99, failed: read.errors + read.non2xx };
      row.peakRss = Math.max(row.peakRss, read.peakRss);
    }
    return row;
  } finally {
    await stopServer(server);
    await database.drop();
  }
}

const fixed = (value, digits = 0) => (value === undefined ? '-' : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));

async function main() {
  console.log(
    `Fix pipeline benchmark: ${process.env.DATABASE_URL ? 'postgres' : 'sqlite'}, node ${process.version}, ${devices} devices, ${fenceCount} fences on one floor, ${batch} fixes per request, ${connections} connections, ${duration} s per run`,
  );
  const rows = [];
  for (const root of roots) {
    const row = await measure(root);
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  console.log(
    '\n| checkout | /health/live req/s | ' + modes.map((mode) => `${mode} fixes/s | ratio | CPU µs/fix | p99 ms | failed`).join(' | ') + ' | live read req/s | peak RSS MB |',
  );
  console.log('|---|---|' + modes.map(() => '---|---|---|---|---').join('|') + '|---|---|');
  for (const row of rows) {
    const cells = [row.root === here ? 'this' : row.root, fixed(row.healthRps)];
    for (const mode of modes)
      cells.push(fixed(row[mode].fixesPerSecond), `${fixed(row[mode].ratio, 2)}×`, fixed(row[mode].cpuUsPerFix, 1), fixed(row[mode].p99, 1), String(row[mode].failed));
    cells.push(row.live ? fixed(row.live.rps) : '-', fixed(row.peakRss / 1048576));
    console.log(`| ${cells.join(' | ')} |`);
  }
  if (rows.length === 2) {
    for (const mode of modes) {
      const [old, now] = rows.map((row) => row[mode].cpuUsPerFix);
      console.log(`${mode}: CPU per fix ${fixed(old, 1)} -> ${fixed(now, 1)} µs (${fixed(now / old, 2)} of before)`);
    }
  }
  // Issue 28's targets, each judged within this run.
  const now = rows[rows.length - 1];
  const floor = process.env.DATABASE_URL ? 2 : 4;
  const verdict = (met) => (met ? 'met' : 'NOT met');
  console.log(`\nTargets (this checkout):`);
  console.log(`  walk fixes/s at least ${floor}× /health/live: ${fixed(now.walk?.ratio, 2)}× — ${verdict((now.walk?.ratio ?? 0) >= floor)}`);
  if (rows.length === 2 && now.walk && rows[0].walk) {
    const share = now.walk.cpuUsPerFix / rows[0].walk.cpuUsPerFix;
    console.log(`  CPU per fix at most a fifth of the old checkout's: ${fixed(share, 2)} of it — ${verdict(share <= 0.2)}`);
  }
  console.log(`  peak RSS under 300 MB: ${fixed(now.peakRss / 1048576)} MB — ${verdict(now.peakRss < 300 * 1048576)}`);
  console.log(`  no failed requests: ${verdict(modes.every((mode) => now[mode].failed === 0))}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
