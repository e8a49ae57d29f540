// Scenario 15 of `npm run bench` (issue 13), in a process of its own: fixes arrive at a fixed
// rate (open loop) and some of them fire geofence events; it measures the time from each
// ingest answer to the arrival of its events on a live SSE client and on a local webhook
// receiver, then the webhook throughput to that one receiver (a replay of the events, drained).
// Input: a JSON spec file (argv[2]); output: one JSON line on stdout.
import { createServer, request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const now = () => performance.timeOrigin + performance.now();

async function api(method, path, body, headers = { authorization: `Bearer ${spec.token}` }) {
  const response = await fetch(`${spec.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** The id of an event body: its first field (`{"id":"evt_…"`), read without parsing the whole. */
const eventIdOf = (json) => json.slice(7, json.indexOf('"', 7));

// A fast receiver: records when each webhook-id arrived and answers 204 at once.
const hookArrivals = new Map();
let hookRequests = 0;
const receiver = createServer((req, res) => {
  hookRequests += 1;
  const id = req.headers['webhook-id'];
  if (!hookArrivals.has(id)) hookArrivals.set(id, now());
  req.resume();
  req.on('end', () => res.writeHead(204).end());
});
await new Promise((done) => receiver.listen(0, '127.0.0.1', done));
const hook = await api('POST', '/api/v1/webhooks', { url: `http://127.0.0.1:${receiver.address().port}/hook`, description: 'benchmark receiver' });

// A live event stream, as a dashboard would hold it.
const sseArrivals = new Map();
await new Promise((ready, fail) => {
  const url = new URL('/api/v1/geofencing/events/stream', spec.url);
  const req = httpRequest(url, { headers: { accept: 'text/event-stream', 'x-api-key': spec.readKey } }, (res) => {
    if (res.statusCode !== 200) return fail(new Error(`event stream: ${res.statusCode}`));
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk) => {
      const at = now();
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n').find((line) => line.startsWith('data: '));
        if (data && block.includes('event: geofence.')) sseArrivals.set(eventIdOf(data.slice(6)), at);
      }
    });
    ready();
  });
  req.on('error', fail);
  req.end();
});
await sleep(200);

// Devices: a `firing` share crosses a fence edge on every fix (an enter, then an exit, ...); the others stand still away from the fences.
const devices = Array.from({ length: spec.devices }, (_, index) => ({
  id: `delivery-${index}`,
  fence: index < spec.devices * spec.firing ? spec.fences[index % spec.fences.length] : null,
  inside: false,
}));
let cursor = 0;
function batchBody() {
  const time = Date.now();
  const parts = [];
  for (let i = 0; i < spec.batch; i += 1) {
    const device = devices[cursor];
    cursor = (cursor + 1) % devices.length;
    let lat = spec.away.lat + (i % 10) * 1e-5;
    let lng = spec.away.lng;
    if (device.fence) {
      device.inside = !device.inside;
      lat = device.fence.lat + (device.inside ? 0 : spec.outsideOffset);
      lng = device.fence.lng;
    }
    parts.push(`{"device_id":"${device.id}","time":${time},"floor_id":${spec.floorId},"lat":${lat.toFixed(7)},"lng":${lng.toFixed(7)},"accuracy":2}`);
  }
  return `{"positions":[${parts.join(',')}]}`;
}

const answered = new Map();
const ingestLatencies = [];
let sent = 0;
let failed = 0;
let skipped = 0;
let inFlight = 0;
const interval = (spec.batch / spec.rate) * 1000;
const started = now();
const deadline = started + spec.duration * 1000;
const pending = new Set();
for (let tick = 0; now() < deadline; tick += 1) {
  // Open loop: a batch every `interval` ms whatever the server's pace (at most `maxInFlight` waiting).
  const due = started + tick * interval;
  if (due > now()) await sleep(due - now());
  if (inFlight >= spec.maxInFlight) {
    skipped += 1;
    continue;
  }
  inFlight += 1;
  sent += 1;
  const begin = now();
  const work = fetch(`${spec.url}/api/v1/realtime/positions`, {
    method: 'POST',
    headers: { 'x-api-key': spec.positioningKey, 'content-type': 'application/json' },
    body: batchBody(),
  })
    .then(async (response) => {
      const text = await response.text();
      const at = now();
      if (!response.ok) {
        failed += 1;
        return;
      }
      ingestLatencies.push(at - begin);
      for (const event of JSON.parse(text).events) answered.set(event.id, at);
    })
    .catch(() => (failed += 1))
    .finally(() => {
      inFlight -= 1;
      pending.delete(work);
    });
  pending.add(work);
}
await Promise.all([...pending]);
const elapsed = (now() - started) / 1000;

// The tail: every event should reach both within a few seconds.
const ids = [...answered.keys()];
for (const until = now() + 15_000; now() < until;) {
  if (ids.every((id) => sseArrivals.has(id) && hookArrivals.has(id))) break;
  await sleep(50);
}
const latencies = (arrivals) => ids.filter((id) => arrivals.has(id)).map((id) => Math.max(0, arrivals.get(id) - answered.get(id)));
const percentile = (values, p) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const summary = (values) => ({ count: values.length, p50: percentile(values, 50), p99: percentile(values, 99), max: percentile(values, 100) });
const sse = { ...summary(latencies(sseArrivals)), missing: ids.filter((id) => !sseArrivals.has(id)).length };
const webhook = { ...summary(latencies(hookArrivals)), missing: ids.filter((id) => !hookArrivals.has(id)).length };

// Throughput: the same events again (a replay, at most 10,000), drained by the worker into the one receiver.
const replayIds = ids.slice(0, 10_000);
hookArrivals.clear();
/** CPU seconds (user + system) the server has used. */
const serverCpu = () => {
  try {
    const fields = readFileSync(`/proc/${spec.serverPid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
};
const cpuBefore = serverCpu();
const replayStart = now();
for (let i = 0; i < replayIds.length; i += 1000) await api('POST', `/api/v1/webhooks/${hook.id}/replay`, { event_ids: replayIds.slice(i, i + 1000) });
for (const until = now() + 60_000; now() < until && hookArrivals.size < replayIds.length;) await sleep(20);
const replaySeconds = (now() - replayStart) / 1000;
const replayCpu = serverCpu() - cpuBefore;
await api('DELETE', `/api/v1/webhooks/${hook.id}`);

process.stdout.write(
  `${JSON.stringify({
    seconds: elapsed,
    batches: sent,
    failedBatches: failed,
    skippedBatches: skipped,
    fixesPerSecond: ((sent - failed) * spec.batch) / elapsed,
    ingest: summary(ingestLatencies),
    events: ids.length,
    sse,
    webhook,
    replay: {
      deliveries: hookArrivals.size,
      seconds: replaySeconds,
      perSecond: hookArrivals.size / replaySeconds,
      cpuMicrosPerDelivery: hookArrivals.size ? (replayCpu * 1e6) / hookArrivals.size : 0,
    },
  })}\n`,
);
process.exit(0);
