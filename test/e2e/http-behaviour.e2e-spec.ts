import { Controller, Get, Post } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Public } from '../../src/access/decorators/public.decorator';
import { asBearer, createOrganization, passwordTokens, TestOrganization } from '../support/auth';
import { createTestApp, TestApp } from '../support/test-app';

@Controller('test-only')
class FailingController {
  @Get('boom')
  @Public()
  boom(): never {
    throw new Error('secret internals: password=hunter2 at /srv/app.js:42');
  }

  @Post('echo')
  @Public()
  echo(): { ok: true } {
    return { ok: true };
  }
}

const ERROR_KEYS = ['code', 'errors', 'message', 'status'];

describe('errors, parsing and cross-cutting HTTP behaviour', () => {
  let t: TestApp;
  let org: TestOrganization;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ metadata: { controllers: [FailingController] }, env: { CORS_ORIGINS: 'https://dashboard.example.test' } });
    org = await createOrganization(t, 'Platform');
    token = (await passwordTokens(t, org.email, org.password)).access_token;
  });
  afterAll(async () => t?.close());

  it('answers unknown routes with 404 route_not_found', async () => {
    for (const [method, path] of [
      ['get', '/api/v1/nowhere'],
      ['post', '/api/v1/geofences-typo'],
      ['delete', '/nothing'],
    ] as const) {
      const response = await t.http[method](path).set(asBearer(token)).expect(404);
      expect(Object.keys(response.body).sort()).toEqual(ERROR_KEYS);
      expect(response.body).toMatchObject({ status: 404, code: 'route_not_found', errors: [] });
    }
  });

  it('answers malformed JSON with 400 bad_request', async () => {
    const response = await t.http.put('/api/v1/organizations/current_organization').set(asBearer(token)).set('Content-Type', 'application/json').send('{"name": ').expect(400);
    expect(response.body).toMatchObject({ status: 400, code: 'bad_request', errors: [] });
  });

  it('answers a body over 1 MiB with 413 payload_too_large and stores nothing', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
    const response = await t.http.put('/api/v1/organizations/current_organization').set(asBearer(token)).set('Content-Type', 'application/json').send(huge).expect(413);
    expect(response.body).toMatchObject({ status: 413, code: 'payload_too_large', errors: [] });
    const current = await t.http.get('/api/v1/organizations/current_organization').set(asBearer(token)).expect(200);
    expect(current.body.name).toBe('Platform');
  });

  it('answers unexpected exceptions with 500 internal_error and no internals', async () => {
    const response = await t.http.get('/api/v1/test-only/boom').expect(500);
    expect(response.body).toEqual({ status: 500, code: 'internal_error', message: 'An unexpected error occurred', errors: [] });
    expect(response.text).not.toContain('hunter2');
    expect(response.text).not.toContain('app.js');
  });

  it('treats an empty JSON body as no body, as the official client sends it', async () => {
    await t.http.post('/api/v1/test-only/echo').set('Content-Type', 'application/json').expect(201, { ok: true });
  });

  it('refuses a JSON body that is not an object where an object is expected', async () => {
    for (const body of ['[1,2]', '"name"', 'null', '42']) {
      const response = await t.http.put('/api/v1/organizations/current_organization').set(asBearer(token)).set('Content-Type', 'application/json').send(body).expect(422);
      expect(response.body.code).toBe('validation_failed');
    }
  });

  it('accepts a trailing slash on every route', async () => {
    await t.http.get('/api/v1/version/').set(asBearer(token)).expect(200);
    await t.http.get('/api/v1/organizations/current_organization/').set(asBearer(token)).expect(200);
  });

  it('answers a bad Authorization header with 401 unauthorized in the contract shape', async () => {
    for (const header of ['Bearer', 'Bearer not.a.jwt', 'Token abc', 'Basic Zm9vOmJhcg==']) {
      const response = await t.http.get('/api/v1/version').set('Authorization', header).expect(401);
      expect(response.body).toMatchObject({ status: 401, code: 'unauthorized', errors: [] });
    }
  });

  it('sends security headers and a request id', async () => {
    const response = await t.http.get('/api/v1/version').set(asBearer(token)).expect(200);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-request-id']).toMatch(/^[\w-]+$/);
  });

  it('allows CORS from configured origins with the credential headers, and not from others', async () => {
    const preflight = await t.http
      .options('/api/v1/version')
      .set('Origin', 'https://dashboard.example.test')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization,x-api-key,x-api-email');
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://dashboard.example.test');
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase();
    for (const header of ['authorization', 'x-api-key', 'x-api-email']) expect(allowed).toContain(header);
    const foreign = await t.http.get('/api/v1/version').set(asBearer(token)).set('Origin', 'https://evil.example.test').expect(200);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('logs one JSON line per request without credentials', async () => {
    const before = t.requestLogs.length;
    await t.http.get('/api/v1/version').set(asBearer(token)).expect(200);
    await t.http
      .post('/api/v1/auth/access_tokens')
      .set('Authorization', `Basic ${Buffer.from(`${org.email}:${org.password}`).toString('base64')}`)
      .expect(201);
    const lines = t.requestLogs.slice(before);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ method: 'GET', route: '/api/v1/version', status: 200, organization_id: org.organizationId, user_id: expect.any(String) });
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'request', client: expect.any(String), request_id: expect.any(String) });
    expect(new Date(lines[0].time as string).toISOString()).toBe(lines[0].time);
    expect(typeof lines[0].duration_ms).toBe('number');
    expect(lines[1]).toMatchObject({ method: 'POST', route: '/api/v1/auth/access_tokens', status: 201 });
    const text = JSON.stringify(lines);
    expect(text).not.toContain(token);
    expect(text).not.toContain(org.password);
  });
});

describe('organization, version and health routes', () => {
  let t: TestApp;
  let org: TestOrganization;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, 'Acme');
    token = (await passwordTokens(t, org.email, org.password)).access_token;
  });
  afterAll(async () => t?.close());

  it('GET /api/v1/version answers the package version and the API version', async () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
    const response = await t.http.get('/api/v1/version').set(asBearer(token)).expect(200);
    expect(response.body).toEqual({ version: manifest.version, api_version: '1.50.1' });
    await t.http.get('/api/v1/version').expect(401);
  });

  it('GET /api/v1/organizations/current_organization answers the caller’s organization', async () => {
    const response = await t.http.get('/api/v1/organizations/current_organization').set(asBearer(token)).expect(200);
    expect(response.body).toEqual({
      id: org.organizationId,
      name: 'Acme',
      mqtt_topic_prefix: `org/${org.organizationId}`,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/),
    });
  });

  it('PUT renames the organization (ADMIN_ORG), keeps created_at and stores the change', async () => {
    const before = (await t.http.get('/api/v1/organizations/current_organization').set(asBearer(token)).expect(200)).body;
    const response = await t.http.put('/api/v1/organizations/current_organization').set(asBearer(token)).send({ name: '  Acme Indoor  ', id: 'other' }).expect(200);
    expect(response.body).toMatchObject({ id: org.organizationId, name: 'Acme Indoor', created_at: before.created_at });
    expect(response.body.updated_at >= before.updated_at).toBe(true);
    const [stored] = await t.dataSource.query(`SELECT "name" FROM "organizations" WHERE "id" = '${org.organizationId}'`);
    expect(stored.name).toBe('Acme Indoor');
    const invalid = await t.http
      .put('/api/v1/organizations/current_organization')
      .set(asBearer(token))
      .send({ name: 'x'.repeat(256) })
      .expect(422);
    expect(invalid.body.errors[0].fields).toBe('name');
  });

  it('keeps organizations apart', async () => {
    const other = await createOrganization(t, 'Other org');
    const otherToken = (await passwordTokens(t, other.email, other.password)).access_token;
    const response = await t.http.get('/api/v1/organizations/current_organization').set(asBearer(otherToken)).expect(200);
    expect(response.body).toMatchObject({ id: other.organizationId, name: 'Other org' });
  });

  it('health probes are public; ready pings the database', async () => {
    await t.http.get('/health/live').expect(200, { status: 'ok' });
    const ready = await t.http.get('/health/ready').expect(200);
    expect(ready.body.status).toBe('ok');
  });
});
