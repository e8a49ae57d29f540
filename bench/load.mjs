// One load generator run, in its own process so that it does not share a core with the
// server it measures. Input: a JSON file path (argv[2]); output: one JSON line on stdout.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const pick = (items) => items[Math.floor(Math.random() * items.length)];
let counter = 0;

/**
 * A batch of `batch` fixes for the next block of `devices` simulated devices (contract 6.2),
 * built as a string: the generator shares the machine's two cores with the server.
 */
function positionsBody({ devices, batch, floorIds, lat, lng }) {
  const first = (counter * batch) % devices;
  const time = Date.now() - 1000;
  const parts = [];
  for (let i = 0; i < batch; i += 1) {
    const device = (first + i) % devices;
    const floorId = floorIds[device % floorIds.length];
    const dLat = ((device % 40) - 20) * 1e-5 + Math.random() * 1e-6;
    const dLng = (Math.floor(device / 40) - 12) * 1e-5 + Math.random() * 1e-6;
    parts.push(`{"device_id":"bench-${device}","time":${time},"floor_id":${floorId},"lat":${(lat + dLat).toFixed(7)},"lng":${(lng + dLng).toFixed(7)},"accuracy":3.5,"yaw":1.2}`);
  }
  return `{"positions":[${parts.join(',')}]}`;
}

/** Standard normal noise (Box-Muller). */
function gaussian() {
  return Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
}

/**
 * A batch of scans (issue 15): each device walks a circle of 8 m radius at 1.2 m/s somewhere
 * over the beacon grid (so a tracker follows it, issue 37) and hears its 10 to 30 loudest
 * beacons, as a log-distance path-loss model (exponent 3, -59 dBm at 1 m) with 4 dB shadowing says.
 */
function scansBody({ devices, batch, buildingId, uuid, beacons, width, length }) {
  const first = (counter * batch) % devices;
  const time = Date.now() - 1000;
  const parts = [];
  for (let i = 0; i < batch; i += 1) {
    const device = (first + i) % devices;
    // The circle's centre is the device's own (a fixed hash of its number), its phase the time.
    const cx = 13 + (((device * 7919) % 1000) / 1000) * (width - 26);
    const cy = 13 + (((device * 104729) % 1000) / 1000) * (length - 26);
    const angle = (time / 1000) * (1.2 / 8) + device;
    const x = cx + 8 * Math.cos(angle);
    const y = cy + 8 * Math.sin(angle);
    const heard = beacons
      .map((b) => ({ b, rssi: Math.round(-59 - 30 * Math.log10(Math.max(0.5, Math.hypot(b.x - x, b.y - y))) + 4 * gaussian()) }))
      .sort((p, q) => q.rssi - p.rssi)
      .slice(0, 10 + Math.floor(Math.random() * 21));
    const ble = heard.map(({ b, rssi }) => `{"uuid":"${uuid}","major":1,"minor":${b.minor},"rssi":${rssi}}`).join(',');
    parts.push(`{"device_id":"scan-${device}","time":${time},"building_id":${buildingId},"ble":[${ble}]}`);
  }
  return `{"scans":[${parts.join(',')}]}`;
}

/** `bodies`: one of a list of request bodies per request (scenario 22's routes), each serialised once. */
const bodies = spec.bodies ? spec.bodies.map((body) => JSON.stringify(body)) : undefined;
const bodyOf = () => (spec.positions ? positionsBody(spec.positions) : spec.scans ? scansBody(spec.scans) : bodies ? pick(bodies) : undefined);

const request = {
  method: spec.method ?? 'GET',
  path: spec.paths ? spec.paths[0] : spec.path,
  headers: spec.headers ?? {},
  body: spec.body ? JSON.stringify(spec.body) : bodyOf(),
  setupRequest: (req) => {
    const next = { ...req };
    if (spec.paths) next.path = pick(spec.paths);
    if (spec.positions || spec.scans || bodies) {
      counter += 1;
      next.body = bodyOf();
    }
    if (spec.body && spec.uniqueField) {
      counter += 1;
      next.body = JSON.stringify({ ...spec.body, [spec.uniqueField]: `${spec.body[spec.uniqueField]} ${process.pid}-${counter}` });
    }
    return next;
  },
};

/**
 * The same load with wrk (C, one thread), when the spec asks for it: on two cores autocannon's own
 * CPU competes with the server it measures, wrk's much less (the issues' figures are wrk's).
 * Only fixed requests (a path or a random pick of paths, fixed headers and body) go through wrk.
 */
function runWrk() {
  const script = `${process.argv[2]}.lua`;
  const lua = (value) => JSON.stringify(value); // a JSON string literal is a valid Lua string literal here (ASCII)
  const paths = spec.paths ?? [spec.path];
  writeFileSync(
    script,
    [
      `wrk.method = ${lua(spec.method ?? 'GET')}`,
      ...Object.entries(spec.headers ?? {}).map(([name, value]) => `wrk.headers[${lua(name)}] = ${lua(value)}`),
      spec.body ? `wrk.body = ${lua(JSON.stringify(spec.body))}` : '',
      spec.body ? `wrk.headers["Content-Type"] = "application/json"` : '',
      `local paths = {${paths.map(lua).join(',')}}`,
      'local count = #paths',
      'request = function() return wrk.format(nil, paths[math.random(count)]) end',
      'done = function(summary, latency, requests)',
      '  local e = summary.errors',
      '  io.write(string.format("\\n{\\"requests\\":%d,\\"seconds\\":%f,\\"p50\\":%f,\\"p99\\":%f,\\"max\\":%f,\\"errors\\":%d,\\"non2xx\\":%d,\\"bytes\\":%d}\\n",',
      '    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3, latency.max / 1e3,',
      '    e.connect + e.read + e.write + e.timeout, e.status, summary.bytes))',
      'end',
    ].join('\n'),
  );
  const child = spawn('wrk', ['-t1', `-c${spec.connections}`, `-d${spec.duration}s`, '--timeout', '10s', '-s', script, spec.url], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.once('exit', (code) => {
    const line = output.trim().split('\n').pop();
    try {
      const result = JSON.parse(line);
      process.stdout.write(`${JSON.stringify({ ...result, rps: result.requests / result.seconds, driver: 'wrk' })}\n`);
    } catch {
      process.stdout.write(`${JSON.stringify({ error: `wrk exited ${code}: ${output.slice(-500)}` })}\n`);
      process.exit(1);
    }
  });
  process.once('SIGINT', () => child.kill('SIGINT'));
}

if (spec.driver === 'wrk') runWrk();
else if (spec.overallRate) runPaced();
else runAutocannon();

/**
 * A fixed request rate (scenario 16: ingest at 5,000 fixes/s), open loop and evenly paced: request
 * i is due at start + i / rate whatever the server's pace, over at most `connections` keep-alive
 * connections (a request waits for a free one), and its latency runs from when it was due, so a
 * server that falls behind is charged for the wait (no coordinated omission). autocannon's
 * `overallRate` sends each connection's share of a second back to back when the second starts,
 * then pauses: bursts at the top of every second, not the steady rate asked for.
 */
async function runPaced() {
  const target = new URL(spec.path, spec.url);
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const interval = 1000 / spec.overallRate;
  const latencies = [];
  let errors = 0;
  let non2xx = 0;
  let bytes = 0;
  const send = (due) =>
    new Promise((done) => {
      const body = bodyOf();
      const call = httpRequest(
        target,
        {
          method: spec.method ?? 'GET',
          agent,
          headers: { ...(spec.headers ?? {}), ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }) },
          timeout: 10_000,
        },
        (response) => {
          response.on('data', (chunk) => (bytes += chunk.length));
          response.on('end', () => {
            if (response.statusCode < 200 || response.statusCode >= 300) non2xx += 1;
            else latencies.push(performance.now() - due);
            done();
          });
        },
      );
      call.on('timeout', () => call.destroy(new Error('timeout')));
      call.on('error', () => {
        errors += 1;
        done();
      });
      call.end(body);
    });
  const started = performance.now();
  const deadline = started + spec.duration * 1000;
  const pending = [];
  for (let i = 0; ; i += 1) {
    const due = started + i * interval;
    if (due >= deadline) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    counter += 1;
    pending.push(send(due));
  }
  await Promise.all(pending);
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p) => (latencies.length === 0 ? 0 : latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)]);
  agent.destroy();
  process.stdout.write(
    `${JSON.stringify({ requests: pending.length, rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), max: at(1), errors, non2xx, bytes, driver: 'paced' })}\n`,
  );
}

function runAutocannon() {
  const instance = autocannon(
    {
      url: spec.url,
      connections: spec.connections,
      duration: spec.duration,
      requests: [request],
      headers: spec.headers ?? {},
      timeout: 10,
      // A fixed request rate (scenario 16: ingest at 5,000 fixes/s) instead of a closed loop.
      ...(spec.overallRate && { overallRate: spec.overallRate }),
    },
    (error, result) => {
      if (error) {
        process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
        process.exit(1);
      }
      process.stdout.write(
        `${JSON.stringify({
          requests: result.requests.total,
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          max: result.latency.max,
          errors: result.errors + result.timeouts,
          non2xx: result.non2xx,
          bytes: result.throughput.total,
        })}\n`,
      );
    },
  );
  process.once('SIGINT', () => instance.stop());
}
