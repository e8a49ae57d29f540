#!/usr/bin/env node
// `npm run bench`: the read-path benchmark of issue 6. Starts the production build on an
// empty database (SQLite, or PostgreSQL when DATABASE_URL is set), seeds it through the
// API, then drives each scenario with autocannon in a process of its own and compares it
// with a bare node:http server sending the bytes of one geofence response.
//
//   npm run bench                         10 s per scenario, 50 connections, 10,000 geofences
//   npm run bench -- --quick              under a minute: 3 s per scenario, 2,000 geofences
//   npm run bench -- --duration=20 --connections=100 --geofences=10000 --scenarios=1,2,6
//   npm run bench -- --scenarios=9,10 --connections=1  geofencing contains / evaluate latency (issue 12)
//   node bench/pipeline.mjs               CPU per request in process, for a machine shared with other work
//   npm run bench -- --scenarios=11,12 --devices=1000 --realtime-connections=4   positions: ingest, live read
//   npm run bench -- --scenarios=11,14 --devices=1000   ingest with geofence evaluation (11) and without fences (14)
//   npm run bench -- --scenarios=22           directions over a 10,000-node, 5-floor building at 16 connections, beside GET /geofences/{id} (issue 40)
//   npm run bench -- --scenarios=11 --ingest-rate=10000   scenario 11 offered at a steady 10,000 fixes/s (open loop): its p99 below saturation
//   npm run bench -- --scenarios=15,16 --geofences=200   reports (issue 14): 2,000,000 fixes and 50,000 visits over
//                                         30 days seeded straight into the database; every report and the analytics
//                                         timed (15), then ingest at 5,000 fixes/s with reports running beside it (16).
//                                         --fixes= and --visits= scale the seed (e.g. --fixes=200000 for a quick look)
//   npm run bench -- --scenarios=17 --delivery-rate=5000   event delivery: ingest answer -> SSE client / webhook receiver, webhook throughput
//   node bench/run.mjs --only=radio       issue 31's radio model accuracy and issue 36's sweep of worlds alone (scenarios 18 and 19: offline, seeded, no server);
//                                         --radio-seeds=1,2 --radio-worlds=iid,static pass through to bench/radio.mjs
//   node bench/run.mjs --only=tracking    issue 37's tracking sweep alone (scenario 20: walkers in a two-floor office, the tracker
//                                         against two oracles; offline, seeded, no server); --tracking-worlds=base,n1.8
//                                         --tracking-walkers=30 pass through, --tracking-full runs all 22 worlds with 30 walkers
//   npm run bench -- --only=fix-pipeline  issue 28's fix pipeline (bench/fix-pipeline.mjs: 1,000 devices walking and
//                                         jumping over 400 fences beside /health/live in the same run); its options
//                                         pass through, e.g. --compare=/path/to/old/checkout --duration=10
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuSecondsOf, freePort, rssOf, scratchDatabase } from './server-process.mjs';
import { DIRECTIONS_BUILDING, directionsPaths, directionsRequests, routeCpu } from './directions.mjs';
import { seedReports, TRACKED_DEVICE } from './reports-seed.mjs';

const DEFAULT_SCENARIOS = '1,2,3,4,5,6,7,8,22,11,12,13,21,14,18,19,20';
/** Scenario 22 (issue 40): directions at 16 connections, beside the geofence-by-id read at 16. */
const DIRECTIONS_CONNECTIONS = 16;
/** Scenario 13: 200 beacons on a 10 m grid over 200 × 100 m of the first floor. */
const SCAN_UUID = 'f7826da6-4fa2-4e98-8024-bc5b71e0893e';
const SCAN_BEACONS = Array.from({ length: 200 }, (_, i) => ({ minor: i + 1, x: 5 + (i % 20) * 10, y: 5 + Math.floor(i / 20) * 10 }));
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const options = parseOptions(process.argv.slice(2));
const work = mkdtempSync(join(tmpdir(), 'cartograph-bench-'));
const children = new Set();

function parseOptions(argv) {
  const values = Object.fromEntries(
    argv.map((argument) => {
      const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argument);
      if (!match) throw new Error(`Unknown argument ${argument}`);
      return [match[1], match[2] ?? 'true'];
    }),
  );
  const quick = values.quick === 'true';
  // `--only=radio`: scenarios 18 and 19 alone, which need no server; `--only=tracking`: scenario 20 alone; `--only=fix-pipeline`: bench/fix-pipeline.mjs.
  if (values.only !== undefined && !['radio', 'tracking', 'fix-pipeline'].includes(values.only))
    throw new Error(`Unknown --only=${values.only} (radio, tracking and fix-pipeline are known)`);
  return {
    quick,
    only: values.only,
    radioArguments: [values['radio-seeds'] && `--seeds=${values['radio-seeds']}`, values['radio-worlds'] && `--worlds=${values['radio-worlds']}`].filter(Boolean),
    // Scenario 19: --sweep-worlds=base,n1.8 --sweep-scans=1000 pass through to bench/radio.mjs --sweep.
    sweepArguments: [values['sweep-worlds'] && `--worlds=${values['sweep-worlds']}`, values['sweep-scans'] && `--scans=${values['sweep-scans']}`].filter(Boolean),
    // Scenario 20: --tracking-worlds=base,n1.8 --tracking-walkers=30 --tracking-full pass through to bench/radio.mjs --tracking.
    trackingArguments: [
      values['tracking-worlds'] && `--worlds=${values['tracking-worlds']}`,
      values['tracking-walkers'] && `--walkers=${values['tracking-walkers']}`,
      values['tracking-full'] === 'true' && '--full',
    ].filter(Boolean),
    duration: Number(values.duration ?? (quick ? 3 : 10)),
    connections: Number(values.connections ?? 50),
    geofences: Number(values.geofences ?? (quick ? 2000 : 10000)),
    floors: 10,
    loginConnections: Number(values['login-connections'] ?? 8),
    scenarios: (values.only === 'radio' ? '18,19' : values.only === 'tracking' ? '20' : (values.scenarios ?? DEFAULT_SCENARIOS)).split(',').map(Number),
    /** Simulated devices of the positions scenarios (11, 12). */
    devices: Number(values.devices ?? 1000),
    /**
     * Connections of scenario 8. Each answer is about 750 KB, so with 50 closed-loop
     * connections the wait in the queue alone would be 50 service times; a few dashboards
     * polling is the load this read serves.
     */
    realtimeConnections: Number(values['realtime-connections'] ?? 4),
    /** Leave the scratch database (and SQLite's directory) for a look afterwards (`--keep-database`). */
    keepDatabase: values['keep-database'] === 'true',
    /** Only the reports of scenario 15 whose name holds this text (`--reports=user_positions`). */
    reports: values.reports,
    /** The reports scenarios' seed (15, 16). */
    fixes: Number(values.fixes ?? 2_000_000),
    visits: Number(values.visits ?? 50_000),
    /** Scenario 17: fixes per second offered (open loop), and the share of devices whose every fix fires an event. */
    deliveryRate: Number(values['delivery-rate'] ?? 5000),
    /** Scenario 11 offered at this many fixes/s, evenly paced (`--ingest-rate=10000`); 0: closed loop, as fast as it goes. */
    ingestRate: Number(values['ingest-rate'] ?? 0),
    deliveryFiring: Number(values['delivery-firing'] ?? 0.1),
    /** Directory for a V8 CPU profile of the server (`--profile=/tmp/prof`), to see where the time goes. */
    profile: values.profile,
    /**
     * The load generator of the fixed-request scenarios: `wrk` (when installed: `apt-get install wrk`)
     * or `autocannon`. On two cores the generator shares the CPU with the server, and autocannon
     * (JavaScript) takes several times the CPU per request that wrk (C) does, so wrk is the default
     * when present; generated bodies (positions, scans, unique names) and fixed rates stay on autocannon.
     */
    load: values.load ?? (wrkInstalled() ? 'wrk' : 'autocannon'),
    /**
     * Seconds of the same load before each measured run, not counted (`--warmup=0` to skip): the
     * first seconds of a route run unoptimized code and collect the garbage of what ran before
     * (the first scenario measured cold cost up to twice the CPU per request of the same
     * scenario run again).
     */
    warmup: Number(values.warmup ?? (quick ? 1 : 3)),
  };
}

function wrkInstalled() {
  return spawnSync('wrk', ['--version']).error === undefined;
}

/** Whether wrk can drive this run: fixed requests only. */
function wrkCanDrive(spec) {
  return options.load === 'wrk' && !spec.positions && !spec.scans && !spec.bodies && !spec.overallRate && !spec.uniqueField && !spec.autocannon;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function cleanUp() {
  for (const child of children) child.kill('SIGKILL');
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

async function api(base, method, path, { token, apiKey, basic, body } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (apiKey) headers['x-api-key'] = apiKey;
  if (basic) headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return { text, json: text ? JSON.parse(text) : undefined };
}

/** A 12-corner ring (13 pairs, closed) around a point, as a real zone would be drawn. */
function ring(lat, lng, radius) {
  const corners = Array.from({ length: 12 }, (_, index) => {
    const angle = (index / 12) * 2 * Math.PI;
    return [Number((lat + radius * Math.sin(angle)).toFixed(7)), Number((lng + radius * Math.cos(angle)).toFixed(7))];
  });
  return [...corners, corners[0]];
}

async function inParallel(count, concurrency, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** The `NAME=value` assignments before `exec node` in `npm start` (GLIBC_TUNABLES): the server runs with them. */
function startEnvironment() {
  const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  return Object.fromEntries([...start.split(/\bexec\b|\bnode\b/)[0].matchAll(/([A-Z_]+)=(\S+)/g)].map((match) => [match[1], match[2]]));
}

/** Exactly what `npm start` runs (its node flags included), minus npm itself. */
function serverArguments() {
  const startArguments = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start.split(/\s+/);
  const flags = startArguments.filter((argument) => argument.startsWith('--'));
  if (!options.profile) return [...flags, join(root, 'dist/src/main.js')];
  // The profile is written on a clean exit; Nest re-raises SIGTERM after closing, which would lose it.
  const entry = `process.once('SIGTERM', () => process.exit(0)); require(${JSON.stringify(join(root, 'dist/src/main.js'))});`;
  return [...flags, '--cpu-prof', `--cpu-prof-dir=${resolve(options.profile)}`, '-e', entry];
}

async function startServer(database) {
  const port = await freePort();
  const log = openSync(join(work, 'server.log'), 'a');
  const server = track(
    spawn(process.execPath, serverArguments(), {
      cwd: root,
      env: {
        ...process.env,
        ...startEnvironment(),
        ...database.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: join(work, 'data'),
        JWT_SECRET: randomBytes(32).toString('hex'),
        ADMIN_EMAIL: 'bench@example.test',
        ADMIN_PASSWORD: 'bench-password-123',
        ORGANIZATION_NAME: 'Benchmark',
        // Scenario 17's webhook receiver listens on 127.0.0.1, which production refuses by default.
        WEBHOOK_BLOCK_PRIVATE_NETWORKS: 'false',
        // The login limiter would refuse a benchmark's worth of logins from one address.
        LOGIN_FAILURE_LIMIT: '1000000',
        LOGIN_ADDRESS_FAILURE_LIMIT: '1000000',
        // Every benchmark connection comes from 127.0.0.1, like clients behind one proxy.
        MAX_CONNECTIONS_PER_CLIENT: '100000',
      },
      stdio: ['ignore', log, log],
    }),
  );
  closeSync(log);
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (server.exitCode !== null) throw new Error(`The server exited (${server.exitCode}); see ${join(work, 'server.log')}`);
    try {
      if ((await fetch(`${base}/health/ready`)).ok) return { server, base };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error('The server did not become ready');
}

async function seed(base) {
  const started = Date.now();
  const credentials = 'bench@example.test:bench-password-123';
  // Readiness waits for the first administrator; retried anyway, as a client of a fresh server would.
  let tokens;
  for (let attempt = 0; !tokens; attempt += 1) {
    try {
      tokens = (await api(base, 'POST', '/api/v1/auth/access_tokens', { basic: credentials })).json;
    } catch (error) {
      if (attempt >= 20) throw error;
      await sleep(500);
    }
  }
  const token = tokens.access_token;
  const location = { lat: 42.8723597, lng: -8.5633224 };
  const { json: building } = await api(base, 'POST', '/api/v1/buildings', {
    token,
    body: { name: 'Benchmark building', location, dimensions: { width: 200, length: 120 }, rotation: 0.2 },
  });
  const floors = [];
  for (let level = 0; level < options.floors; level += 1) {
    floors.push((await api(base, 'POST', '/api/v1/floors', { token, body: { building_id: building.id, level, name: `Level ${level}` } })).json);
  }
  const geofenceIds = new Array(options.geofences);
  await inParallel(options.geofences, 16, async (index) => {
    const floor = floors[index % floors.length];
    const { json } = await api(base, 'POST', '/api/v1/geofences', {
      token,
      body: {
        name: `Zone ${index}`,
        code: `Z${index}`,
        building_id: String(building.id),
        floor_id: floor.id,
        info: `<p>Zone ${index} of level ${floor.level}</p>`,
        geometric: ring(location.lat + ((index % 100) - 50) * 1e-5, location.lng + (Math.floor(index / 100) - 50) * 1e-5, 4e-6),
        custom_fields: [{ key: 'index', value: String(index) }],
      },
    });
    geofenceIds[index] = json.id;
  });
  const { json: key } = await api(base, 'POST', '/api/v1/auth/apikeys', { token, body: { permission: 'read-only', description: 'benchmark' } });
  const { json: positioningKey } = await api(base, 'POST', '/api/v1/auth/apikeys', { token, body: { permission: 'positioning', description: 'benchmark devices' } });
  const sample = await api(base, 'GET', `/api/v1/geofences/${geofenceIds[0]}`, { token });
  return {
    token,
    apiKey: key.apikey,
    positioningKey: positioningKey.apikey,
    location,
    building,
    floors,
    geofenceIds,
    sampleBody: sample.text,
    credentials,
    seconds: (Date.now() - started) / 1000,
  };
}

/** Runs one or more load generators at once; returns their results, the server's peak RSS and its CPU time. */
async function drive(specs, serverPid) {
  const cpuBefore = serverPid ? cpuSecondsOf(serverPid) : 0;
  let peak = serverPid ? rssOf(serverPid) : 0;
  const sampler = serverPid ? setInterval(() => (peak = Math.max(peak, rssOf(serverPid))), 100) : undefined;
  const results = await Promise.all(
    specs.map(
      (spec, index) =>
        new Promise((done, fail) => {
          const file = join(work, `spec-${Date.now()}-${index}.json`);
          writeFileSync(file, JSON.stringify(wrkCanDrive(spec) ? { ...spec, driver: 'wrk' } : spec));
          const child = track(spawn(process.execPath, [join(root, 'bench/load.mjs'), file], { stdio: ['ignore', 'pipe', 'inherit'] }));
          let output = '';
          child.stdout.on('data', (chunk) => (output += chunk));
          child.once('exit', (code) => {
            try {
              const result = JSON.parse(output.trim().split('\n').pop());
              if (code !== 0 || result.error) fail(new Error(result.error ?? `load generator exited ${code}`));
              else done(result);
            } catch (error) {
              fail(error);
            }
          });
        }),
    ),
  );
  if (sampler) clearInterval(sampler);
  return { results, peakRss: peak, cpuSeconds: serverPid ? cpuSecondsOf(serverPid) - cpuBefore : 0 };
}

function scenarioSpecs(base, seeded) {
  const common = { url: base, connections: options.connections, duration: options.duration };
  const byId = seeded.geofenceIds.map((id) => `/api/v1/geofences/${id}`);
  const bearer = { authorization: `Bearer ${seeded.token}` };
  const perFloor = Math.ceil(options.geofences / options.floors);
  const searches = seeded.floors.flatMap((floor) =>
    Array.from(
      { length: Math.max(1, Math.floor(perFloor / 50)) },
      (_, page) => `/api/v1/geofences/search?building_ids=${seeded.building.id}&floor_ids=${floor.id}&size=50&page=${page + 1}`,
    ),
  );
  const byIdWithJwt = { ...common, paths: byId, headers: bearer };
  // Scenarios 13 and 21 (issues 15 and 37): the same scans over 200 beacons, with the building tracking them or not.
  const scansScenario = (tracking, title) => ({
    title,
    itemsPerRequest: POSITIONS_PER_BATCH,
    prepare: async () => {
      await api(base, 'PUT', `/api/v1/infrastructure/tracking?building_id=${seeded.building.id}`, { token: seeded.token, body: { scans: tracking } });
      await api(base, 'PUT', `/api/v1/infrastructure?building_id=${seeded.building.id}`, {
        token: seeded.token,
        body: { wifi: [], ble: SCAN_BEACONS.map((b) => ({ floor_id: seeded.floors[0].id, uuid: SCAN_UUID, major: 1, minor: b.minor, tx_power: -59, x: b.x, y: b.y })) },
      });
    },
    runs: [
      {
        ...common,
        method: 'POST',
        path: '/api/v1/realtime/scans',
        headers: { 'x-api-key': seeded.positioningKey, 'content-type': 'application/json' },
        scans: { devices: options.devices, batch: POSITIONS_PER_BATCH, buildingId: seeded.building.id, uuid: SCAN_UUID, beacons: SCAN_BEACONS, width: 200, length: 100 },
      },
    ],
  });
  // Points over the seeded grid of fences (100 × 100 steps of 1e-5°), on and between them.
  const gridPoint = (index, floor) => ({
    lat: seeded.location.lat + ((index % 97) - 50) * 1e-5 + ((index % 7) - 3) * 1e-6,
    lng: seeded.location.lng + ((Math.floor(index / 97) % 100) - 50) * 1e-5 + ((index % 5) - 2) * 1e-6,
    floor_id: floor.id,
    accuracy: 1 + (index % 4),
  });
  const containsPaths = Array.from({ length: 500 }, (_, index) => {
    const point = gridPoint(index * 13, seeded.floors[index % seeded.floors.length]);
    return `/api/v1/geofencing/contains?lat=${point.lat}&lng=${point.lng}&floor_id=${point.floor_id}&accuracy=${point.accuracy}`;
  });
  const evaluateBody = { points: Array.from({ length: 1000 }, (_, index) => gridPoint(index * 7, seeded.floors[index % 3])) };
  const floorIds = seeded.floors.map((floor) => floor.id);
  const positionsSpec = { devices: options.devices, batch: POSITIONS_PER_BATCH, floorIds, lat: seeded.location.lat, lng: seeded.location.lng };
  const bareFloorSpec = { ...positionsSpec, floorIds: [] };
  const seedPositions = (block) =>
    Array.from({ length: Math.min(POSITIONS_PER_BATCH, options.devices - block) }, (_, i) => ({
      device_id: `bench-${block + i}`,
      time: Date.now() - 1000,
      floor_id: floorIds[(block + i) % floorIds.length],
      lat: seeded.location.lat + (((block + i) % 40) - 20) * 1e-5,
      lng: seeded.location.lng + (Math.floor((block + i) / 40) - 12) * 1e-5,
      accuracy: 3.5,
    }));
  return {
    1: { title: 'GET /geofences/{id}, JWT', runs: [byIdWithJwt] },
    2: { title: 'GET /geofences/{id}, X-API-KEY', runs: [{ ...common, paths: byId, headers: { 'x-api-key': seeded.apiKey } }] },
    3: { title: `GET /geofences/search (floor of ${perFloor}, size 50)`, runs: [{ ...common, paths: searches, headers: bearer }] },
    4: {
      title: `GET /buildings/{id} (${options.floors} floors, ${options.geofences} geofences)`,
      runs: [{ ...common, path: `/api/v1/buildings/${seeded.building.id}`, headers: bearer }],
    },
    5: {
      title: 'POST /geofences',
      runs: [
        {
          ...common,
          method: 'POST',
          path: '/api/v1/geofences',
          headers: { ...bearer, 'content-type': 'application/json' },
          uniqueField: 'name',
          body: { name: 'Written', building_id: String(seeded.building.id), floor_id: seeded.floors[0].id, geometric: ring(42.87, -8.56, 4e-6) },
        },
      ],
    },
    9: { title: `GET /geofencing/contains (${perFloor} fences on the floor)`, runs: [{ ...common, paths: containsPaths, headers: bearer }] },
    10: {
      title: 'POST /geofencing/evaluate (1,000 points, 3 floors)',
      runs: [{ ...common, method: 'POST', path: '/api/v1/geofencing/evaluate', headers: { ...bearer, 'content-type': 'application/json' }, body: evaluateBody }],
    },
    7: { title: 'GET /version, JWT', runs: [{ ...common, path: '/api/v1/version', headers: bearer }] },
    8: { title: 'GET /health/live (public)', runs: [{ ...common, path: '/health/live' }] },
    11: {
      title: `POST /realtime/positions (${options.devices} devices, ${POSITIONS_PER_BATCH} fixes per request)`,
      itemsPerRequest: POSITIONS_PER_BATCH,
      runs: [
        {
          ...common,
          method: 'POST',
          path: '/api/v1/realtime/positions',
          headers: { 'x-api-key': seeded.positioningKey, 'content-type': 'application/json' },
          positions: positionsSpec,
          // --ingest-rate: offered at that many fixes/s, evenly paced (open loop), instead of as fast as 50 connections go.
          ...(options.ingestRate > 0 && { overallRate: options.ingestRate / POSITIONS_PER_BATCH }),
        },
      ],
    },
    13: scansScenario(true, `POST /realtime/scans, tracked (${POSITIONS_PER_BATCH} scans per request, ${SCAN_BEACONS.length} beacons, 10 to 30 readings each)`),
    21: scansScenario(
      false,
      `POST /realtime/scans, tracking off (compare with 13: the tracker's cost; ${POSITIONS_PER_BATCH} scans per request, ${SCAN_BEACONS.length} beacons, 10 to 30 readings each)`,
    ),
    14: {
      // The same ingest as 11 on a floor without fences: 11 against 14 is the cost of geofence evaluation.
      title: `POST /realtime/positions on a floor without fences (${options.devices} devices; compare with 11)`,
      itemsPerRequest: POSITIONS_PER_BATCH,
      prepare: async () => {
        const { json: floor } = await api(base, 'POST', '/api/v1/floors', {
          token: seeded.token,
          body: { building_id: seeded.building.id, level: options.floors + 1, name: 'No fences' },
        });
        bareFloorSpec.floorIds = [floor.id];
      },
      runs: [
        {
          ...common,
          method: 'POST',
          path: '/api/v1/realtime/positions',
          headers: { 'x-api-key': seeded.positioningKey, 'content-type': 'application/json' },
          positions: bareFloorSpec,
        },
      ],
    },
    17: {
      title: `event delivery, ${options.deliveryRate} fixes/s offered, ${Math.round(options.deliveryFiring * 100)} % of devices firing`,
      custom: () => deliveryScenario(base, seeded),
    },
    12: {
      title: `GET /realtime/positions?building_ids= (${options.devices} live devices, ${options.realtimeConnections} connections)`,
      prepare: async () => {
        // Every device reports once just before, so all of them are live during the run.
        for (let block = 0; block < options.devices; block += POSITIONS_PER_BATCH) {
          await api(base, 'POST', '/api/v1/realtime/positions', { apiKey: seeded.positioningKey, body: { positions: seedPositions(block) } });
        }
      },
      runs: [
        { ...common, connections: options.realtimeConnections, path: `/api/v1/realtime/positions?building_ids=${seeded.building.id}&max_sec_threshold=3600`, headers: bearer },
      ],
    },
    15: {
      title: `Reports over 30 days (${options.fixes} fixes, ${options.visits} visits)`,
      measure: () => measureReports(base, seeded),
    },
    16: {
      title: 'POST /realtime/positions at 5,000 fixes/s while reports run beside it',
      measure: () => measureIngestBesideReports(base, seeded),
    },
    18: {
      title: 'Radio model accuracy on a synthetic building (issue 31; offline, seeded)',
      measure: () => radioScenario(),
    },
    19: {
      title: 'Radio sweep: 22 worlds against a maximum-likelihood oracle (issue 36; offline, seeded)',
      measure: () => radioScenario(['--sweep', ...options.sweepArguments]),
    },
    20: {
      title: 'Tracking sweep: walkers in a two-floor office, the tracker against a single-scan and a particle-filter oracle (issue 37; offline, seeded)',
      measure: () => radioScenario(['--tracking', ...options.trackingArguments]),
    },
    22: {
      title: `POST /buildings/{id}/directions (10,000 nodes, 5 floors, ${DIRECTIONS_CONNECTIONS} connections) beside GET /geofences/{id}`,
      measure: () => measureDirections(base, seeded, byIdWithJwt),
    },
    6: {
      title: 'POST /auth/access_tokens (Basic, argon2id) beside scenario 1',
      runs: [
        {
          ...common,
          connections: options.loginConnections,
          method: 'POST',
          path: '/api/v1/auth/access_tokens',
          headers: { authorization: `Basic ${Buffer.from(seeded.credentials).toString('base64')}` },
        },
        byIdWithJwt,
      ],
    },
  };
}

/**
 * Scenario 22 (issue 40): a 10,000-node, 5-floor building's routes through the HTTP API at 16
 * connections, then the plain authenticated read (GET /geofences/{id}, JWT) at 16 connections
 * in the same run, both with autocannon; the route's CPU time alone (the server's router in
 * this process); and the first route after a paths change (the route-graph cache rebuilt),
 * measured one at a time.
 */
async function measureDirections(base, seeded, byIdRun) {
  const token = seeded.token;
  const { json: building } = await api(base, 'POST', '/api/v1/buildings', {
    token,
    body: { name: 'Directions benchmark', location: seeded.location, dimensions: DIRECTIONS_BUILDING, rotation: 0 },
  });
  const floors = [];
  for (let level = 0; level < 5; level += 1) {
    floors.push((await api(base, 'POST', '/api/v1/floors', { token, body: { building_id: building.id, level, name: `Level ${level}` } })).json);
  }
  const floorIds = floors.map((floor) => floor.id);
  const paths = directionsPaths(floorIds);
  const put = async (settings) => {
    const started = performance.now();
    await api(base, 'PUT', `/api/v1/buildings/${building.id}/paths`, { token, body: { ...paths, settings } });
    return performance.now() - started;
  };
  const putMs = await put({});
  const requests = directionsRequests(floorIds, 400);
  const path = `/api/v1/buildings/${building.id}/directions`;
  const once = async (body) => {
    const started = performance.now();
    await api(base, 'POST', path, { token, body });
    return performance.now() - started;
  };
  // The first route after each paths change (another snap distance: a new revision), then a warm one.
  const cold = [];
  const warm = [];
  for (let change = 0; change < 5; change += 1) {
    await put({ snap_distance_m: change % 2 === 0 ? 9.5 : 10 });
    cold.push(await once(requests[change]));
    warm.push(await once(requests[change + 5]));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const alone = routeCpu(root, floors, paths, requests);

  const directionsRun = {
    url: base,
    connections: DIRECTIONS_CONNECTIONS,
    duration: options.duration,
    method: 'POST',
    path,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    bodies: requests,
  };
  const readRun = { ...byIdRun, connections: DIRECTIONS_CONNECTIONS, autocannon: true };
  const measured = async (run) => {
    if (options.warmup > 0) await drive([{ ...run, duration: options.warmup }]);
    const { results, peakRss, cpuSeconds } = await drive([run], seeded.serverPid);
    const result = results[0];
    return { ...result, errors: result.errors + result.non2xx, peakRss, cpuPerRequest: result.requests > 0 ? (cpuSeconds * 1e6) / result.requests : 0 };
  };
  const routes = await measured(directionsRun);
  await sleep(1000);
  const reads = await measured(readRun);
  const p50Ratio = routes.p50 / reads.p50;
  const p99Ratio = routes.p99 / reads.p99;
  const cpuRatio = routes.cpuPerRequest / reads.cpuPerRequest;
  const summary = {
    nodes: paths.nodes.length,
    links: paths.links.length,
    putSeconds: putMs / 1000,
    routeCpuMicros: alone.microsPerRoute,
    graphBuildMs: alone.buildMs,
    firstRouteAfterChangeMs: { median: median(cold), max: Math.max(...cold) },
    warmRouteMs: median(warm),
    http: { routes, reads, p50Ratio, p99Ratio, cpuRatio },
  };
  console.log(
    `  paths of ${paths.nodes.length} nodes and ${paths.links.length} links stored in ${(putMs / 1000).toFixed(2)} s; route CPU alone ${alone.microsPerRoute.toFixed(0)} µs (${alone.routed}/${alone.requests} routed; graph built in ${alone.buildMs.toFixed(0)} ms)`,
  );
  console.log(`  first route after a paths change ${ms(median(cold))} (median of 5, max ${ms(Math.max(...cold))}); a warm route alone ${ms(median(warm))}`);
  console.log(
    `  at ${DIRECTIONS_CONNECTIONS} connections: directions ${routes.rps.toFixed(0)} req/s, p50 ${ms(routes.p50)}, p99 ${ms(routes.p99)}, CPU ${routes.cpuPerRequest.toFixed(0)} µs/route, ${routes.errors} errors;` +
      ` GET /geofences/{id} ${reads.rps.toFixed(0)} req/s, p50 ${ms(reads.p50)}, p99 ${ms(reads.p99)}, CPU ${reads.cpuPerRequest.toFixed(0)} µs/read`,
  );
  console.log(
    `Directions: p50 ${p50Ratio.toFixed(2)}x, p99 ${p99Ratio.toFixed(2)}x, CPU ${cpuRatio.toFixed(2)}x the authenticated read's (target: a few times, <= 5x) ${p50Ratio <= 5 && cpuRatio <= 5 && routes.errors === 0 ? 'MET' : 'NOT MET'}`,
  );
  return {
    summary,
    rows: [
      { name: `22. ${DIRECTIONS_CONNECTIONS} connections: POST /buildings/{id}/directions (10,000 nodes, 5 floors)`, ...routes },
      { name: `22b. ${DIRECTIONS_CONNECTIONS} connections: GET /geofences/{id}, JWT (beside 22)`, ...reads },
    ],
  };
}

/** Seeds the reports data once (scenarios 15 and 16 share it). */
let reportsSeed;
async function reportsData(seeded) {
  if (!reportsSeed) {
    const target = process.env.DATABASE_URL ? { kind: 'postgres', url: seeded.databaseUrl } : { kind: 'sqlite', path: join(work, 'data', 'cartograph.sqlite') };
    const written = await seedReports(target, {
      root,
      buildingId: seeded.building.id,
      floorIds: seeded.floors.map((floor) => floor.id),
      geofenceIds: seeded.geofenceIds,
      location: seeded.location,
      fixes: options.fixes,
      visits: options.visits,
    });
    console.log(`Seeded ${written.fixes} fixes, ${written.visits} visits, ${written.rollups} rollup rows in ${written.seconds.toFixed(1)} s`);
    const day = (offset) => new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + offset * 86_400_000).toISOString().slice(0, 10);
    reportsSeed = { written, from: day(-30), to: day(-1) };
  }
  return reportsSeed;
}

/** One request, its whole body read: time to the last byte, bytes, status. */
async function timed(base, path, token, retry = true) {
  const started = performance.now();
  try {
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    let bytes = 0;
    for await (const chunk of response.body) bytes += chunk.length;
    return { ms: performance.now() - started, bytes, status: response.status };
  } catch (error) {
    // A keep-alive socket the server closed while the seed ran: once more on a new one.
    if (retry) return timed(base, path, token, false);
    return { ms: performance.now() - started, bytes: 0, status: `error ${error.cause?.code ?? error.message}` };
  }
}

function reportPaths(seeded, { from, to }) {
  const building = seeded.building.id;
  const fences = seeded.geofenceIds.slice(0, 10).join(',');
  const window = `from_date=${from}&to_date=${to}`;
  return [
    ['visitors.json (day)', `/api/v1/reports/visitors.json?${window}&building_id=${building}&time_zone=Europe/Madrid`],
    ['visitors.json (hour)', `/api/v1/reports/visitors.json?${window}&building_id=${building}&time_zone=Europe/Madrid&grouping=hour`],
    ['visitors.csv (day)', `/api/v1/reports/visitors.csv?${window}&building_id=${building}`],
    ['positioning_time.json (day)', `/api/v1/reports/positioning_time.json?${window}&building_id=${building}&time_zone=Europe/Madrid`],
    ['positioning_time.json (hour)', `/api/v1/reports/positioning_time.json?${window}&building_id=${building}&grouping=hour`],
    ['positioning_time.csv (day)', `/api/v1/reports/positioning_time.csv?${window}&building_id=${building}`],
    ['geofencing_stay_time.json (day)', `/api/v1/reports/geofencing_stay_time.json?${window}&building_ids=${building}&time_zone=Europe/Madrid`],
    ['geofencing_stay_time.csv (day)', `/api/v1/reports/geofencing_stay_time.csv?${window}&building_ids=${building}`],
    ['geofencing_sessions_matches.json', `/api/v1/reports/geofencing_sessions_matches.json?${window}&building_ids=${building}`],
    ['geofencing_sessions_matches.csv', `/api/v1/reports/geofencing_sessions_matches.csv?${window}&building_ids=${building}`],
    ['geofencing/analytics (none)', `/api/v1/geofencing/analytics?building_ids=${building}&from=${from}&to=${to}`],
    ['geofencing/analytics (day)', `/api/v1/geofencing/analytics?building_ids=${building}&from=${from}&to=${to}&grouping=day&time_zone=Europe/Madrid`],
    ['geofencing/occupancy/history (hour, 10 fences)', `/api/v1/geofencing/occupancy/history?geofence_ids=${fences}&from=${from}&to=${to}&grouping=hour`],
    // Issue 30's heatmap over the 30 days of the busiest floor (the first of 10: its fixes are a tenth of the seed).
    ['floors/{id}/heatmap (30 days, 1 m cells)', `/api/v1/floors/${seeded.floors[0].id}/heatmap?from=${from}T00:00:00Z&to=${to}T23:59:59Z&cell_size=1`],
    [`user_positions.json (${TRACKED_DEVICE})`, `/api/v1/reports/user_positions.json?${window}&building_id=${building}&device_id=${TRACKED_DEVICE}`],
    [`user_positions.csv (${TRACKED_DEVICE})`, `/api/v1/reports/user_positions.csv?${window}&building_id=${building}&device_id=${TRACKED_DEVICE}`],
  ];
}

/** Scenario 15: each report over the 30 days, three times (the median), on an otherwise idle server. */
async function measureReports(base, seeded) {
  const data = await reportsData(seeded);
  const results = [];
  for (const [name, path] of reportPaths(seeded, data).filter(([name]) => !options.reports || name.includes(options.reports))) {
    const runs = [];
    for (let i = 0; i < 3; i++) {
      // The server's CPU time for the request too: on a machine shared with other work the wall time says little.
      const cpuBefore = cpuSecondsOf(seeded.serverPid);
      const run = await timed(base, path, seeded.token);
      runs.push({ ...run, cpuMs: (cpuSecondsOf(seeded.serverPid) - cpuBefore) * 1000 });
    }
    // The first of the three is the cold one (the heatmap counts and keeps each ended day then).
    const firstMs = runs[0].ms;
    runs.sort((a, b) => a.ms - b.ms);
    const median = runs[1];
    const cpuMs = runs.map((run) => run.cpuMs).sort((a, b) => a - b)[1];
    results.push({
      name,
      status: median.status,
      ms: median.ms,
      firstMs,
      cpuMs,
      bytes: median.bytes,
      mbPerSecond: median.bytes / 1e6 / (median.ms / 1000),
      mbPerCpuSecond: cpuMs > 0 ? median.bytes / 1e6 / (cpuMs / 1000) : null,
    });
  }
  const width = Math.max(...results.map((row) => row.name.length));
  console.log(`${'report'.padEnd(width)}  status  median ms  first ms  server CPU ms       bytes    MB/s  MB/CPU-s`);
  for (const row of results) {
    const perCpu = row.mbPerCpuSecond === null ? '' : row.mbPerCpuSecond.toFixed(1);
    console.log(
      `${row.name.padEnd(width)}  ${String(row.status).padStart(6)}  ${row.ms.toFixed(0).padStart(9)}  ${row.firstMs.toFixed(0).padStart(8)}  ${row.cpuMs.toFixed(0).padStart(13)}  ${String(row.bytes).padStart(10)}  ${row.mbPerSecond.toFixed(1).padStart(6)}  ${perCpu.padStart(8)}`,
    );
  }
  if (results.some((row) => typeof row.status !== 'number'))
    console.log(`Server log (last lines):\n${readFileSync(join(work, 'server.log'), 'utf8').split('\n').slice(-15).join('\n')}`);
  return { seed: data.written, results };
}

/**
 * Scenario 16: ingest at a fixed 5,000 fixes/s (50 requests of 100 per second, evenly paced, open
 * loop: see runPaced in load.mjs) while reports run one after another beside it.
 */
async function measureIngestBesideReports(base, seeded) {
  const data = await reportsData(seeded);
  const paths = reportPaths(seeded, data).map(([, path]) => path);
  const spec = {
    url: base,
    connections: 10,
    duration: options.duration,
    overallRate: 50,
    method: 'POST',
    path: '/api/v1/realtime/positions',
    headers: { 'x-api-key': seeded.positioningKey, 'content-type': 'application/json' },
    positions: { devices: options.devices, batch: POSITIONS_PER_BATCH, floorIds: seeded.floors.map((floor) => floor.id), lat: seeded.location.lat, lng: seeded.location.lng },
  };
  let running = true;
  let reports = 0;
  const besides = (async () => {
    for (let i = 0; running; i++) {
      await timed(base, paths[i % paths.length], seeded.token);
      reports++;
    }
  })();
  const { results } = await drive([spec]);
  running = false;
  await besides;
  const [ingest] = results;
  const row = { fixesPerSecond: ingest.rps * POSITIONS_PER_BATCH, p50: ingest.p50, p99: ingest.p99, max: ingest.max, errors: ingest.errors + ingest.non2xx, reports };
  console.log(
    `ingest ${row.fixesPerSecond.toFixed(0)} fixes/s, p50 ${ms(row.p50)}, p99 ${ms(row.p99)}, max ${ms(row.max)}, errors ${row.errors}; ${reports} reports ran beside it`,
  );
  return row;
}

const POSITIONS_PER_BATCH = 100;
/** The server's pid, for scenario 17's CPU per delivery. */
let serverProcessId = 0;

/**
 * Scenario 17 (issue 13): a floor of its own with 100 fences that fire at once (no min dwell, no
 * exit grace), then `bench/delivery.mjs` offers fixes at --delivery-rate and measures, per event,
 * the time from the ingest answer to its arrival on an SSE client and on a local webhook
 * receiver, then the webhook throughput to that receiver (a replay of the events).
 */
async function deliveryScenario(base, seeded) {
  const token = seeded.token;
  const { json: floor } = await api(base, 'POST', '/api/v1/floors', { token, body: { building_id: seeded.building.id, level: options.floors + 2, name: 'Delivery' } });
  const fences = [];
  for (let row = 0; row < 10; row += 1) {
    for (let column = 0; column < 10; column += 1) fences.push({ lat: seeded.location.lat + row * 2e-4, lng: seeded.location.lng + column * 2e-4 });
  }
  await inParallel(fences.length, 8, async (index) => {
    const { json: fence } = await api(base, 'POST', '/api/v1/geofences', {
      token,
      body: { name: `Gate ${index}`, code: `G${index}`, building_id: String(seeded.building.id), floor_id: floor.id, geometric: ring(fences[index].lat, fences[index].lng, 4e-5) },
    });
    await api(base, 'PUT', `/api/v1/geofences/${fence.id}/rules`, { token, body: { min_dwell_seconds: 0, exit_grace_seconds: 0, dwell_seconds: 0 } });
  });
  const spec = {
    url: base,
    token,
    readKey: seeded.apiKey,
    positioningKey: seeded.positioningKey,
    floorId: floor.id,
    fences,
    outsideOffset: 1e-4,
    away: { lat: seeded.location.lat + 3e-3, lng: seeded.location.lng },
    devices: options.devices,
    firing: options.deliveryFiring,
    rate: options.deliveryRate,
    batch: POSITIONS_PER_BATCH,
    duration: options.duration,
    maxInFlight: 64,
    serverPid: serverProcessId,
  };
  const file = join(work, `delivery-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(spec));
  const child = track(spawn(process.execPath, [join(root, 'bench/delivery.mjs'), file], { stdio: ['ignore', 'pipe', 'inherit'] }));
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const code = await new Promise((done) => child.once('exit', done));
  if (code !== 0) throw new Error(`bench/delivery.mjs exited ${code}`);
  return JSON.parse(output.trim().split('\n').pop());
}
/**
 * Scenario 18 (issue 31): bench/radio.mjs in a process of its own: old estimator, self-calibrated,
 * oracle and reference points, per condition; its table is printed as it runs, its figures kept.
 */
async function radioScenario(args = options.radioArguments) {
  const child = track(spawn(process.execPath, [join(root, 'bench/radio.mjs'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] }));
  let output = '';
  let printed = 0;
  const printLines = (all) => {
    const end = all ? output.length : output.lastIndexOf('\n') + 1;
    for (const line of output.slice(printed, end).split('\n')) if (line && !line.startsWith('{"rows"')) console.log(line);
    printed = Math.max(printed, end);
  };
  child.stdout.on('data', (chunk) => {
    output += chunk;
    printLines(false);
  });
  const code = await new Promise((done) => child.once('exit', done));
  printLines(true);
  if (code !== 0) throw new Error(`bench/radio.mjs exited ${code}`);
  return JSON.parse(output.trim().split('\n').pop());
}

const ms = (value) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function printTable(rows) {
  const header = ['scenario', 'req/s', 'p50', 'p99', 'errors', 'ratio', 'peak RSS', 'CPU/req'];
  const lines = rows.map((row) => [
    row.name,
    row.rps.toFixed(0),
    ms(row.p50),
    ms(row.p99),
    String(row.errors),
    row.ratio === null ? '' : row.ratio.toFixed(2),
    row.peakRss ? mb(row.peakRss) : '',
    row.cpuPerRequest ? `${row.cpuPerRequest.toFixed(0)} µs` : '',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const format = (cells) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(format(line));
}

/** `--only=radio` (`--only=tracking`): the offline scenario without a server, its figures written beside the others'. */
async function radioOnly() {
  const tracking = options.only === 'tracking';
  console.log(`Cartograph benchmark: scenario ${tracking ? 20 : 18} only, ${cpus().length} cores, node ${process.version}`);
  const result = await radioScenario(tracking ? ['--tracking', ...options.trackingArguments] : options.radioArguments);
  const file = join(root, 'bench/results', `${new Date().toISOString().slice(0, 10)}-${tracking ? 'tracking' : 'radio'}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), cores: cpus().length, node: process.version, [tracking ? 'tracking' : 'radio']: result }, null, 2)}\n`);
  console.log(`\nWritten to ${file}`);
  rmSync(work, { recursive: true, force: true });
}

async function main() {
  if (options.only === 'radio' || options.only === 'tracking') return radioOnly();
  if (options.only === 'fix-pipeline') {
    rmSync(work, { recursive: true, force: true });
    const run = spawnSync(process.execPath, [join(root, 'bench/fix-pipeline.mjs'), ...process.argv.slice(2).filter((argument) => !argument.startsWith('--only='))], {
      stdio: 'inherit',
    });
    process.exitCode = run.status ?? 1;
    return;
  }
  const database = await scratchDatabase('cartograph_bench');
  console.log(
    `Cartograph benchmark: ${database.kind}, ${cpus().length} cores, node ${process.version}, ${options.duration} s per scenario, ${options.connections} connections, load by ${options.load}`,
  );
  const { server, base } = await startServer(database);
  serverProcessId = server.pid;
  try {
    const seeded = await seed(base);
    seeded.databaseUrl = database.env.DATABASE_URL;
    seeded.serverPid = server.pid;
    console.log(`Seeded 1 building, ${options.floors} floors, ${options.geofences} geofences in ${seeded.seconds.toFixed(1)} s`);

    const bodyFile = join(work, 'geofence.json');
    writeFileSync(bodyFile, seeded.sampleBody);
    const baselineProcess = track(spawn(process.execPath, [join(root, 'bench/baseline.mjs'), bodyFile], { stdio: ['ignore', 'pipe', 'inherit'] }));
    const baselinePort = await new Promise((done) => baselineProcess.stdout.once('data', (chunk) => done(Number(String(chunk).trim()))));
    const baselineRun = { url: `http://127.0.0.1:${baselinePort}`, path: '/', connections: options.connections, duration: options.duration };
    if (options.warmup > 0) await drive([{ ...baselineRun, duration: options.warmup }]);
    const baseline = (await drive([baselineRun], baselineProcess.pid)).results[0];
    baselineProcess.kill('SIGTERM');

    const extraResults = {};
    const rows = [{ name: 'baseline node:http', ...baseline, errors: baseline.errors + baseline.non2xx, ratio: 1, peakRss: 0 }];
    const specs = scenarioSpecs(base, seeded);
    for (const number of options.scenarios) {
      const scenario = specs[number];
      if (scenario.custom) {
        const cpuBefore = cpuSecondsOf(server.pid);
        const result = await scenario.custom();
        const cpuSeconds = cpuSecondsOf(server.pid) - cpuBefore;
        const row = (name, rps, latency, errors = 0) => ({
          name: `${number}${name}`,
          rps,
          p50: latency.p50,
          p99: latency.p99,
          errors,
          ratio: null,
          peakRss: rssOf(server.pid),
          cpuPerRequest: 0,
        });
        rows.push(
          { ...row(`. ${scenario.title}: ingest`, result.batches / result.seconds, result.ingest, result.failedBatches), itemsPerSecond: result.fixesPerSecond },
          row(`a. ingest answer -> SSE client (${result.events} events, ${result.sse.missing} missing)`, result.sse.count / result.seconds, result.sse, result.sse.missing),
          row(`b. ingest answer -> webhook receiver (${result.webhook.missing} missing)`, result.webhook.count / result.seconds, result.webhook, result.webhook.missing),
          {
            ...row(`c. webhook throughput, one receiver (replay of ${result.replay.deliveries})`, result.replay.perSecond, { p50: 0, p99: 0 }),
            cpuPerRequest: result.replay.cpuMicrosPerDelivery,
          },
        );
        console.log(`Scenario ${number}: ${JSON.stringify(result)} (server CPU ${cpuSeconds.toFixed(1)} s)`);
        await sleep(1000);
        continue;
      }
      if (scenario.prepare) await scenario.prepare();
      if (scenario.measure) {
        console.log(`\n${number}. ${scenario.title}`);
        const measured = await scenario.measure();
        // A measurement with rows of load (scenario 22) joins the table; the rest are figures of their own.
        if (measured?.rows) {
          for (const row of measured.rows) rows.push({ ...row, ratio: row.rps / baseline.rps });
          extraResults[number] = measured.summary;
        } else extraResults[number] = measured;
        continue;
      }
      if (options.warmup > 0) await drive(scenario.runs.map((run) => ({ ...run, duration: options.warmup })));
      const { results, peakRss, cpuSeconds } = await drive(scenario.runs, server.pid);
      // The server's CPU per request (all requests of the scenario's runs together).
      const cpuPerRequest = results.length === 1 && results[0].requests > 0 ? (cpuSeconds * 1e6) / results[0].requests : 0;
      results.forEach((result, index) => {
        const name = scenario.runs.length > 1 && index > 0 ? `${number}b. ${specs[1].title} (during 6)` : `${number}. ${scenario.title}`;
        rows.push({
          name,
          ...result,
          errors: result.errors + result.non2xx,
          ratio: result.rps / baseline.rps,
          peakRss,
          cpuPerRequest,
          ...(scenario.itemsPerRequest && { itemsPerSecond: result.rps * scenario.itemsPerRequest }),
        });
      });
      // Let the server settle (pending writes, GC) between scenarios.
      await sleep(1000);
    }
    console.log('');
    printTable(rows);
    for (const row of rows.filter((row) => row.itemsPerSecond)) console.log(`${row.name}: ${row.itemsPerSecond.toFixed(0)} fixes/s accepted`);
    // Issue 37: the tracker's cost, 13 (tracked) against 21 (the same scans placed one by one), in this run.
    const tracked = rows.find((row) => row.name.startsWith('13. '));
    const untracked = rows.find((row) => row.name.startsWith('21. '));
    if (tracked && untracked && untracked.cpuPerRequest > 0) {
      const ratio = tracked.cpuPerRequest / untracked.cpuPerRequest;
      console.log(
        `Tracking: server CPU per scan ${(tracked.cpuPerRequest / POSITIONS_PER_BATCH).toFixed(0)} µs tracked, ${(untracked.cpuPerRequest / POSITIONS_PER_BATCH).toFixed(0)} µs untracked: ${ratio.toFixed(2)}x (target <= 1.5x); ${tracked.itemsPerSecond.toFixed(0)} scans/s tracked (target >= 5,000), peak RSS ${mb(tracked.peakRss)} (target < 300 MB) ${ratio <= 1.5 && tracked.itemsPerSecond >= 5000 && tracked.peakRss < 300 * 1024 * 1024 ? 'MET' : 'NOT MET'}`,
      );
    }

    const date = new Date().toISOString().slice(0, 10);
    // Only a full default run is the record of the day; quick and custom runs are kept apart.
    const custom = options.scenarios.join() !== DEFAULT_SCENARIOS || options.geofences !== (options.quick ? 2000 : 10000) || options.profile;
    const suffix = options.quick ? '-quick' : custom ? '-custom' : '';
    const file = join(root, 'bench/results', `${date}-${database.kind}${suffix}.json`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      `${JSON.stringify(
        { date: new Date().toISOString(), database: database.kind, cores: cpus().length, node: process.version, options, seedSeconds: seeded.seconds, rows, reports: extraResults },
        null,
        2,
      )}\n`,
    );
    console.log(`\nWritten to ${file}`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((done) => (server.exitCode !== null ? done() : server.once('exit', done)));
    if (options.keepDatabase) console.log(`Database kept: ${database.env.DATABASE_URL ?? work}`);
    else await database.drop();
    if (!options.keepDatabase) rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
