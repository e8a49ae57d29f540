// One load generator run, in its own process so that it does not share a core with the
// server it measures. Input: a JSON file path (argv[2]); output: one JSON line on stdout.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const pick = (items) => items[Math.floor(Math.random() * items.length)];
let counter = 0;

const request = {
  method: spec.method ?? 'GET',
  path: spec.paths ? spec.paths[0] : spec.path,
  headers: spec.headers ?? {},
  body: spec.body ? JSON.stringify(spec.body) : undefined,
  setupRequest: (req) => {
    const next = { ...req };
    if (spec.paths) next.path = pick(spec.paths);
    if (spec.body && spec.uniqueField) {
      counter += 1;
      next.body = JSON.stringify({ ...spec.body, [spec.uniqueField]: `${spec.body[spec.uniqueField]} ${process.pid}-${counter}` });
    }
    return next;
  },
};

const instance = autocannon(
  {
    url: spec.url,
    connections: spec.connections,
    duration: spec.duration,
    requests: [request],
    headers: spec.headers ?? {},
    timeout: 10,
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
