#!/usr/bin/env node
// CPU per request of the read path, measured in process (Fastify's inject: no sockets, no HTTP
// parsing), so that a machine shared with other work still gives comparable figures. Each
// route is measured in interleaved rounds and the median round is reported, with the share of
// time V8 spent in garbage collection. Runs the production build (`npm run build` first).
//
//   node bench/pipeline.mjs                      SQLite, 8 rounds of 4,000 requests per route
//   node bench/pipeline.mjs --rounds=4 --requests=2000 --breakdown   also each step of the geofence handler alone
//   CREDENTIAL_CACHE_MAX_AGE_SECONDS=0 node bench/pipeline.mjs    without the credential cache
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const argument = (name, fallback) => Number(process.argv.find((value) => value.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const rounds = argument('rounds', 8);
const requests = argument('requests', 4000);

const dataDir = mkdtempSync(join(tmpdir(), 'cartograph-pipeline-'));
Object.assign(process.env, {
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  JWT_SECRET: process.env.JWT_SECRET ?? randomBytes(32).toString('hex'),
  LOG_REQUESTS: process.env.LOG_REQUESTS ?? 'false',
});

require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { AppModule } = require(join(root, 'dist/src/app.module'));
const { configureApp, createFastifyAdapter, NEST_APP_OPTIONS } = require(join(root, 'dist/src/app.setup'));
const { readAppConfig } = require(join(root, 'dist/src/config/app.config'));
const { OrganizationsService } = require(join(root, 'dist/src/organizations/organizations.service'));

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

async function main() {
  const config = readAppConfig(process.env);
  const app = await NestFactory.create(AppModule, createFastifyAdapter(config), { ...NEST_APP_OPTIONS, logger: false });
  await configureApp(app, config);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const call = async (method, url, headers = {}, payload) => {
    const response = await app.inject({ method, url, headers, payload });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    return response;
  };

  const email = 'pipeline@example.test';
  const password = 'pipeline-password-123';
  await app.get(OrganizationsService).createWithAdmin({ name: 'Pipeline', adminEmail: email, adminPassword: password });
  const basic = { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` };
  const token = (await call('POST', '/api/v1/auth/access_tokens', basic)).json().access_token;
  const bearer = { authorization: `Bearer ${token}` };
  const building = (
    await call('POST', '/api/v1/buildings', bearer, { name: 'B', location: { lat: 42.87, lng: -8.56 }, dimensions: { width: 200, length: 120 }, rotation: 0.2 })
  ).json();
  const floor = (await call('POST', '/api/v1/floors', bearer, { building_id: building.id, level: 0, name: 'Ground' })).json();
  const ring = Array.from({ length: 12 }, (_, i) =>
    [42.87 + 4e-6 * Math.sin((i / 12) * 2 * Math.PI), -8.56 + 4e-6 * Math.cos((i / 12) * 2 * Math.PI)].map((v) => Number(v.toFixed(7))),
  );
  const geofence = (
    await call('POST', '/api/v1/geofences', bearer, {
      name: 'Zone',
      code: 'Z1',
      building_id: String(building.id),
      floor_id: floor.id,
      info: '<p>Zone 1</p>',
      geometric: [...ring, ring[0]],
      custom_fields: [{ key: 'index', value: '1' }],
    })
  ).json();
  const apiKey = (await call('POST', '/api/v1/auth/apikeys', bearer, { permission: 'read-only' })).json().apikey;

  const routes = [
    ['GET /health/live', '/health/live', {}],
    ['GET /version, JWT', '/api/v1/version', bearer],
    ['GET /geofences/{id}, JWT', `/api/v1/geofences/${geofence.id}`, bearer],
    ['GET /geofences/{id}, API key', `/api/v1/geofences/${geofence.id}`, { 'x-api-key': apiKey }],
  ];
  const samples = routes.map(() => []);
  const gcShares = routes.map(() => []);
  for (let round = -1; round < rounds; round++) {
    for (const [index, [, url, headers]] of routes.entries()) {
      const gcBefore = gcMs;
      const cpuBefore = process.cpuUsage();
      const wallBefore = performance.now();
      for (let i = 0; i < requests; i++) {
        const response = await app.inject({ method: 'GET', url, headers });
        if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
      }
      const cpu = process.cpuUsage(cpuBefore);
      const wall = performance.now() - wallBefore;
      // GC entries reach the observer on a later turn of the event loop; inject never yields one.
      await new Promise((done) => setTimeout(done, 5));
      if (round < 0) continue; // warm-up
      samples[index].push((cpu.user + cpu.system) / requests);
      gcShares[index].push((gcMs - gcBefore) / wall);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  if (process.argv.includes('--breakdown')) await breakdown(app, geofence, median);
  console.log(`CPU per request (median of ${rounds} rounds of ${requests}), credential cache max age ${process.env.CREDENTIAL_CACHE_MAX_AGE_SECONDS ?? '30'} s`);
  for (const [index, [name]] of routes.entries()) {
    console.log(`${name.padEnd(32)} ${median(samples[index]).toFixed(1).padStart(7)} µs   GC ${(100 * median(gcShares[index])).toFixed(1)} %`);
  }
  await app.close().catch(() => undefined);
}

/** The geofence handler taken apart: each step alone, in a loop, CPU µs per call (median of 5 rounds). */
async function breakdown(app, geofence, median) {
  const { GeofencesService } = require(join(root, 'dist/src/cartography/geofences/geofences.service'));
  const { toGeofenceResponse } = require(join(root, 'dist/src/cartography/geofences/geofence.mapper'));
  const { etagOf } = require(join(root, 'dist/src/common/database/optimistic'));
  const service = app.get(GeofencesService);
  const key = { id: geofence.id, organizationId: geofence.organization_id };
  const [row] = await service.findById(key);
  const entity = service.hydrate(row);
  const response = toGeofenceResponse(entity);
  const steps = [
    ['query (prepared statement)', () => service.findById(key)],
    ['hydrate (TypeORM conversions)', () => service.hydrate(row)],
    ['map (toGeofenceResponse)', () => toGeofenceResponse(entity)],
    ['ETag', () => etagOf(entity.version)],
    ['serialize (JSON.stringify)', () => JSON.stringify(response)],
  ];
  console.log('\nGeofence handler steps, CPU per call:');
  for (const [name, step] of steps) {
    const perRound = [];
    for (let round = 0; round < 5; round++) {
      const before = process.cpuUsage();
      for (let i = 0; i < 20000; i++) await step();
      const cpu = process.cpuUsage(before);
      perRound.push((cpu.user + cpu.system) / 20000);
    }
    console.log(`${name.padEnd(32)} ${median(perRound).toFixed(2).padStart(7)} µs`);
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dataDir, { recursive: true, force: true }));
