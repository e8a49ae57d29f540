import { load } from 'js-yaml';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { register as promClientDefaultRegistry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { startMetricsServer } from '../../src/common/metrics/metrics.http';
import { asApiKey, asBearer, createApiKey, createOrganization, passwordTokens } from '../support/auth';
import { createGeofence, createSite, signUp } from '../support/cartography';
import { createTestApp, TestApp, testDatabaseKind } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { eventSite, visits } from '../support/geofence-events';
import { fix, report } from '../support/positions';
import { SseClient } from '../support/sse-client';
import { ensureServerBuilt, RunningProcess, startProcess } from '../support/server-process';
import { FreshDatabase, freshDatabase } from '../support/test-app';
import { packageVersion } from '../../src/version/package-version';

const METRICS_TOKEN = 'metrics-token-for-the-scraper-0123';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format 0.0.4: every line a comment or `name{labels} value`; fails on anything else. */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    // Values are Go floats to Prometheus: NaN and Inf in any case (prom-client writes the mean of no samples as `Nan`).
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (-?[\d.e+-]+|[Nn][Aa][Nn]|[+-][Ii]nf)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]] = pair[2];
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined =>
  samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value;

describe('/metrics', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN } });
    ({ token } = await signUp(t, 'Observed'));
  });
  afterAll(() => t?.close());

  it('refuses a scrape without the token or with a wrong one: 401 in the error shape, with a Bearer challenge', async () => {
    for (const headers of [{}, asBearer('wrong-token-wrong-token'), { Authorization: `Basic ${METRICS_TOKEN}` }]) {
      const response = await t.http.get('/metrics').set(headers).expect(401);
      expect(response.body).toMatchObject({ status: 401, code: 'unauthorized' });
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
  });

  it('serves request counts and latency histograms by route template and status, database, event loop and memory', async () => {
    const before = parseMetrics((await t.http.get('/metrics').set(asBearer(METRICS_TOKEN)).expect(200)).text);
    const labels = { method: 'GET', route: '/api/v1/buildings/:id', status: '404' };
    const countBefore = valueOf(before, 'cartograph_http_requests_total', labels) ?? 0;
    await t.http.get('/api/v1/buildings/2147483000').set(asBearer(token)).expect(404);
    await t.http.get('/api/v1/buildings/2147483001').set(asBearer(token)).expect(404);
    await t.http.get('/no/such/route').expect(404);

    const response = await t.http.get('/metrics').set(asBearer(METRICS_TOKEN)).expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parseMetrics(response.text);
    expect(valueOf(samples, 'cartograph_http_requests_total', labels)).toBe(countBefore + 2);
    // One series per route template: the ids never become labels.
    expect(samples.some((sample) => Object.values(sample.labels).some((value) => value.includes('2147483000')))).toBe(false);
    expect(valueOf(samples, 'cartograph_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'cartograph_http_request_duration_seconds_count', labels)).toBe(countBefore + 2);
    expect(valueOf(samples, 'cartograph_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(countBefore + 2);
    expect(valueOf(samples, 'cartograph_db_query_duration_seconds_count', { kind: 'select' })).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    const pool = valueOf(samples, 'cartograph_db_pool_connections', { state: 'total' });
    if (testDatabaseKind() === 'postgres') expect(pool).toBeGreaterThanOrEqual(1);
    else expect(pool).toBe(0);
  });

  it('reports the credential cache and the webhook delivery queue', async () => {
    const org = await createOrganization(t, 'Metrics');
    const tokens = await passwordTokens(t, org.email, org.password);
    // Two reads with one token: a miss, then a hit.
    await t.http.get('/api/v1/buildings').set(asBearer(tokens.access_token)).expect(200);
    await t.http.get('/api/v1/buildings').set(asBearer(tokens.access_token)).expect(200);
    // A webhook to a closed port: its test delivery waits for a retry.
    const hook = await t.http.post('/api/v1/webhooks').set(asBearer(tokens.access_token)).send({ url: 'http://127.0.0.1:9/hook' }).expect(201);
    await t.http.post(`/api/v1/webhooks/${hook.body.id}/test`).set(asBearer(tokens.access_token)).expect(202);
    let samples: Sample[] = [];
    for (let i = 0; i < 100; i++) {
      samples = parseMetrics((await t.http.get('/metrics').set(asBearer(METRICS_TOKEN)).expect(200)).text);
      if ((valueOf(samples, 'cartograph_webhook_attempts_total', { outcome: 'failed' }) ?? 0) >= 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(valueOf(samples, 'cartograph_credential_cache_lookups_total', { result: 'hit' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'cartograph_credential_cache_entries')).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'cartograph_webhook_attempts_total', { outcome: 'failed' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'cartograph_webhook_queue_depth')).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'cartograph_webhook_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('reports the geofence bodies kept for GET by id (hit rate and size)', async () => {
    const org = await createOrganization(t, 'Metrics bodies');
    const auth = asBearer((await passwordTokens(t, org.email, org.password)).access_token);
    const site = await createSite(t, auth);
    const geofence = await createGeofence(t, auth, site.place);
    const scrape = async () => parseMetrics((await t.http.get('/metrics').set(asBearer(METRICS_TOKEN)).expect(200)).text);
    const before = await scrape();
    const hits = valueOf(before, 'cartograph_geofence_body_cache_lookups_total', { result: 'hit' }) ?? 0;
    const misses = valueOf(before, 'cartograph_geofence_body_cache_lookups_total', { result: 'miss' }) ?? 0;
    // A miss that keeps the body, then two hits.
    for (let i = 0; i < 3; i++) await t.http.get(`/api/v1/geofences/${geofence.id}`).set(auth).expect(200);
    const after = await scrape();
    expect(valueOf(after, 'cartograph_geofence_body_cache_lookups_total', { result: 'miss' })).toBe(misses + 1);
    expect(valueOf(after, 'cartograph_geofence_body_cache_lookups_total', { result: 'hit' })).toBe(hits + 2);
    expect(valueOf(after, 'cartograph_geofence_body_cache_entries')).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'cartograph_geofence_body_cache_bytes')).toBeGreaterThan(100);
  });

  it('counts successful attempts and dead deliveries (successes, dead)', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const org = await createOrganization(t, 'Metrics outcomes');
      const auth = asBearer((await passwordTokens(t, org.email, org.password)).access_token);
      const scrape = async () => parseMetrics((await t.http.get('/metrics').set(asBearer(METRICS_TOKEN)).expect(200)).text);
      const before = await scrape();
      const succeeded = valueOf(before, 'cartograph_webhook_attempts_total', { outcome: 'succeeded' }) ?? 0;
      const dead = valueOf(before, 'cartograph_webhook_dead_total') ?? 0;
      const hook = await t.http.post('/api/v1/webhooks').set(auth).send({ url: receiver.url }).expect(201);
      const sent = async () => t.http.post(`/api/v1/webhooks/${hook.body.id}/test`).set(auth).expect(202);
      const until = async (name: string, labels: Record<string, string>, above: number) => {
        for (let i = 0; i < 200; i++) {
          const samples = await scrape();
          if ((valueOf(samples, name, labels) ?? 0) > above) return samples;
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`${name} never grew past ${above}`);
      };
      await sent();
      await until('cartograph_webhook_attempts_total', { outcome: 'succeeded' }, succeeded);
      // A 410 ends the delivery as dead (and disables the endpoint).
      receiver.mode = 'gone';
      await sent();
      const after = await until('cartograph_webhook_dead_total', {}, dead);
      expect(valueOf(after, 'cartograph_webhook_attempts_total', { outcome: 'endpoint_gone' })).toBeGreaterThanOrEqual(1);
    } finally {
      await receiver.stop();
    }
  });

  it('is not served at all when neither METRICS_TOKEN nor METRICS_PORT is set', async () => {
    const closed = await createTestApp();
    try {
      await closed.http.get('/metrics').set(asBearer(METRICS_TOKEN)).expect(404);
    } finally {
      await closed.close();
    }
  });

  it('serves /metrics alone on METRICS_PORT, with the token when one is set', async () => {
    const open = await startMetricsServer({ port: 0, token: undefined }, '127.0.0.1');
    const guarded = await startMetricsServer({ port: 0, token: METRICS_TOKEN }, '127.0.0.1');
    try {
      const url = (server: typeof open) => `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
      const scraped = await fetch(`${url(open)}/metrics`);
      expect(scraped.status).toBe(200);
      expect(valueOf(parseMetrics(await scraped.text()), 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect((await fetch(`${url(open)}/api/v1/version`)).status).toBe(404);
      expect((await fetch(`${url(guarded)}/metrics`)).status).toBe(401);
      expect((await fetch(`${url(guarded)}/metrics`, { headers: asBearer(METRICS_TOKEN) })).status).toBe(200);
    } finally {
      open?.close();
      guarded?.close();
    }
  });
});

/** Metric names a PromQL expression reads (functions, labels and keywords aside): ours, Node's and the process's. */
function metricNamesIn(expression: string): string[] {
  const withoutLabels = expression.replace(/\{[^}]*\}/g, '').replace(/"[^"]*"/g, '');
  return [...withoutLabels.matchAll(/\b((?:cartograph|nodejs|process)_[a-z0-9_]+)/g)].map((match) => match[1]);
}

/**
 * The series a PromQL expression selects: each metric name with the labels it must have
 * exactly (`name{label="value"}`). Regular expressions, negations and the dashboard's
 * `$instance` select whatever is there, so they ask for no label.
 */
function seriesIn(expression: string): Array<{ name: string; labels: Record<string, string> }> {
  const selectors = [...expression.matchAll(/\b((?:cartograph|nodejs|process)_[a-z0-9_]+)\s*(\{[^}]*\})?/g)];
  return selectors.map(([, name, braces]) => ({
    name,
    labels: Object.fromEntries([...(braces ?? '').matchAll(/(\w+)\s*=\s*"([^"]*)"/g)].filter(([, , value]) => !value.includes('$')).map(([, label, value]) => [label, value])),
  }));
}

/** The family a series belongs to: a histogram's `_bucket`, `_sum` and `_count` are its own name's. */
const familyOf = (name: string, families: Set<string>) => (families.has(name) ? name : name.replace(/_(bucket|sum|count)$/, ''));

/** Every PromQL expression of the shipped Grafana dashboard (panels and variables) and Prometheus alert rules, with where it is. */
function shippedExpressions(): Array<{ where: string; expr: string }> {
  const root = join(__dirname, '..', '..');
  const dashboard = JSON.parse(readFileSync(join(root, 'deploy/grafana/cartograph.json'), 'utf8')) as {
    panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
    templating: { list: Array<{ name: string; type: string; query?: string | { query?: string } }> };
  };
  const rules = load(readFileSync(join(root, 'deploy/prometheus/alerts.yml'), 'utf8')) as { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> };
  const expressions = [
    ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `dashboard panel "${panel.title}"`, expr: target.expr }))),
    // A query variable's PromQL (the data source variable's query is a plugin name).
    ...dashboard.templating.list
      .filter((variable) => variable.type === 'query')
      .map((variable) => ({ where: `dashboard variable ${variable.name}`, expr: typeof variable.query === 'string' ? variable.query : (variable.query?.query ?? '') })),
    ...rules.groups.flatMap((group) => group.rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr }))),
  ];
  expect(dashboard.panels.filter((panel) => panel.targets).length).toBeGreaterThan(15);
  expect(rules.groups[0].rules.length).toBeGreaterThan(8);
  expect(dashboard.templating.list.filter((variable) => variable.type === 'query').length).toBeGreaterThan(0);
  return expressions;
}

describe('/metrics for operators', () => {
  let t: TestApp;
  let scrape: () => Promise<{ text: string; samples: Sample[] }>;

  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN } });
    scrape = async () => {
      const text = (await t.http.get('/metrics').set(asBearer(METRICS_TOKEN)).expect(200)).text;
      return { text, samples: parseMetrics(text) };
    };
  });
  afterAll(() => t?.close());

  it('every metric is on the one registry /metrics serves (prom-client default registry is empty): live streams are counted there', async () => {
    const { auth } = await signUp(t, 'Streams counted');
    const before = (await scrape()).samples;
    const open = valueOf(before, 'cartograph_streams_open', { kind: 'positions' }) ?? 0;
    const client = await SseClient.open(t.app.getHttpServer(), '/api/v1/realtime/stream', auth);
    try {
      expect(client.status).toBe(200);
      const during = (await scrape()).samples;
      expect(valueOf(during, 'cartograph_streams_open', { kind: 'positions' })).toBe(open + 1);
    } finally {
      client.close();
    }
    const { text } = await scrape();
    expect(text).toContain('# TYPE cartograph_streams_ended_by_server_total counter');
    expect(await promClientDefaultRegistry.getMetricsAsJSON()).toEqual([]);
  });

  it('counts fixes stored and refused by reason once per batch, geofence events by type and password logins by outcome', async () => {
    const { auth, org } = await signUp(t, 'Fixes counted');
    const before = (await scrape()).samples;
    const read = (samples: Sample[], name: string, labels: Record<string, string> = {}) => valueOf(samples, name, labels) ?? 0;
    // The duplicate repeats the first fix exactly: two calls to fix() may fall in different milliseconds.
    const first = fix('metrics-a');
    await report(t, auth, { positions: [first, fix('metrics-b'), fix('metrics-c', { lat: 91 }), fix('metrics-d', { accuracy: undefined }), { ...first }] });
    const site = await eventSite(t, auth);
    const events = await visits(t, auth, site, ['metrics-fence']);
    expect(events.map((event) => event.type)).toEqual(['geofence.enter', 'geofence.exit']);
    await t.http
      .post('/api/v1/auth/access_tokens')
      .set({ Authorization: `Basic ${Buffer.from(`${org.email}:wrong-password-here`).toString('base64')}` })
      .expect(401);
    const after = (await scrape()).samples;
    // 2 stored in the first batch, 2 by the visit; refused: an invalid latitude, a missing accuracy, a duplicate.
    expect(read(after, 'cartograph_position_fixes_accepted_total') - read(before, 'cartograph_position_fixes_accepted_total')).toBe(4);
    for (const reason of ['invalid', 'required', 'duplicate']) {
      expect(read(after, 'cartograph_position_fixes_rejected_total', { reason }) - read(before, 'cartograph_position_fixes_rejected_total', { reason }), reason).toBe(1);
    }
    for (const type of ['geofence.enter', 'geofence.exit']) {
      expect(read(after, 'cartograph_geofence_events_total', { type }) - read(before, 'cartograph_geofence_events_total', { type }), type).toBe(1);
    }
    expect(read(after, 'cartograph_password_logins_total', { outcome: 'failed' }) - read(before, 'cartograph_password_logins_total', { outcome: 'failed' })).toBe(1);
    // signUp logged in with the password once at least.
    expect(read(after, 'cartograph_password_logins_total', { outcome: 'succeeded' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'cartograph_login_throttled_total', { limit: 'address' })).toBeDefined();
    // No label names a device, user or organization.
    const labelNames = new Set(after.filter((sample) => sample.name.startsWith('cartograph_')).flatMap((sample) => Object.keys(sample.labels)));
    for (const forbidden of ['device_id', 'device', 'user_id', 'organization_id', 'organization']) expect(labelNames.has(forbidden)).toBe(false);
  });

  it('states the build: version, API version and Node.js version', async () => {
    const build = (await scrape()).samples.filter((sample) => sample.name === 'cartograph_build_info');
    expect(build).toHaveLength(1);
    expect(build[0]).toEqual({
      name: 'cartograph_build_info',
      labels: { version: packageVersion(), api_version: expect.stringMatching(/^\d+\.\d+\.\d+$/), node_version: process.version },
      value: 1,
    });
  });

  it('times webhook attempts in a histogram by outcome', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const { auth } = await signUp(t, 'Webhook timed');
      const hook = await t.http.post('/api/v1/webhooks').set(auth).send({ url: receiver.url }).expect(201);
      await t.http.post(`/api/v1/webhooks/${hook.body.id}/test`).set(auth).expect(202);
      let count = 0;
      for (let i = 0; i < 200 && count === 0; i++) {
        count = valueOf((await scrape()).samples, 'cartograph_webhook_attempt_duration_seconds_count', { outcome: 'succeeded' }) ?? 0;
        if (count === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(count).toBeGreaterThanOrEqual(1);
      const { samples } = await scrape();
      expect(valueOf(samples, 'cartograph_webhook_attempt_duration_seconds_bucket', { outcome: 'succeeded', le: '+Inf' })).toBe(count);
    } finally {
      await receiver.stop();
    }
  });

  it('every metric the shipped Grafana dashboard and Prometheus alert rules read is exported', async () => {
    const { text } = await scrape();
    const families = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]));
    const named = shippedExpressions().flatMap(({ where, expr }) => metricNamesIn(expr).map((name) => ({ where, name })));
    expect(named.length).toBeGreaterThan(30);
    const missing = named.filter(({ name }) => !families.has(familyOf(name, families)));
    expect(missing).toEqual([]);
  });
});

/**
 * A server process just started, as Prometheus first sees it (issue 35, item 4): every series
 * the dashboard and the alert rules read already has a sample, so a rate() or an absent-series
 * alert has something from the start. A process of its own: the metrics of this file's other
 * apps share their process's registry.
 */
describe('/metrics of a server just started', () => {
  let root: string;
  let database: FreshDatabase;
  let server: RunningProcess | undefined;
  let url: string;

  beforeAll(async () => {
    root = await ensureServerBuilt();
    database = await freshDatabase();
    server = startProcess('node', ['dist/src/main.js'], {
      cwd: root,
      env: {
        ...database.env,
        NODE_ENV: 'production',
        JWT_SECRET: 'fresh-metrics-secret-that-is-long-enough-0123456789',
        HOST: '127.0.0.1',
        PORT: '0',
        METRICS_TOKEN,
        LOG_REQUESTS: 'false',
      },
    });
    const listening = await server.waitForLine((line) => typeof line.url === 'string' && String(line.msg).startsWith('Cartograph listening'), 90_000);
    url = listening.url as string;
  }, 240_000);
  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await database?.drop();
  });

  const scrape = async () => {
    const response = await fetch(`${url}/metrics`, { headers: asBearer(METRICS_TOKEN) });
    expect(response.status).toBe(200);
    return parseMetrics(await response.text());
  };

  it('has a sample of every series the shipped dashboard and alert rules read, before any traffic but the scrapes', async () => {
    // Prometheus' first scrape is the server's first answer: its request figures come with it (a route and status are known once answered).
    await scrape();
    const samples = await scrape();
    const named = shippedExpressions().flatMap(({ where, expr }) => seriesIn(expr).map((series) => ({ where, ...series })));
    expect(named.length).toBeGreaterThan(30);
    const missing = named.filter(
      ({ name, labels }) => !samples.some((sample) => sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value)),
    );
    expect(missing).toEqual([]);
    // Each known label value, at 0 before its first observation.
    for (const kind of ['positions', 'events']) expect(valueOf(samples, 'cartograph_streams_open', { kind }), kind).toBe(0);
    for (const reason of ['shutdown', 'credential_revoked', 'too_slow']) expect(valueOf(samples, 'cartograph_streams_ended_by_server_total', { reason }), reason).toBe(0);
    for (const outcome of ['succeeded', 'failed', 'endpoint_gone']) {
      expect(valueOf(samples, 'cartograph_webhook_attempts_total', { outcome }), outcome).toBe(0);
      expect(valueOf(samples, 'cartograph_webhook_attempt_duration_seconds_count', { outcome }), outcome).toBe(0);
      expect(valueOf(samples, 'cartograph_webhook_attempt_duration_seconds_bucket', { outcome, le: '+Inf' }), outcome).toBe(0);
    }
    for (const kind of ['insert', 'update', 'delete', 'with', 'other'])
      expect(valueOf(samples, 'cartograph_db_query_duration_seconds_count', { kind }), kind).toBeGreaterThanOrEqual(0);
  });
});

describe('request logs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('log the health probes at debug only: at the default level they do not flood the log', async () => {
    const mark = t.requestLogs.length;
    await t.http.get('/health/live').expect(200);
    await t.http.get('/health/ready').expect(200);
    await t.http.get('/api/v1/version').expect(401);
    expect(t.requestLogs.slice(mark).map((line) => [line.level, line.route])).toEqual([['info', '/api/v1/version']]);
  });

  it('log the raw path without its query string when no route matched, and never a credential', async () => {
    const { token } = await signUp(t, 'Logged');
    const key = await createApiKey(t, token, ApiPermission.ReadOnly);
    const mark = t.requestLogs.length;
    await t.http.get('/api/v1/version').set(asApiKey(key.apikey)).expect(200);
    await t.http.get('/api/v1/nowhere/42?apikey=secret-in-query').set(asBearer(token)).expect(404);
    await t.http.get('/api/v1/version').set(asBearer('not-a-valid-token')).expect(401);
    const lines = t.requestLogs.slice(mark);
    expect(lines.map((line) => [line.method, line.route, line.status])).toEqual([
      ['GET', '/api/v1/version', 200],
      ['GET', '/api/v1/nowhere/42', 404],
      ['GET', '/api/v1/version', 401],
    ]);
    expect(lines[0]).toMatchObject({ user_id: expect.any(String), organization_id: expect.any(String), client: expect.stringMatching(/127\.0\.0\.1$/) });
    expect(lines[2]).toMatchObject({ user_id: null, organization_id: null });
    const text = JSON.stringify(lines);
    for (const secret of [key.apikey, token, 'secret-in-query', 'not-a-valid-token']) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/authorization|x-api-key/i);
  });
});
